/**
 * What the other phase kinds derive from their stored steps: series stop rules and the optional
 * steady-state exit (WSAT), HIR burst IOPS, the XSR recovery time, the CBW/DIRTH operating points
 * and json+ response-time histograms. Used by the live run and by the audit. Pure.
 */
import {evaluateWindow} from '../steady-state/evaluate.js'
import {binsOf} from '../model/latency.js'
import type {PlannedPhase} from '../plan/expand.js'
import type {LoopWindowAverage, OperatingPoint, PhaseResult, SeriesSample, StepResult, SteadyStateVerdict} from '../model/results.js'

// ---------------------------------------------------------------------------------------------
// Series (WSAT, XSR, HIR baselines)

/** Why a series must stop after its samples so far, or null to go on. */
export function seriesStop(phase: Extract<PlannedPhase, {kind: 'series'}>, samples: readonly SeriesSample[], operator: {maxWrittenBytes: number | null}): {reason: NonNullable<Extract<PhaseResult, {kind: 'series'}>['stopReason']>; steadyState: SteadyStateVerdict | null} | null {
  const written = samples.at(-1)?.cumulativeWrittenBytes ?? 0
  const sse = seriesSteadyState(phase, samples)
  if (sse?.verdict === 'steady') return {reason: 'steady-state', steadyState: sse}
  if (phase.stopAtBytes !== null && written >= phase.stopAtBytes) {
    return {reason: operator.maxWrittenBytes !== null && phase.stopAtBytes === operator.maxWrittenBytes ? 'operator-bytes' : 'capacity', steadyState: sse}
  }
  if (samples.length >= phase.maxSamples) return {reason: phase.durationBy === 'operator' ? 'operator-time' : 'duration', steadyState: sse}
  return null
}

/** WSAT's optional steady-state exit: every trackEvery-th sample is a tracking value, window over the last ones. */
export function seriesSteadyState(phase: Extract<PlannedPhase, {kind: 'series'}>, samples: readonly SeriesSample[]): SteadyStateVerdict | null {
  const s = phase.steadyStateExit
  if (!s) return null
  const values = samples.filter((_, i) => (i + 1) % s.trackEvery === 0).map(x => x.iops)
  if (values.length === 0) return {verdict: 'pending', fromRound: null, toRound: null, variables: []}
  const e = evaluateWindow([{id: 'iops', values}], values.length, s)
  return {verdict: e.status === 'steady' ? 'steady' : 'pending', fromRound: e.fromRound, toRound: e.toRound, variables: e.variables}
}

// ---------------------------------------------------------------------------------------------
// Bursts (HIR, digest Part A 12: burst IOPS = IOs completed in the burst / the burst's length)

/**
 * IOPS of each write burst of a run whose bursts are fio steps of their own (method 'burst-jobs'):
 * IOs completed in the step / the step's runtime (fio's total_ios and runtime, the same
 * definition as every test point), and the burst's start in ms after the first burst's start.
 */
export function burstsFromSteps(steps: ReadonlyArray<Pick<StepResult, 'ioCount' | 'runtimeSec' | 'startNs'>>): Array<{index: number; startMs: number; iops: number}> {
  if (steps.length === 0) return []
  const t0 = BigInt(steps[0].startNs)
  return steps.map((s, index) => ({index, startMs: Number(BigInt(s.startNs) - t0) / 1e6, iops: s.runtimeSec > 0 ? s.ioCount / s.runtimeSec : 0}))
}

/**
 * Runs of older versions (one fio job with thinktime and an averaged IOPS log, engine/parse.ts
 * parseIopsLog): derived as those versions did, so that their stored results still recompute.
 * Log entries are grouped into bursts (a new burst after a gap longer than half the idle time)
 * and a burst's IOPS is the mean of its entries. Approximate: windows that straddle a burst edge
 * are averaged in as whole windows, and with several threads fio's per-thread logs follow each
 * other in the one file, so bursts are found more than once (e.g. 592 for 360).
 */
export function burstIops(entries: ReadonlyArray<{ms: number; iops: number}>, idleSeconds: number, logAvgMsec: number): Array<{index: number; startMs: number; iops: number}> {
  const out: Array<{index: number; startMs: number; iops: number}> = []
  let cur: Array<{ms: number; iops: number}> = []
  const gapMs = Math.max(logAvgMsec * 1.5, idleSeconds * 1000 / 2)
  const flush = () => {
    if (cur.length === 0) return
    out.push({index: out.length, startMs: Math.max(0, cur[0].ms - logAvgMsec), iops: cur.reduce((a, e) => a + e.iops, 0) / cur.length})
    cur = []
  }
  for (const e of entries) {
    if (e.iops <= 0) continue
    if (cur.length > 0 && e.ms - cur.at(-1)!.ms > gapMs) flush()
    cur.push(e)
  }
  flush()
  return out
}

// ---------------------------------------------------------------------------------------------
// XSR: minutes into access group 3 until its throughput reaches access group 1's average (G-AD's definition; digest §8 item 16)

export function recoveryTime(group1: readonly SeriesSample[], group3: readonly SeriesSample[], sampleSeconds: number): {group1AverageBwBytesPerSec: number; recoveredAtSample: number | null; recoverySeconds: number | null} {
  const avg = group1.length ? group1.reduce((a, s) => a + s.bwBytesPerSec, 0) / group1.length : 0
  const i = group3.findIndex(s => s.bwBytesPerSec >= avg)
  return {group1AverageBwBytesPerSec: avg, recoveredAtSample: i < 0 ? null : i + 1, recoverySeconds: i < 0 ? null : (i + 1) * sampleSeconds}
}

// ---------------------------------------------------------------------------------------------
// DIRTH / CBW operating points (digest B §5.7-5.8; the Mid rule is unconfirmed: closest IOPS to the midpoint)

export function chooseOperatingPoints(windowAverages: readonly LoopWindowAverage[], ceilingMs: number): Array<Pick<OperatingPoint, 'role' | 'threadCount' | 'queueDepth' | 'iops' | 'latMeanNs' | 'reason'>> {
  if (windowAverages.length === 0) return []
  const ceilNs = ceilingMs * 1e6
  const under = windowAverages.filter(w => w.latMeanNs <= ceilNs)
  const byTotal = (a: LoopWindowAverage, b: LoopWindowAverage) => a.threadCount * a.queueDepth - b.threadCount * b.queueDepth
  const min = [...windowAverages].sort(byTotal)[0]
  const max = under.length > 0 ? under.reduce((a, b) => (b.iops > a.iops ? b : a)) : min
  const target = (max.iops + min.iops) / 2
  const mid = windowAverages.filter(w => w !== max && w !== min).reduce<LoopWindowAverage | null>((a, b) => (a === null || Math.abs(b.iops - target) < Math.abs(a.iops - target) ? b : a), null) ?? max
  const pick = (role: OperatingPoint['role'], w: LoopWindowAverage, reason: string) => ({role, threadCount: w.threadCount, queueDepth: w.queueDepth, iops: w.iops, latMeanNs: w.latMeanNs, reason})
  return [
    pick('max', max, under.length > 0 ? `highest IOPS with mean response time <= ${ceilingMs} ms` : `no point met the ${ceilingMs} ms ceiling: the lowest-demand point is used`),
    pick('mid', mid, `IOPS closest to the midpoint ${Math.round(target)} of Max and Min`),
    pick('min', min, 'lowest demand (TC 1/QD 1 or the smallest TC x QD)'),
  ]
}

/** fio json+ latency bins ({"<ns>": count}) -> sorted histogram (model/latency.ts binsOf). */
export function histogramFromBins(bins: Record<string, number> | undefined): Array<{latNs: number; count: number}> | null {
  return binsOf(bins)
}

/** The json+ bins a stored histogram was built from: total latency for runs that say so, completion latency for older runs. */
export function histogramSource(parsed: {clatBins: Record<string, number> | undefined; latBins: Record<string, number> | undefined}, basis: 'lat' | undefined): Record<string, number> | undefined {
  return basis === 'lat' ? parsed.latBins : parsed.clatBins
}
