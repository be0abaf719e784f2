/**
 * Runs stored by pts before the one-pipeline format: an IOPS results.json without phases
 * (schemas/run-result-v1.schema.json). Read and turned into the phase format on read
 * (purge, WIPC, one loop phase), never rewritten: the stored bytes stay as sealed, so the seal and
 * signature still hold, and every raw file keeps the path results.json names. Pure.
 *
 * Values v1 stored (each point's measurement, the tracking series, evaluations, verdict and the
 * window averages it computed) are carried over as stored, so that `pts audit` compares them with
 * its recomputation from raw/; window-average fields v1 did not store (per-direction bandwidth,
 * the 99.999th percentile) are filled from the stored rounds.
 */
import type {Measurement} from '../model/results.js'
import type {VariableEvaluation, WindowStatus} from '../model/results.js'
import {workloadLabel} from '../plan/expand.js'
import {type LoopWindowAverage, type PhaseResult, type ProgramResults, type StepResult} from '../model/results.js'
import {loopWindowAverages} from '../steady-state/conclude.js'
import type {RunManifest, RunStatus} from '../model/manifest.js'
import type {ProfileId, Revision} from '../model/tests.js'

export interface V1PointResult extends Measurement {
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

export interface V1RoundResult {
  round: number
  startedAt: string
  finishedAt: string | null
  points: V1PointResult[]
}

export interface V1RoundEvaluation {
  round: number
  status: WindowStatus
  fromRound: number | null
  toRound: number | null
  variables: VariableEvaluation[]
}

export interface V1TrackingResult {
  id: string
  label: string
  readPct: number
  blockSizeBytes: number
  metric: 'iops'
  /** Value per round, index 0 = round 1. */
  series: number[]
}

export interface V1WindowAverage {
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

export interface V1RunResults {
  schemaVersion: 1
  runId: string
  /** run-result-v1.schema.json: only IOPS runs were stored in this format. */
  test: 'iops'
  revision: Revision
  profile: ProfileId
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
  rounds: V1RoundResult[]
  tracking: V1TrackingResult[]
  /** Evaluation at the end of every complete round (digest B §3.3). */
  evaluations: V1RoundEvaluation[]
  steadyState: {
    /** steady: window met the criteria; not-achieved: round limit reached without it; pending: run not finished. */
    verdict: 'steady' | 'not-achieved' | 'pending'
    fromRound: number | null
    toRound: number | null
    variables: VariableEvaluation[]
  }
  /** Reported values: average over the measurement window (digest Part A 4). */
  windowAverages: V1WindowAverage[]
}


/** Is this stored results.json the IOPS format of earlier versions (no `kind`, rounds at the top)? */
export function isV1Results(data: unknown): boolean {
  const d = data as {kind?: unknown; rounds?: unknown; phases?: unknown} | null
  return typeof d === 'object' && d !== null && d.kind === undefined && Array.isArray(d.rounds) && d.phases === undefined
}

/** The v1 round limit of `--on-no-steady-state continue` (it had none): far beyond any real run. */
const V1_CONTINUE_CAP = 100_000

export function migrateV1(r: V1RunResults, m: Pick<RunManifest, 'target'>): ProgramResults {
  const p = r.parameters
  const order = p.rwMixReadPct.flatMap(readPct => p.blockSizesBytes.map(bs => ({readPct, bs})))
  const step = (pt: V1PointResult): StepResult => {
    const {index, id, readPct, blockSizeBytes, startedAt, finishedAt, startNs, endNs, seed, raw, ...measurement} = pt
    const w = {access: p.access, readPct, blockSizeBytes, bssplit: null, zones: null, threadCount: p.threadCount, queueDepth: p.queueDepth}
    return {index, id, label: workloadLabel(w), readPct, blockSizeBytes, threadCount: p.threadCount, queueDepth: p.queueDepth,
      startedAt, finishedAt, startNs, endNs, seed, raw, ...(measurement as Measurement)}
  }
  const rounds = r.rounds.map(rd => ({round: rd.round, startedAt: rd.startedAt, finishedAt: rd.finishedAt, preRound: null, points: rd.points.map(step)}))
  const ss = r.steadyState
  const recomputed = ss.fromRound !== null && ss.toRound !== null && r.windowAverages.length > 0
    ? loopWindowAverages(rounds.filter(x => x.finishedAt !== null && x.points.length === order.length), ss.fromRound, ss.toRound) : []
  const windowAverages: LoopWindowAverage[] = r.windowAverages.map(w => {
    const f = recomputed.find(x => x.readPct === w.readPct && x.blockSizeBytes === w.blockSizeBytes)
    const index = order.findIndex(o => o.readPct === w.readPct && o.bs === w.blockSizeBytes)
    return {
      index, id: f?.id ?? `rw${w.readPct}`, label: f?.label ?? '', readPct: w.readPct, blockSizeBytes: w.blockSizeBytes, threadCount: p.threadCount, queueDepth: p.queueDepth,
      iops: w.iops, readIops: w.readIops, writeIops: w.writeIops, bwBytesPerSec: w.bwBytesPerSec,
      readBwBytesPerSec: f?.readBwBytesPerSec ?? 0, writeBwBytesPerSec: f?.writeBwBytesPerSec ?? 0,
      latMeanNs: w.latMeanNs, latMaxNs: w.latMaxNs, latMaxAvgNs: w.latMaxAvgNs, latP99999Ns: f?.latP99999Ns ?? null, latPercentileSamples: f?.latPercentileSamples ?? 0,
    }
  })
  const done = r.status === 'complete'
  const purge: PhaseResult = {
    kind: 'purge', id: 'purge', title: 'Purge', status: r.purge.finishedAt === null ? 'pending' : r.purge.status,
    method: r.purge.method, deviation: r.purge.deviation, startedAt: r.purge.startedAt, finishedAt: r.purge.finishedAt, detail: r.purge.detail, log: 'raw/purge.json',
  }
  const w = r.wipc
  const wipc: PhaseResult = w
    ? {kind: 'wipc', id: 'wipc', title: `WIPC: SEQ ${w.blockSizeBytes / 1024}KiB W`, status: 'done', blockSizeBytes: w.blockSizeBytes, requiredBytes: w.requiredBytes,
      plannedBytes: w.plannedBytes, writtenBytes: w.writtenBytes, bwBytesPerSec: w.bwBytesPerSec, runtimeSec: w.runtimeSec, startedAt: w.startedAt, finishedAt: w.finishedAt, raw: w.raw}
    : {kind: 'wipc', id: 'wipc', title: 'WIPC: SEQ 128KiB W', status: 'pending', blockSizeBytes: 131072, requiredBytes: 0, plannedBytes: 0, writtenBytes: 0, bwBytesPerSec: 0, runtimeSec: 0, startedAt: null, finishedAt: null, raw: null}
  const loop: PhaseResult = {
    kind: 'loop', id: 'loop', title: 'IOPS loop: RND R/W mix x block size', status: done ? 'done' : rounds.length > 0 ? 'running' : 'pending',
    criteria: {windowRounds: p.windowRounds, maxDataExcursionPct: p.maxDataExcursionPct, maxSlopeExcursionPct: p.maxSlopeExcursionPct, maxRounds: p.maxRounds, pointSeconds: p.pointSeconds},
    rounds,
    tracking: r.tracking.map(t => ({id: t.id, label: t.label, metric: t.metric, pointIndex: order.findIndex(o => o.readPct === t.readPct && o.bs === t.blockSizeBytes), series: t.series})),
    evaluations: r.evaluations.map(e => ({...e})),
    steadyState: {...ss, variables: ss.variables},
    windowAverages,
  }
  return {
    schemaVersion: 1, kind: 'program', runId: r.runId, test: r.test, revision: r.revision, profile: r.profile, status: r.status,
    parameters: {
      threadCount: p.threadCount, queueDepth: p.queueDepth, pointSeconds: p.pointSeconds, maxRounds: p.maxRounds,
      onNoSteadyState: p.onNoSteadyState, roundCap: p.onNoSteadyState === 'continue' ? V1_CONTINUE_CAP : p.maxRounds, wipcMultiple: p.wipcMultiple,
      timeScale: 1, ioengine: p.ioengine, seed: p.seed, workload: null, workloadLabel: null, ceilingMs: null, maxSeconds: null, maxWrittenBytes: null, steadyStateExit: false,
      activeRangePct: p.activeRangePct, activeRangeBytes: p.activeRangeBytes, preconditionActiveRangePct: p.preconditionActiveRangePct, preconditionActiveRangeBytes: p.preconditionActiveRangeBytes,
      writeCacheRequired: p.writeCacheRequired, dataPattern: p.dataPattern, capacityBytes: m.target.sizeBytes, specParameters: [],
    },
    phases: [purge, wipc, loop],
  }
}
