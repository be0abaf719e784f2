/**
 * A loop phase's verdict from its stored rounds (digest B §3): the tracking series, every
 * complete round's evaluation, the verdict and the window averages (Part A 4). Used by the live
 * run, by resume, and by the audit's recomputation from raw/. Pure.
 */
import {evaluateWindow} from './evaluate.js'
import {mergeBins, percentileFromBins} from '../model/latency.js'
import type {PlannedPhase, ProgramPoint} from '../plan/expand.js'
import {selects} from '../plan/expand.js'
import type {ProgramTracking, SteadyStateSpec} from '../model/definition.js'
import type {LoopEvaluation, LoopRound, LoopTracking, LoopWindowAverage, PhaseResult, StepResult, SteadyStateVerdict} from '../model/results.js'

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
    // With every round's latency bins (LAT, digest Part A 12): the percentile over the window's pooled IOs.
    const pooled = ps.every(p => p.latBins !== undefined) ? percentileFromBins(mergeBins(ps.map(p => p.latBins!)), 99.999) : null
    return {
      index: p0.index, id: p0.id, label: p0.label, readPct: p0.readPct, blockSizeBytes: p0.blockSizeBytes, threadCount: p0.threadCount, queueDepth: p0.queueDepth,
      iops: avg(p => p.iops), readIops: avg(p => p.readIops), writeIops: avg(p => p.writeIops),
      bwBytesPerSec: avg(p => p.bwBytesPerSec), readBwBytesPerSec: avg(p => p.readBwBytesPerSec), writeBwBytesPerSec: avg(p => p.writeBwBytesPerSec),
      latMeanNs: avg(p => p.latMeanNs), latMaxNs: Math.max(...ps.map(p => p.latMaxNs)), latMaxAvgNs: avg(p => p.latMaxNs),
      ...(pooled
        ? {latP99999Ns: pooled.latNs, latPercentileSamples: pooled.ioCount, latP99999Basis: 'pooled' as const}
        : {latP99999Ns: p5, latPercentileSamples: ps.reduce((a, p) => a + p.latPercentileSamples, 0)}),
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
