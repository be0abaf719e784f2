/**
 * fio job text of one step of a test program. Pure. The same mapping as IOPS (digest Part A 6):
 * TC -> numjobs, QD -> iodepth, direct=1, refill_buffers, norandommap + a recorded randseed,
 * blockalign = block size, group_reporting; block-size mixes as fio bssplit and LBA zones as
 * random_distribution=zoned (digest B §5.7). An HIR write burst is one step of its own (its IOPS
 * is fio's IO count / runtime of that step); the host idle between bursts is the runner's wait.
 */
import {commonGlobal, fioMs, hookLines, rwFor, wipcJobText, type ExecHooks} from './jobfile.js'
import {pointSeed} from '../plan/target.js'
import {mixAlignBytes, type PlannedPhase, type ProgramPlan, type ResolvedWorkload} from '../plan/expand.js'

export interface ProgramStepJob {
  /** "loop dv round 3 point 12/49: ..." */
  comment: string
  section: string
  workload: ResolvedWorkload
  /** time_based runtime in seconds. */
  seconds: number
  seed: number
}

/**
 * "bssplit=512/4:1024/1:..." (fio: block size / percent). A single block size is aligned to itself;
 * a mix to 4 KiB where the target's logical block allows it, else to its smallest size
 * (plan/expand.ts mixAlignBytes; the reason is on the report's parameters page).
 */
export function bssplitLine(w: ResolvedWorkload, target: ProgramPlan['target']): string[] {
  if (!w.bssplit) return [`bs=${w.blockSizeBytes}`, `blockalign=${w.blockSizeBytes}`]
  return [`bssplit=${w.bssplit.map(s => `${s.blockSizeBytes}/${s.pct}`).join(':')}`, `blockalign=${mixAlignBytes(target, w.bssplit)}`]
}

/** "random_distribution=zoned:50/5:30/15:20/80" (fio: access percent / range percent). */
export function zonesLine(w: ResolvedWorkload): string[] {
  if (!w.zones || w.access !== 'random') return []
  return [`random_distribution=zoned:${w.zones.map(z => `${z.accessPct}/${z.rangePct}`).join(':')}`]
}

/**
 * Where each thread works: random IO over the whole ActiveRange; sequential IO with several
 * threads gives each thread its own slice (offset_increment), so that they do not all stream
 * over the same LBAs.
 */
function rangeLines(plan: ProgramPlan, w: ResolvedWorkload): string[] {
  // review tests: a fill level or a span from LBA 0 instead of the ActiveRange
  const range = w.rangeBytes ?? plan.activeRangeBytes
  if (w.access === 'sequential' && w.threadCount > 1) {
    const align = w.bssplit ? Math.max(...w.bssplit.map(s => s.blockSizeBytes)) : w.blockSizeBytes!
    const slice = Math.floor(range / w.threadCount / align) * align
    return ['offset=0', `size=${slice}`, `offset_increment=${slice}`]
  }
  return ['offset=0', `size=${range}`]
}

/** Compressible data (review tests): fio fills that share of each buffer with compressible bytes. */
export function compressLines(w: ResolvedWorkload): string[] {
  return w.compressPct ? [`buffer_compress_percentage=${w.compressPct}`] : []
}

export function programJob(plan: ProgramPlan, step: ProgramStepJob, hooks?: ExecHooks): string {
  const w = step.workload
  const runtime = step.seconds
  return [
    `; pts ${plan.spec.id} (${plan.spec.revision}, ${plan.options.profile}) ${step.comment}`,
    ...commonGlobal(plan.options.ioengine, plan.target.path),
    ...rangeLines(plan, w),
    'time_based=1',
    `runtime=${fioMs(runtime)}`,
    'norandommap=1',
    'randrepeat=0',
    `randseed=${step.seed}`,
    '',
    `[${step.section}]`,
    ...rwFor(w.readPct, w.access),
    ...bssplitLine(w, plan.target),
    ...zonesLine(w),
    ...compressLines(w),
    `iodepth=${w.queueDepth}`,
    `numjobs=${w.threadCount}`,
    ...hookLines(hooks),
    '',
  ].join('\n')
}

/** One piece of a fill pass (review test fill): SEQ writes of exactly [offset, offset + size), not time-based. */
export function fillPieceJob(plan: ProgramPlan, phase: Extract<PlannedPhase, {kind: 'fill'}>, pass: number, k: number, seed: number, hooks?: ExecHooks): string {
  const w = phase.workload
  const piece = phase.pieces[k]
  return [
    `; pts ${plan.spec.id} (${plan.spec.revision}, ${plan.options.profile}) ${phase.id} pass ${pass} piece ${k + 1}/${phase.pieces.length}: ${w.label} QD ${w.queueDepth}, bytes ${piece.offsetBytes}-${piece.offsetBytes + piece.sizeBytes}`,
    ...commonGlobal(plan.options.ioengine, plan.target.path),
    `offset=${piece.offsetBytes}`,
    `size=${piece.sizeBytes}`,
    `randseed=${seed}`,
    '',
    `[${phase.id}]`,
    ...rwFor(w.readPct, w.access),
    ...bssplitLine(w, plan.target),
    `iodepth=${w.queueDepth}`,
    'numjobs=1',
    ...hookLines(hooks),
    '',
  ].join('\n')
}

/**
 * One sample of a series whose threads stream sequentially (plan/stream.ts): one job section per
 * thread, starting where that thread's stream ended in the sample before and running to the end of
 * its slice (fio wraps a time_based job to its own offset), reported per job so that each
 * thread's bytes are in the output. `starts`: each thread's absolute start offset.
 */
export function streamSampleJob(plan: ProgramPlan, phase: Extract<PlannedPhase, {kind: 'series'}>, sample: number, starts: readonly number[], seed: number, hooks?: ExecHooks): string {
  const w = phase.workload
  const slices = phase.stream!.slices
  const lines = [
    `; pts ${plan.spec.id} (${plan.spec.revision}, ${plan.options.profile}) ${seriesSampleComment(phase, sample)}; each thread continues its stream where the sample before ended`,
    ...commonGlobal(plan.options.ioengine, plan.target.path, true),
    'time_based=1',
    `runtime=${fioMs(phase.sampleSeconds)}`,
    'norandommap=1',
    'randrepeat=0',
    `randseed=${seed}`,
    ...rwFor(w.readPct, w.access),
    ...bssplitLine(w, plan.target),
    `iodepth=${w.queueDepth}`,
    'numjobs=1',
    '',
  ]
  slices.forEach((s, k) => {
    lines.push(`[${phase.id}-t${k + 1}]`, `offset=${starts[k]}`, `size=${s.offsetBytes + s.sizeBytes - starts[k]}`, ...hookLines(hooks), '')
  })
  return lines.join('\n')
}

/** "group-1 sample 3/480: SEQ 1024KiB W TC 4/QD 32" (the comment of a series sample's job; 0-based sample). */
export function seriesSampleComment(phase: Extract<PlannedPhase, {kind: 'series'}>, sample: number): string {
  const w = phase.workload
  return `${phase.id} sample ${sample + 1}/${phase.maxSamples}: ${w.label} TC ${w.threadCount}/QD ${w.queueDepth}`
}

/** The job of one series sample as the run writes it: a continuous stream (per thread) or one job over the ActiveRange. */
export function seriesSampleJob(plan: ProgramPlan, phase: Extract<PlannedPhase, {kind: 'series'}>, sample: number, starts: readonly number[] | null, seed: number, hooks?: ExecHooks): string {
  if (phase.stream) return streamSampleJob(plan, phase, sample, starts!, seed, hooks)
  return programJob(plan, {comment: seriesSampleComment(phase, sample), section: phase.id, workload: phase.workload, seconds: phase.sampleSeconds, seed}, hooks)
}

/** WIPC of a program phase: SEQ writes of exactly totalBytes, one section per thread over its own slice (as IOPS). */
export function programWipcJob(plan: ProgramPlan, phase: Extract<PlannedPhase, {kind: 'wipc'}>, seed: number, hooks?: ExecHooks): string {
  return wipcJobText({
    header: `pts ${plan.spec.id} (${plan.spec.revision}, ${plan.options.profile}) ${phase.id}`, ioengine: plan.options.ioengine, targetPath: plan.target.path,
    blockSizeBytes: phase.blockSizeBytes, totalBytes: phase.totalBytes, queueDepth: phase.queueDepth, seed, slices: phase.slices, section: phase.id,
  }, hooks)
}

/** Seed of a program step: derived from the run seed, the phase's position and the step (recorded with every job). */
export function stepSeed(runSeed: number, phaseIndex: number, round: number, index: number): number {
  return pointSeed(runSeed, phaseIndex * 100_000 + round, index)
}

/** The comment line of HIR burst k (0-based) of a bursts phase: the same text in the run's job file and in `pts plan --json`. */
export function burstComment(phase: Extract<PlannedPhase, {kind: 'bursts'}>, k: number): string {
  const w = phase.workload
  return `${phase.id} burst ${k + 1}/${phase.repeats}: Wait State ${phase.waitState}, ${w.label} TC ${w.threadCount}/QD ${w.queueDepth}, then ${+phase.idleSeconds.toFixed(6)} s host idle`
}
