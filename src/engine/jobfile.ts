/**
 * fio job text generation. Pure: (plan, point, round) -> job text.
 * Mapping per digest Part A 6: TC -> numjobs, QD -> iodepth; direct=1 always; random data on
 * every write (refill_buffers); norandommap + a recorded randseed; blockalign = block size;
 * ActiveRange through offset/size; group_reporting per test point.
 */
import {pointSeed, type Plan, type TestPoint} from '../spec/expand.js'

/** Hooks run by fio around a job's I/O (used to sequence points with no idle gap). */
export interface ExecHooks {
  prerun?: string
  postrun?: string
}

export function rwFor(readPct: number, access: 'random' | 'sequential'): string[] {
  const r = access === 'random'
  if (readPct === 100) return [`rw=${r ? 'randread' : 'read'}`]
  if (readPct === 0) return [`rw=${r ? 'randwrite' : 'write'}`]
  return [`rw=${r ? 'randrw' : 'rw'}`, `rwmixread=${readPct}`]
}

function globalSection(plan: Plan): string[] {
  return commonGlobal(plan.options.ioengine, plan.target.path)
}

/** The [global] lines every pts job shares (IOPS and the test programs). */
export function commonGlobal(ioengine: string, targetPath: string): string[] {
  return [
    '[global]',
    `ioengine=${ioengine}`,
    'direct=1',
    `filename=${fioEscapeFilename(targetPath)}`,
    'refill_buffers=1',
    'group_reporting=1',
    // "mixed" adds read+write statistics over all IOs (IO-weighted latency, 5 9s over all IOs; digest Part A 4).
    'unified_rw_reporting=both',
    'lat_percentiles=1',
    'percentile_list=99:99.9:99.99:99.999',
  ]
}

/** fio treats ':' in filename as a separator of several files; escape it. */
export function fioEscapeFilename(path: string): string {
  return path.replace(/:/g, '\\:')
}

export function hookLines(hooks?: ExecHooks): string[] {
  const lines: string[] = []
  if (hooks?.prerun) lines.push(`exec_prerun=${hooks.prerun}`)
  if (hooks?.postrun) lines.push(`exec_postrun=${hooks.postrun}`)
  return lines
}

/** fio time value in milliseconds (fio accepts the "ms" suffix), so sub-second points work. */
export function fioMs(sec: number): string {
  return `${Math.max(1, Math.round(sec * 1000))}ms`
}

/** Job text of one test point of one round. */
export function pointJob(plan: Plan, point: TestPoint, round: number, hooks?: ExecHooks): string {
  const {options, spec} = plan
  return [
    `; pts ${spec.id} (${spec.revision}, ${options.profile}) round ${round} point ${point.index + 1}/${plan.points.length}: ${point.label}`,
    ...globalSection(plan),
    'offset=0',
    `size=${plan.activeRangeBytes}`,
    'time_based=1',
    `runtime=${fioMs(options.pointSeconds)}`,
    'norandommap=1',
    'randrepeat=0',
    `randseed=${pointSeed(options.seed, round, point.index)}`,
    '',
    `[${point.id}]`,
    ...rwFor(point.readPct, spec.stimulus.access),
    `bs=${point.blockSizeBytes}`,
    `blockalign=${point.blockSizeBytes}`,
    `iodepth=${options.queueDepth}`,
    `numjobs=${options.threadCount}`,
    ...hookLines(hooks),
    '',
  ].join('\n')
}

/**
 * Job text of the workload independent preconditioning: SEQ writes of exactly
 * wipcMultiple x the PC ActiveRange in total (digest Part A 9), one section per thread,
 * each writing its own slice (io_size wraps the slice).
 */
export function wipcJob(plan: Plan, hooks?: ExecHooks): string {
  return wipcJobText({
    header: `pts ${plan.spec.id} (${plan.spec.revision}, ${plan.options.profile}) WIPC`, ioengine: plan.options.ioengine, targetPath: plan.target.path,
    blockSizeBytes: plan.wipc.blockSizeBytes, totalBytes: plan.wipc.totalBytes, queueDepth: plan.options.queueDepth,
    seed: pointSeed(plan.options.seed, 0, 0), slices: plan.wipc.slices, section: 'wipc',
  }, hooks)
}

/** The WIPC job text of any test: one section per thread slice (offset, size, io_size), SEQ writes. */
export function wipcJobText(w: {header: string; ioengine: string; targetPath: string; blockSizeBytes: number; totalBytes: number; queueDepth: number; seed: number
  slices: ReadonlyArray<{offsetBytes: number; sizeBytes: number; ioSizeBytes: number}>; section: string}, hooks?: ExecHooks): string {
  const lines = [
    `; ${w.header}: SEQ ${w.blockSizeBytes / 1024}KiB writes, ${w.totalBytes} bytes in total`,
    ...commonGlobal(w.ioengine, w.targetPath),
    'rw=write',
    `bs=${w.blockSizeBytes}`,
    `iodepth=${w.queueDepth}`,
    `randseed=${w.seed}`,
    '',
  ]
  w.slices.forEach((s, i) => {
    lines.push(`[${w.section}-t${i + 1}]`, `offset=${s.offsetBytes}`, `size=${s.sizeBytes}`, `io_size=${s.ioSizeBytes}`, ...hookLines(hooks), '')
  })
  return lines.join('\n')
}

/** The job text without exec hooks: what an operator would run by hand to repeat the point. */
export function stripHooks(jobText: string): string {
  return jobText.split('\n').filter(l => !/^exec_(pre|post)run=/.test(l)).join('\n')
}
