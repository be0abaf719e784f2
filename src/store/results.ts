/**
 * Pure derivations over stored rounds: tracking series, steady-state evaluations, the final
 * verdict and the window averages. Used by the live run and by anyone recomputing a verdict
 * from results.json or raw/ (digest Part A 11).
 */
import {evaluateWindow} from '../steady-state/evaluate.js'
import type {TestSpec} from '../spec/types.js'
import type {RoundEvaluation, RoundResult, RunResults, TrackingResult, WindowAverage} from './types.js'

/** Rounds that hold every point of the round. */
export function completeRounds(rounds: readonly RoundResult[], pointsPerRound: number): RoundResult[] {
  return rounds.filter(r => r.points.length === pointsPerRound && r.finishedAt !== null)
}

export function trackingSeries(spec: TestSpec, rounds: readonly RoundResult[]): TrackingResult[] {
  return spec.steadyState.tracking.map(t => ({
    id: t.id,
    label: t.label,
    readPct: t.readPct,
    blockSizeBytes: t.blockSizeBytes,
    metric: t.metric,
    series: rounds.map(r => {
      const p = r.points.find(q => q.readPct === t.readPct && q.blockSizeBytes === t.blockSizeBytes)
      if (!p) throw new Error(`round ${r.round} has no point RND ${t.blockSizeBytes} B R/W ${t.readPct}`)
      return p.iops
    }),
  }))
}

export function evaluateRound(spec: TestSpec, tracking: readonly TrackingResult[], x: number): RoundEvaluation {
  return evaluateWindow(tracking.map(t => ({id: t.id, values: t.series})), x, spec.steadyState)
}

/** Average of each point over rounds from..to (digest Part A 4); latency max is the max over the window. */
export function windowAverages(rounds: readonly RoundResult[], from: number, to: number): WindowAverage[] {
  const window = rounds.filter(r => r.round >= from && r.round <= to)
  if (window.length === 0) return []
  const n = window.length
  return window[0].points.map((p0, i) => {
    const ps = window.map(r => r.points[i])
    const avg = (f: (p: typeof p0) => number) => ps.reduce((a, p) => a + f(p), 0) / n
    return {
      readPct: p0.readPct,
      blockSizeBytes: p0.blockSizeBytes,
      iops: avg(p => p.iops),
      readIops: avg(p => p.readIops),
      writeIops: avg(p => p.writeIops),
      bwBytesPerSec: avg(p => p.bwBytesPerSec),
      latMeanNs: avg(p => p.latMeanNs),
      latMaxNs: Math.max(...ps.map(p => p.latMaxNs)),
      latMaxAvgNs: avg(p => p.latMaxNs),
    }
  })
}

/**
 * The verdict after the last complete round x (digest B §3.3): steady when the window x-4..x
 * passed; not achieved when the run ended without it (the window is then the last 5 rounds).
 */
export function conclude(results: RunResults, spec: TestSpec, pointsPerRound: number, finished: boolean): Pick<RunResults, 'tracking' | 'evaluations' | 'steadyState' | 'windowAverages'> {
  const rounds = completeRounds(results.rounds, pointsPerRound)
  const tracking = trackingSeries(spec, rounds)
  const evaluations = rounds.map(r => evaluateRound(spec, tracking, r.round))
  const last = evaluations.at(-1)
  const steady = evaluations.find(e => e.status === 'steady')
  let steadyState: RunResults['steadyState']
  if (steady) {
    steadyState = {verdict: 'steady', fromRound: steady.fromRound, toRound: steady.toRound, variables: steady.variables}
  } else if (finished && last) {
    const w = spec.steadyState.windowRounds
    const from = Math.max(1, last.round - w + 1)
    steadyState = {verdict: 'not-achieved', fromRound: from, toRound: last.round, variables: last.variables}
  } else {
    steadyState = {verdict: 'pending', fromRound: last?.fromRound ?? null, toRound: last?.toRound ?? null, variables: last?.variables ?? []}
  }
  const windowAvg = steadyState.fromRound !== null && steadyState.toRound !== null && steadyState.verdict !== 'pending'
    ? windowAverages(rounds, steadyState.fromRound, steadyState.toRound)
    : []
  return {tracking, evaluations, steadyState, windowAverages: windowAvg}
}
