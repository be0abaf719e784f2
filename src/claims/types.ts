/**
 * Datasheet claims (schemas/claims.schema.json) and the outcome of `pts verify`
 * (schemas/verify-result.schema.json, stored as <run>/claims.json and shown on the report's
 * "Claims vs measured" page).
 */

export type ClaimMetric = 'iops' | 'mbps' | 'latency'
export type ClaimUnit = 'IOPS' | 'MB/s' | 'ms' | 'us'
export type ClaimAccess = 'random' | 'sequential'
export type ClaimCondition = 'fob' | 'steady-state' | 'unspecified'
export type LatencyStatistic = 'mean' | 'p99.99' | 'p99.999'

export interface Claim {
  /** @pattern ^[A-Za-z0-9][A-Za-z0-9._-]*$ */
  id?: string
  metric: ClaimMetric
  access: ClaimAccess
  /** Binary block size: "4KiB", "128KiB", "0.5KiB", "1MiB" (digest Part A 5). @pattern ^(0\.5|[1-9][0-9]*)(KiB|MiB)$ */
  blockSize: string
  /** Read share in percent: 100 = pure read, 0 = pure write, 70 = 70/30. @integer @minimum 0 @maximum 100 */
  readPct: number
  /** @integer @minimum 1 */
  queueDepth?: number
  /** @integer @minimum 1 */
  threadCount?: number
  /** Latency claims only; default mean. */
  statistic?: LatencyStatistic
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

/** meets: within tolerance of the claim (or better); below: worse than the claim beyond tolerance. */
export type Verdict = 'meets' | 'below' | 'not-measured'

/** The drive state of the measurement, from results.steadyState.verdict. */
export type MeasuredCondition = 'steady-state' | 'after-preconditioning' | 'incomplete'

export interface ClaimOutcome {
  /** @minLength 1 */
  id: string
  /** "4 KiB random read", "128 KiB sequential write", "4 KiB random R/W 70/30 latency (mean)". @minLength 1 */
  label: string
  metric: ClaimMetric
  access: ClaimAccess
  /** @integer @minimum 1 */
  blockSizeBytes: number
  /** @integer @minimum 0 @maximum 100 */
  readPct: number
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
  /** One sentence: claim, measurement, ratio, verdict and condition. @minLength 1 */
  text: string
  /**
   * The run (and, for a test program, the loop phase) the measured value came from; null when not
   * measured. Optional: verify results written before runs of other tests could be verified lack it.
   */
  source?: MeasurementOrigin | null
}

/** Which run a measurement came from: its test, run id, directory (name inside a suite) and loop phase. */
export interface MeasurementOrigin {
  /** iops, tp or lat. @minLength 1 */
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
  }
  claims: ClaimOutcome[]
}
