/**
 * Test definitions: every PTS test (IOPS, TP, LAT, WSAT, HIR, XSR, CBW/ECW, DIRTH) as data
 * (specs/<revision>/<test>.json, validated by schemas/test-program.schema.json). A program is an
 * ordered list of phases; every phase is run with fio through the same engine, store, steady-state
 * module and report pipeline.
 *
 * Every duration, count and threshold lives in the spec file. Values the digest marks as
 * implementation-derived or open carry that mark in `parameters` and are printed in the report.
 */
import type {ProfileId, ProfileParams, Revision, TestId} from './tests.js'

/** One share of a block-size mix (fio bssplit). */
export interface BlockSizeShare {
  /** @integer @minimum 512 @multipleOf 512 */
  blockSizeBytes: number
  /** @minimum 0 @maximum 100 */
  pct: number
}

/** One LBA zone (fio random_distribution=zoned): accessPct of the IOs go to rangePct of the ActiveRange, in order from LBA 0. */
export interface Zone {
  /** @minimum 0 @maximum 100 */
  accessPct: number
  /** @minimum 0 @maximum 100 */
  rangePct: number
}

/** What fio does in one step (before the loop variables are applied). */
export interface Workload {
  /** 'selected': start from the workload --workload picked (spec `workloads`), then apply the fields given here. */
  base?: 'selected'
  access?: 'random' | 'sequential'
  /** Percent reads (100 = all reads, 0 = all writes). A loop over readPct overrides it. @integer @minimum 0 @maximum 100 */
  readPct?: number
  /** One block size, or a block-size mix (bssplit). A loop over blockSizeBytes overrides it. @integer @minimum 512 @multipleOf 512 */
  blockSizeBytes?: number
  /** @minItems 1 */
  bssplit?: BlockSizeShare[]
  /** @minItems 1 */
  zones?: Zone[]
  /** Fixed TC / QD (LAT: 1/1; CBW and DIRTH preconditioning: 32/32); else the run's TC/QD. @integer @minimum 1 */
  threadCount?: number
  /** @integer @minimum 1 */
  queueDepth?: number
  /** The IO covers the first rangePct % of the target from LBA 0 instead of the ActiveRange (review tests: the fill level). @exclusiveMinimum 0 @maximum 100 */
  rangePct?: number
  /** The IO covers at most this many bytes from LBA 0 (four corners: an 8 GiB span); on a smaller target the whole ActiveRange, which the plan, the step labels and the report say. @integer @minimum 4096 */
  spanBytes?: number
  /** Compressible data: fio buffer_compress_percentage (the share of each buffer that compresses); absent: incompressible. @integer @minimum 0 @maximum 99 */
  compressPct?: number
}

export type LoopDimension = 'readPct' | 'blockSizeBytes' | 'threadCount' | 'queueDepth' | 'repeat'

/** A steady-state tracking variable: which point of the round, which metric. */
export interface ProgramTracking {
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  label: string
  metric: 'iops' | 'bwBytesPerSec' | 'writeBwBytesPerSec' | 'latMeanNs'
  /** The point whose value is tracked: every given field must match (pointIndex: position in the round, 0-based). @minProperties 1 */
  select: {
    /** @integer @minimum 0 @maximum 100 */
    readPct?: number
    /** @integer @minimum 512 @multipleOf 512 */
    blockSizeBytes?: number
    /** @integer @minimum 1 */
    threadCount?: number
    /** @integer @minimum 1 */
    queueDepth?: number
    /** @integer @minimum 0 */
    pointIndex?: number
  }
}

export interface SteadyStateSpec {
  /** @integer @minimum 2 */
  windowRounds: number
  /** @exclusiveMinimum 0 */
  maxDataExcursionPct: number
  /** @exclusiveMinimum 0 */
  maxSlopeExcursionPct: number
  /** @integer @minimum 1 */
  maxRounds: number
  /** @minItems 1 */
  tracking: ProgramTracking[]
}

export interface PurgePhase {
  kind: 'purge'
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  title: string
}

export interface WipcPhase {
  kind: 'wipc'
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  title: string
  /** SEQ writes at this block size (TP: the block size under test): capacityMultiple x the user capacity in total, every write inside the PC ActiveRange. @integer @minimum 512 @multipleOf 512 */
  blockSizeBytes: number
  /** @exclusiveMinimum 0 */
  capacityMultiple: number
  /** Review tests (the fill level): write inside the first rangePct % of the target instead of the PC ActiveRange, capacityMultiple x that range in total. @exclusiveMinimum 0 @maximum 100 */
  rangePct?: number
}

/**
 * Review tests: each point once, one fio step of pointSeconds each, no steady state (a QD sweep,
 * the four corners, transfer sizes). Points: the loops' combinations of the workload, or the
 * listed points (each merged over the workload), or the workload alone.
 */
export interface SweepPhase {
  kind: 'sweep'
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  title: string
  workload: Workload
  /** Loops from outer to inner (as a loop phase). */
  loops?: Array<{
    dimension: 'readPct' | 'blockSizeBytes' | 'threadCount' | 'queueDepth'
    /**
     * @minItems 1
     * @uniqueItems true
     */
    values: number[]
  }>
  /** Explicit points, each merged over the workload (four corners), with a file-name-safe id. @minItems 1 */
  points?: Array<{
    /** @pattern ^[a-z0-9-]+$ */
    id: string
    workload: Workload
  }>
  /** Seconds per point at time scale 1. @exclusiveMinimum 0 */
  pointSeconds: number
  /** Keep each point's total-latency bins (fio json+), for a latency distribution. Absent: false. */
  latencyBins?: boolean
}

/**
 * Review test (fill): SEQ writes over the whole ActiveRange split into `steps` equal pieces, each
 * its own fio step of exactly its bytes, in LBA order; `passes` times. MB/s per piece = MB/s
 * against the position written.
 */
export interface FillPhase {
  kind: 'fill'
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  title: string
  /** @integer @minimum 512 @multipleOf 512 */
  blockSizeBytes: number
  /** @integer @minimum 1 */
  queueDepth: number
  /** @integer @minimum 2 @maximum 1000 */
  steps: number
  /** @integer @minimum 1 @maximum 2 */
  passes: number
}

export interface LoopPhase {
  kind: 'loop'
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  title: string
  workload: Workload
  /** Loops from outer to inner; the order of values is the spec's order. @minItems 1 */
  loops: Array<{
    dimension: LoopDimension
    /**
     * In the spec's order; what a value may be depends on the dimension (scripts/schemas.ts).
     * @minItems 1
     * @uniqueItems true
     */
    values: number[]
  }>
  /** Point length: null = the run's --point-seconds (spec 60 s). @exclusiveMinimum 0 */
  pointSeconds: number | null
  /** Written before each round (CBW/DIRTH inter-round pre-write), seconds at time scale 1. */
  preRound: null | {
    workload: Workload
    /** @exclusiveMinimum 0 */
    seconds: number
  }
  steadyState: SteadyStateSpec
  /**
   * Keep each point's total-latency bins (fio json+ lat_ns bins), so that window statistics are
   * taken over the window's pooled IOs (LAT: the 5 9s of the window). Absent: false.
   */
  latencyBins?: boolean
}

export interface SeriesPhase {
  kind: 'series'
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  title: string
  workload: Workload
  /** One sample = one fio job of this length (per-minute sampling: 60). @exclusiveMinimum 0 */
  sampleSeconds: number
  /** Phase length at time scale 1. @exclusiveMinimum 0 */
  durationSeconds: number
  /** Stop once this many times the user capacity has been written (WSAT: 4). @exclusiveMinimum 0 */
  stopAtCapacityMultiple: number | null
  /** Optional steady-state exit (WSAT): every trackEvery-th sample is a tracking value. */
  steadyStateExit: null | {
    /** @integer @minimum 1 */
    trackEvery: number
    /** @integer @minimum 2 */
    windowRounds: number
    /** @exclusiveMinimum 0 */
    maxDataExcursionPct: number
    /** @exclusiveMinimum 0 */
    maxSlopeExcursionPct: number
  }
}

export interface BurstsPhase {
  kind: 'bursts'
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  title: string
  workload: Workload
  /** Write for burstSeconds, then host idle (no IO) for idleSeconds, `repeats` times: one fio job (thinktime). @exclusiveMinimum 0 */
  burstSeconds: number
  /** @minimum 0 */
  idleSeconds: number
  /** @integer @minimum 1 */
  repeats: number
  /** Wait State number (idle / burst), for the report. @minimum 0 */
  waitState: number
}

export interface OperatingPointsPhase {
  kind: 'operating-points'
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  title: string
  /** The loop phase whose window averages choose the points. @pattern ^[a-z0-9-]+$ */
  fromPhase: string
  /** MaxIOPS = highest IOPS with mean response time <= this (operator choice, default 5 ms). @exclusiveMinimum 0 */
  ceilingMs: number
  prewrite: {
    workload: Workload
    /** @exclusiveMinimum 0 */
    seconds: number
    /** Run the pre-write as back-to-back samples of this length (seconds at time scale 1), stored and plotted per sample; absent: one fio step. @exclusiveMinimum 0 */
    sampleSeconds?: number
  }
  /** The measured run that records the response-time histogram (fio json+ total-latency bins). @exclusiveMinimum 0 */
  measureSeconds: number
}

/** One measured run that records a response-time histogram (LAT's optional 2.0 histogram). */
export interface HistogramPhase {
  kind: 'histogram'
  /** @pattern ^[a-z0-9-]+$ */
  id: string
  /** @minLength 1 */
  title: string
  workload: Workload
  /** @exclusiveMinimum 0 */
  seconds: number
  /** Optional in the spec (labelled so in the report). */
  optional: boolean
}

/** @discriminator kind */
export type PhaseSpec = PurgePhase | WipcPhase | LoopPhase | SeriesPhase | BurstsPhase | OperatingPointsPhase | HistogramPhase | SweepPhase | FillPhase

/**
 * A value shown in the report's parameters, with where it comes from: the spec, public
 * implementations, not confirmed (open), or pts's own choice where the spec is silent (the note
 * says why).
 */
export interface ProgramParameter {
  /** @minLength 1 */
  name: string
  value: string
  /** Rendered in words (model/wording.ts SOURCE_LABELS): the SNIA PTS, public implementations of it, open (the spec does not fix it), or pts's choice where the spec is silent. */
  source: 'spec' | 'implementation-derived' | 'open' | 'pts' | 'review'
  /** User-facing: the SNIA PTS clause where one is known, or pts's choice and its reason (printed by pts plan and in the report). */
  note?: string
  /** Internal provenance, for developers: never printed, never stored with a run. */
  ref?: string
}

/** A test definition as loaded: the file (specs/<revision>/<test>.json) plus its revision's profiles (revision.json). */
export interface ProgramSpec {
  $schema?: string
  id: TestId
  revision: Revision
  /** @minLength 1 */
  title: string
  /** Centre of the report title bar, e.g. "TP - SEQ 1024KiB / 128KiB". @minLength 1 */
  subtitle: string
  /** User-facing citation of the test in the SNIA PTS (printed by pts plan); a section number only where it is confirmed. @minLength 1 */
  clause: string
  /** Internal provenance of the definition, for developers: never printed. */
  clauseRef?: string
  /** From specs/<revision>/revision.json (written once per revision). @minProperties 1 */
  profiles: Partial<Record<ProfileId, ProfileParams>>
  defaultProfile: ProfileId
  parameters: ProgramParameter[]
  /** Named alternative workloads (WSAT optional PTS 2.0 workloads; DIRTH access patterns) that --workload picks. @minProperties 1 */
  workloads?: Record<string, {
    /** @minLength 1 */
    label: string
    workload: Workload
  }>
  /** Which workload --workload defaults to (required when workloads is given). @pattern ^[a-z0-9-]+$ */
  defaultWorkload?: string
  /**
   * 'always': every run of this test stores fio's per-second logs of every step but WIPC, charts
   * them per point and has pts audit recompute them, as pts run --per-second does, with or without
   * the flag (the review tests). Absent: only with --per-second.
   */
  perSecond?: 'always'
  /** @minItems 1 */
  phases: PhaseSpec[]
}

/**
 * A test definition as its file specs/<rev>/<test>.json holds it (schemas/test-program.schema.json):
 * without the profiles, which come from specs/<rev>/revision.json (store/spec-files.ts adds them).
 */
export type ProgramSpecFile = Omit<ProgramSpec, 'profiles' | 'defaultProfile'>
