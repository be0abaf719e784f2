/**
 * Test definitions: every PTS test (IOPS, TP, LAT, WSAT, HIR, XSR, CBW/ECW, DIRTH) as data
 * (specs/<revision>/<test>.json, validated by schemas/test-program.schema.json). A program is an
 * ordered list of phases; every phase is run with fio through the same engine, store, steady-state
 * module and report pipeline (digest B §4, §5.2-5.8, Part A 1).
 *
 * Every duration, count and threshold lives in the spec file. Values the digest marks as
 * implementation-derived or open carry that mark in `parameters` and are printed in the report.
 */
import type {ProfileId, ProfileParams, Revision, TestId} from './tests.js'

/** One share of a block-size mix (fio bssplit), digest B §5.7. */
export interface BlockSizeShare { blockSizeBytes: number; pct: number }

/** One LBA zone (fio random_distribution=zoned): accessPct of the IOs go to rangePct of the ActiveRange, in order from LBA 0. */
export interface Zone { accessPct: number; rangePct: number }

/** What fio does in one step (before the loop variables are applied). */
export interface Workload {
  /** 'selected': start from the workload --workload picked (spec `workloads`), then apply the fields given here. */
  base?: 'selected'
  access?: 'random' | 'sequential'
  /** Percent reads (100 = all reads, 0 = all writes). A loop over readPct overrides it. */
  readPct?: number
  /** One block size, or a block-size mix (bssplit). A loop over blockSizeBytes overrides it. */
  blockSizeBytes?: number
  bssplit?: BlockSizeShare[]
  zones?: Zone[]
  /** Fixed TC / QD (LAT: 1/1; CBW and DIRTH preconditioning: 32/32); else the run's TC/QD. */
  threadCount?: number
  queueDepth?: number
}

export type LoopDimension = 'readPct' | 'blockSizeBytes' | 'threadCount' | 'queueDepth' | 'repeat'

/** A steady-state tracking variable: which point of the round, which metric (digest B §3.4). */
export interface ProgramTracking {
  id: string
  label: string
  metric: 'iops' | 'bwBytesPerSec' | 'writeBwBytesPerSec' | 'latMeanNs'
  /** The point whose value is tracked: every given field must match (pointIndex: position in the round, 0-based). */
  select: {readPct?: number; blockSizeBytes?: number; threadCount?: number; queueDepth?: number; pointIndex?: number}
}

export interface SteadyStateSpec {
  windowRounds: number
  maxDataExcursionPct: number
  maxSlopeExcursionPct: number
  maxRounds: number
  tracking: ProgramTracking[]
}

export interface PurgePhase { kind: 'purge'; id: string; title: string }

export interface WipcPhase {
  kind: 'wipc'
  id: string
  title: string
  /** SEQ writes at this block size (TP: the block size under test), capacityMultiple x the PC ActiveRange. */
  blockSizeBytes: number
  capacityMultiple: number
}

export interface LoopPhase {
  kind: 'loop'
  id: string
  title: string
  workload: Workload
  /** Loops from outer to inner; the order of values is the spec's order. */
  loops: Array<{dimension: LoopDimension; values: number[]}>
  /** Point length: null = the run's --point-seconds (spec 60 s). */
  pointSeconds: number | null
  /** Written before each round (CBW/DIRTH inter-round pre-write), seconds at time scale 1. */
  preRound: null | {workload: Workload; seconds: number}
  steadyState: SteadyStateSpec
}

export interface SeriesPhase {
  kind: 'series'
  id: string
  title: string
  workload: Workload
  /** One sample = one fio job of this length (per-minute sampling: 60). */
  sampleSeconds: number
  /** Phase length at time scale 1. */
  durationSeconds: number
  /** Stop once this many times the user capacity has been written (WSAT: 4). */
  stopAtCapacityMultiple: number | null
  /** Optional steady-state exit (WSAT): every trackEvery-th sample is a tracking value. */
  steadyStateExit: null | {trackEvery: number; windowRounds: number; maxDataExcursionPct: number; maxSlopeExcursionPct: number}
}

export interface BurstsPhase {
  kind: 'bursts'
  id: string
  title: string
  workload: Workload
  /** Write for burstSeconds, then host idle (no IO) for idleSeconds, `repeats` times: one fio job (thinktime). */
  burstSeconds: number
  idleSeconds: number
  repeats: number
  /** Wait State number (idle / burst), for the report. */
  waitState: number
}

export interface OperatingPointsPhase {
  kind: 'operating-points'
  id: string
  title: string
  /** The loop phase whose window averages choose the points. */
  fromPhase: string
  /** MaxIOPS = highest IOPS with mean response time <= this (operator choice, default 5 ms). */
  ceilingMs: number
  prewrite: {workload: Workload; seconds: number}
  /** The measured run that records the response-time histogram (fio json+ clat bins). */
  measureSeconds: number
}

/** One measured run that records a response-time histogram (LAT's optional 2.0 histogram, digest B §5.3). */
export interface HistogramPhase {
  kind: 'histogram'
  id: string
  title: string
  workload: Workload
  seconds: number
  /** Optional in the spec (labelled so in the report). */
  optional: boolean
}

export type PhaseSpec = PurgePhase | WipcPhase | LoopPhase | SeriesPhase | BurstsPhase | OperatingPointsPhase | HistogramPhase

/** A value shown in the report's parameters, with where it comes from (digest §0 provenance marks). */
export interface ProgramParameter {
  name: string
  value: string
  source: 'spec' | 'implementation-derived' | 'open'
  note?: string
}

/** A test definition as loaded: the file (specs/<revision>/<test>.json) plus its revision's profiles (revision.json). */
export interface ProgramSpec {
  $schema?: string
  id: TestId
  revision: Revision
  title: string
  /** Centre of the report title bar, e.g. "TP - SEQ 1024KiB / 128KiB". */
  subtitle: string
  clause: string
  /** From specs/<revision>/revision.json (written once per revision). */
  profiles: Partial<Record<ProfileId, ProfileParams>>
  defaultProfile: ProfileId
  parameters: ProgramParameter[]
  /** Named alternative workloads (WSAT optional PTS 2.0 workloads; DIRTH access patterns) that --workload picks. */
  workloads?: Record<string, {label: string; workload: Workload}>
  /** Which workload --workload defaults to (required when workloads is given). */
  defaultWorkload?: string
  phases: PhaseSpec[]
}
