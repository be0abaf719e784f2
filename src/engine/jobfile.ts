/**
 * fio job text: the lines every job shares (program/jobs.ts builds each step's job from them). Pure.
 * Mapping per digest Part A 6: TC -> numjobs, QD -> iodepth; direct=1 always; random data on
 * every write (refill_buffers); norandommap + a recorded randseed; blockalign = block size;
 * ActiveRange through offset/size; group_reporting per test point.
 */

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

/**
 * The [global] lines every pts job shares (IOPS and the test programs). `perJob`: fio reports
 * every job section on its own (group_reporting=0), for steps whose threads must be accounted one
 * by one (continuous sequential streams); engine/parse.ts adds the jobs up as fio's group report would.
 */
export function commonGlobal(ioengine: string, targetPath: string, perJob = false, device = false): string[] {
  return [
    '[global]',
    `ioengine=${ioengine}`,
    'direct=1',
    `filename=${fioEscapeFilename(targetPath)}`,
    // A block device target must exist: without this a missing /dev/disk/by-id/ link would become a regular file that fio fills and calls a success.
    ...(device ? ['allow_file_create=0'] : []),
    'refill_buffers=1',
    `group_reporting=${perJob ? 0 : 1}`,
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

/** The WIPC job text of any test: one section per thread slice (offset, size, io_size), SEQ writes. */
export function wipcJobText(w: {header: string; ioengine: string; targetPath: string; device?: boolean; blockSizeBytes: number; totalBytes: number; queueDepth: number; seed: number
  slices: ReadonlyArray<{offsetBytes: number; sizeBytes: number; ioSizeBytes: number}>; section: string}, hooks?: ExecHooks): string {
  const lines = [
    `; ${w.header}: SEQ ${w.blockSizeBytes / 1024}KiB writes, ${w.totalBytes} bytes in total`,
    ...commonGlobal(w.ioengine, w.targetPath, false, w.device),
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

/**
 * The name of a step's per-second logs (`pts run --per-second`): its run-relative path without
 * raw/ and with dots for slashes ("03-loop.round-01.05-p05"), unique in the run; fio writes
 * "<name>_iops.<job>.log" etc. in its working directory.
 */
export function perSecondPrefix(rel: string): string {
  return rel.replace(/^raw\//, '').replace(/\//g, '.')
}

/**
 * The lines that make fio write per-second logs of every job section: IOPS, bandwidth and latency
 * (total, completion, submission) averaged over 1-second windows, and the completion-latency
 * histogram of each second (its highest bucket is the second's maximum). Not log_max_value: it
 * would turn every log of the job into maxima.
 */
export function perSecondLines(prefix: string): string[] {
  return [`write_iops_log=${prefix}`, `write_bw_log=${prefix}`, `write_lat_log=${prefix}`, 'log_avg_msec=1000', `write_hist_log=${prefix}`, 'log_hist_msec=1000']
}

/** A job text with the per-second log lines at the end of its [global] section (so every job section writes them). */
export function perSecondJob(jobText: string, prefix: string): string {
  const lines = jobText.split('\n')
  const g = lines.indexOf('[global]')
  if (g < 0) throw new Error('perSecondJob: the job has no [global] section')
  let end = lines.findIndex((l, i) => i > g && (l.trim() === '' || l.startsWith('[')))
  if (end < 0) end = lines.length
  return [...lines.slice(0, end), ...perSecondLines(prefix), ...lines.slice(end)].join('\n')
}
