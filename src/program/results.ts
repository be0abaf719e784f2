/**
 * What a program run stores (results.json, schemas/program-result.schema.json) and the pure
 * derivations over it: loop tracking series and steady state (digest B §3), window averages
 * (Part A 4), series stop rules and cumulative bytes written (WSAT TGBW), burst IOPS from fio's
 * IOPS log (HIR), the XSR recovery time, and the DIRTH/CBW operating points. Used by the live run,
 * by resume, and by anyone recomputing the results from raw/.
 */
import type {Measurement} from '../engine/parse.js'
import {evaluateWindow, type VariableEvaluation, type WindowStatus} from '../steady-state/evaluate.js'
import type {RunStatus} from '../store/types.js'
import type {PlannedPhase, ProgramPoint} from './expand.js'
import {selects} from './expand.js'
import type {ProgramTestId, ProgramTracking, SteadyStateSpec} from './types.js'
import type {ProfileId, Revision} from '../spec/types.js'

export interface StepResult extends Measurement {
  /** Position in its round / series / phase, 0-based. @integer @minimum 0 */
  index: number
  id: string
  label: string
  /** @integer @minimum 0 @maximum 100 */
  readPct: number
  /** @integer @minimum 512 @multipleOf 512 */
  blockSizeBytes: number | null
  /** @integer @minimum 1 */
  threadCount: number
  /** @integer @minimum 1 */
  queueDepth: number
  /** @format date-time */
  startedAt: string
  /** @format date-time */
  finishedAt: string
  /** @pattern ^[0-9]+$ */
  startNs: string
  /** @pattern ^[0-9]+$ */
  endNs: string
  /** @integer @minimum 0 */
  seed: number
  raw: {
    /** @pattern ^raw/ */
    json: string
    /** @pattern ^raw/ */
    job: string
  }
}

export interface LoopRound {
  /** @integer @minimum 1 */
  round: number
  /** @format date-time */
  startedAt: string
  /** @format date-time */
  finishedAt: string | null
  /** The inter-round pre-write (CBW/DIRTH), null when the loop has none. */
  preRound: StepResult | null
  points: StepResult[]
}

export interface LoopTracking {
  id: string
  label: string
  metric: ProgramTracking['metric']
  /** @integer @minimum 0 */
  pointIndex: number
  series: number[]
}

export interface LoopEvaluation {
  /** @integer @minimum 1 */
  round: number
  status: WindowStatus
  /** @integer */
  fromRound: number | null
  /** @integer */
  toRound: number | null
  variables: VariableEvaluation[]
}

export interface LoopWindowAverage {
  /** @integer @minimum 0 */
  index: number
  id: string
  label: string
  /** @integer @minimum 0 @maximum 100 */
  readPct: number
  /** @integer @minimum 512 @multipleOf 512 */
  blockSizeBytes: number | null
  /** @integer @minimum 1 */
  threadCount: number
  /** @integer @minimum 1 */
  queueDepth: number
  /** @minimum 0 */
  iops: number
  /** @minimum 0 */
  readIops: number
  /** @minimum 0 */
  writeIops: number
  /** @minimum 0 */
  bwBytesPerSec: number
  /** @minimum 0 */
  readBwBytesPerSec: number
  /** @minimum 0 */
  writeBwBytesPerSec: number
  /** @minimum 0 */
  latMeanNs: number
  /** Maximum over the window (digest Part A 4, B §8 item 6) and the average of the per-round maxima. @minimum 0 */
  latMaxNs: number
  /** @minimum 0 */
  latMaxAvgNs: number
  /** Average over the window of each round's 99.999th percentile (null when fio gave none), and the IOs behind them. */
  latP99999Ns: number | null
  /** @integer @minimum 0 */
  latPercentileSamples: number
}

export interface SteadyStateVerdict {
  verdict: 'steady' | 'not-achieved' | 'pending'
  /** @integer */
  fromRound: number | null
  /** @integer */
  toRound: number | null
  variables: VariableEvaluation[]
}

export interface SeriesSample extends StepResult {
  /** Bytes written by the phase up to and including this sample (TGBW numerator). @integer @minimum 0 */
  cumulativeWrittenBytes: number
}

export type PhaseStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped'

/** @discriminator kind */
export type PhaseResult =
  | {
    kind: 'purge'
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    title: string
    status: PhaseStatus
    method: string
    deviation: string | null
    /** @format date-time */
    startedAt: string | null
    /** @format date-time */
    finishedAt: string | null
    detail: string
  }
  | {
    kind: 'wipc'
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    title: string
    status: PhaseStatus
    /** @integer @minimum 512 @multipleOf 512 */
    blockSizeBytes: number
    /** @integer @minimum 0 */
    requiredBytes: number
    /** @integer @minimum 0 */
    plannedBytes: number
    /** @integer @minimum 0 */
    writtenBytes: number
    /** @minimum 0 */
    bwBytesPerSec: number
    /** @minimum 0 */
    runtimeSec: number
    /** @format date-time */
    startedAt: string | null
    /** @format date-time */
    finishedAt: string | null
    raw: {
      /** @pattern ^raw/ */
      json: string
      /** @pattern ^raw/ */
      job: string
    } | null
  }
  | {
    kind: 'loop'
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    title: string
    status: PhaseStatus
    /** The criteria the run used (so the verdict can be recomputed from results.json and raw/ alone, digest Part A 11). */
    criteria: {
      /** @integer @minimum 2 */
      windowRounds: number
      maxDataExcursionPct: number
      maxSlopeExcursionPct: number
      /** @integer @minimum 1 */
      maxRounds: number
      /** @exclusiveMinimum 0 */
      pointSeconds: number
    }
    rounds: LoopRound[]
    tracking: LoopTracking[]
    evaluations: LoopEvaluation[]
    steadyState: SteadyStateVerdict
    windowAverages: LoopWindowAverage[]
  }
  | {
    kind: 'series'
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    title: string
    status: PhaseStatus
    /** @exclusiveMinimum 0 */
    sampleSeconds: number
    samples: SeriesSample[]
    /** @integer @minimum 0 */
    writtenBytes: number
    /** Which limit ended the phase: duration, capacity (x user capacity written), operator-time, operator-bytes, steady-state; null while running. */
    stopReason: 'duration' | 'capacity' | 'operator-time' | 'operator-bytes' | 'steady-state' | null
    steadyState: SteadyStateVerdict | null
  }
  | {
    kind: 'bursts'
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    title: string
    status: PhaseStatus
    /** @minimum 0 */
    waitState: number
    /** @exclusiveMinimum 0 */
    burstSeconds: number
    /** @minimum 0 */
    idleSeconds: number
    /** @integer @minimum 1 */
    repeats: number
    job: StepResult | null
    /** IOPS of each write burst, from fio's IOPS log (raw.log). */
    bursts: Array<{
      /** @integer @minimum 0 */
      index: number
      /** @minimum 0 */
      startMs: number
      /** @minimum 0 */
      iops: number
    }>
    log: string | null
  }
  | {
    kind: 'operating-points'
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    title: string
    status: PhaseStatus
    /** @exclusiveMinimum 0 */
    ceilingMs: number
    points: OperatingPoint[]
  }
  | {
    kind: 'histogram'
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    title: string
    status: PhaseStatus
    optional: boolean
    job: StepResult | null
    /** Response-time histogram from fio's json+ completion-latency bins: [upper bound ns, IO count]. */
    histogram: HistogramBins | null
  }

export interface OperatingPoint {
  role: 'max' | 'mid' | 'min'
  /** @integer @minimum 1 */
  threadCount: number
  /** @integer @minimum 1 */
  queueDepth: number
  /** The DV window average that chose it. @minimum 0 */
  iops: number
  /** @minimum 0 */
  latMeanNs: number
  reason: string
  prewrite: StepResult | null
  measure: StepResult | null
  /** Response-time histogram from fio's json+ completion-latency bins: [upper bound ns, IO count]. */
  histogram: HistogramBins | null
}

/** fio's json+ completion-latency bins: upper bound in ns and IO count. */
export type HistogramBins = Array<{
  /** @minimum 0 */
  latNs: number
  /** @integer @minimum 0 */
  count: number
}>

export interface ProgramResults {
  schemaVersion: 1
  kind: 'program'
  /** @minLength 1 */
  runId: string
  test: ProgramTestId
  revision: Revision
  profile: ProfileId
  status: RunStatus
  parameters: {
    /** @integer @minimum 1 */
    threadCount: number
    /** @integer @minimum 1 */
    queueDepth: number
    /** @exclusiveMinimum 0 */
    pointSeconds: number
    /** @integer @minimum 1 */
    maxRounds: number
    /** @exclusiveMinimum 0 @maximum 1 */
    timeScale: number
    /** @minLength 1 */
    ioengine: string
    /** @integer @minimum 0 */
    seed: number
    workload: string | null
    workloadLabel: string | null
    ceilingMs: number | null
    maxSeconds: number | null
    /** @integer */
    maxWrittenBytes: number | null
    steadyStateExit: boolean
    activeRangePct: number
    /** @integer @minimum 0 */
    activeRangeBytes: number
    preconditionActiveRangePct: number
    /** @integer @minimum 0 */
    preconditionActiveRangeBytes: number
    writeCacheRequired: 'enabled' | 'disabled'
    dataPattern: 'random'
    /** @integer @minimum 0 */
    capacityBytes: number
    /** The spec's provenance-marked constants, shown in the report. */
    specParameters: Array<{name: string; value: string; source: string; note?: string}>
  }
  phases: PhaseResult[]
}

// ---------------------------------------------------------------------------------------------
// Loops (digest B §3)


export function completeRounds(rounds: readonly LoopRound[], pointsPerRound: number): LoopRound[] {
  return rounds.filter(r => r.finishedAt !== null && r.points.length === pointsPerRound)
}

export function loopTracking(points: readonly ProgramPoint[], tracking: readonly ProgramTracking[], rounds: readonly LoopRound[]): LoopTracking[] {
  return tracking.map(t => {
    const p = points.find(q => selects(t, q))!
    return {id: t.id, label: t.label, metric: t.metric, pointIndex: p.index, series: rounds.map(r => r.points[p.index][t.metric])}
  })
}

export function loopWindowAverages(rounds: readonly LoopRound[], from: number, to: number): LoopWindowAverage[] {
  const w = rounds.filter(r => r.round >= from && r.round <= to)
  if (w.length === 0) return []
  const n = w.length
  return w[0].points.map((p0, i) => {
    const ps = w.map(r => r.points[i])
    const avg = (f: (p: StepResult) => number) => ps.reduce((a, p) => a + f(p), 0) / n
    const p5 = ps.every(p => p.latP99999Ns !== null) ? avg(p => p.latP99999Ns!) : null
    return {
      index: p0.index, id: p0.id, label: p0.label, readPct: p0.readPct, blockSizeBytes: p0.blockSizeBytes, threadCount: p0.threadCount, queueDepth: p0.queueDepth,
      iops: avg(p => p.iops), readIops: avg(p => p.readIops), writeIops: avg(p => p.writeIops),
      bwBytesPerSec: avg(p => p.bwBytesPerSec), readBwBytesPerSec: avg(p => p.readBwBytesPerSec), writeBwBytesPerSec: avg(p => p.writeBwBytesPerSec),
      latMeanNs: avg(p => p.latMeanNs), latMaxNs: Math.max(...ps.map(p => p.latMaxNs)), latMaxAvgNs: avg(p => p.latMaxNs),
      latP99999Ns: p5, latPercentileSamples: ps.reduce((a, p) => a + p.latPercentileSamples, 0),
    }
  })
}

/** Tracking, every round's evaluation, the verdict and the window averages of a loop phase (finished: the loop ended). */
export function concludeLoop(phase: Extract<PlannedPhase, {kind: 'loop'}>, rounds: readonly LoopRound[], finished: boolean): Pick<Extract<PhaseResult, {kind: 'loop'}>, 'tracking' | 'evaluations' | 'steadyState' | 'windowAverages'> {
  const done = completeRounds(rounds, phase.points.length)
  const tracking = loopTracking(phase.points, phase.steadyState.tracking, done)
  const c: SteadyStateSpec = phase.steadyState
  const evaluations: LoopEvaluation[] = done.map(r => evaluateWindow(tracking.map(t => ({id: t.id, values: t.series})), r.round, c))
  const last = evaluations.at(-1)
  const steady = evaluations.find(e => e.status === 'steady')
  let steadyState: SteadyStateVerdict
  if (steady) steadyState = {verdict: 'steady', fromRound: steady.fromRound, toRound: steady.toRound, variables: steady.variables}
  else if (finished && last) steadyState = {verdict: 'not-achieved', fromRound: Math.max(1, last.round - c.windowRounds + 1), toRound: last.round, variables: last.variables}
  else steadyState = {verdict: 'pending', fromRound: last?.fromRound ?? null, toRound: last?.toRound ?? null, variables: last?.variables ?? []}
  const windowAverages = steadyState.verdict !== 'pending' && steadyState.fromRound !== null && steadyState.toRound !== null
    ? loopWindowAverages(done, steadyState.fromRound, steadyState.toRound) : []
  return {tracking, evaluations, steadyState, windowAverages}
}

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
// Bursts (HIR): IOPS per write burst from fio's IOPS log (time ms, IOPS averaged over log_avg_msec)

export function parseIopsLog(text: string): Array<{ms: number; iops: number}> {
  return text.split('\n').map(l => l.trim()).filter(Boolean).map(l => {
    const [ms, v] = l.split(',').map(x => Number(x.trim()))
    return {ms, iops: v}
  }).filter(e => Number.isFinite(e.ms) && Number.isFinite(e.iops))
}

/**
 * Group log entries into bursts: a new burst starts after a gap longer than half the idle time.
 * IOPS of a burst = the mean of its entries (each an average over log_avg_msec).
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

/** fio json+ completion-latency bins ({"<ns>": count}) -> sorted histogram. */
export function histogramFromBins(bins: Record<string, number> | undefined): Array<{latNs: number; count: number}> | null {
  if (!bins) return null
  return Object.entries(bins).map(([k, v]) => ({latNs: Number(k), count: v})).filter(b => Number.isFinite(b.latNs) && b.count > 0).sort((a, b) => a.latNs - b.latNs)
}

/** Sum of the read and write completion-latency bins of a fio json+ output (undefined when it has none). Pure. */
export function jsonPlusBins(jsonText: string): Record<string, number> | undefined {
  const start = jsonText.search(/^\{/m)
  const j = JSON.parse(jsonText.slice(start)) as {jobs: Array<Record<string, {clat_ns?: {bins?: Record<string, number>}}>>}
  const out: Record<string, number> = {}
  let any = false
  for (const dir of ['read', 'write']) {
    const b = j.jobs[0]?.[dir]?.clat_ns?.bins
    if (!b) continue
    any = true
    for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v
  }
  return any ? out : undefined
}
