/**
 * Continuous sequential streams across the one-minute samples of a series phase (XSR access
 * groups 1 and 3, WSAT's VOD and meta data workloads). Pure.
 *
 * Each of the TC threads owns one slice of the ActiveRange. Sample 1 starts every thread at the
 * start of its slice; every later sample starts each thread where that thread's stream ended in the
 * sample before, so that over the series each slice is written as one stream and not rewritten from
 * its first LBA every minute.
 *
 * fio's semantics fix what "where it ended" is (fio io_u.c, get_next_seq_offset / fill_io_u):
 * - one fio job per thread (one section each, numjobs=1), with `offset` = the thread's start and
 *   `size` = the rest of its slice; the thread's bytes come from fio's per-job output
 *   (group_reporting=0), so no thread's position is inferred from a group total;
 * - fio keeps one sequential position per direction (last_pos[read], last_pos[write]), both
 *   starting at `offset`: in a mixed workload (VOD R/W 90/10, meta 50/50) the stream that leads is
 *   continued, i.e. the thread advances by max(read bytes, write bytes); the slower direction then
 *   never rewrites what it wrote in the sample before;
 * - a time_based job that reaches the end of its region wraps to its own `offset`, not to the start
 *   of the slice (fio cannot start a job inside its region). A thread that reaches the end of its
 *   slice within a sample therefore rewrites part of that sample's own first LBAs, and its next
 *   sample starts at the start of its slice again: no LBA of the slice is skipped, and each pass
 *   over the slice has at most one such jump.
 */

export interface StreamSlice {
  /** First byte of the thread's slice on the target. @integer @minimum 0 */
  offsetBytes: number
  /** @integer @minimum 1 */
  sizeBytes: number
}

/** Equal slices of the ActiveRange, aligned to `alignBytes` (the same slices as fio offset_increment gives the other sequential steps). */
export function streamSlices(activeRangeBytes: number, threads: number, alignBytes: number): StreamSlice[] {
  const size = Math.floor(activeRangeBytes / threads / alignBytes) * alignBytes
  return Array.from({length: threads}, (_, k) => ({offsetBytes: k * size, sizeBytes: size}))
}

/** How far a thread's stream moved in one sample: its leading direction's bytes (fio keeps a position per direction). */
export function streamAdvance(readBytes: number, writeBytes: number): number {
  return Math.max(readBytes, writeBytes)
}

/** Sample 1: every thread at the start of its slice. */
export function firstStreamStarts(slices: readonly StreamSlice[]): number[] {
  return slices.map(s => s.offsetBytes)
}

/**
 * Where each thread starts the next sample, from where it started this one (absolute offsets) and
 * how far it advanced: start + advance, or the start of its slice when the stream reached (or
 * wrapped at) the end of the slice.
 */
export function nextStreamStarts(slices: readonly StreamSlice[], starts: readonly number[], advanced: readonly number[]): number[] {
  return slices.map((s, k) => {
    const next = starts[k] + advanced[k]
    return next >= s.offsetBytes + s.sizeBytes ? s.offsetBytes : next
  })
}

/** Whether the thread's stream reached the end of its slice within the sample (fio then wrapped it to the sample's start). */
export function streamWrapped(slice: StreamSlice, start: number, advanced: number): boolean {
  return start + advanced > slice.offsetBytes + slice.sizeBytes
}
