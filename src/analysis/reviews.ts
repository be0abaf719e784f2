/**
 * Derivations of the review tests (specs/reviews/; not part of the SNIA PTS) from stored steps.
 * Pure. fob-ss: the FOB and steady-state point of each workload and QD side by side with their
 * ratio; consistency: statistics of the per-second values and when the drive reached its floor.
 */
import type {PhaseResult, StepResult} from '../model/results.js'

export interface FobSsRow {
  readPct: number
  blockSizeBytes: number | null
  threadCount: number
  queueDepth: number
  fob: StepResult | null
  ss: StepResult | null
  /** Steady-state IOPS / FOB IOPS; null when either is missing or FOB is 0. */
  ratio: number | null
}

/**
 * The FOB point and the steady-state point at the same workload, TC and QD, in the FOB sweep's
 * order (a point only one sweep has is kept with the other side null).
 */
export function fobSsRows(fob: readonly StepResult[], ss: readonly StepResult[]): FobSsRow[] {
  const key = (p: StepResult) => `${p.readPct}/${p.blockSizeBytes}/${p.threadCount}/${p.queueDepth}`
  const rows = new Map<string, FobSsRow>()
  for (const p of [...fob, ...ss]) if (!rows.has(key(p))) rows.set(key(p), {readPct: p.readPct, blockSizeBytes: p.blockSizeBytes, threadCount: p.threadCount, queueDepth: p.queueDepth, fob: null, ss: null, ratio: null})
  for (const p of fob) rows.get(key(p))!.fob = p
  for (const p of ss) rows.get(key(p))!.ss = p
  for (const r of rows.values()) r.ratio = r.fob && r.ss && r.fob.iops > 0 ? r.ss.iops / r.fob.iops : null
  return [...rows.values()]
}

/** The FOB and steady-state sweeps of a fob-ss run (phases 'fob' and 'ss'). */
export function fobSsSweeps(phases: readonly PhaseResult[]): {fob: StepResult[]; ss: StepResult[]} {
  const of = (id: string) => {
    const p = phases.find(x => x.id === id)
    return p && p.kind === 'sweep' ? p.points : []
  }
  return {fob: of('fob'), ss: of('ss')}
}

export interface TraceStats {
  /** @integer */
  samples: number
  min: number
  max: number
  mean: number
  p1: number
  p50: number
  p99: number
  /** Standard deviation / mean (population), null when the mean is 0. */
  cv: number | null
  /** The mean of the last tenth of the samples (at least one): the level the drive settled to. */
  floor: number
  /**
   * The first sample (0-based) from which every later rolling average (a window of a twentieth of
   * the samples, at least one) stays at or below 1.1 x the floor; null when there are no samples.
   */
  floorFrom: number | null
}

/** The p-th percentile (nearest rank) of values. */
export function nearestRank(sorted: readonly number[], pct: number): number {
  if (sorted.length === 0) return 0
  const k = Math.min(sorted.length, Math.max(1, Math.ceil(pct / 100 * sorted.length)))
  return sorted[k - 1]
}

/** Statistics of a per-second trace (IOPS or MB/s of each sample) and when it reached its floor. */
export function traceStats(values: readonly number[]): TraceStats {
  const n = values.length
  if (n === 0) return {samples: 0, min: 0, max: 0, mean: 0, p1: 0, p50: 0, p99: 0, cv: null, floor: 0, floorFrom: null}
  const sorted = [...values].sort((a, b) => a - b)
  const mean = values.reduce((a, b) => a + b, 0) / n
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / n)
  const tail = values.slice(n - Math.max(1, Math.floor(n / 10)))
  const floor = tail.reduce((a, b) => a + b, 0) / tail.length
  const w = Math.max(1, Math.floor(n / 20))
  // rolling[i] = average of values[i .. i+w-1]
  const rolling: number[] = []
  let sum = 0
  for (let i = 0; i < n; i++) {
    sum += values[i]
    if (i >= w) sum -= values[i - w]
    if (i >= w - 1) rolling.push(sum / w)
  }
  let floorFrom = 0
  for (let i = rolling.length - 1; i >= 0; i--) {
    if (rolling[i] > floor * 1.1) { floorFrom = i + 1; break }
  }
  return {samples: n, min: sorted[0], max: sorted[n - 1], mean, p1: nearestRank(sorted, 1), p50: nearestRank(sorted, 50), p99: nearestRank(sorted, 99),
    cv: mean > 0 ? sd / mean : null, floor, floorFrom: Math.min(floorFrom, n - 1)}
}
