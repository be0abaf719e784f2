/**
 * Steady-state determination, PTS 2.0.2 §2.1.24 (digest Part A 2, B §3.1-3.3). Pure.
 *
 * For the window of the last `windowRounds` complete rounds (x-4..x):
 *   data excursion  = max(y) - min(y)        must be <= maxDataExcursionPct % of avg(y)
 *   slope excursion = |b| * (n - 1)          must be <= maxSlopeExcursionPct % of avg(y)
 * with b the least-squares slope of y against the round number. Comparisons are inclusive
 * (the spec says "no more than" / "within"; digest B §8 item 2). With several tracking
 * variables, all must pass in the same window (digest Part A 2, B §8 item 8).
 *
 * The pass/fail comparisons are made on sums (no division), so that values that sit exactly on
 * a limit are judged exactly for integer and binary-fraction data; the reported numbers
 * (average, excursions, slope, ...) are ordinary floating-point values.
 */
import type {RoundValue, SteadyStateCriteria, VariableEvaluation, WindowStatus} from '../model/results.js'


export interface WindowEvaluation {
  /** The last complete round (x). */
  round: number
  status: WindowStatus
  fromRound: number | null
  toRound: number | null
  variables: VariableEvaluation[]
}

export interface LinearFit {
  slope: number
  intercept: number
  rSquared: number | null
}

/** Ordinary least squares of y on x. */
export function leastSquares(xs: readonly number[], ys: readonly number[]): LinearFit {
  const n = xs.length
  if (n !== ys.length || n < 2) throw new RangeError('leastSquares needs two or more (x, y) pairs of equal length')
  let sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0
  for (let i = 0; i < n; i++) {
    sx += xs[i]; sy += ys[i]; sxx += xs[i] * xs[i]; sxy += xs[i] * ys[i]; syy += ys[i] * ys[i]
  }
  const nSxx = n * sxx - sx * sx
  const nSxy = n * sxy - sx * sy
  const nSyy = n * syy - sy * sy
  if (nSxx === 0) throw new RangeError('leastSquares needs at least two distinct x values')
  const slope = nSxy / nSxx
  const intercept = (sy - slope * sx) / n
  const rSquared = nSyy === 0 ? null : (nSxy * nSxy) / (nSxx * nSyy)
  return {slope, intercept, rSquared}
}

/** Evaluate one tracking variable over the given window (all of `window` is the window). */
export function evaluateVariable(id: string, window: readonly RoundValue[], c: SteadyStateCriteria): VariableEvaluation {
  const n = window.length
  const xs = window.map(p => p.round)
  const ys = window.map(p => p.value)
  let sx = 0, sy = 0, sxx = 0, sxy = 0
  for (let i = 0; i < n; i++) { sx += xs[i]; sy += ys[i]; sxx += xs[i] * xs[i]; sxy += xs[i] * ys[i] }
  const min = Math.min(...ys)
  const max = Math.max(...ys)
  const average = sy / n
  const dataExcursion = max - min
  const fit = leastSquares(xs, ys)
  const slopeExcursion = Math.abs(fit.slope) * (n - 1)
  // Exact forms of the two inequalities, multiplied out to avoid division:
  //   (max-min) <= p/100 * sy/n            <=>  (max-min) * 100 * n <= p * sy
  //   |nSxy/nSxx| * (n-1) <= p/100 * sy/n  <=>  |nSxy| * (n-1) * 100 * n <= p * sy * nSxx
  const nSxx = n * sxx - sx * sx
  const nSxy = n * sxy - sx * sy
  const dataExcursionOk = dataExcursion * 100 * n <= c.maxDataExcursionPct * sy
  const slopeExcursionOk = Math.abs(nSxy) * (n - 1) * 100 * n <= c.maxSlopeExcursionPct * sy * nSxx
  return {
    id,
    window: window.map(p => ({round: p.round, value: p.value})),
    fromRound: xs[0],
    toRound: xs[n - 1],
    average,
    min,
    max,
    dataExcursion,
    allowedDataExcursion: (c.maxDataExcursionPct / 100) * average,
    slope: fit.slope,
    intercept: fit.intercept,
    slopeExcursion,
    allowedSlopeExcursion: (c.maxSlopeExcursionPct / 100) * average,
    rSquared: fit.rSquared,
    dataExcursionOk,
    slopeExcursionOk,
    steady: dataExcursionOk && slopeExcursionOk,
  }
}

/**
 * Evaluate the window ending at round `x` for every tracking variable. `series` maps a tracking
 * variable id to its per-round values, index 0 = round 1. Rounds after x are ignored.
 * Fewer than windowRounds complete rounds gives status "not-yet" (digest B §3.3: the earliest
 * window ends at round 5).
 */
export function evaluateWindow(series: ReadonlyArray<{id: string; values: readonly number[]}>, x: number, c: SteadyStateCriteria): WindowEvaluation {
  if (x < c.windowRounds) return {round: x, status: 'not-yet', fromRound: null, toRound: null, variables: []}
  const fromRound = x - c.windowRounds + 1
  const variables = series.map(s => {
    if (s.values.length < x) throw new RangeError(`tracking variable ${s.id} has ${s.values.length} rounds, the window needs ${x}`)
    const window: RoundValue[] = []
    for (let r = fromRound; r <= x; r++) window.push({round: r, value: s.values[r - 1]})
    return evaluateVariable(s.id, window, c)
  })
  const steady = variables.length > 0 && variables.every(v => v.steady)
  return {round: x, status: steady ? 'steady' : 'not-steady', fromRound, toRound: x, variables}
}

/** The first round x at which the window x-4..x is steady, or null. */
export function firstSteadyRound(series: ReadonlyArray<{id: string; values: readonly number[]}>, c: SteadyStateCriteria): number | null {
  const rounds = Math.min(...series.map(s => s.values.length))
  for (let x = c.windowRounds; x <= rounds; x++) {
    if (evaluateWindow(series, x, c).status === 'steady') return x
  }
  return null
}
