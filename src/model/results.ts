/**
 * What a run of any test stores (results.json, schemas/program-result.schema.json): its
 * parameters and its phases, each with its steps, rounds and evaluations. Types only; the
 * derivations are steady-state/conclude.ts (loops) and analysis/derive.ts (the other phases).
 */
import type {RunStatus} from './manifest.js'
import type {ProgramTracking} from './definition.js'

/** What pts reads of one fio job's output (engine/parse.ts; fio's units converted once, digest Part A 5). */
export interface Measurement {
  /** Total IOPS = read IOPS + write IOPS (digest Part A 4, never mix-weighted). */
  iops: number
  readIops: number
  writeIops: number
  bwBytesPerSec: number
  readBwBytesPerSec: number
  writeBwBytesPerSec: number
  readBytes: number
  writeBytes: number
  ioCount: number
  /** IO-count weighted mean of read and write total latency (digest Part A 4). */
  latMeanNs: number
  /** Maximum total latency of any IO of the point. */
  latMaxNs: number
  /** 99.999th percentile total latency over all IOs, with the IO count it was taken over. */
  latP99999Ns: number | null
  latPercentileSamples: number
  runtimeSec: number
}

// Steady-state evaluation of a window (steady-state/evaluate.ts computes it; digest B §3).

/** The criteria of a steady-state window, as the test definition or the stored run gives them. */
export interface SteadyStateCriteria {
  /** Rounds in the measurement window (x-4..x = 5; digest Part A 2). */
  windowRounds: number
  /** Max data excursion, percent of the window average (20; digest B §3.1). */
  maxDataExcursionPct: number
  /** Max slope excursion, percent of the window average (10; digest B §3.1). */
  maxSlopeExcursionPct: number
}

export interface RoundValue {
  round: number
  value: number
}

export interface VariableEvaluation {
  id: string
  /** The window's rounds and values (abscissa = round number). */
  window: RoundValue[]
  fromRound: number
  toRound: number
  average: number
  min: number
  max: number
  /** max - min over the window. */
  dataExcursion: number
  /** maxDataExcursionPct % of the average. */
  allowedDataExcursion: number
  /** Least-squares fit y = slope * round + intercept. */
  slope: number
  intercept: number
  /** |slope| * (n - 1): the fitted line's rise across the window. */
  slopeExcursion: number
  allowedSlopeExcursion: number
  /** Coefficient of determination of the fit; null when all values are equal. */
  rSquared: number | null
  dataExcursionOk: boolean
  slopeExcursionOk: boolean
  steady: boolean
}

export type WindowStatus = 'steady' | 'not-steady' | 'not-yet'


export interface StepResult extends Measurement {
  /** Position in its round / series / phase, 0-based. */
  index: number
  id: string
  label: string
  readPct: number
  blockSizeBytes: number | null
  threadCount: number
  queueDepth: number
  startedAt: string
  finishedAt: string
  startNs: string
  endNs: string
  seed: number
  raw: {json: string; job: string}
}

export interface LoopRound {
  round: number
  startedAt: string
  finishedAt: string | null
  /** The inter-round pre-write (CBW/DIRTH), null when the loop has none. */
  preRound: StepResult | null
  points: StepResult[]
}

export interface LoopTracking { id: string; label: string; metric: ProgramTracking['metric']; pointIndex: number; series: number[] }

export interface LoopEvaluation { round: number; status: WindowStatus; fromRound: number | null; toRound: number | null; variables: VariableEvaluation[] }

export interface LoopWindowAverage {
  index: number
  id: string
  label: string
  readPct: number
  blockSizeBytes: number | null
  threadCount: number
  queueDepth: number
  iops: number
  readIops: number
  writeIops: number
  bwBytesPerSec: number
  readBwBytesPerSec: number
  writeBwBytesPerSec: number
  latMeanNs: number
  /** Maximum over the window (digest Part A 4, B §8 item 6) and the average of the per-round maxima. */
  latMaxNs: number
  latMaxAvgNs: number
  /** Average over the window of each round's 99.999th percentile (null when fio gave none), and the IOs behind them. */
  latP99999Ns: number | null
  latPercentileSamples: number
}

export interface SteadyStateVerdict {
  verdict: 'steady' | 'not-achieved' | 'pending'
  fromRound: number | null
  toRound: number | null
  variables: VariableEvaluation[]
}

export interface SeriesSample extends StepResult {
  /** Bytes written by the phase up to and including this sample (TGBW numerator). */
  cumulativeWrittenBytes: number
}

export type PhaseStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped'

export type PhaseResult =
  | {kind: 'purge'; id: string; title: string; status: PhaseStatus; method: string; deviation: string | null; startedAt: string | null; finishedAt: string | null; detail: string
    /** The purge tool's stored output, relative to the run directory (absent: raw/NN-<id>.purge.json). */
    log?: string}
  | {kind: 'wipc'; id: string; title: string; status: PhaseStatus; blockSizeBytes: number; requiredBytes: number; plannedBytes: number; writtenBytes: number; bwBytesPerSec: number; runtimeSec: number; startedAt: string | null; finishedAt: string | null; raw: {json: string; job: string} | null}
  | {kind: 'loop'; id: string; title: string; status: PhaseStatus
    /** The criteria the run used (so the verdict can be recomputed from results.json and raw/ alone, digest Part A 11). */
    criteria: {windowRounds: number; maxDataExcursionPct: number; maxSlopeExcursionPct: number; maxRounds: number; pointSeconds: number}
    rounds: LoopRound[]; tracking: LoopTracking[]; evaluations: LoopEvaluation[]; steadyState: SteadyStateVerdict; windowAverages: LoopWindowAverage[]}
  | {kind: 'series'; id: string; title: string; status: PhaseStatus; sampleSeconds: number; samples: SeriesSample[]; writtenBytes: number
    /** Which limit ended the phase: duration, capacity (x user capacity written), operator-time, operator-bytes, steady-state; null while running. */
    stopReason: 'duration' | 'capacity' | 'operator-time' | 'operator-bytes' | 'steady-state' | null
    steadyState: SteadyStateVerdict | null}
  | {kind: 'bursts'; id: string; title: string; status: PhaseStatus; waitState: number; burstSeconds: number; idleSeconds: number; repeats: number; job: StepResult | null
    /** IOPS of each write burst, from fio's IOPS log (raw.log). */
    bursts: Array<{index: number; startMs: number; iops: number}>; log: string | null}
  | {kind: 'operating-points'; id: string; title: string; status: PhaseStatus; ceilingMs: number
    /** The loop phase whose window averages chose the points (absent in runs of older versions: 'dv'). */
    fromPhase?: string
    points: OperatingPoint[]}
  | {kind: 'histogram'; id: string; title: string; status: PhaseStatus; optional: boolean; job: StepResult | null
    /** Response-time histogram from fio's json+ completion-latency bins: [upper bound ns, IO count]. */
    histogram: Array<{latNs: number; count: number}> | null}

export interface OperatingPoint {
  role: 'max' | 'mid' | 'min'
  threadCount: number
  queueDepth: number
  /** The DV window average that chose it. */
  iops: number
  latMeanNs: number
  reason: string
  prewrite: StepResult | null
  measure: StepResult | null
  /** Response-time histogram from fio's json+ completion-latency bins: [upper bound ns, IO count]. */
  histogram: Array<{latNs: number; count: number}> | null
}

export interface ProgramResults {
  schemaVersion: 1
  kind: 'program'
  runId: string
  test: string
  revision: string
  profile: string
  status: RunStatus
  parameters: {
    threadCount: number
    queueDepth: number
    pointSeconds: number
    maxRounds: number
    /** stop or continue at the round limit without steady state, and the operator's round cap (absent in runs of older versions: stop). */
    onNoSteadyState?: 'stop' | 'continue'
    roundCap?: number
    /** The operator's WIPC multiple (--wipc-multiple), null = the test definition's; absent in runs of older versions. */
    wipcMultiple?: number | null
    timeScale: number
    ioengine: string
    seed: number
    workload: string | null
    workloadLabel: string | null
    ceilingMs: number | null
    maxSeconds: number | null
    maxWrittenBytes: number | null
    steadyStateExit: boolean
    activeRangePct: number
    activeRangeBytes: number
    preconditionActiveRangePct: number
    preconditionActiveRangeBytes: number
    writeCacheRequired: 'enabled' | 'disabled'
    dataPattern: 'random'
    capacityBytes: number
    /** The spec's provenance-marked constants, shown in the report. */
    specParameters: Array<{name: string; value: string; source: string; note?: string}>
  }
  phases: PhaseResult[]
}
