/** `pts run|plan <program test>`: options, plan, plan text and execution of the test programs (TP, LAT, WSAT, HIR, XSR, CBW/ECW, DIRTH). */
import {randomInt} from 'node:crypto'
import {resolve} from 'node:path'
import type {KeyObject} from 'node:crypto'
import {Flags} from '@oclif/core'
import {UnsafeTargetError, UsageError} from '../errors.js'
import {parseTarget, prepareFileTarget, refusals, resolveTarget, type ResolvedTarget} from '../device/target.js'
import type {PurgeChoice} from '../device/purge.js'
import {findFio} from '../engine/fio.js'
import {hostFacts, toolVersion} from '../host.js'
import {Progress} from '../progress.js'
import {expandProgram, type ProgramOptions, type ProgramPlan} from '../program/expand.js'
import {programJob, programWipcJob, stepSeed} from '../program/jobs.js'
import {runProgram, type ProgramSummary} from '../program/run.js'
import type {ProgramSpec} from '../program/types.js'
import {PlanError} from '../spec/expand.js'
import {loadProgramSpec} from '../spec/load.js'
import {formatBytes, formatDecimalGB, formatDuration, parseSizeBytes} from '../units.js'
import {commonOptions, num, parseSizeFlag, timeScaleOf, type FlagValues} from './options.js'
import {purgeFor, targetInfo} from './prepare.js'
import {reportAfterRun, type RunReport} from './execute.js'

/** Flags of the test programs (accepted by pts run / plan for every test; IOPS uses --time-scale only). */
export const programFlags = {
  'time-scale': Flags.string({description: 'scale every fixed-duration phase (WSAT/HIR/XSR phases, pre-writes, histogram runs) and capacity multiple (WIPC, WSAT 4x) by 0 < f <= 1, for quick looks and tests; the run is then non-compliant', default: '1'}),
  workload: Flags.string({description: 'WSAT: the workload (rnd4k-w required; PTS 2.0 optional oltp, vod, meta, cbw); DIRTH: the access pattern (default oltp = RND 8KiB 65/35); see pts plan'}),
  'ceiling-ms': Flags.string({description: 'CBW/DIRTH: response-time ceiling for the MaxIOPS operating point, ms (operator choice; default 5)'}),
  'max-seconds': Flags.string({description: 'WSAT (and every series phase): operator limit in seconds (recorded as what ended the phase)'}),
  'max-written': Flags.string({description: 'WSAT (and every series phase): operator limit of bytes written, e.g. 2TB or 512GiB'}),
  'steady-state-exit': Flags.boolean({description: 'WSAT: stop early at steady state (optional in the spec)', default: false}),
}

export interface ProgramFlagValues extends FlagValues {
  'time-scale'?: string
  workload?: string
  'ceiling-ms'?: string
  'max-seconds'?: string
  'max-written'?: string
  'steady-state-exit'?: boolean
}

export interface PreparedProgram {
  plan: ProgramPlan
  target: ResolvedTarget
  purge: PurgeChoice | null
  refusals: string[]
}

export function programOptions(f: ProgramFlagValues, spec: ProgramSpec, seed: number): ProgramOptions {
  const written = f['max-written'] === undefined ? null : parseSizeBytes(f['max-written'])
  if (f['max-written'] !== undefined && (written === null || written <= 0)) throw new UsageError(`--max-written ${f['max-written']}: expected a size such as 2TB or 512GiB`)
  return {
    ...commonOptions(f, spec, seed),
    timeScale: timeScaleOf(f['time-scale']),
    workload: f.workload ?? null,
    ceilingMs: num('ceiling-ms', f['ceiling-ms'], {minExclusive: 0}) ?? null,
    maxSeconds: num('max-seconds', f['max-seconds'], {minExclusive: 0}) ?? null,
    maxWrittenBytes: written,
    steadyStateExit: f['steady-state-exit'] === true,
  }
}

export function programPlanFor(spec: ProgramSpec, options: ProgramOptions, target: ResolvedTarget, purge: PurgeChoice | null): ProgramPlan {
  try {
    return expandProgram(spec, options, targetInfo(target, purge))
  } catch (error) {
    if (error instanceof PlanError) throw new UsageError(error.message)
    throw error
  }
}

export function prepareProgram(test: string, flags: ProgramFlagValues): PreparedProgram {
  const spec = loadProgramSpec(test, flags.revision)
  if (flags['on-no-steady-state'] === 'continue') throw new UsageError(`--on-no-steady-state continue is supported by the IOPS test only`)
  if (flags['wipc-multiple'] !== '2') throw new UsageError(`--wipc-multiple applies to the IOPS test; for ${test} use --time-scale (it scales WIPC and every fixed phase)`)
  const options = programOptions(flags, spec, randomInt(1, 2 ** 31))
  const parsed = parseTarget(flags.device)
  const sizeBytes = parseSizeFlag(flags.size)
  if (parsed.kind === 'block' && sizeBytes !== null) throw new UsageError('--size applies only to file: targets; a block device is used whole')
  const target = resolveTarget(parsed, sizeBytes, {allowPartition: flags['allow-partition'] === true})
  const purge = purgeFor(target, flags.purge)
  const plan = programPlanFor(spec, options, target, purge)
  const gate = refusals(target, flags['yes-destroy-data'])
  if (purge?.refused) gate.push(`purge: ${purge.refused}`)
  return {plan, target, purge, refusals: gate}
}

/** Human text of a program plan: every phase with its timeline, and the minimum and maximum duration. Pure. */
export function programPlanText(plan: ProgramPlan, targetLabel: string, refusals: string[]): string {
  const o = plan.options
  const s = plan.spec
  const lines = [
    `PTS ${s.title} test (${s.subtitle}), revision ${s.revision}, profile ${o.profile} (${s.clause})`,
    `Target: ${targetLabel}, ${formatBytes(plan.target.sizeBytes)} (${formatDecimalGB(plan.target.sizeBytes)})`,
    `Safety: ${refusals.length === 0 ? 'would proceed' : `would REFUSE:\n${refusals.map(r => `  - ${r}`).join('\n')}`}`,
    `Compliance: ${plan.compliance.compliant ? 'compliant' : `NON-COMPLIANT: ${plan.compliance.reasons.join('; ')}`}`,
    `Conditions: ActiveRange ${plan.profile.activeRangePct}% (${formatBytes(plan.activeRangeBytes)}), write cache ${plan.profile.writeCache}, TC ${o.threadCount}/QD ${o.queueDepth} unless a phase fixes its own, data pattern random, ioengine ${o.ioengine}, time scale ${o.timeScale}${plan.selectedWorkload ? `, workload ${plan.selectedWorkload.key}: ${plan.selectedWorkload.label}` : ''}`,
    '',
    'Timeline:',
  ]
  plan.timeline.forEach((t, i) => {
    const d = t.minSec === t.maxSec ? formatDuration(t.minSec) : `${formatDuration(t.minSec)} to ${formatDuration(t.maxSec)}`
    lines.push(`  ${String(i + 1).padStart(2)}. ${t.title} [${t.phase}]: ${t.detail}${t.maxSec > 0 ? ` (${d})` : ''}`)
  })
  lines.push('', `Duration: minimum ${formatDuration(plan.durations.minSec)}, maximum ${formatDuration(plan.durations.maxSec)} (plus purges and WIPC, which depend on the device)`)
  lines.push('', 'Parameters (source: spec, implementation-derived or open; digest §0):')
  for (const p of s.parameters) lines.push(`  - ${p.name}: ${p.value} [${p.source}]${p.note ? ` ${p.note}` : ''}`)
  return lines.join('\n')
}

/** Job texts of the first step of every phase (pts plan --json). */
export function programPlanJobs(plan: ProgramPlan): Record<string, string> {
  const jobs: Record<string, string> = {}
  plan.phases.forEach((ph, pi) => {
    // the seeds the run uses: round 1 point 1 of a loop, the first (or only) step of every other phase
    const seed = stepSeed(plan.options.seed, pi, ph.kind === 'loop' ? 1 : 0, 0)
    if (ph.kind === 'wipc') jobs[ph.id] = programWipcJob(plan, ph, seed)
    if (ph.kind === 'loop') jobs[ph.id] = programJob(plan, {comment: `${ph.id} round 1 point 1: ${ph.points[0].label}`, section: ph.points[0].id, workload: ph.points[0], seconds: ph.pointSeconds, seed})
    if (ph.kind === 'histogram') jobs[ph.id] = programJob(plan, {comment: `${ph.id}`, section: ph.id, workload: ph.workload, seconds: ph.seconds, seed})
    if (ph.kind === 'series') jobs[ph.id] = programJob(plan, {comment: `${ph.id} sample 1`, section: ph.id, workload: ph.workload, seconds: ph.sampleSeconds, seed})
    if (ph.kind === 'bursts') jobs[ph.id] = programJob(plan, {comment: `${ph.id}`, section: ph.id, workload: ph.workload, seconds: 0, seed, bursts: {burstSeconds: ph.burstSeconds, idleSeconds: ph.idleSeconds, repeats: ph.repeats, logAvgMsec: ph.logAvgMsec, iopsLogPrefix: '<run>/raw/bursts'}})
  })
  return jobs
}

export async function executeProgram(p: PreparedProgram, runDir: string, argv: string[], quiet: boolean, opts: {signKey?: KeyObject} = {}): Promise<ProgramSummary & {report: RunReport}> {
  const fio = findFio()
  if (p.refusals.length > 0) throw new UnsafeTargetError(p.target.kind === 'file' ? `file:${p.target.path}` : p.target.path, p.refusals, 'nothing was written')
  prepareFileTarget(p.target)
  const dir = resolve(runDir)
  const summary = await runProgram({
    plan: p.plan, target: p.target, purge: p.purge, fio, runId: dir.split('/').pop()!, runDir: dir, argv, toolVersion: toolVersion(), host: hostFacts(),
    progress: new Progress(process.stderr, quiet, 10), signKey: opts.signKey,
  })
  return {...summary, report: await reportAfterRun(dir, quiet)}
}

export function programSummaryText(s: ProgramSummary & {report: RunReport}): string {
  return [
    `Run ${s.runId}: ${s.test} ${s.revision} ${s.profile}, ${s.status}`,
    ...s.phases.map(p => `  ${p.id} (${p.kind}): ${p.detail}`),
    `Compliance: ${s.compliant ? 'compliant' : `NON-COMPLIANT (${s.nonCompliantReasons.join('; ')})`}`,
    `Results: ${s.files.results}`,
    ...(s.report.error ? [`Report: FAILED: ${s.report.error}`] : s.report.files.map(f => `Report: ${f}`)),
  ].join('\n')
}

