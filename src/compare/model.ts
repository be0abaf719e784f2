/**
 * The comparison model (`pts compare`): two or more stored runs of the same test and revision,
 * side by side. Pure and deterministic: the same runs, options and `generatedAt` give the same
 * model (written as compare.json). Reported numbers are the runs' own window averages
 * (results.windowAverages, digest Part A 4) and tracking series, only divided, ranked and
 * formatted here, never recomputed from the raw data.
 *
 * Conventions:
 * - The first run given is the baseline: ratios are run k / run 1 ("R2 / R1").
 * - A ratio is shown to 2 decimals; it is highlighted when the printed value is below 0.90 or
 *   above 1.10 (decided on the printed value, so "0.90" is never highlighted).
 * - Sample variation uses the sample standard deviation (n - 1 in the denominator): the runs are
 *   samples of a model's population, and the CV estimates that population's spread.
 * - Table layout follows digest B §6.3: rows block size small -> large, columns R/W mix
 *   0/100 -> 100/0.
 */
import type {RunManifest} from '../model/manifest.js'
import {revisionLabel, reviewSource} from '../model/tests.js'
import {plainStoredText} from '../model/wording.js'
import type {LoopView} from '../analysis/loop-view.js'
import type {PhaseResult, ProgramResults} from '../model/results.js'
import {formatRatio, ratio, sampleStats, type Cell, type CompareTable, type SampleStats} from './table.js'

import {burstsTable, comparePhases, LAST_SAMPLES, loopTables, metricText, operatingTable, phaseHeadlines, ratioPhrase, seriesTable, type PhaseCompare, type PhaseRunKey} from './phases.js'

/** A run as compared: one steady-state loop phase (the IOPS loop, a TP block size, LAT, ...) as a matrix. */
type RunResults = LoopView
type WindowAverage = LoopView['windowAverages'][number]
import {blockSizeLabel, formatBytes, formatCapacity, mixLabel} from '../units.js'
import {multipleLabel} from '../plan/expand.js'
import {fixed, fmtInstant, pointLabel} from '../report/format.js'
import * as M from '../messages.js'
import {bodyBudgetMm, CONTENT_MM, H2_MM, headerMm, matrixTableMm, paragraphMm, sideRowMm, tablesPerPage, textLines} from './layout.js'

export interface CompareRunInput {
  runDir: string
  manifest: RunManifest
  /** The run's first steady-state loop as a matrix; null when its test has none (WSAT, XSR). */
  results: RunResults | null
  /** The whole stored run (every phase); required when results is null. */
  program?: ProgramResults
}

type LoopInput = CompareRunInput & {results: RunResults}

/** A run without a loop seen as an empty matrix (no points, rounds, tracking or window), so the summary reads it like any other. */
export function loopLessView(p: ProgramResults): RunResults {
  const first = <K extends PhaseResult['kind']>(kind: K) => p.phases.find((q): q is Extract<PhaseResult, {kind: K}> => q.kind === kind) ?? null
  return {
    runId: p.runId, test: p.test, revision: p.revision, profile: p.profile, status: p.status, phase: '', phaseTitle: '',
    parameters: {...p.parameters, access: 'random', rwMixReadPct: [], blockSizesBytes: [], windowRounds: 0, maxDataExcursionPct: 0, maxSlopeExcursionPct: 0},
    pointsPerRound: 0, rounds: [], tracking: [], evaluations: [],
    steadyState: {verdict: 'pending', fromRound: null, toRound: null, variables: []},
    windowAverages: [], wipc: first('wipc'), purge: first('purge'),
  }
}

/** The input with its matrix view (an empty one for a run without a loop). */
export function withView(x: CompareRunInput): LoopInput {
  if (x.results !== null) return x as LoopInput
  if (!x.program) throw new Error(`run ${x.runDir} has neither a loop view nor its stored results`)
  return {...x, results: loopLessView(x.program)}
}

const hasLoop = (r: RunResults): boolean => r.phase !== ''
/** The loop's access as its point labels print it (TP's loops are sequential: "SEQ 128KiB R/W 0/100"). */
const accessOf = (r: Pick<RunResults, 'parameters'>): string => (r.parameters.access === 'sequential' ? 'SEQ' : 'RND')

export interface CompareOptions {
  /** One label per run, in order (--label); default labels are derived from the run. */
  labels?: string[]
  /** Treat the runs as samples of one model even when the manifests do not say so (--samples). */
  samples?: boolean
  generatedAt: string
  /** Version of the pts that builds the comparison (default: the first run's). */
  toolVersion?: string
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)
const none = (v: string | null | undefined): string => (v === null || v === undefined || v === '' ? 'none' : v)

/** "iops PTS 2.0.2 enterprise". */
export function testText(r: Pick<RunResults, 'test' | 'revision' | 'profile'>): string {
  return `${r.test} ${revisionLabel(r.revision)} ${r.profile}`
}

// ---------------------------------------------------------------------------------------------
// Readiness and compatibility

/** Why a stored run cannot be compared (null: it can). Still running, or no window averages. */
export function runProblem(m: Pick<RunManifest, 'status'>, r: Pick<RunResults, 'status' | 'windowAverages' | 'steadyState' | 'parameters'>): string | null {
  if (r.status === 'running' || m.status === 'running') {
    return 'the run is still in progress (status "running"): it has no final measurement window yet'
  }
  if (r.windowAverages.length === 0 || r.steadyState.fromRound === null || r.steadyState.toRound === null) {
    return `the run has no measurement-window averages (status "${r.status}", steady state "${r.steadyState.verdict}"): it ended before its first complete 5-round window`
  }
  const missing: string[] = []
  for (const rp of r.parameters.rwMixReadPct) {
    for (const bs of r.parameters.blockSizesBytes) {
      if (!r.windowAverages.some(w => w.readPct === rp && w.blockSizeBytes === bs)) missing.push(pointLabel(rp, bs, accessOf(r)))
    }
  }
  if (missing.length > 0) return `the run's window averages lack ${missing.length} point(s) of its matrix, e.g. ${missing.slice(0, 3).join(', ')}`
  return null
}

/** Why a stored run of a test without a loop (WSAT, XSR) cannot be compared (null: it can): still running, or nothing measured. */
export function programProblem(m: Pick<RunManifest, 'status'>, p: Pick<ProgramResults, 'status' | 'phases'>): string | null {
  if (p.status === 'running' || m.status === 'running') {
    return 'the run is still in progress (status "running"): its phases are not final yet'
  }
  const measured = p.phases.some(q => (q.kind === 'series' && q.samples.length > 0) || (q.kind === 'bursts' && q.bursts.length > 0) || (q.kind === 'operating-points' && q.points.length > 0) || (q.kind === 'sweep' && q.points.length > 0))
  return measured ? null : `the run has no samples, bursts, operating points or sweep points to compare (status "${p.status}")`
}

export type Compatibility =
  | {ok: true}
  | ({ok: false} & M.Msg)

const sameSet = (a: readonly number[], b: readonly number[]): boolean => {
  const x = [...new Set(a)].sort((p, q) => p - q)
  const y = [...new Set(b)].sort((p, q) => p - q)
  return x.length === y.length && x.every((v, i) => v === y[i])
}

/**
 * Can these runs be compared point by point? Only runs of the same test, the same revision and
 * the same R/W mix x block size matrix. Runs are named by their 1-based position ("run 2").
 */
export function checkCompatibility(runs: ReadonlyArray<Pick<RunResults, 'test' | 'revision' | 'profile' | 'parameters'> & {tracking?: RunResults['tracking']}>): Compatibility {
  if (runs.length < 2) {
    return {ok: false, ...M.compare.tooFewRuns(runs.length)}
  }
  const base = runs[0]
  const problems: string[] = []
  for (let i = 1; i < runs.length; i++) {
    const r = runs[i]
    const who = `run 1 is ${testText(base)}, run ${i + 1} is ${testText(r)}`
    if (r.test !== base.test) {
      problems.push(`${who}: different tests measure different things, so no point of one has a counterpart in the other`)
      continue
    }
    const mixes = !sameSet(r.parameters.rwMixReadPct, base.parameters.rwMixReadPct)
    const sizes = !sameSet(r.parameters.blockSizesBytes, base.parameters.blockSizesBytes)
    const matrixText = mixes || sizes
      ? `the ${[mixes ? 'R/W mixes' : '', sizes ? 'block sizes' : ''].filter(Boolean).join(' and ')} of the R/W mix x block size matrices differ (run 1: ${base.parameters.rwMixReadPct.map(mixLabel).join(', ')} x ${base.parameters.blockSizesBytes.map(blockSizeLabel).join(', ')}; run ${i + 1}: ${r.parameters.rwMixReadPct.map(mixLabel).join(', ')} x ${r.parameters.blockSizesBytes.map(blockSizeLabel).join(', ')})`
      : ''
    if (r.revision !== base.revision) {
      const tracked = (x: typeof r) => (x.tracking ?? []).map(t => pointLabel(t.readPct, t.blockSizeBytes, accessOf(x))).join(', ')
      const trackingText = base.tracking && r.tracking && tracked(base) !== tracked(r)
        ? `their steady-state tracking variables differ (run 1: ${tracked(base) || 'none'}; run ${i + 1}: ${tracked(r) || 'none'})`
        : ''
      problems.push(`${who}: ${[matrixText, trackingText].filter(Boolean).join('; ') || 'the revisions define the test differently (test definitions, steady-state rules, profile parameters)'}`)
    } else if (matrixText) {
      problems.push(`${who}: ${matrixText}`)
    }
  }
  if (problems.length === 0) return {ok: true}
  return {ok: false, ...M.compare.notComparable(problems)}
}

// ---------------------------------------------------------------------------------------------
// Maths



export {median, sampleStats, type SampleStats} from './table.js'

export interface SampleVerdict {
  samples: boolean
  forced: boolean
  /** Two runs of one drive model with different firmware (a firmware A/B comparison): R1 = A, R2 = B; absent otherwise. */
  firmwareAB?: {a: string; b: string}
  /** Why the runs are (or are not) treated as samples of one model. */
  reason: string
}

/**
 * Are the runs samples of one model? Yes when every run is on a block device and every manifest
 * names the same non-null model, or when forced (--samples). File targets report the model
 * "regular file", which is not a drive model, so they count only when forced.
 */
export function detectSamples(manifests: ReadonlyArray<Pick<RunManifest, 'target'>>, force = false): SampleVerdict {
  const n = manifests.length
  const models = manifests.map(m => m.target.identity.model)
  const nText = n < 3 ? ` (n=${n}: with fewer than 3 runs the spread is a rough estimate)` : ''
  if (force) return {samples: true, forced: true, reason: `The runs are treated as samples of one model because --samples was given${nText}`}
  const files = manifests.map((m, i) => (m.target.kind === 'file' ? `R${i + 1}` : null)).filter((x): x is string => x !== null)
  if (files.length > 0) {
    return {samples: false, forced: false, reason: `Not treated as samples of one model: ${files.join(', ')} ${files.length === 1 ? 'is a file target' : 'are file targets'}, not drives; pass --samples to treat the runs as samples anyway`}
  }
  const unknown = models.map((m, i) => (m === null || m.trim() === '' ? `R${i + 1}` : null)).filter((x): x is string => x !== null)
  if (unknown.length > 0) {
    return {samples: false, forced: false, reason: `Not treated as samples of one model: the device model of ${unknown.join(', ')} is unknown; pass --samples if they are samples of one model`}
  }
  const distinct = [...new Set(models as string[])]
  if (distinct.length > 1) {
    return {samples: false, forced: false, reason: `Not treated as samples of one model: the models differ (${distinct.join(' vs ')}); pass --samples to treat them as samples anyway`}
  }
  const fw = manifests.map(m => m.target.identity.firmware ?? '')
  if (n === 2 && fw[0] !== fw[1] && fw.every(f => f.trim() !== '')) {
    return {samples: false, forced: false, firmwareAB: {a: fw[0], b: fw[1]},
      reason: `Firmware A/B: both runs are of model ${distinct[0]}, R1 = A (firmware ${fw[0]}), R2 = B (firmware ${fw[1]}); every ratio R2 / R1 is B / A. Not treated as samples of one model (the firmware differs)`}
  }
  return {samples: true, forced: false, reason: `All ${n} runs are of model ${distinct[0]}, so they are treated as samples of that model${nText}`}
}

// ---------------------------------------------------------------------------------------------
// Model types

export interface KV { label: string; value: string }

export interface CompareRun {
  /** "R1", "R2", ... (R1 is the baseline). */
  key: string
  index: number
  baseline: boolean
  label: string
  /** Device, run id and start date, in full. */
  identity: string
  runDir: string
  runId: string
  runStart: string
  runFinish: string
  device: string
  serial: string
  firmware: string
  target: string
  test: string
  revision: string
  profile: string
  tcQd: string
  activeRange: string
  pointSeconds: string
  rounds: string
  steadyState: string
  steadyAchieved: boolean
  windowFrom: number
  windowTo: number
  compliant: boolean
  complianceText: string
  /** "complete", "incomplete (stopped)": the run's status as stored (the review runs' header shows it instead of steady state and compliance). */
  runStatus: string
  reasons: string[]
  deviations: string[]
}

export interface Difference {
  field: string
  /** One value per run, in run order. */
  values: string[]
  /** As the summary page lists it (shorter where the runs share a part, e.g. common compliance reasons). */
  shownField: string
  shown: string[]
}



export interface SideBySideRow {
  label: string
  values: string[]
  differs: boolean
  /** One value for all runs (a cell spanning `colspan` run columns). */
  span: boolean
  colspan: number
}

export interface CompareSummary {
  /** The first summary page carries the baseline note, the differences and the sample verdict; the side-by-side table may continue on more pages. */
  first: boolean
  baselineNote: string
  runs: SideBySideRow[]
  differences: Difference[]
  noDifferences: string
  samples: SampleVerdict
  pagesNote: string
}

export interface ConvergenceData {
  id: string
  label: string
  points: Array<{run: string; key: string; round: number; iops: number; inWindow: boolean}>
  windows: Array<{run: string; key: string; from: number; to: number; average: number}>
  rounds: number[]
}

export interface VariationPoint {
  readPct: number
  mix: string
  blockSizeBytes: number
  blockSize: string
  stats: SampleStats
}

export type ComparePageKind = 'csummary' | 'cmatrices' | 'cconvergence' | 'cvariation' | 'cchart' | 'cphase'

export interface ComparePage {
  number: number
  total: number
  pageLabel: string
  kind: ComparePageKind
  title: string
  caption: string
  chart: string | null
  summary: CompareSummary | null
  tables: CompareTable[]
  /** Small key-value table under a chart (per-run window data of a tracking variable). */
  runTable: null | {columns: string[]; rows: string[][]}
  note: string
  legend: boolean
  /** Largest height of the chart on the page, mm (what the header, tables and notes leave). */
  chartMaxMm: number | null
  /** Pages of the phase-by-phase comparison (kind cphase): the compared phase's id and kind. */
  phase?: {id: string; kind: PhaseCompare['kind']}
}

export interface CompareHeader {
  /** The title bar's left block: the SNIA lines for PTS runs; for review runs, that they are pts's review tests, not part of the SNIA PTS. */
  issuer: string[]
  /** Review runs (specs/reviews/): the header has no steady-state or compliance columns and no SNIA wording; its status bar says they are review tests. */
  review: boolean
  title: string
  subtitle: string
  reportDate: string
  revision: string
  baseline: string
  runs: CompareRun[]
  allCompliant: boolean
  /** Compliance lines for the header status bar (shared reasons once). */
  complianceLines: string[]
  allSteady: boolean
  steadyLine: string
}

export interface CompareModel {
  schemaVersion: 1
  kind: 'pts-compare'
  generatedAt: string
  generatedBy: string
  reportTitle: string
  header: CompareHeader
  runs: CompareRun[]
  differences: Difference[]
  samples: SampleVerdict
  /** The headline differences, a few lines per compared phase (pts compare prints them). */
  headlines: string[]
  pages: ComparePage[]
  data: {
    mixesWriteFirst: number[]
    blockSizesSmallFirst: number[]
    /** Per point, one value per run (window averages), in table order. */
    matrix: Array<{readPct: number; blockSizeBytes: number; runs: MatrixValues[]}>
    convergence: ConvergenceData[]
    variation: VariationPoint[] | null
    /** The phases compared phase by phase (every loop after the first, series, bursts, operating points). */
    phases: PhaseCompare[]
  }
}

// ---------------------------------------------------------------------------------------------
// Building the model

/** Items present in every list (in the first list's order), and what each list has beyond them. */
export function factorLists(lists: ReadonlyArray<readonly string[]>): {common: string[]; extra: string[][]} {
  if (lists.length === 0) return {common: [], extra: []}
  const common = lists[0].filter(item => lists.every(l => l.includes(item)))
  return {common, extra: lists.map(l => l.filter(item => !common.includes(item)))}
}

/** One run's window averages at one matrix point (latP99999Ms: LAT only). */
export interface MatrixValues { iops: number; mbPerSec: number; latMeanMs: number; latMaxMs: number; latP99999Ms?: number }

export interface Metric {
  id: 'iops' | 'mbPerSec' | 'latMeanMs' | 'latMaxMs' | 'latP99999Ms'
  title: string
  heading: string
  decimals: number
  value: (w: WindowAverage) => number
}

export const METRICS: readonly Metric[] = [
  {id: 'iops', title: 'IOPS', heading: 'IOPS (read + write)', decimals: 0, value: w => w.iops},
  {id: 'mbPerSec', title: 'Bandwidth', heading: 'Bandwidth, MB/s (10^6 B/s)', decimals: 2, value: w => w.bwBytesPerSec / 1e6},
  {id: 'latMeanMs', title: 'Mean Response Time', heading: 'Mean response time, ms', decimals: 3, value: w => w.latMeanNs / 1e6},
  {id: 'latMaxMs', title: 'Maximum Response Time', heading: 'Maximum response time over the window, ms', decimals: 3, value: w => w.latMaxNs / 1e6},
]

/** LAT's third reported response time: the window average of each round's 99.999th percentile. */
export const P99999_METRIC: Metric = {id: 'latP99999Ms', title: '99.999th Percentile Response Time', heading: '99.999th percentile response time, window average, ms', decimals: 3,
  value: w => (w.latP99999Ns === null ? Number.NaN : w.latP99999Ns / 1e6)}

/** The matrix metrics of these runs: the four of every loop, and for LAT the 99.999th percentile when every run's window averages carry it. */
export function metricsFor(runs: ReadonlyArray<Pick<RunResults, 'test' | 'windowAverages'>>): readonly Metric[] {
  const p5 = runs[0]?.test === 'lat' && runs.every(r => r.windowAverages.length > 0 && r.windowAverages.every(w => w.latP99999Ns !== null))
  return p5 ? [...METRICS, P99999_METRIC] : METRICS
}

/** "2X user capacity": what the WIPC planned, as a multiple of the user capacity (runs of earlier versions wrote a multiple of the PC ActiveRange and show it so). */
function wipcText(r: RunResults): string {
  const w = r.wipc
  if (!w) return 'none'
  const cap = r.parameters.capacityBytes
  return cap > 0 ? `${multipleLabel(w.plannedBytes / cap)} user capacity` : 'n/a'
}

function findAverage(r: RunResults, readPct: number, bs: number): WindowAverage | undefined {
  return r.windowAverages.find(w => w.readPct === readPct && w.blockSizeBytes === bs)
}

function completeRoundCount(r: RunResults): number {
  return r.rounds.filter(x => x.finishedAt !== null && x.points.length === r.pointsPerRound).length
}

function steadyText(r: RunResults): {text: string; achieved: boolean} {
  if (!hasLoop(r)) return {text: `n/a (no steady-state loop, run ${r.status})`, achieved: r.status === 'complete'}
  const ss = r.steadyState
  const w = ss.fromRound === null || ss.toRound === null ? 'n/a' : `${ss.fromRound}-${ss.toRound}`
  if (ss.verdict === 'steady') return {text: `Rounds ${w}`, achieved: true}
  if (ss.verdict === 'not-achieved') return {text: `Rounds ${w} (NOT ACHIEVED)`, achieved: false}
  return {text: `Rounds ${w} (NOT ACHIEVED, run ${r.status})`, achieved: false}
}

/** "ACME X1 S/N S3EV..." for a drive, the path for a file target. */
export function deviceText(m: RunManifest): string {
  const id = m.target.identity
  if (m.target.kind === 'file') return `file ${m.target.path}`
  const model = [id.vendor, id.model].filter(v => v !== null && v !== '').join(' ') || 'unknown model'
  return `${model}${id.serial ? ` S/N ${id.serial}` : ''}`
}

/** Default label: device + run id + start date (UTC). */
export function defaultLabel(m: RunManifest): string {
  return `${deviceText(m)} - run ${m.runId} (${fmtInstant(m.createdAt).slice(0, 16)} UTC)`
}

function describeRun(input: LoopInput, index: number, label: string | undefined): CompareRun {
  const {manifest: m, results: r} = input
  const p = r.parameters
  const id = m.target.identity
  const ss = steadyText(r)
  const compliant = m.compliance.compliant && r.status === 'complete'
  const reasons = m.compliance.reasons.map(plainStoredText)
  if (r.status !== 'complete') reasons.push(`run status: ${r.status}`)
  return {
    key: `R${index + 1}`,
    index,
    baseline: index === 0,
    label: label !== undefined && label.trim() !== '' ? label.trim() : defaultLabel(m),
    identity: defaultLabel(m),
    runDir: input.runDir,
    runId: r.runId,
    runStart: fmtInstant(m.createdAt),
    runFinish: fmtInstant(m.finishedAt),
    device: m.target.kind === 'file' ? `${none(id.model)} (file target)` : [id.vendor, id.model].filter(v => v !== null && v !== '').join(' ') || 'unknown model',
    serial: none(id.serial),
    firmware: none(id.firmware),
    target: `${m.target.kind} ${m.target.path}`,
    test: r.test.toUpperCase(),
    revision: revisionLabel(r.revision),
    profile: cap(r.profile),
    tcQd: `TC ${p.threadCount} / QD ${p.queueDepth} (TOIO ${p.threadCount * p.queueDepth})`,
    activeRange: `${p.activeRangePct}% (${formatBytes(p.activeRangeBytes)})`,
    pointSeconds: `${p.pointSeconds} s`,
    rounds: hasLoop(r) ? `${completeRoundCount(r)} of max ${p.maxRounds}` : "n/a (no loop)",
    steadyState: ss.text,
    steadyAchieved: ss.achieved,
    windowFrom: r.steadyState.fromRound ?? 0,
    windowTo: r.steadyState.toRound ?? 0,
    compliant,
    complianceText: compliant ? 'Compliant' : 'NOT COMPLIANT',
    runStatus: r.status === 'complete' ? 'complete' : `NOT complete (${r.status})`,
    reasons,
    deviations: m.deviations.map(plainStoredText),
  }
}

/**
 * The status bar of a comparison of review runs: that they are review tests, not part of the SNIA
 * PTS (and where the test comes from), then the runs' other reasons once (those all runs share)
 * and per run; no compliance verdict and no steady state, which a review test does not have. Pure.
 */
export function reviewHeaderStatus(test: string, source: string, runs: readonly CompareRun[]): {lines: string[]; complete: boolean; completeLine: string} {
  const own = (x: string) => /^a review test\b/.test(x)
  const shared = factorLists(runs.map(r => r.reasons.filter(x => !own(x))))
  const lines = [`Review tests, not part of the SNIA PTS: ${test.toUpperCase()} comes from ${source}; no steady-state check, and the results are not PTS results`]
  if (shared.common.length > 0) lines.push(`${runs.length === 1 ? 'Noted' : 'Every run'}: ${shared.common.join('; ')}`)
  runs.forEach((r, i) => { if (shared.extra[i].length > 0) lines.push(`${r.key}: ${shared.extra[i].join('; ')}`) })
  const open = runs.filter(r => r.runStatus !== 'complete').map(r => r.key)
  return {lines, complete: open.length === 0, completeLine: open.length === 0 ? 'Every run complete' : `Run NOT complete: ${open.join(', ')}`}
}

/** "0.2 s per point x 6": a phase's stored length per step (after the time scale) and its step count. */
const stepLengthText = (seconds: number, unit: string, steps: readonly unknown[]): string => `${seconds} s per ${unit} x ${steps.length}`

/** A stored phase's length as the run ran it (lengths after the time scale), or null for a phase without a length of its own (purge, WIPC). */
export function phaseLengthText(ph: PhaseResult): {label: string; text: string} | null {
  switch (ph.kind) {
    case 'sweep': return {label: `Point length, ${ph.id}`, text: stepLengthText(ph.pointSeconds, 'point', ph.points)}
    case 'series': return {label: `Sample length, ${ph.id}`, text: stepLengthText(ph.sampleSeconds, 'sample', ph.samples)}
    case 'loop': return {label: `Point length, ${ph.id}`, text: `${ph.criteria.pointSeconds} s per point, ${ph.rounds.length} round(s)`}
    case 'bursts': return {label: `Burst length, ${ph.id}`, text: `${ph.burstSeconds} s write, ${ph.idleSeconds} s idle, x ${ph.repeats}`}
    case 'fill': {
      const sizes = [...new Set(ph.steps.map(s => s.sizeBytes))]
      return {label: `Fill steps, ${ph.id}`, text: `${ph.passes} pass(es), ${ph.steps.length} step(s) of ${sizes.map(formatBytes).join(' / ') || 'none'} (size-based, no time length)`}
    }
    default: return null
  }
}

/** The noted reasons of a review run besides that it is a review test (which the header says once). */
const reviewNotes = (r: CompareRun): string[] => r.reasons.filter(x => !/^a review test\b/.test(x))

type Col = (f: (i: LoopInput, r: CompareRun) => string) => string[]
type Row = {label: string; values: string[]; condition: boolean}
/** The rows of every compare summary, PTS or review: the drive and the run. */
const driveRows = (col: Col): Row[] => [
    {label: 'Label', values: col((_, r) => r.label), condition: false},
    {label: 'Device', values: col((_, r) => r.device), condition: false},
    {label: 'S/N', values: col((_, r) => r.serial), condition: false},
    {label: 'Firmware', values: col((_, r) => r.firmware), condition: true},
    {label: 'Capacity', values: col(x => formatCapacity(x.manifest.target.identity.capacityBytes)), condition: true},
    {label: 'Interface', values: col(x => x.manifest.target.identity.interface), condition: true},
    {label: 'Target', values: col((_, r) => r.target), condition: false},
    {label: 'Run', values: col((_, r) => `${r.runId}, started ${r.runStart}`), condition: false},
    {label: 'Test', values: col((_, r) => `${r.test}, ${r.revision}`), condition: true},
]
/** WIPC, write cache and purge, as stored. */
const preparationRows = (col: Col): Row[] => [
    {label: 'WIPC', values: col(x => wipcText(x.results)), condition: true},
    {label: 'Write cache', values: col(x => `${x.manifest.target.identity.writeCache} (required: ${x.results.parameters.writeCacheRequired})`), condition: true},
    {label: 'Purge', values: col(x => (x.results.purge ? `${x.results.purge.method} (${x.results.purge.status})` : 'none in this test')), condition: true},
]
/** Deviations, then the software and host. */
const platformRows = (col: Col): Row[] => [
    {label: 'Deviations', values: col((_, r) => (r.deviations.length > 0 ? r.deviations.join('; ') : 'none')), condition: false},
    {label: 'ioengine', values: col(x => x.results.parameters.ioengine), condition: true},
    {label: 'fio', values: col(x => x.manifest.fio.version), condition: true},
    {label: 'pts', values: col(x => x.manifest.tool.version), condition: true},
    {label: 'Host', values: col(x => `${x.manifest.host.hostname} (${x.manifest.host.cpu}, ${x.manifest.host.cores} cores)`), condition: true},
    {label: 'Kernel', values: col(x => x.manifest.host.kernel), condition: true},
]

/**
 * The side-by-side rows of review runs (specs/reviews/): only what is true of them - the test and
 * where it comes from, the run status, the time scale and each stored phase's point / step length,
 * the drive, and the test software. No round limit, steady state, measurement window or compliance
 * verdict (a review test has none), no TC/QD or point duration of a PTS loop.
 */
function reviewConditionRows(inputs: readonly LoopInput[], runs: readonly CompareRun[]): Array<{label: string; values: string[]; condition: boolean}> {
  const col = (f: (i: LoopInput, r: CompareRun) => string) => inputs.map((x, i) => f(x, runs[i]))
  const phaseIds: string[] = []
  for (const x of inputs) for (const ph of x.program?.phases ?? []) if (phaseLengthText(ph) !== null && !phaseIds.includes(ph.id)) phaseIds.push(ph.id)
  const lengthRows = phaseIds.map(id => {
    const texts = inputs.map(x => {
      const ph = x.program?.phases.find(q => q.id === id)
      return ph ? phaseLengthText(ph) : null
    })
    return {label: texts.find(t => t !== null)!.label, values: texts.map(t => (t === null ? 'n/a (no such phase in this run)' : t.text)), condition: true}
  })
  return [
    ...driveRows(col),
    {label: 'Test comes from', values: col(x => reviewSource(x.results.test) ?? 'n/a'), condition: true},
    {label: 'Run status', values: col((_, r) => r.runStatus), condition: true},
    {label: 'Time scale', values: col(x => (x.results.parameters.timeScale === 1 ? '1 (full lengths)' : `${x.results.parameters.timeScale} (fixed-duration phases scaled)`)), condition: true},
    ...lengthRows,
    ...preparationRows(col),
    {label: 'Notes', values: col((_, r) => (reviewNotes(r).length > 0 ? reviewNotes(r).join('; ') : 'none')), condition: true},
    ...platformRows(col),
  ]
}

/** The conditions that may differ between comparable runs, one row each (value per run); review runs have their own rows (reviewConditionRows). */
function conditionRows(inputs: readonly LoopInput[], runs: readonly CompareRun[]): Array<{label: string; values: string[]; condition: boolean}> {
  if (inputs.length > 0 && inputs.every(x => reviewSource(x.results.test) !== null)) return reviewConditionRows(inputs, runs)
  const col = (f: (i: LoopInput, r: CompareRun) => string) => inputs.map((x, i) => f(x, runs[i]))
  return [
    ...driveRows(col),
    {label: 'Profile', values: col((_, r) => r.profile), condition: true},
    {label: 'TC / QD', values: col((_, r) => r.tcQd), condition: true},
    {label: 'ActiveRange', values: col((_, r) => r.activeRange), condition: true},
    {label: 'Point duration', values: col((_, r) => r.pointSeconds), condition: true},
    {label: 'Round limit', values: col(x => `${x.results.parameters.maxRounds} (${x.results.parameters.onNoSteadyState ?? 'stop'} without steady state)`), condition: true},
    ...preparationRows(col),
    {label: 'Rounds run', values: col((_, r) => r.rounds), condition: false},
    {label: 'Steady state', values: col((x, r) => (!hasLoop(x.results) ? 'n/a (no loop)' : r.steadyAchieved ? 'achieved' : 'NOT ACHIEVED')), condition: true},
    {label: 'Measurement window', values: col((x, r) => (hasLoop(x.results) ? `rounds ${r.windowFrom}-${r.windowTo}` : 'n/a (no loop)')), condition: true},
    {label: 'Compliance', values: col((_, r) => r.complianceText), condition: true},
    {label: 'Compliance reasons', values: col((_, r) => (r.reasons.length > 0 ? r.reasons.join('; ') : 'none')), condition: true},
    ...platformRows(col),
  ]
}

/** The differences in test conditions between the runs (fields whose values are not all equal). */
export function conditionDifferences(given: readonly CompareRunInput[], labels: string[] = []): Difference[] {
  const inputs = given.map(withView)
  const runs = inputs.map((x, i) => describeRun(x, i, labels[i]))
  return differencesOf(conditionRows(inputs, runs), runs)
}

type ConditionRow = ReturnType<typeof conditionRows>[number]
const differs = (r: ConditionRow): boolean => r.condition && new Set(r.values).size > 1

/** The lists of a row that runs may share (printed once): compliance reasons, a review run's notes, deviations; null for any other row. */
function rowLists(label: string, runs: readonly CompareRun[]): string[][] | null {
  return label === 'Compliance reasons' ? runs.map(x => x.reasons) : label === 'Notes' ? runs.map(reviewNotes) : label === 'Deviations' ? runs.map(x => x.deviations) : null
}

function differencesOf(rows: readonly ConditionRow[], runs: readonly CompareRun[]): Difference[] {
  return rows.filter(differs).map(r => {
    const lists = r.label === 'Deviations' ? null : rowLists(r.label, runs)
    const f = lists ? factorLists(lists) : null
    return {
    field: r.label,
    values: r.values,
    ...(f && f.common.length > 0
      ? {shownField: `${r.label} (besides those common to all runs)`, shown: f.extra.map(e => (e.length > 0 ? e.join('; ') : 'none other'))}
      : {shownField: r.label, shown: r.values}),
    }
  })
}

/** The summary's side-by-side rows: lists the runs share (compliance reasons, deviations) are printed once. */
function sideBySideRows(rows: readonly ConditionRow[], runs: readonly CompareRun[]): SideBySideRow[] {
  const n = runs.length
  const out: SideBySideRow[] = []
  for (const r of rows) {
    const lists = rowLists(r.label, runs)
    const f = lists ? factorLists(lists) : null
    if (!f || f.common.length === 0) {
      out.push({label: r.label, values: r.values, differs: differs(r), span: false, colspan: 1})
      continue
    }
    out.push({label: `${r.label}, all runs`, values: [f.common.join('; ')], differs: false, span: true, colspan: n})
    if (f.extra.some(e => e.length > 0)) {
      out.push({label: `${r.label}, per run`, values: f.extra.map(e => (e.length > 0 ? e.join('; ') : 'none other')), differs: differs(r), span: false, colspan: 1})
    }
  }
  return out
}

function matrixTable(heading: string, mixes: number[], sizes: number[], cell: (rp: number, bs: number) => Cell, ratio: boolean): CompareTable {
  return {
    heading,
    columns: ['Block Size', ...mixes.map(mixLabel)],
    rows: sizes.map(bs => ({label: blockSizeLabel(bs), cells: mixes.map(rp => cell(rp, bs))})),
    ratio,
  }
}

const plain = (text: string): Cell => ({text, flag: ''})

type PageDraft = Omit<ComparePage, 'number' | 'total' | 'pageLabel' | 'caption'> & {plot: boolean}

const BLANK_PAGE = {chart: null, summary: null, tables: [], runTable: null, note: '', legend: false, chartMaxMm: null}

/** Row height of a phase table (first column up to 2 lines), mm; pessimistic. */
const PHASE_ROW_MM = 5.4
const phaseTableMm = (rows: number): number => 7 + (rows + 1) * PHASE_ROW_MM + 1

/** Tables split into parts of at most what fits a page, then packed onto pages in order. */
function packTables(tables: readonly CompareTable[], budgetMm: number): CompareTable[][] {
  const maxRows = Math.max(3, Math.floor((budgetMm - phaseTableMm(0)) / PHASE_ROW_MM))
  const parts: CompareTable[] = tables.flatMap(t => {
    if (t.rows.length <= maxRows) return [t]
    const n = Math.ceil(t.rows.length / maxRows)
    return Array.from({length: n}, (_, i) => ({...t, heading: `${t.heading} (${i + 1} of ${n})`, rows: t.rows.slice(i * maxRows, (i + 1) * maxRows)}))
  })
  const pages: CompareTable[][] = []
  let used = Infinity
  for (const t of parts) {
    const h = phaseTableMm(t.rows.length)
    if (used + h > budgetMm) { pages.push([]); used = 0 }
    pages[pages.length - 1].push(t)
    used += h
  }
  return pages
}

/** The pages of the phase-by-phase comparison (pure; `budgetMm`: the body height under the header). */
function phasePages(phases: readonly PhaseCompare[], keys: readonly PhaseRunKey[], budgetMm: number, variation = false): PageDraft[] {
  const out: PageDraft[] = []
  const legend = (note: string) => paragraphMm(note, 7.5) + 6
  for (const c of phases) {
    const phase = {id: c.id, kind: c.kind}
    if (c.kind === 'loop') {
      const note = c.sweep ? `Sweep ${c.id} (${c.title}): each point of each run measured once (one fio step, no steady-state window); ratios Rk / R1 to 2 decimals, shaded below 0.90 or above 1.10 (for response times a ratio below 1 means faster).`
        : `Loop ${c.id} (${c.title}): each run's average over its own measurement window, per point; ratios Rk / R1 to 2 decimals, shaded below 0.90 or above 1.10 (for response times a ratio below 1 means faster).`
      const pages = packTables(loopTables(c, keys, variation), budgetMm - legend(note))
      pages.forEach((tables, i) => out.push({...BLANK_PAGE, kind: 'cphase', plot: true, legend: true, phase, tables, note,
        title: `${c.sweep ? `Sweep ${c.id}` : c.id.startsWith('loop') ? c.id : `Loop ${c.id}`} - IOPS, MB/s and Mean Response Time per Point - ${c.sweep ? 'Values' : 'Window Averages'} and Ratios${pages.length > 1 ? ` (${i + 1} of ${pages.length})` : ''}`}))
      if (c.qdCurves) {
        const qnote = `${c.title}. IOPS of every point against its queue depth (log scale), one line per run (colour) and workload (dash); values and ratios in the tables.`
        out.push({...BLANK_PAGE, kind: 'cphase', plot: true, legend: true, phase, chart: `qd-${c.id}`, tables: [], note: qnote,
          chartMaxMm: Math.round(Math.max(60, Math.min(150, budgetMm - legend(qnote) - 4))), title: `Sweep ${c.id} - IOPS vs Queue Depth, Run by Run`})
      }
    } else if (c.kind === 'series') {
      const table = seriesTable(c, keys)
      const xText = c.x === 'tgbw' ? 'x = TGBW, GB (10^9 B) written by the phase up to the sample'
        : c.x === 'seconds' ? 'x = seconds since the phase start (sample index x sample duration)' : 'x = minutes since the phase start (sample index x sample duration / 60)'
      const note = `${c.title}. IOPS of every sample, one line per run (${xText}; series longer than 2,000 samples are downsampled keeping each bucket's minimum and maximum). Table: mean IOPS over all samples and over the last ${LAST_SAMPLES}, mean of the samples' mean response times; ratios Rk / R1.`
      out.push({...BLANK_PAGE, kind: 'cphase', plot: true, legend: true, phase, chart: `trace-${c.id}`, tables: [table], note,
        chartMaxMm: Math.round(Math.max(60, Math.min(150, budgetMm - phaseTableMm(table.rows.length) - legend(note) - 4))),
        title: `Series ${c.id} - IOPS ${c.x === 'tgbw' ? 'vs TGBW' : 'vs Time'}, Run by Run`})
    } else if (c.kind === 'bursts') {
      const table = burstsTable(c, keys)
      const note = `${c.title}. IOPS of each write burst (from fio's IOPS log), one line per run, by burst index. Table: mean, minimum and maximum burst IOPS; ratio of the means Rk / R1.`
      out.push({...BLANK_PAGE, kind: 'cphase', plot: true, legend: true, phase, chart: `bursts-${c.id}`, tables: [table], note,
        chartMaxMm: Math.round(Math.max(60, Math.min(150, budgetMm - phaseTableMm(table.rows.length) - legend(note) - 4))),
        title: `Bursts ${c.id} (Wait State ${c.waitState}) - Burst IOPS, Run by Run`})
    } else {
      const note = `${c.title}. Each run's operating points as its loop chose them (the window averages of its demand-variation loop): TC/QD, IOPS and mean response time; ratio of IOPS to the baseline's point of the same role (which may be at another TC/QD).`
      const pages = packTables([operatingTable(c, keys)], budgetMm - legend(note))
      pages.forEach((tables, i) => out.push({...BLANK_PAGE, kind: 'cphase', plot: false, legend: true, phase, tables, note,
        title: `${c.test.toUpperCase()} Operating Points (phase ${c.id}) - Max, Mid and Min IOPS per Run${pages.length > 1 ? ` (${i + 1} of ${pages.length})` : ''}`}))
    }
  }
  return out
}

/** Lines printed by pts compare: at most this many (the rest is counted in a last line). */
export const MAX_HEADLINES = 15

/** The headline differences: the first loop's tracking variables, then every compared phase (phases.ts). */
function headlinesOf(base: RunResults | null, views: readonly RunResults[], keys: readonly PhaseRunKey[], phases: readonly PhaseCompare[]): string[] {
  const lines: string[] = []
  if (base) {
    for (const t of base.tracking) {
      const values = views.map(v => {
        const w = findAverage(v, t.readPct, t.blockSizeBytes) as unknown as Record<string, unknown> | undefined
        const x = w?.[t.metric]
        return typeof x === 'number' ? x : null
      })
      lines.push(`${base.phase} ${t.label}: ${ratioPhrase(keys, values, v => metricText(t.metric, v))}`)
    }
  }
  lines.push(...phaseHeadlines(phases, keys))
  if (lines.length <= MAX_HEADLINES) return lines
  return [...lines.slice(0, MAX_HEADLINES - 1), `... and ${lines.length - MAX_HEADLINES + 1} more comparison(s) in the report`]
}

export function buildCompareModel(given: readonly CompareRunInput[], opts: CompareOptions): CompareModel {
  const inputs = given.map(withView)
  const verdict = checkCompatibility(inputs.map(x => x.results))
  if (!verdict.ok) throw new Error(verdict.message)
  if (opts.labels && opts.labels.length > 0 && opts.labels.length !== inputs.length) {
    throw new Error(`${opts.labels.length} label(s) for ${inputs.length} runs`)
  }
  // a firmware A/B comparison labels its runs A and B (unless --label says otherwise)
  const ab = detectSamples(inputs.map(x => x.manifest), opts.samples ?? false).firmwareAB
  const abLabel = (i: number) => (ab && !opts.labels?.length ? `${i === 0 ? 'A' : 'B'}: firmware ${i === 0 ? ab.a : ab.b} - ${defaultLabel(inputs[i].manifest)}` : undefined)
  const runs = inputs.map((x, i) => describeRun(x, i, opts.labels?.[i] ?? abLabel(i)))
  const base = inputs[0].results
  const loop = hasLoop(base)
  const metrics = loop ? metricsFor(inputs.map(x => x.results)) : []
  const withP5 = metrics.includes(P99999_METRIC)
  const mixes = [...base.parameters.rwMixReadPct].sort((a, b) => a - b)
  const sizes = [...base.parameters.blockSizesBytes].sort((a, b) => a - b)
  // IOPS and LAT loop over block size x R/W mix; the other tests' first loops do not (TP: block sizes at one mix; HIR,
  // CBW, DIRTH, XSR: one workload), so their matrix pages name the loop's phase, not "all R/W mixes and block sizes"
  const blockByMix = mixes.length > 1 && sizes.length > 1
  const matrixScope = blockByMix ? 'All RW Mix & BS' : (base.phaseTitle || base.phase)
  const samples = detectSamples(inputs.map(x => x.manifest), opts.samples ?? false)

  // Side-by-side rows and the differences in conditions.
  const rows = conditionRows(inputs, runs)
  const differences = differencesOf(rows, runs)
  const sideBySide = sideBySideRows(rows, runs)

  // Matrix data.
  const matrix = mixes.flatMap(rp => sizes.map(bs => ({
    readPct: rp,
    blockSizeBytes: bs,
    runs: inputs.map(x => {
      const w = findAverage(x.results, rp, bs)
      const v: MatrixValues = w
        ? {iops: w.iops, mbPerSec: w.bwBytesPerSec / 1e6, latMeanMs: w.latMeanNs / 1e6, latMaxMs: w.latMaxNs / 1e6}
        : {iops: Number.NaN, mbPerSec: Number.NaN, latMeanMs: Number.NaN, latMaxMs: Number.NaN}
      if (withP5) v.latP99999Ms = w ? P99999_METRIC.value(w) : Number.NaN
      return v
    }),
  })))
  const at = (rp: number, bs: number) => matrix.find(c => c.readPct === rp && c.blockSizeBytes === bs)!

  // Convergence per tracking variable (union over the runs, in the baseline's order).
  const trackIds: Array<{id: string; readPct: number; blockSizeBytes: number}> = []
  for (const x of inputs) for (const t of x.results.tracking) if (!trackIds.some(q => q.id === t.id)) trackIds.push({id: t.id, readPct: t.readPct, blockSizeBytes: t.blockSizeBytes})
  const legendName = (r: CompareRun) => `${r.key}: ${r.label}`
  const convergence: ConvergenceData[] = trackIds.map(t => {
    const points: ConvergenceData['points'] = []
    const windows: ConvergenceData['windows'] = []
    inputs.forEach((x, i) => {
      const tr = x.results.tracking.find(q => q.id === t.id)
      if (!tr) return
      const run = runs[i]
      tr.series.forEach((v, j) => points.push({run: legendName(run), key: run.key, round: j + 1, iops: v, inWindow: j + 1 >= run.windowFrom && j + 1 <= run.windowTo}))
      const ev = x.results.steadyState.variables.find(q => q.id === t.id)
      const inWin = tr.series.slice(run.windowFrom - 1, run.windowTo)
      const average = ev ? ev.average : inWin.reduce((a, v) => a + v, 0) / Math.max(1, inWin.length)
      windows.push({run: legendName(run), key: run.key, from: run.windowFrom, to: run.windowTo, average})
    })
    const maxRound = Math.max(1, ...points.map(p => p.round))
    return {id: t.id, label: pointLabel(t.readPct, t.blockSizeBytes, accessOf(base)), points, windows, rounds: Array.from({length: maxRound}, (_, k) => k + 1)}
  })

  // Sample variation (IOPS per point across the runs).
  const variation: VariationPoint[] | null = samples.samples
    ? matrix.map(c => ({
        readPct: c.readPct,
        mix: mixLabel(c.readPct),
        blockSizeBytes: c.blockSizeBytes,
        blockSize: blockSizeLabel(c.blockSizeBytes),
        stats: sampleStats(c.runs.map(v => v.iops).filter(v => Number.isFinite(v))),
      }))
    : null

  // Header.
  const allCompliant = runs.every(r => r.compliant)
  const shared = factorLists(runs.map(r => r.reasons))
  const complianceLines = allCompliant
    ? ['All runs compliant']
    : runs.every(r => !r.compliant) && shared.common.length > 0
      ? [`All runs NOT COMPLIANT: ${shared.common.join('; ')}`,
          ...runs.filter((_, i) => shared.extra[i].length > 0).map(r => `${r.key} also: ${shared.extra[r.index].join('; ')}`)]
      : runs.map(r => `${r.key} ${r.complianceText}${r.compliant ? '' : `: ${r.reasons.join('; ')}`}`)
  const allSteady = runs.every(r => r.steadyAchieved)
  const review = reviewSource(base.test)
  const reviewStatus = review === null ? null : reviewHeaderStatus(base.test, review, runs)
  const header: CompareHeader = {
    issuer: review === null ? ['SNIA SSS TWG', 'Solid State Storage Performance Test Specification'] : ['pts review test', 'not part of the SNIA PTS'],
    review: review !== null,
    title: `${base.test.toUpperCase()} Test - Comparison Report`,
    subtitle: loop && blockByMix ? `${runs.length} runs side by side: Block Size x RW Mix Matrix` : `${runs.length} runs side by side, phase by phase`,
    reportDate: fmtInstant(opts.generatedAt),
    revision: `${revisionLabel(base.revision)}`,
    baseline: `Baseline: R1 (ratios are Rk / R1)`,
    runs,
    allCompliant: reviewStatus ? false : allCompliant,
    complianceLines: reviewStatus ? reviewStatus.lines : complianceLines,
    allSteady: reviewStatus ? reviewStatus.complete : allSteady,
    steadyLine: reviewStatus ? reviewStatus.completeLine : !loop
      ? (allSteady ? 'No steady-state loop in this test; every run complete' : `No steady-state loop in this test; run NOT complete: ${runs.filter(r => !r.steadyAchieved).map(r => r.key).join(', ')}`)
      : allSteady ? 'Steady state achieved in every run' : `Steady state NOT ACHIEVED in ${runs.filter(r => !r.steadyAchieved).map(r => r.key).join(', ')}`,
  }

  // Pages.
  type Draft = PageDraft
  const blank = BLANK_PAGE
  const drafts: Draft[] = []

  const windowsText = runs.map(r => `${r.key} rounds ${r.windowFrom}-${r.windowTo}${r.steadyAchieved ? '' : ' (NOT ACHIEVED)'}`).join(', ')
  const headerHeight = headerMm(runs.map(r => (header.review ? {label: r.label, identity: r.identity, revisionProfile: r.revision, tcQd: '', steadyState: '', complianceText: r.runStatus}
    : {label: r.label, identity: r.identity, revisionProfile: `${r.revision} ${r.profile}`, tcQd: r.tcQd, steadyState: r.steadyState, complianceText: r.complianceText})), header.complianceLines, header.steadyLine)
  const budget = bodyBudgetMm(headerHeight)
  const perPage = tablesPerPage(headerHeight, sizes.length)
  const matrixPages = Math.ceil((2 * runs.length - 1) / perPage) * metrics.length

  // Phase by phase: every further loop, series, bursts and operating points (needs the stored runs).
  const keys: PhaseRunKey[] = runs.map(r => ({key: r.key, name: legendName(r)}))
  const programs = inputs.map(x => x.program)
  const phases: PhaseCompare[] = programs.every((p): p is ProgramResults => p !== undefined) ? comparePhases(programs, keys) : []
  const phaseDrafts = phasePages(phases, keys, budget, samples.samples)
  const phaseNote = phaseDrafts.length > 0
    ? `${phaseDrafts.length} page(s) comparing the phases ${phases.map(c => c.id).join(', ')} phase by phase (matched by phase id)`
    : ''
  const matrixPagesNote = `${matrixPages} page(s) of window-average matrices with ratio tables (IOPS, MB/s, mean and maximum response time${withP5 ? ', 99.999th percentile response time' : ''}); ${convergence.length} convergence plot(s), one per tracking variable`
  const summaryBase: Omit<CompareSummary, 'first' | 'runs'> = {
    baselineNote: loop
      ? `R1 (${runs[0].label}) is the baseline: every ratio in this report is run k / R1. Values are the window averages each run reported (${windowsText}).`
      : header.review
        ? `R1 (${runs[0].label}) is the baseline: every ratio in this report is run k / R1. A review test has no steady-state loop: values are each run's stored sweep points, samples and fill steps, each measured once, as each page says.`
        : `R1 (${runs[0].label}) is the baseline: every ratio in this report is run k / R1. This test has no steady-state loop: values are each run's stored samples, bursts and operating points, averaged over a phase where a page says so.`,
    differences,
    noDifferences: header.review
      ? 'The runs were made under the same conditions (test, run status, time scale, point and step lengths, purge, write cache, test software and host).'
      : 'The runs were made under the same conditions (profile, TC/QD, ActiveRange, point duration, round limit, purge, write cache, compliance and steady-state verdict, test software and host).',
    samples,
    pagesNote: `Pages: this summary; ${[loop ? matrixPagesNote : '', phaseNote].filter(Boolean).join('; ')}${loop && samples.samples ? '; sample variation (tables and chart)' : ''}.`,
  }
  // The first page: baseline note, differences, sample verdict, then as many side-by-side rows as fit.
  let used = paragraphMm(summaryBase.baselineNote, 8.5, CONTENT_MM - 4, 6) + H2_MM
    + (differences.length > 0
      ? differences.reduce((a, d) => a + paragraphMm(`${d.shownField}: ${d.shown.map((v, i) => `R${i + 1} ${v}`).join('; ')}`, 7.8, CONTENT_MM - 5, 0.8), 0)
      : paragraphMm(summaryBase.noDifferences, 8.5))
    + H2_MM + paragraphMm(samples.reason, 8.5) + paragraphMm(summaryBase.pagesNote, 7.5)
    + H2_MM + 5 + 5 // table heading, table head row, note under the table
  const summaryPages: SideBySideRow[][] = [[]]
  for (const row of sideBySide) {
    const h = sideRowMm(row.label, row.values, runs.length, row.span)
    if (used + h > budget && summaryPages[summaryPages.length - 1].length > 0) {
      summaryPages.push([])
      used = H2_MM + 5 + 5
    }
    summaryPages[summaryPages.length - 1].push(row)
    used += h
  }
  summaryPages.forEach((rowsOfPage, i) => {
    drafts.push({...blank, kind: 'csummary', plot: false,
      title: `${base.test.toUpperCase()} Comparison - Summary${summaryPages.length > 1 ? ` (${i + 1} of ${summaryPages.length})` : ''}`,
      summary: {...summaryBase, first: i === 0, runs: rowsOfPage}})
  })

  for (const metric of metrics) {
    const cellValue = (k: number) => (rp: number, bs: number): Cell => plain(fixed(at(rp, bs).runs[k][metric.id] ?? Number.NaN, metric.decimals))
    const cellRatio = (k: number) => (rp: number, bs: number): Cell => {
      const c = at(rp, bs)
      return formatRatio(ratio(c.runs[k][metric.id], c.runs[0][metric.id]))
    }
    const tables: CompareTable[] = [matrixTable(`${runs[0].key} (baseline): ${metric.heading}`, mixes, sizes, cellValue(0), false)]
    for (let k = 1; k < runs.length; k++) {
      tables.push(matrixTable(`${runs[k].key}: ${metric.heading}`, mixes, sizes, cellValue(k), false))
      tables.push(matrixTable(`Ratio ${runs[k].key} / ${runs[0].key}: ${metric.title}`, mixes, sizes, cellRatio(k), true))
    }
    const parts = Math.ceil(tables.length / perPage)
    for (let i = 0; i < parts; i++) {
      drafts.push({...blank, kind: 'cmatrices', plot: true, legend: true,
        title: `${metric.title} - ${matrixScope} - Window Averages and Ratios${parts > 1 ? ` (${i + 1} of ${parts})` : ''}`,
        tables: tables.slice(i * perPage, (i + 1) * perPage),
        note: `Rows: block size, columns: R/W mix % (read/write). Each run's average over its own measurement window (${windowsText}). Ratios to 2 decimals; shaded: below 0.90 or above 1.10.${metric.id.startsWith('lat') ? ' For response times a ratio below 1 means faster.' : ''}`})
    }
  }

  for (const c of convergence) {
    const note = `IOPS of the tracking variable ${c.label} per round, one line per run. Filled markers: the run's measurement window; dashed line: its window average.`
    const tableMm = 6 + runs.reduce((a, r) => a + Math.max(textLines(r.label, 70, 8), 1) * 3.3 + 1.8, 0)
    drafts.push({...blank, kind: 'cconvergence', plot: true, title: `IOPS Steady State Convergence - ${c.label}`, chart: `convergence-${c.id}`,
      chartMaxMm: Math.round(Math.max(60, Math.min(165, budget - tableMm - paragraphMm(note, 7.5) - 4))),
      runTable: {
        columns: ['Run', 'Label', 'Window', 'Window average', 'Steady state'],
        rows: inputs.flatMap((x, i) => {
          const w = c.windows.find(q => q.key === runs[i].key)
          if (!w) return [[runs[i].key, runs[i].label, 'not tracked', '', '']]
          const ev = x.results.steadyState.variables.find(q => q.id === c.id)
          return [[runs[i].key, runs[i].label, `rounds ${w.from}-${w.to}`, `${fixed(w.average, 0)} IOPS`,
            ev ? (ev.steady ? 'criteria met' : 'criteria NOT met') : (runs[i].steadyAchieved ? 'achieved' : 'NOT ACHIEVED')]]
        }),
      },
      note})
  }

  drafts.push(...phaseDrafts)

  if (variation && loop) {
    const st = (f: (s: SampleStats) => string) => (rp: number, bs: number): Cell => {
      const v = variation.find(q => q.readPct === rp && q.blockSizeBytes === bs)
      return plain(v ? f(v.stats) : 'n/a')
    }
    const n = runs.length
    const nNote = n === 2 ? ' With 2 runs the median is the mean of the two.' : ''
    const cvNote = `CV = sample standard deviation (n - 1 in the denominator) / mean, in percent, of the window-average IOPS across the ${n} runs. ${samples.reason}.`
    const statTables = [
      matrixTable(`Minimum IOPS across the ${n} runs`, mixes, sizes, st(s => fixed(s.min, 0)), false),
      matrixTable(`Median IOPS across the ${n} runs`, mixes, sizes, st(s => fixed(s.median, 0)), false),
      matrixTable(`Maximum IOPS across the ${n} runs`, mixes, sizes, st(s => fixed(s.max, 0)), false),
    ]
    const parts = Math.ceil(statTables.length / perPage)
    for (let i = 0; i < parts; i++) {
      drafts.push({...blank, kind: 'cvariation', plot: true,
        title: `IOPS Sample Variation - Min, Median, Max - ${matrixScope} (n=${n})${parts > 1 ? ` (${i + 1} of ${parts})` : ''}`,
        tables: statTables.slice(i * perPage, (i + 1) * perPage),
        note: `Window-average IOPS of every point across the ${n} runs.${nNote} ${samples.reason}.`})
    }
    drafts.push({...blank, kind: 'cchart', plot: true, title: `IOPS Sample Variation - Coefficient of Variation per Point (n=${n})`, chart: 'variation-cv',
      chartMaxMm: Math.round(Math.max(50, Math.min(130, budget - matrixTableMm(sizes.length) - paragraphMm(cvNote, 7.5) - 4))),
      tables: [matrixTable(`Coefficient of variation, % (sample stddev / mean)`, mixes, sizes, st(s => (Number.isFinite(s.cvPct) ? fixed(s.cvPct, 1) : 'n/a')), false)],
      note: cvNote})
  }

  const total = drafts.length
  let plotNo = 0
  const pages: ComparePage[] = drafts.map((d, i) => {
    const {plot, ...rest} = d
    const caption = plot ? `Plot C.${++plotNo} - ${d.title}` : d.title
    return {...rest, number: i + 1, total, pageLabel: `Page ${i + 1} of ${total}`, caption}
  })

  return {
    schemaVersion: 1,
    kind: 'pts-compare',
    generatedAt: opts.generatedAt,
    generatedBy: `pts ${opts.toolVersion ?? inputs[0].manifest.tool.version}`,
    reportTitle: `${header.title} - ${runs.map(r => r.label).join(' vs ')}`,
    header,
    runs,
    differences,
    samples,
    headlines: headlinesOf(loop ? base : null, inputs.map(x => x.results), keys, phases),
    pages,
    data: {mixesWriteFirst: mixes, blockSizesSmallFirst: sizes, matrix, convergence, variation: loop ? variation : null, phases},
  }
}
