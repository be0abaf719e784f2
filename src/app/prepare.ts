/** What `pts run`, `pts plan`, `pts demo` and `pts resume` share for every test: definition, options, target facts, purge choice and the plan. */
import {randomInt} from 'node:crypto'
import {PlanError, UsageError} from '../errors.js'
import * as M from '../messages.js'
import {parseTarget, resolveTarget, refusals, type ResolvedTarget} from '../device/target.js'
import {choosePurge, PURGE_METHODS, type PurgeChoice, type PurgeRequest} from '../device/purge-plan.js'
import {loadProgramSpec} from '../store/spec-files.js'
import type {TargetInfo} from '../plan/target.js'
import {expandProgram, type ProgramOptions, type ProgramPlan} from '../plan/expand.js'
import type {ProgramSpec} from '../model/definition.js'
import {parseSizeBytes} from '../units.js'
import {commonOptions, num, parseSizeFlag, runMetadata, timeScaleOf, type RunFlagValues} from './flags.js'
import type {RunMetadata} from '../model/manifest.js'

export interface Prepared {
  plan: ProgramPlan
  target: ResolvedTarget
  /** The purge and its exact commands (null for a file target: nothing to purge). */
  purge: PurgeChoice | null
  /** Why the safety gate would refuse (empty = would proceed). */
  refusals: string[]
  /** --operator, --vendor, --notes (stored in the manifest, shown in the report). */
  metadata?: RunMetadata
  /** --health-interval: seconds between drive temperature samples (undefined: the default, 60 s). */
  healthIntervalSec?: number
}

export const PURGE_REQUESTS = ['auto', ...PURGE_METHODS] as const

const FILE_PURGE = {method: 'none', deviation: 'no purge: a regular file cannot be purged'}

export function purgeFor(target: ResolvedTarget, requested: string | undefined): PurgeChoice | null {
  if (target.kind === 'file') {
    if (requested && requested !== 'auto' && requested !== 'none') throw new UsageError(M.purge.notForFile(requested))
    return null
  }
  if (requested && !(PURGE_REQUESTS as readonly string[]).includes(requested)) throw new UsageError(M.purge.unknownMethod(requested, PURGE_REQUESTS))
  return choosePurge(target.device!.purgeFacts, (requested ?? 'auto') as PurgeRequest)
}

/** What plan expansion needs of a target and its purge (every test). */
export function targetInfo(target: ResolvedTarget, purge: PurgeChoice | null): TargetInfo {
  return {
    kind: target.kind, path: target.path, sizeBytes: target.sizeBytes, logicalSectorBytes: target.identity.logicalSectorBytes,
    purge: purge ? {method: purge.method, deviation: purge.deviation} : FILE_PURGE,
    nonCompliant: target.nonCompliant,
  }
}

/** Flags -> validated run options for this test definition. */
export function runOptions(f: RunFlagValues, spec: ProgramSpec, seed: number): ProgramOptions {
  const written = f['max-written'] === undefined ? null : parseSizeBytes(f['max-written'])
  if (f['max-written'] !== undefined && (written === null || written <= 0)) throw new UsageError(M.usage.maxWrittenNotASize(f['max-written']))
  const common = commonOptions(f, spec, seed)
  const onNoSteadyState = (f['on-no-steady-state'] ?? 'stop') as 'stop' | 'continue'
  const roundCap = num('round-cap', f['round-cap'], {integer: true, min: 1}) ?? null
  if (roundCap !== null && onNoSteadyState !== 'continue') throw new UsageError(M.usage.roundCapNeedsContinue)
  if (roundCap !== null && roundCap < common.maxRounds) throw new UsageError(M.usage.roundCapBelowMaxRounds(roundCap, common.maxRounds))
  const hasWipc = spec.phases.some(p => p.kind === 'wipc')
  const wipcMultiple = num('wipc-multiple', f['wipc-multiple'], {minExclusive: 0}) ?? null
  if (wipcMultiple !== null && !hasWipc) throw new UsageError(M.usage.noWipcPhase(spec.id))
  if (onNoSteadyState === 'continue' && !spec.phases.some(p => p.kind === 'loop')) throw new UsageError(M.usage.noSteadyStateLoop(spec.id))
  return {
    ...common,
    onNoSteadyState,
    roundCap: roundCap ?? (onNoSteadyState === 'continue' ? Math.max(common.maxRounds, DEFAULT_ROUND_CAP) : common.maxRounds),
    wipcMultiple,
    timeScale: timeScaleOf(f['time-scale']),
    workload: f.workload ?? null,
    ceilingMs: num('ceiling-ms', f['ceiling-ms'], {minExclusive: 0}) ?? null,
    maxSeconds: num('max-seconds', f['max-seconds'], {minExclusive: 0}) ?? null,
    maxWrittenBytes: written,
    steadyStateExit: f['steady-state-exit'] === true,
    // without the flag the definition decides (the review tests always have them)
    ...(f['per-second'] === true ? {perSecond: true} : {}),
  }
}

/** Rounds a loop may run with --on-no-steady-state continue when the operator gives no --round-cap. */
export const DEFAULT_ROUND_CAP = 100

/** Pure given the gathered facts: the plan for this definition, options, target and purge. */
export function planFor(spec: ProgramSpec, options: ProgramOptions, target: ResolvedTarget, purge: PurgeChoice | null): ProgramPlan {
  try {
    return expandProgram(spec, options, targetInfo(target, purge))
  } catch (error) {
    if (error instanceof PlanError) throw new UsageError(error)
    throw error
  }
}

export function prepare(test: string, flags: RunFlagValues): Prepared {
  const spec = loadProgramSpec(test, flags.revision)
  const metadata = runMetadata(flags)
  const options = runOptions(flags, spec, randomInt(1, 2 ** 31))
  const parsed = parseTarget(flags.device)
  const sizeBytes = parseSizeFlag(flags.size)
  if (parsed.kind === 'block' && sizeBytes !== null) throw new UsageError(M.usage.sizeOnBlockDevice)
  const target = resolveTarget(parsed, sizeBytes, {allowPartition: flags['allow-partition'] === true})
  const purge = purgeFor(target, flags.purge)
  const plan = planFor(spec, options, target, purge)
  const gate = refusals(target, flags['yes-destroy-data'])
  // A purge that cannot be done stops the run before anything is written.
  if (purge?.refused) gate.push(`purge: ${purge.refused}`)
  const healthIntervalSec = num('health-interval', flags['health-interval'], {minExclusive: 0})
  return {plan, target, purge, refusals: gate, ...(metadata ? {metadata} : {}), ...(healthIntervalSec !== undefined ? {healthIntervalSec} : {})}
}
