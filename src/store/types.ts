/**
 * What a run stores (results.json validated by schemas/run-result.schema.json, manifest.json by
 * schemas/run-manifest.schema.json). Reports, audits and comparisons are built from these files
 * and raw/, never from the memory of a live run.
 */
import type {Measurement} from '../engine/parse.js'
import type {VariableEvaluation, WindowStatus} from '../steady-state/evaluate.js'
import type {Integrity} from './integrity.js'
import type {ProfileId, Revision, TestId} from '../spec/types.js'
import type {ProgramTestId} from '../program/types.js'

export type RunStatus = 'running' | 'complete' | 'failed' | 'interrupted'

export interface PointResult extends Measurement {
  index: number
  id: string
  readPct: number
  blockSizeBytes: number
  /** Wall-clock start and end of the point's I/O (from fio's pre/post-run hooks), ISO 8601. */
  startedAt: string
  finishedAt: string
  /** The same in ns since the epoch, as strings (exact; used for idle-gap checks). */
  startNs: string
  endNs: string
  seed: number
  /** Paths relative to the run directory. */
  raw: {json: string; job: string}
}

export interface RoundResult {
  round: number
  startedAt: string
  finishedAt: string | null
  points: PointResult[]
}

export interface RoundEvaluation {
  round: number
  status: WindowStatus
  fromRound: number | null
  toRound: number | null
  variables: VariableEvaluation[]
}

export interface TrackingResult {
  id: string
  label: string
  readPct: number
  blockSizeBytes: number
  metric: 'iops'
  /** Value per round, index 0 = round 1. */
  series: number[]
}

export interface WindowAverage {
  readPct: number
  blockSizeBytes: number
  iops: number
  readIops: number
  writeIops: number
  bwBytesPerSec: number
  latMeanNs: number
  /** Maximum over the window (labelled so in reports; digest Part A 4, B §8 item 6). */
  latMaxNs: number
  /** Average of the per-round maxima, shown beside the maximum. */
  latMaxAvgNs: number
}

export interface RunResults {
  schemaVersion: 1
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
    onNoSteadyState: 'stop' | 'continue'
    wipcMultiple: number
    ioengine: string
    seed: number
    activeRangePct: number
    activeRangeBytes: number
    preconditionActiveRangePct: number
    preconditionActiveRangeBytes: number
    writeCacheRequired: 'enabled' | 'disabled'
    dataPattern: 'random'
    access: 'random' | 'sequential'
    rwMixReadPct: number[]
    blockSizesBytes: number[]
    windowRounds: number
    maxDataExcursionPct: number
    maxSlopeExcursionPct: number
  }
  purge: {method: string; status: 'done' | 'skipped' | 'failed'; deviation: string | null; startedAt: string | null; finishedAt: string | null; detail: string}
  wipc: null | {
    blockSizeBytes: number
    requiredBytes: number
    plannedBytes: number
    writtenBytes: number
    bwBytesPerSec: number
    runtimeSec: number
    startedAt: string
    finishedAt: string
    raw: {json: string; job: string}
  }
  rounds: RoundResult[]
  tracking: TrackingResult[]
  /** Evaluation at the end of every complete round (digest B §3.3). */
  evaluations: RoundEvaluation[]
  steadyState: {
    /** steady: window met the criteria; not-achieved: round limit reached without it; pending: run not finished. */
    verdict: 'steady' | 'not-achieved' | 'pending'
    fromRound: number | null
    toRound: number | null
    variables: VariableEvaluation[]
  }
  /** Reported values: average over the measurement window (digest Part A 4). */
  windowAverages: WindowAverage[]
}

export interface DeviceIdentity {
  vendor: string | null
  model: string | null
  serial: string | null
  firmware: string | null
  /** @integer */
  capacityBytes: number
  interface: string
  /** @integer */
  logicalSectorBytes: number
  /** @integer */
  physicalSectorBytes: number
  rotational: boolean | null
  writeCache: string
}

export interface RunManifest {
  schemaVersion: 1
  /** @minLength 1 */
  runId: string
  test: TestId | ProgramTestId
  revision: Revision
  profile: ProfileId
  argv: string[]
  cwd: string
  status: RunStatus
  /** @format date-time */
  createdAt: string
  /** @format date-time */
  finishedAt: string | null
  /** @integer */
  pid: number
  tool: {name: 'pts'; version: string}
  fio: {path: string; version: string}
  node: string
  host: {
    hostname: string
    cpu: string
    /** @integer */
    cores: number
    /** @integer */
    memoryBytes: number
    os: string
    kernel: string
    arch: string
  }
  target: {
    kind: 'file' | 'block'
    path: string
    /** @integer @minimum 0 */
    sizeBytes: number
    identity: DeviceIdentity
  }
  compliance: {compliant: boolean; reasons: string[]}
  deviations: string[]
  events: Array<{
    /** @format date-time */
    at: string
    event: string
    detail: string
  }>
  error: null | {
    message: string
    /** @integer */
    exit: number
  }
  /** SHA-256 of results.json and every raw file, written when the run ends (absent while it runs or after a crash). */
  integrity?: Integrity | null
}
