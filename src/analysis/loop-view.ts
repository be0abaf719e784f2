/**
 * One steady-state loop phase of a run seen as a block-size x R/W-mix matrix: the shape the IOPS
 * report pages, `pts compare` and `pts verify` read (points, rounds, tracking series, verdict and
 * window averages of that loop, with the run's parameters). Works for the loop of any test: IOPS,
 * each TP block size, LAT, the CBW/DIRTH preconditioning and demand-variation loops. Pure.
 */
import {TESTS, isTestId} from '../model/tests.js'
import type {LoopEvaluation, LoopRound, LoopWindowAverage, PhaseResult, ProgramResults, SteadyStateVerdict} from '../model/results.js'

export type LoopPhaseResult = Extract<PhaseResult, {kind: 'loop'}>

export interface LoopView {
  runId: string
  test: string
  revision: string
  profile: string
  status: ProgramResults['status']
  /** The loop phase's id ("loop", "loop-128k"). */
  phase: string
  phaseTitle: string
  parameters: ProgramResults['parameters'] & {
    access: 'random' | 'sequential'
    /** Distinct R/W mixes and block sizes of the loop's points, in the loop's order. */
    rwMixReadPct: number[]
    blockSizesBytes: number[]
    windowRounds: number
    maxDataExcursionPct: number
    maxSlopeExcursionPct: number
  }
  /** The loop's points, in round order (from the first round, or the window averages). */
  pointsPerRound: number
  rounds: LoopRound[]
  tracking: Array<{id: string; label: string; metric: string; readPct: number; blockSizeBytes: number; series: number[]}>
  evaluations: LoopEvaluation[]
  steadyState: SteadyStateVerdict
  windowAverages: Array<LoopWindowAverage & {blockSizeBytes: number}>
  wipc: Extract<PhaseResult, {kind: 'wipc'}> | null
  purge: Extract<PhaseResult, {kind: 'purge'}> | null
}

export function loopPhases(r: Pick<ProgramResults, 'phases'>): LoopPhaseResult[] {
  return r.phases.filter((p): p is LoopPhaseResult => p.kind === 'loop')
}

const distinct = <T>(xs: T[]): T[] => [...new Set(xs)]

/** The loop phase (by id, or the first one) of a run as a LoopView; null when the run has no such loop. */
export function loopView(r: ProgramResults, phaseId?: string): LoopView | null {
  const loops = loopPhases(r)
  const loop = phaseId === undefined ? loops[0] : loops.find(l => l.id === phaseId)
  if (!loop) return null
  const at = r.phases.indexOf(loop)
  // the WIPC and purge that precede this loop (TP: each block size has its own)
  const before = r.phases.slice(0, at)
  const wipc = [...before].reverse().find((p): p is Extract<PhaseResult, {kind: 'wipc'}> => p.kind === 'wipc') ?? null
  const purge = [...before].reverse().find((p): p is Extract<PhaseResult, {kind: 'purge'}> => p.kind === 'purge') ?? null
  const pts = loop.rounds[0]?.points ?? loop.windowAverages
  const withBs = pts.filter(p => p.blockSizeBytes !== null)
  const access = isTestId(r.test) && TESTS[r.test].claimAccess !== null ? TESTS[r.test].claimAccess! : 'random'
  const c = loop.criteria
  return {
    runId: r.runId, test: r.test, revision: r.revision, profile: r.profile, status: r.status, phase: loop.id, phaseTitle: loop.title,
    parameters: {
      ...r.parameters, access, maxRounds: c.maxRounds, pointSeconds: c.pointSeconds,
      rwMixReadPct: distinct(withBs.map(p => p.readPct)), blockSizesBytes: distinct(withBs.map(p => p.blockSizeBytes!)),
      windowRounds: c.windowRounds, maxDataExcursionPct: c.maxDataExcursionPct, maxSlopeExcursionPct: c.maxSlopeExcursionPct,
    },
    pointsPerRound: pts.length,
    rounds: loop.rounds,
    tracking: loop.tracking.map(t => {
      const p = pts.find(q => q.index === t.pointIndex) ?? pts[t.pointIndex]
      return {id: t.id, label: t.label, metric: t.metric, readPct: p?.readPct ?? 0, blockSizeBytes: p?.blockSizeBytes ?? 0, series: t.series}
    }),
    evaluations: loop.evaluations,
    steadyState: loop.steadyState,
    windowAverages: loop.windowAverages.filter((w): w is LoopWindowAverage & {blockSizeBytes: number} => w.blockSizeBytes !== null),
    wipc, purge,
  }
}
