/** What `pts run`, `pts plan`, `pts demo` and `pts resume` share: spec, options, target facts, purge choice and the plan. */
import {randomInt} from 'node:crypto'
import {UsageError} from '../errors.js'
import {parseTarget, resolveTarget, refusals, type ResolvedTarget} from '../device/target.js'
import {choosePurge, PURGE_METHODS, type PurgeChoice, type PurgeRequest} from '../device/purge.js'
import {loadSpec} from '../spec/load.js'
import {expandPlan, PlanError, type Plan, type RunOptions, type TargetInfo} from '../spec/expand.js'
import type {TestSpec} from '../spec/types.js'
import {parseSizeFlag, resolveOptions, timeScaleOf, type FlagValues} from './options.js'

export interface Prepared {
  plan: Plan
  target: ResolvedTarget
  /** The purge and its exact commands (null for a file target: nothing to purge). */
  purge: PurgeChoice | null
  /** Why the safety gate would refuse (empty = would proceed). */
  refusals: string[]
}

export const PURGE_REQUESTS = ['auto', ...PURGE_METHODS] as const

const FILE_PURGE = {method: 'none', deviation: 'no purge: a regular file cannot be purged (digest Part A 8)'}

export function purgeFor(target: ResolvedTarget, requested: string | undefined): PurgeChoice | null {
  if (target.kind === 'file') {
    if (requested && requested !== 'auto' && requested !== 'none') throw new UsageError(`--purge ${requested} does not apply to a regular file`)
    return null
  }
  if (requested && !(PURGE_REQUESTS as readonly string[]).includes(requested)) throw new UsageError(`--purge ${requested}: unknown purge method`, `known: ${PURGE_REQUESTS.join(', ')}`)
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

/** IOPS flags with --time-scale applied: it scales the WIPC multiple, IOPS's only fixed-volume phase. */
export function iopsFlags<F extends FlagValues & {'time-scale'?: string}>(flags: F): F {
  return {...flags, 'wipc-multiple': String(Number(flags['wipc-multiple'] ?? '2') * timeScaleOf(flags['time-scale']))}
}

/** Pure given the gathered facts: the plan for this spec, options, target and purge. */
export function planFor(spec: TestSpec, options: RunOptions, target: ResolvedTarget, purge: PurgeChoice | null): Plan {
  try {
    return expandPlan(spec, options, targetInfo(target, purge))
  } catch (error) {
    if (error instanceof PlanError) throw new UsageError(error.message)
    throw error
  }
}

export function prepare(test: string, flags: FlagValues): Prepared {
  const spec = loadSpec(test, flags.revision)
  const options = resolveOptions(flags, spec, randomInt(1, 2 ** 31))
  const parsed = parseTarget(flags.device)
  const sizeBytes = parseSizeFlag(flags.size)
  if (parsed.kind === 'block' && sizeBytes !== null) throw new UsageError('--size applies only to file: targets; a block device is used whole')
  const target = resolveTarget(parsed, sizeBytes, {allowPartition: flags['allow-partition'] === true})
  const purge = purgeFor(target, flags.purge)
  const plan = planFor(spec, options, target, purge)
  const gate = refusals(target, flags['yes-destroy-data'])
  // A purge that cannot be done stops the run before anything is written.
  if (purge?.refused) gate.push(`purge: ${purge.refused}`)
  return {plan, target, purge, refusals: gate}
}
