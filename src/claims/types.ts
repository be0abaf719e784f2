/**
 * Datasheet claims (schemas/claims.schema.json) and the outcome of `pts verify`
 * (schemas/verify-result.schema.json, stored as <run>/claims.json and shown on the report's
 * "Claims vs measured" page).
 */

/**
 * iops, mbps: performance at a workload; latency: response time at a workload (mean, or a QoS
 * percentile); endurance: total writes the drive is rated for (TBW or DWPD), which no PTS test
 * measures (pts reports such claims as not measurable, with the reason).
 */
export type ClaimMetric = 'iops' | 'mbps' | 'latency' | 'endurance'
/** TBW: terabytes written (10^12 B) over the warranty; DWPD: drive writes per day over the warranty. */
export type ClaimUnit = 'IOPS' | 'MB/s' | 'ms' | 'us' | 'TBW' | 'DWPD'
export type ClaimAccess = 'random' | 'sequential'
export type ClaimCondition = 'fob' | 'steady-state' | 'unspecified'
/** mean, or a QoS percentile of the response time (p99 = the 99th percentile, p99.99 = "four nines"). */
export type LatencyStatistic = 'mean' | 'p99' | 'p99.9' | 'p99.99' | 'p99.999'

export interface Claim {
  /** @pattern ^[A-Za-z0-9][A-Za-z0-9._-]*$ */
  id?: string
  metric: ClaimMetric
  /** Required for iops, mbps and latency claims; not for endurance claims. */
  access?: ClaimAccess
  /** Binary block size: "4KiB", "128KiB", "0.5KiB", "1MiB" (KiB = 1024 B). Required for iops, mbps and latency claims. @pattern ^(0\.5|[1-9][0-9]*)(KiB|MiB)$ */
  blockSize?: string
  /** Read share in percent: 100 = pure read, 0 = pure write, 70 = 70/30. Required for iops, mbps and latency claims. @integer @minimum 0 @maximum 100 */
  readPct?: number
  /** @integer @minimum 1 */
  queueDepth?: number
  /** @integer @minimum 1 */
  threadCount?: number
  /** Latency claims only; default mean. */
  statistic?: LatencyStatistic
  /** Endurance claims only: the period the TBW or DWPD figure is rated over, in years (often the warranty). @exclusiveMinimum 0 */
  periodYears?: number
  /** @exclusiveMinimum 0 */
  value: number
  unit: ClaimUnit
  condition: ClaimCondition
  notes?: string
}

export interface ClaimsFile {
  $schema?: string
  /** @minLength 1 */
  vendor: string
  /** @minLength 1 */
  model: string
  /** @minLength 1 */
  partNumber?: string
  /** @integer @minimum 1 */
  capacityBytes: number
  /** @minLength 1 */
  source: string
  notes?: string
  /** @minItems 1 */
  claims: Claim[]
}

/**
 * meets: within tolerance of the claim (or better); below: worse than the claim beyond tolerance;
 * not-measured: none of the runs given measures it (another PTS test would); not-measurable: no
 * PTS test measures it (e.g. endurance).
 */
export type Verdict = 'meets' | 'below' | 'not-measured' | 'not-measurable'

/** The drive state of the measurement, from results.steadyState.verdict. */
/** fob: fresh out of box (the FOB sweep of a fob-ss review run, before any preconditioning). */
export type MeasuredCondition = 'steady-state' | 'after-preconditioning' | 'incomplete' | 'fob'

export interface ClaimOutcome {
  /** @minLength 1 */
  id: string
  /** "4 KiB random read", "128 KiB sequential write", "4 KiB random R/W 70/30 latency (mean)". @minLength 1 */
  label: string
  metric: ClaimMetric
  /** null for an endurance claim. */
  access: ClaimAccess | null
  /** @integer @minimum 1 */
  blockSizeBytes: number | null
  /** @integer @minimum 0 @maximum 100 */
  readPct: number | null
  /** @integer @minimum 1 */
  queueDepth: number | null
  /** @integer @minimum 1 */
  threadCount: number | null
  statistic: LatencyStatistic | null
  condition: ClaimCondition
  claimed: {
    /** @exclusiveMinimum 0 */
    value: number
    unit: ClaimUnit
  }
  /** In the claim's unit; null when not measured. */
  measured: null | {
    /** @minimum 0 */
    value: number
    unit: ClaimUnit
    /** The test point it came from (same access, block size and R/W mix as the claim). @integer @minimum 0 @maximum 100 */
    readPct: number
    /** @integer @minimum 1 */
    blockSizeBytes: number
    /** @integer @minimum 1 */
    threadCount: number
    /** @integer @minimum 1 */
    queueDepth: number
    condition: MeasuredCondition
    /** @integer */
    fromRound: number | null
    /** @integer */
    toRound: number | null
    /** How the value was derived from results.json. */
    source: string
  }
  /** measured / claimed (for latency, lower is better: a ratio above 1 is worse). @minimum 0 */
  ratio: number | null
  /** The measured value that still meets the claim: claimed x (1 - tolerance), latency claimed x (1 + tolerance). @minimum 0 */
  threshold: number
  verdict: Verdict
  /** The PTS test that measures this claim when this run did not (e.g. "Throughput (tp) test, SEQ 128 KiB / 1024 KiB"). */
  measuredBy: string | null
  /** Short notes: queue depth, drive condition, why not measured. */
  notes: string[]
  /**
   * Why the verdict is what it is, and what weakens it: a measurement at another load than the
   * claim's, one above what the interface can carry, a file target, a drive condition that
   * differs. Optional: verify results written by older versions lack it.
   */
  verdictReasons?: string[]
  /** The claim's load against the measurement's (optional: older verify results lack it; null when not measured). */
  load?: LoadComparison | null
  /** The measurement against the interface's limit (optional: older verify results lack it; null when not measured). */
  plausibility?: Plausibility | null
  /**
   * A claim matched to the FOB sweep of a fob-ss review run: the same point of its steady-state
   * sweep (after preconditioning), shown beside the FOB value; null when that sweep has no such
   * point. Absent for other matches and in verify results of older versions.
   */
  steadyState?: null | {
    /** In the claim's unit. @minimum 0 */
    value: number
    /** value / claimed. @minimum 0 */
    ratio: number
    /** The steady-state value / the FOB value. @minimum 0 */
    ofFob: number | null
    source: string
  }
  /** One sentence: claim, measurement, ratio, verdict and condition. @minLength 1 */
  text: string
  /**
   * The run (and, for a test program, the loop phase) the measured value came from; null when not
   * measured. Optional: verify results written before runs of other tests could be verified lack it.
   */
  source?: MeasurementOrigin | null
}

/** Thread count x queue depth of the claim and of the measurement it was matched to. */
export interface LoadComparison {
  claimed: {
    /** @integer @minimum 1 */
    threadCount: number | null
    /** @integer @minimum 1 */
    queueDepth: number | null
    /** TC x QD (a QD without a TC is TC 1, the datasheet convention "QD32" = T1/Q32); null when the claim states no QD. @integer @minimum 1 */
    outstandingIos: number | null
  }
  measured: {
    /** @integer @minimum 1 */
    threadCount: number
    /** @integer @minimum 1 */
    queueDepth: number
    /** @integer @minimum 1 */
    outstandingIos: number
  }
  /** true: same TC and QD; false: another load (the measurement is not like for like); null: the claim states no load. */
  likeForLike: boolean | null
}

/**
 * Can the drive's interface carry the measured bandwidth? plausible: at or below the interface's
 * limit; implausible: above it (a cache or something other than the drive was measured);
 * not-a-drive: the target is a file or a file-backed device; unchecked: no limit is known.
 */
export interface Plausibility {
  status: 'plausible' | 'implausible' | 'not-a-drive' | 'unchecked'
  /** The measured bandwidth checked (bytes/s: the busier direction, or both on a half-duplex link). @minimum 0 */
  measuredBytesPerSec: number
  /** @minimum 0 */
  limitBytesPerSec: number | null
  /** "SATA 6 Gb/s: 600 MB/s", "PCIe 8.0 GT/s x4: 3,938 MB/s", "PCIe link unknown ...". @minLength 1 */
  basis: string
  /** Whether the limit comes from the device's own link (PCIe speed and width stored with the run). */
  linkKnown: boolean
  /** @minLength 1 */
  text: string
}

/** Which run a measurement came from: its test, run id, directory (name inside a suite) and loop phase. */
export interface MeasurementOrigin {
  /** iops, tp, lat, dirth, cbw or ecw. @minLength 1 */
  test: string
  /** @minLength 1 */
  runId: string
  /** The run directory's name ("02-tp" in a suite), null when not known. */
  dir: string | null
  /** The loop phase of a test-program run ("loop-128k", "loop"), null for an IOPS run. */
  phase: string | null
}

/** A run the claims were matched against (VerifyResult.run, and each of VerifyResult.runs). */
export interface VerifiedRun {
  test: string
  revision: string
  profile: string
  access: ClaimAccess
  /** @integer @minimum 1 */
  threadCount: number
  /** @integer @minimum 1 */
  queueDepth: number
  /** A test program's loops combined: pending when any is pending, else not-achieved when any is, else steady. */
  steadyState: 'steady' | 'not-achieved' | 'pending'
  /** The measurement window (null for a test program with more than one loop: see phases). @integer */
  fromRound: number | null
  /** @integer */
  toRound: number | null
  /** SHA-256 of the results.json the claims were matched against (the report leaves the page out when it changed). @pattern ^[0-9a-f]{64}$ */
  resultsSha256: string
  device: {
    vendor: string | null
    model: string | null
    /** @integer @minimum 0 */
    capacityBytes: number
    kind: 'file' | 'block'
  }
  /** Optional (test programs and suites): the run's id, its directory and its loop phases. @minLength 1 */
  runId?: string
  dir?: string | null
  phases?: Array<{
    /** @minLength 1 */
    id: string
    steadyState: 'steady' | 'not-achieved' | 'pending'
    /** @integer */
    fromRound: number | null
    /** @integer */
    toRound: number | null
  }>
}

export interface VerifyResult {
  schemaVersion: 1
  /** @format date-time */
  generatedAt: string
  /** @minLength 1 */
  generatedBy: string
  /** @minLength 1 */
  runId: string
  /** Tolerance in percent: a claim is met when the measurement is within this much of it (or better). @minimum 0 @maximum 100 */
  tolerancePct: number
  claimsFile: {
    /** File name of the claims file (without its directory). @minLength 1 */
    name: string
    /** @pattern ^[0-9a-f]{64}$ */
    sha256: string
  }
  datasheet: {
    vendor: string
    model: string
    partNumber: string | null
    /** @integer @minimum 1 */
    capacityBytes: number
    source: string
    notes: string | null
  }
  /** The run verified (a suite: its first run used, kept for readers of one-run results; every run is in `runs`). */
  run: VerifiedRun
  /** A suite: its id (runId is the suite id then). */
  suite?: {
    /** @minLength 1 */
    suiteId: string
  }
  /** A suite: every run the claims were matched against, in suite order. @minItems 1 */
  runs?: VerifiedRun[]
  /** E.g. the run's device is not the datasheet's drive. */
  warnings: string[]
  summary: {
    /** @integer @minimum 0 */
    total: number
    /** @integer @minimum 0 */
    meets: number
    /** @integer @minimum 0 */
    below: number
    /** @integer @minimum 0 */
    notMeasured: number
    /** Claims no PTS test measures (endurance). Optional: older verify results lack it. @integer @minimum 0 */
    notMeasurable?: number
    /** Claims whose measurement is not like for like (another load), above the interface's limit, or of a file target. Optional. @integer @minimum 0 */
    flagged?: number
  }
  claims: ClaimOutcome[]
}
