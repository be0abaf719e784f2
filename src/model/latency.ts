/**
 * Latency percentiles and histograms from fio's json+ latency bins. Pure.
 *
 * fio keeps every IO's latency in log-linear buckets (stat.c, io_u_plat) and writes, with json+
 * output, each non-empty bucket as {"<bucket value ns>": count}; the bucket value is the middle of
 * the bucket's range (plat_idx_to_val). Its percentiles are the value of the first bucket whose
 * cumulative count reaches p/100 of the IOs (calc_clat_percentiles). Pooling the buckets of
 * several fio runs and applying the same rule gives the percentile over all their IOs, which is
 * what fio would report for one run that did all of them (digest Part A 12: LAT 5 9s of the
 * window = the 99.999th percentile of the window's pooled IOs).
 */
import type {HistogramBins} from './results.js'

/** fio json+ bins ({"<ns>": count}) -> [{latNs, count}] sorted by latency, empty buckets dropped. */
export function binsOf(bins: Record<string, number> | undefined): HistogramBins | null {
  if (!bins) return null
  return Object.entries(bins).map(([k, v]) => ({latNs: Number(k), count: v})).filter(b => Number.isFinite(b.latNs) && b.count > 0).sort((a, b) => a.latNs - b.latNs)
}

/** The buckets of several runs added up (same bucket value = same fio bucket). */
export function mergeBins(all: ReadonlyArray<HistogramBins>): HistogramBins {
  const sum = new Map<number, number>()
  for (const bins of all) for (const b of bins) sum.set(b.latNs, (sum.get(b.latNs) ?? 0) + b.count)
  return [...sum].map(([latNs, count]) => ({latNs, count})).sort((a, b) => a.latNs - b.latNs)
}

/** The p-th percentile (0 < p <= 100) of the IOs in `bins` by fio's rule, with the IO count; null when there are no IOs. */
export function percentileFromBins(bins: HistogramBins, pct: number): {latNs: number; ioCount: number} | null {
  const sorted = [...bins].sort((a, b) => a.latNs - b.latNs)
  const n = sorted.reduce((a, b) => a + b.count, 0)
  if (n === 0) return null
  const target = (pct / 100) * n
  let cum = 0
  for (const b of sorted) {
    cum += b.count
    if (cum >= target) return {latNs: b.latNs, ioCount: n}
  }
  return {latNs: sorted.at(-1)!.latNs, ioCount: n}
}

/**
 * A percentile as a report shows it next to the maximum: fio's percentile is a bucket's middle
 * value, so for the top IOs it can lie above the largest latency actually measured (by up to half
 * a bucket, about 1.6 %). The shown value is then the maximum, flagged so the page can say why.
 */
export function cappedAtMax(percentileNs: number | null, maxNs: number): {ns: number | null; capped: boolean} {
  if (percentileNs === null) return {ns: null, capped: false}
  return percentileNs > maxNs && maxNs > 0 ? {ns: maxNs, capped: true} : {ns: percentileNs, capped: false}
}

/** The sentence a page prints when a percentile was capped at the maximum. */
export const CAPPED_NOTE = "fio reports a percentile as the middle value of its latency bucket, which for the slowest IOs can lie above the largest latency measured; where it does, the maximum is shown (marked ≤ max)."
