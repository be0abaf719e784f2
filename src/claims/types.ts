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
  id?: string
  metric: ClaimMetric
  access: ClaimAccess
  /** Binary block size: "4KiB", "128KiB", "0.5KiB", "1MiB" (digest Part A 5). */
  blockSize: string
  /** Read share in percent: 100 = pure read, 0 = pure write, 70 = 70/30. */
  readPct: number
  queueDepth?: number
  threadCount?: number
  /** Latency claims only; default mean. */
  statistic?: LatencyStatistic
  value: number
  unit: ClaimUnit
  condition: ClaimCondition
  notes?: string
}

export interface ClaimsFile {
  $schema?: string
  vendor: string
  model: string
  partNumber?: string
  capacityBytes: number
  source: string
  notes?: string
  claims: Claim[]
}

/** meets: within tolerance of the claim (or better); below: worse than the claim beyond tolerance. */
export type Verdict = 'meets' | 'below' | 'not-measured'

/** The drive state of the measurement, from results.steadyState.verdict. */
export type MeasuredCondition = 'steady-state' | 'after-preconditioning' | 'incomplete'

export interface ClaimOutcome {
  id: string
  /** "4 KiB random read", "128 KiB sequential write", "4 KiB random R/W 70/30 latency (mean)". */
  label: string
  metric: ClaimMetric
  access: ClaimAccess
  blockSizeBytes: number
  readPct: number
  queueDepth: number | null
  threadCount: number | null
  statistic: LatencyStatistic | null
  condition: ClaimCondition
  claimed: {value: number; unit: ClaimUnit}
  /** In the claim's unit; null when not measured. */
  measured: null | {
    value: number
    unit: ClaimUnit
    /** The test point it came from (same access, block size and R/W mix as the claim). */
    readPct: number
    blockSizeBytes: number
    threadCount: number
    queueDepth: number
    condition: MeasuredCondition
    fromRound: number | null
    toRound: number | null
    /** How the value was derived from results.json. */
    source: string
  }
  /** measured / claimed (for latency, lower is better: a ratio above 1 is worse). */
  ratio: number | null
  /** The measured value that still meets the claim: claimed x (1 - tolerance), latency claimed x (1 + tolerance). */
  threshold: number
  verdict: Verdict
  /** The PTS test that measures this claim when this run did not (e.g. "Throughput (tp) test, SEQ 128 KiB / 1024 KiB"). */
  measuredBy: string | null
  /** Short notes: queue depth, drive condition, why not measured. */
  notes: string[]
  /** One sentence: claim, measurement, ratio, verdict and condition. */
  text: string
}

export interface VerifyResult {
  schemaVersion: 1
  generatedAt: string
  generatedBy: string
  runId: string
  /** Tolerance in percent: a claim is met when the measurement is within this much of it (or better). */
  tolerancePct: number
  claimsFile: {name: string; sha256: string}
  datasheet: {vendor: string; model: string; partNumber: string | null; capacityBytes: number; source: string; notes: string | null}
  run: {
    test: string
    revision: string
    profile: string
    access: ClaimAccess
    threadCount: number
    queueDepth: number
    steadyState: 'steady' | 'not-achieved' | 'pending'
    fromRound: number | null
    toRound: number | null
    /** SHA-256 of the results.json the claims were matched against (the report leaves the page out when it changed). */
    resultsSha256: string
    device: {vendor: string | null; model: string | null; capacityBytes: number; kind: 'file' | 'block'}
  }
  /** E.g. the run's device is not the datasheet's drive. */
  warnings: string[]
  summary: {total: number; meets: number; below: number; notMeasured: number}
  claims: ClaimOutcome[]
}
