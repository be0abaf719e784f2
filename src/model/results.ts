/**
 * What a run of any test stores (results.json, schemas/program-result.schema.json): its
 * parameters and its phases, each with its steps, rounds and evaluations. Types only; the
 * derivations are steady-state/conclude.ts (loops) and analysis/derive.ts (the other phases).
 */
import type {RunStatus} from './manifest.js'
import type {ProgramTracking} from './definition.js'
import type {ProfileId, Revision, TestId} from './tests.js'
import type {DriveHealth} from './health.js'

/** What pts reads of one fio job's output (engine/parse.ts; fio's units converted once). */
export interface Measurement {
  /** Total IOPS = read IOPS + write IOPS. @minimum 0 */
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
  /** @integer @minimum 0 */
  readBytes: number
  /** @integer @minimum 0 */
  writeBytes: number
  /** @integer @minimum 0 */
  ioCount: number
  /** IO-count weighted mean of read and write total latency. @minimum 0 */
  latMeanNs: number
  /** Maximum total latency of any IO of the point. @minimum 0 */
  latMaxNs: number
  /** 99.999th percentile total latency over all IOs, with the IO count it was taken over. */
  latP99999Ns: number | null
  /** @integer @minimum 0 */
  latPercentileSamples: number
  /** @minimum 0 */
  runtimeSec: number
}

// Steady-state evaluation of a window (steady-state/evaluate.ts computes it; digest B §3).

/** The criteria of a steady-state window, as the test definition or the stored run gives them. */
export interface SteadyStateCriteria {
  /** Rounds in the measurement window (x-4..x = 5). */
  windowRounds: number
  /** Max data excursion, percent of the window average (20). */
  maxDataExcursionPct: number
  /** Max slope excursion, percent of the window average (10). */
  maxSlopeExcursionPct: number
}

export interface RoundValue {
  /** @integer */
  round: number
  value: number
}

export interface VariableEvaluation {
  id: string
  /** The window's rounds and values (abscissa = round number). */
  window: RoundValue[]
  /** @integer */
  fromRound: number
  /** @integer */
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
  /** Loops that keep them (LAT): fio's json+ total-latency bins of the step, for window percentiles over pooled IOs (absent otherwise and in runs of older versions). */
  latBins?: HistogramBins
  /** How long the step ran against its length and the idle time before it (analysis/timing.ts); absent in runs stored before pts recorded it. */
  timing?: StepTiming
  /** Runs with per-second traces (pts run --per-second): fio's per-second logs of the step and the values read from them; absent otherwise. */
  perSecond?: PerSecondTrace
}

/** A step's per-second trace: the raw logs fio wrote and one value per full second (engine/parse.ts perSecondTrace). */
export interface PerSecondTrace {
  /** The logs, run-relative (fio's names with the step's path as prefix: <step>_iops.<job>.log, _bw, _lat, _clat, _slat, _clat_hist). */
  logs: string[]
  seconds: PerSecondValue[]
}

/** One second of a step's per-second trace (`pts run --per-second`). */
export interface PerSecondValue {
  /** Second s covers (s-1, s] seconds after the job's start; fio logs only full seconds. @integer @minimum 1 */
  s: number
  /** Read + write IOs completed in that second (fio's IOPS log, every job added up). */
  iops: number
  /** Read + write bytes per second (fio's bandwidth log, KiB/s x 1024, every job added up). */
  bwBytesPerSec: number
  /** Mean total latency (submission + completion) in that second, ns, IO-weighted over the directions and jobs; null when fio logged none. */
  latMeanNs: number | null
  /** Maximum completion latency in that second, ns: the top of the highest non-empty bucket of fio's completion-latency histogram log; null when fio logged no histogram for it. */
  latMaxNs: number | null
}


/** A step's timing against the bounds pts holds it to (analysis/timing.ts says why these bounds). */
export interface StepTiming {
  /** The length the fio job asked for (its runtime=), s. */
  plannedSec: number
  /** fio's runtime minus plannedSec, s: negative when the step was short; fio drains the I/O in flight after its time is up. */
  overrunSec: number
  /** The largest overrun accepted: the step's maximum response time + 10 ms, s. */
  overrunLimitSec: number
  /** Idle time since the previous step of the same phase ended, ms; null for a phase's first step. */
  gapBeforeMs: number | null
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
  /** Maximum over the window and the average of the per-round maxima. @minimum 0 */
  latMaxNs: number
  /** @minimum 0 */
  latMaxAvgNs: number
  /**
   * The window's 99.999th percentile: with latP99999Basis 'pooled', over the window's pooled IOs (the rounds' json+ latency
   * bins merged) and latPercentileSamples is that pooled IO count; without it (runs of older versions, loops without bins),
   * the average of each round's 99.999th percentile and the total of the IOs behind them. Null when fio gave none.
   */
  latP99999Ns: number | null
  /** @integer @minimum 0 */
  latPercentileSamples: number
  /** 'pooled' when latP99999Ns is taken over the window's pooled IOs; absent: the average of the per-round values. */
  latP99999Basis?: 'pooled'
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
  /**
   * A sequential series (the phase's `stream`): where each thread's stream started in this sample
   * (absolute byte offset, the job section's fio `offset`) and how far it advanced (its leading
   * direction's bytes from fio's per-job output). Absent in random series and in runs of earlier versions.
   */
  stream?: {
    /** @minItems 1 */
    startOffsets: number[]
    /** @minItems 1 */
    advancedBytes: number[]
  }
}

/** A write-cache state set and read back on the device (after a purge phase). */
export interface WriteCacheRecord {
  required: 'enabled' | 'disabled'
  /** What the device reads back: enabled, disabled, "not present" (no volatile write cache), or "not settable" (loop device, file, unsupported interface). */
  readBack: 'enabled' | 'disabled' | 'not present' | 'not settable'
  /** Whether the state meets the requirement (a drive without a volatile write cache meets "disabled"). */
  meets: boolean
  /** The tool used (nvme, ata, scsi) or null. */
  via: string | null
  detail: string
  /** @format date-time */
  at: string
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
    /** The purge tool's stored output, relative to the run directory (absent: raw/NN-<id>.purge.json). */
    log?: string
    /** The write cache set and read back after this purge (absent in runs of earlier versions). */
    writeCache?: WriteCacheRecord
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
    /** The criteria the run used (so the verdict can be recomputed from results.json and raw/ alone). */
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
    /** A sequential series: each thread's slice; every sample continues each thread's stream (samples' `stream`). Absent in random series and in runs of earlier versions. */
    stream?: {
      /** @minItems 1 */
      slices: Array<{
        /** @integer @minimum 0 */
        offsetBytes: number
        /** @integer @minimum 1 */
        sizeBytes: number
      }>
    }
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
    /** Runs of older versions: the one fio job that ran every burst (thinktime), with its IOPS log; null in new runs. */
    job: StepResult | null
    /**
     * 'burst-jobs': each burst is its own fio step (steps[k]) and its IOPS = IOs completed in the burst / the burst's length
     * (fio's IO count and runtime of that step). Absent (runs of older versions): IOPS from fio's averaged IOPS log of `job`.
     */
    method?: 'burst-jobs'
    /** One fio step per burst, in order (method 'burst-jobs'). */
    steps?: StepResult[]
    /** IOPS of each write burst: from steps (method 'burst-jobs') or from fio's IOPS log (raw.log, older runs). */
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
    /** The loop phase whose window averages chose the points (absent in runs of older versions: 'dv'). */
    fromPhase?: string
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
    /** Response-time histogram from fio's json+ bins: [bucket value ns, IO count]. */
    histogram: HistogramBins | null
    /** 'lat': the histogram is fio's total latency (lat_ns bins, the basis of ART/MRT/5 9s); absent (runs of older versions): completion latency (clat_ns bins). */
    histogramBasis?: 'lat'
  }
  | {
    /** Review tests: each point once, no steady state (QD sweep, four corners, transfer sizes). */
    kind: 'sweep'
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    title: string
    status: PhaseStatus
    /** @exclusiveMinimum 0 */
    pointSeconds: number
    /** One fio step per point, in the definition's order (with its json+ total-latency bins when the phase keeps them). */
    points: StepResult[]
  }
  | {
    /** Review test fill: SEQ writes piece by piece in LBA order, MB/s against the position written. */
    kind: 'fill'
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    title: string
    status: PhaseStatus
    /** @integer @minimum 1 */
    passes: number
    steps: FillStep[]
  }

/** One piece of a fill pass: a size-based fio step writing [offsetBytes, offsetBytes + sizeBytes). */
export interface FillStep extends StepResult {
  /** @integer @minimum 1 */
  pass: number
  /** @integer @minimum 0 */
  offsetBytes: number
  /** @integer @minimum 1 */
  sizeBytes: number
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
  /** The pre-write as one step (runs of older versions, or a definition without pre-write samples): null while it has not run. */
  prewrite: StepResult | null
  /** The pre-write as back-to-back samples (e.g. 60 x 1 min), when the definition asks for them; absent otherwise. */
  prewriteSamples?: StepResult[]
  measure: StepResult | null
  /** Response-time histogram from fio's json+ bins: [bucket value ns, IO count]. */
  histogram: HistogramBins | null
  /** 'lat': total latency (lat_ns bins, as ART/MRT/5 9s); absent (runs of older versions): completion latency (clat_ns bins). */
  histogramBasis?: 'lat'
}

/** fio's json+ latency bins: the bucket's value in ns (fio: the middle of the bucket) and IO count. */
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
  test: TestId
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
    /** stop or continue at the round limit without steady state, and the operator's round cap (absent in runs of older versions: stop). */
    onNoSteadyState?: 'stop' | 'continue'
    /** @integer @minimum 1 */
    roundCap?: number
    /** The operator's WIPC multiple (--wipc-multiple), null = the test definition's; absent in runs of older versions. */
    wipcMultiple?: number | null
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
    /** Per-second traces of every step (pts run --per-second); absent in runs of older versions (off). */
    perSecond?: boolean
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
  /** The drive's SMART / health log before and after the test and its temperature during it; absent in runs of older versions. */
  health?: DriveHealth
}
