/**
 * The report model: everything a report shows, built only from the stored run (results.json,
 * manifest.json and the list of raw files). Pure and deterministic: the same inputs and
 * `generatedAt` give the same model, which is golden-tested. Measurements are read from
 * results.json and only formatted here, never recomputed (digest Part A 4 and 11).
 *
 * Page layout follows the SNIA report-page template (digest B §6.1), the IOPS page list
 * (B §5.1, §6.2) and the table conventions (B §6.3).
 */
import type {VerifyResult} from '../claims/types.js'
import type {PointResult, RunManifest, RunResults, WindowAverage} from '../store/types.js'
import type {VariableEvaluation} from '../steady-state/evaluate.js'
import {revisionLabel} from '../spec/types.js'
import {blockSizeLabel, formatBytes, formatDecimalGB, mixLabel} from '../units.js'
import {claimsPages, type ClaimsPageData} from './claims-page.js'
import {fitFormula, fixed, fmtFileBytes, fmtInstant, fmtIops, fmtMBps, pointLabel} from './format.js'

export interface RawFile {
  /** Path relative to the run directory, "/"-separated. */
  path: string
  sha256: string
  bytes: number
}

export interface ReportInput {
  manifest: RunManifest
  results: RunResults
  rawFiles: RawFile[]
  generatedAt: string
  /** The stored verify result (<run>/claims.json), when there is a valid one: adds the "Claims vs measured" page(s). */
  claims?: VerifyResult | null
}

export interface KV {
  label: string
  value: string
}

export interface ReportHeader {
  runStart: string
  reportDate: string
  runFinish: string
  /** "IOPS Test - Report Page" (digest B §6.1 title bar). */
  title: string
  subtitle: string
  revision: string
  profile: string
  vendor: string
  model: string
  testedBy: string
  platform: KV[]
  device: KV[]
  setup: KV[]
  test: KV[]
  /** "Rounds 2-6" or "Rounds 2-6 (NOT ACHIEVED)". */
  steadyState: string
  steadyAchieved: boolean
  compliant: boolean
  complianceText: string
  reasons: string[]
  deviations: string[]
}

export interface ChartPoint {
  round: number
  value: number
}

export interface TrackingData {
  id: string
  label: string
  readPct: number
  blockSizeBytes: number
  series: ChartPoint[]
}

export interface ConvergencePoint {
  round: number
  blockSizeBytes: number
  blockSize: string
  iops: number
}

export interface MatrixCell {
  readPct: number
  mix: string
  blockSizeBytes: number
  blockSize: string
  iops: number
  mbPerSec: number
  latMeanMs: number
  latMaxMs: number
  latMaxAvgMs: number
}

export interface Determination {
  id: string
  label: string
  fromRound: number
  toRound: number
  window: ChartPoint[]
  average: number
  slope: number
  intercept: number
  /** Formatted rows, in the order of the SNIA "Steady State Determination Data" block (digest B §3.2). */
  rows: KV[]
  steady: boolean
  verdict: string
}

export interface TableData {
  /** Column headings, the first is the row label heading. */
  columns: string[]
  rows: Array<{label: string; cells: string[]}>
  note: string
}

export interface SummaryData {
  verdict: string
  verdictDetail: string
  steady: boolean
  device: KV[]
  headline: KV[]
  compliance: string
  reasons: string[]
  deviations: string[]
  runStatus: string
  howToRead: string[]
}

export type PageKind = 'summary' | 'chart' | 'closeup' | 'table' | 'tables' | 'claims' | 'params' | 'appendix'

export interface ReportPage {
  number: number
  total: number
  /** "Page 3 of 17". */
  pageLabel: string
  kind: PageKind
  title: string
  caption: string
  /** Chart id (key of the svg map) for chart and closeup pages, else null. */
  chart: string | null
  summary: SummaryData | null
  determination: Determination | null
  tables: Array<TableData & {heading: string}>
  appendix: null | {part: number; parts: number; files: Array<{path: string; bytes: string; sha256: string}>}
  /** Claims pages only (absent on every other page, so a run without claims.json keeps its model). */
  claims?: ClaimsPageData
  note: string
}

export interface ReportModel {
  schemaVersion: 1
  generatedAt: string
  generatedBy: string
  runId: string
  test: string
  reportTitle: string
  header: ReportHeader
  pages: ReportPage[]
  data: {
    rounds: number[]
    windowFrom: number | null
    windowTo: number | null
    convergence: ConvergencePoint[]
    tracking: TrackingData[]
    determinations: Determination[]
    matrix: MatrixCell[]
    /** Mixes and block sizes in table order (digest B §6.3): 0/100 -> 100/0, 0.5 KiB -> 1024 KiB. */
    mixesWriteFirst: number[]
    blockSizesSmallFirst: number[]
  }
}

/** Raw-file rows per appendix page (each appendix page carries the full header). */
export const APPENDIX_ROWS_PER_PAGE = 64


const none = (v: string | null | undefined): string => (v === null || v === undefined || v === '' ? 'none' : v)
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

function rangeText(from: number | null, to: number | null): string {
  return from === null || to === null ? 'n/a' : `${from}-${to}`
}

/** "Rounds 2-6 (NOT ACHIEVED)" and friends (digest B §3.3, §6.1 "Steady State" cell). */
function steadyStateText(r: RunResults): {text: string; achieved: boolean; verdict: string} {
  const ss = r.steadyState
  const window = rangeText(ss.fromRound, ss.toRound)
  if (ss.verdict === 'steady') return {text: `Rounds ${window}`, achieved: true, verdict: `Steady state achieved in rounds ${window}`}
  if (ss.verdict === 'not-achieved') {
    return {text: `Rounds ${window} (NOT ACHIEVED)`, achieved: false, verdict: 'Steady State NOT ACHIEVED'}
  }
  const last = ss.toRound ?? r.rounds.length
  return {
    text: ss.fromRound === null ? 'NOT ACHIEVED (run incomplete)' : `Rounds ${window} (NOT ACHIEVED, run incomplete)`,
    achieved: false,
    verdict: `Steady State NOT ACHIEVED (run ${r.status} after round ${last})`,
  }
}

function completeRounds(r: RunResults) {
  const n = r.parameters.rwMixReadPct.length * r.parameters.blockSizesBytes.length
  return r.rounds.filter(x => x.finishedAt !== null && x.points.length === n)
}

function findAverage(r: RunResults, readPct: number, bs: number): WindowAverage | undefined {
  return r.windowAverages.find(w => w.readPct === readPct && w.blockSizeBytes === bs)
}

/** Test Platform column of the SNIA header (digest B §6.1), shared by every test's report. */
export function platformKV(m: RunManifest, ioengine: string): KV[] {
  return [
    {label: 'Host', value: m.host.hostname},
    {label: 'CPU', value: `${m.host.cpu} (${m.host.cores} cores)`},
    {label: 'Memory', value: formatBytes(m.host.memoryBytes)},
    {label: 'OS', value: m.host.os},
    {label: 'Kernel', value: `${m.host.kernel} (${m.host.arch})`},
    {label: 'Test SW', value: `pts ${m.tool.version}; ${m.fio.version} (${ioengine})`},
  ]
}

/** Device Under Test column of the SNIA header (digest B §6.1), shared by every test's report. */
export function deviceKV(m: RunManifest, writeCacheRequired: string, purge: string): KV[] {
  const id = m.target.identity
  return [
    {label: 'Vendor', value: none(id.vendor)},
    {label: 'Model', value: none(id.model)},
    {label: 'S/N', value: none(id.serial)},
    {label: 'Firmware', value: none(id.firmware)},
    {label: 'Capacity', value: `${formatDecimalGB(id.capacityBytes)} (${fixed(id.capacityBytes, 0)} B)`},
    {label: 'Interface', value: `${id.interface} (${m.target.kind} ${m.target.path})`},
    {label: 'Write cache', value: `${id.writeCache} (required: ${writeCacheRequired})`},
    {label: 'Purge', value: purge},
  ]
}

function buildHeader(m: RunManifest, r: RunResults, ss: ReturnType<typeof steadyStateText>, generatedAt: string): ReportHeader {
  const p = r.parameters
  const id = m.target.identity
  const toio = `TC ${p.threadCount} / QD ${p.queueDepth} (TOIO ${p.threadCount * p.queueDepth})`
  const revision = revisionLabel(r.revision)
  const complete = completeRounds(r)
  const lastRound = complete.length > 0 ? complete[complete.length - 1].round : 0
  const wipc = r.wipc
  const reasons = [...m.compliance.reasons]
  if (r.status !== 'complete') reasons.push(`run status: ${r.status}`)
  const compliant = m.compliance.compliant && r.status === 'complete'
  return {
    runStart: fmtInstant(m.createdAt),
    reportDate: fmtInstant(generatedAt),
    runFinish: fmtInstant(m.finishedAt),
    title: `${r.test.toUpperCase()} Test - Report Page`,
    subtitle: 'IOPS - Block Size x RW Mix Matrix',
    revision,
    profile: cap(r.profile),
    vendor: none(id.vendor),
    model: none(id.model),
    testedBy: `pts ${m.tool.version} on ${m.host.hostname}`,
    platform: platformKV(m, p.ioengine),
    device: deviceKV(m, p.writeCacheRequired, `${r.purge.method} (${r.purge.status})`),
    setup: [
      {label: 'Data Pattern', value: p.dataPattern === 'random' ? 'RND' : p.dataPattern},
      {label: 'ActiveRange', value: `${p.activeRangePct}% (${formatBytes(p.activeRangeBytes)})`},
      {label: 'Pre Condition 1', value: `SEQ ${blockSizeLabel(wipc?.blockSizeBytes ?? 131072)} W`},
      {label: 'TOIO - TC/QD', value: toio},
      {
        label: 'Duration',
        value: wipc
          ? `${p.wipcMultiple}X Device Capacity (${formatBytes(wipc.writtenBytes)} written, PC AR ${p.preconditionActiveRangePct}%)`
          : 'not run',
      },
      {label: 'Pre Condition 2', value: 'IOPS Loop'},
      {label: 'SS Rounds', value: lastRound > 0 ? `1-${lastRound}` : 'none'},
    ],
    test: [
      {label: 'Test Stimulus 1', value: `IOPS Loop (${p.access === 'random' ? 'RND' : 'SEQ'})`},
      {label: 'RW Mix (Outer Loop)', value: p.rwMixReadPct.map(mixLabel).join(', ')},
      {label: 'Block Sizes (Inner Loop)', value: p.blockSizesBytes.map(blockSizeLabel).join(', ')},
      {label: 'TOIO - TC/QD', value: toio},
      {label: 'Point Duration', value: `${p.pointSeconds} s; max ${p.maxRounds} rounds`},
      {label: 'Steady State', value: ss.text},
    ],
    steadyState: ss.text,
    steadyAchieved: ss.achieved,
    compliant,
    complianceText: compliant ? 'Compliant' : 'NOT COMPLIANT',
    reasons,
    deviations: [...m.deviations],
  }
}

/**
 * The SNIA "Steady State Determination Data" block of one tracking variable (digest B §3.2), in
 * the variable's unit: values are multiplied by `scale` (1e-6 for ns -> ms, MB/s from B/s) and
 * printed with `decimals`; `fitUnit` appends the unit to the fit formula (every test but IOPS).
 */
export function determination(v: VariableEvaluation, label: string, pctData: number, pctSlope: number,
  o: {unit?: string; scale?: number; decimals?: number; fitUnit?: boolean} = {}): Determination {
  const unitName = o.unit ?? 'IOPS'
  const scale = o.scale ?? 1
  const u = ` ${unitName}`
  const f = (x: number) => fixed(x * scale, o.decimals ?? 3)
  const fit = fitFormula(v.slope * scale, v.intercept * scale)
  const rows: KV[] = [
    {label: 'Measurement Window', value: `Rounds ${v.fromRound}-${v.toRound}`},
    {label: 'Average', value: f(v.average) + u},
    {label: `Allowed Max Data Excursion (${pctData}%)`, value: f(v.allowedDataExcursion) + u},
    {label: 'Measured Max Data Excursion', value: `${f(v.dataExcursion)}${u} (${v.dataExcursionOk ? 'pass' : 'FAIL'})`},
    {label: `Allowed Max Slope Excursion (${pctSlope}%)`, value: f(v.allowedSlopeExcursion) + u},
    {label: 'Measured Max Slope Excursion', value: `${f(v.slopeExcursion)}${u} (${v.slopeExcursionOk ? 'pass' : 'FAIL'})`},
    {label: 'Least Squares Linear Fit Formula', value: o.fitUnit ? `${fit} (${unitName})` : fit},
    {label: 'Correlation Coefficient R²', value: v.rSquared === null ? 'n/a (constant values)' : v.rSquared.toFixed(4)},
  ]
  return {
    id: v.id,
    label,
    fromRound: v.fromRound,
    toRound: v.toRound,
    window: v.window.map(w => ({round: w.round, value: w.value})),
    average: v.average,
    slope: v.slope,
    intercept: v.intercept,
    rows,
    steady: v.steady,
    verdict: v.steady ? 'Steady state criteria met' : 'Steady state criteria NOT met',
  }
}

function matrixTable(cells: MatrixCell[], mixes: number[], sizes: number[], value: (c: MatrixCell) => string, note: string): TableData {
  return {
    columns: ['Block Size', ...mixes.map(mixLabel)],
    rows: sizes.map(bs => ({
      label: blockSizeLabel(bs),
      cells: mixes.map(rp => {
        const c = cells.find(x => x.readPct === rp && x.blockSizeBytes === bs)
        return c ? value(c) : 'n/a'
      }),
    })),
    note,
  }
}

const HOW_TO_READ = [
  'Every page repeats the SNIA header: device, test platform, set-up and test parameters. A non-compliant run says so, with reasons, on every page.',
  'Reported values are averages over the 5-round measurement window (rounds x-4 to x). If steady state was not reached by the round limit, the last 5 rounds are used and the run is marked NOT ACHIEVED.',
  'Steady state: in the window, max - min of each tracking variable must be within 20% of its average, and the least-squares line\'s rise across the window within 10% (digest B §3).',
  'Mixed-workload IOPS are read + write completions per second. MB/s is decimal (10^6 B/s); block sizes are binary (KiB = 1024 B); response times are in ms.',
  'The appendix lists every raw fio job and JSON output with its SHA-256, so every number can be recomputed.',
]

/** A page before numbering: `plot` pages get a "Plot A.n" caption. */
export type PageDraft = Omit<ReportPage, 'number' | 'total' | 'pageLabel' | 'caption'> & {plot: boolean}

/** The fields of a page that most kinds leave empty. */
export const BLANK_PAGE: Pick<PageDraft, 'chart' | 'summary' | 'determination' | 'tables' | 'appendix' | 'note'> = {chart: null, summary: null, determination: null, tables: [], appendix: null, note: ''}

/** The raw-file appendix: every file under raw/ with its size and SHA-256, APPENDIX_ROWS_PER_PAGE a page. */
export function appendixDrafts(files: RawFile[], runId: string, what: string): PageDraft[] {
  const parts = Math.max(1, Math.ceil(files.length / APPENDIX_ROWS_PER_PAGE))
  return Array.from({length: parts}, (_, i) => ({...BLANK_PAGE, kind: 'appendix' as const, plot: false,
    title: `Appendix - Raw Files and SHA-256 (${i + 1} of ${parts})`,
    appendix: {part: i + 1, parts, files: files.slice(i * APPENDIX_ROWS_PER_PAGE, (i + 1) * APPENDIX_ROWS_PER_PAGE).map(f => ({path: f.path, bytes: fmtFileBytes(f.bytes), sha256: f.sha256}))},
    note: i === 0 ? `${files.length} files under raw/ of run ${runId}: ${what}.` : ''}))
}

/** "Page n of N" and the "Plot A.n - <title>" captions numbered through the report (digest B §6.1). */
export function numberPages(drafts: PageDraft[]): ReportPage[] {
  const total = drafts.length
  let plotNo = 0
  return drafts.map((d, i) => {
    const {plot, ...rest} = d
    return {...rest, number: i + 1, total, pageLabel: `Page ${i + 1} of ${total}`, caption: plot ? `Plot A.${++plotNo} - ${d.title}` : d.title}
  })
}

export function buildReportModel(input: ReportInput): ReportModel {
  const {manifest: m, results: r} = input
  const p = r.parameters
  const ss = steadyStateText(r)
  const header = buildHeader(m, r, ss, input.generatedAt)
  const complete = completeRounds(r)
  const rounds = r.rounds.map(x => x.round)

  const blockSizesSmallFirst = [...p.blockSizesBytes].sort((a, b) => a - b)
  const mixesWriteFirst = [...p.rwMixReadPct].sort((a, b) => a - b)

  // Convergence: the 0/100 (write) points per block size, every round with that point (digest B §5.1 page 1).
  const convergence: ConvergencePoint[] = []
  for (const round of r.rounds) {
    for (const pt of round.points as PointResult[]) {
      if (pt.readPct !== 0) continue
      convergence.push({round: round.round, blockSizeBytes: pt.blockSizeBytes, blockSize: blockSizeLabel(pt.blockSizeBytes), iops: pt.iops})
    }
  }

  const tracking: TrackingData[] = r.tracking.map(t => ({
    id: t.id,
    label: pointLabel(t.readPct, t.blockSizeBytes),
    readPct: t.readPct,
    blockSizeBytes: t.blockSizeBytes,
    series: t.series.map((value, i) => ({round: i + 1, value})),
  }))

  const determinations = r.steadyState.variables.map(v => {
    const t = r.tracking.find(x => x.id === v.id)
    const label = t ? pointLabel(t.readPct, t.blockSizeBytes) : v.id
    return determination(v, label, p.maxDataExcursionPct, p.maxSlopeExcursionPct)
  })

  const matrix: MatrixCell[] = []
  for (const rp of mixesWriteFirst) {
    for (const bs of blockSizesSmallFirst) {
      const w = findAverage(r, rp, bs)
      if (!w) continue
      matrix.push({
        readPct: rp,
        mix: mixLabel(rp),
        blockSizeBytes: bs,
        blockSize: blockSizeLabel(bs),
        iops: w.iops,
        mbPerSec: w.bwBytesPerSec / 1e6,
        latMeanMs: w.latMeanNs / 1e6,
        latMaxMs: w.latMaxNs / 1e6,
        latMaxAvgMs: w.latMaxAvgNs / 1e6,
      })
    }
  }

  const window = rangeText(r.steadyState.fromRound, r.steadyState.toRound)
  const windowNote = `Average over the measurement window, rounds ${window}${ss.achieved ? '' : ' (steady state NOT ACHIEVED)'}.`

  const headlineIops = (rp: number, bs: number) => {
    const w = findAverage(r, rp, bs)
    return w ? `${fmtIops(w.iops)} IOPS` : 'n/a (not measured)'
  }
  const headlineBw = (rp: number, bs: number) => {
    const w = findAverage(r, rp, bs)
    return w ? `${fmtMBps(w.bwBytesPerSec)} MB/s` : 'n/a (not measured)'
  }

  const summary: SummaryData = {
    verdict: ss.verdict,
    verdictDetail: ss.achieved
      ? `All ${determinations.length} tracking variable(s) met the data and slope excursion criteria in rounds ${window}.`
      : `Measurement window rounds ${window}: ${determinations.filter(d => !d.steady).map(d => d.label).join('; ') || 'no complete window'} did not meet the criteria. Results are reported from this window.`,
    steady: ss.achieved,
    device: [
      {label: 'Vendor', value: header.vendor},
      {label: 'Model', value: header.model},
      {label: 'Serial', value: none(m.target.identity.serial)},
      {label: 'Firmware', value: none(m.target.identity.firmware)},
      {label: 'Capacity', value: header.device[4].value},
      {label: 'Interface', value: m.target.identity.interface},
      {label: 'Target', value: `${m.target.kind} ${m.target.path}`},
      {label: 'Rounds run', value: `${complete.length} of max ${p.maxRounds}`},
    ],
    headline: [
      {label: 'RND 4KiB read (R/W 100/0)', value: headlineIops(100, 4096)},
      {label: 'RND 4KiB write (R/W 0/100)', value: headlineIops(0, 4096)},
      {label: 'RND 64KiB R/W 65/35', value: headlineIops(65, 65536)},
      {label: 'RND 1024KiB read (R/W 100/0)', value: headlineBw(100, 1048576)},
      {label: 'RND 1024KiB write (R/W 0/100)', value: headlineBw(0, 1048576)},
    ],
    compliance: header.complianceText,
    reasons: header.reasons,
    deviations: header.deviations,
    runStatus: r.status,
    howToRead: HOW_TO_READ,
  }

  // Pages (digest B §5.1 page list), numbered "n of N" and captioned "Plot A.n - <title>".
  type Draft = PageDraft
  const blank = BLANK_PAGE
  const drafts: Draft[] = []
  drafts.push({...blank, kind: 'summary', title: 'IOPS Test - Summary', plot: false, summary})
  drafts.push({...blank, kind: 'chart', plot: true, title: 'IOPS Steady State Convergence Plot - All Block Sizes', chart: 'convergence',
    note: 'R/W 0/100 (write) IOPS of every block size, per round. Logarithmic IOPS axis.'})
  drafts.push({...blank, kind: 'chart', plot: true, title: 'IOPS Steady State Measurement Window', chart: 'measurement-window',
    note: `Tracking variables per round; the shaded band is the measurement window (rounds ${window}).`})
  for (const d of determinations) {
    drafts.push({...blank, kind: 'closeup', plot: true, title: `IOPS Steady State Measurement Window - ${d.label}`, chart: `window-${d.id}`, determination: d})
  }
  drafts.push({...blank, kind: 'table', plot: true, title: 'IOPS - All RW Mix & BS - Tabular Data',
    tables: [{heading: 'Window-average IOPS (read + write), rows: block size, columns: R/W mix %',
      ...matrixTable(matrix, mixesWriteFirst, blockSizesSmallFirst, c => fmtIops(c.iops), windowNote)}]})
  drafts.push({...blank, kind: 'chart', plot: true, title: 'IOPS - All RW Mix & BS - 2D Plot', chart: 'iops-2d',
    note: 'Window-average IOPS per block size, one line per R/W mix. Logarithmic IOPS axis.'})
  drafts.push({...blank, kind: 'chart', plot: true, title: 'IOPS - All RW Mix & BS - 3D Columns', chart: 'iops-matrix',
    note: 'The block size x R/W mix matrix as a heat map (Vega-Lite has no 3D columns): colour and label give window-average IOPS.'})
  drafts.push({...blank, kind: 'tables', plot: true, title: 'Bandwidth & Response Time - All RW Mix & BS - Tabular Data',
    tables: [
      {heading: 'Bandwidth, MB/s (10^6 B/s)', ...matrixTable(matrix, mixesWriteFirst, blockSizesSmallFirst, c => fixed(c.mbPerSec, 2), '')},
      {heading: 'Mean response time, ms', ...matrixTable(matrix, mixesWriteFirst, blockSizesSmallFirst, c => fixed(c.latMeanMs, 3), '')},
      {heading: 'Maximum response time over the window, ms', ...matrixTable(matrix, mixesWriteFirst, blockSizesSmallFirst, c => fixed(c.latMaxMs, 3), '')},
    ],
    note: windowNote})
  // Datasheet claims vs measured (pts verify), before the appendix; not a SNIA plot, so no "Plot A.n".
  if (input.claims) {
    const ds = input.claims.datasheet
    for (const c of claimsPages(input.claims)) {
      drafts.push({...blank, kind: 'claims', plot: false, chart: `claims-${c.part}`, claims: c,
        title: `Claims vs measured - ${ds.vendor} ${ds.model}${c.parts > 1 ? ` (${c.part} of ${c.parts})` : ''}`})
    }
  }
  drafts.push(...appendixDrafts(input.rawFiles, r.runId, 'every fio job file (.fio) and its JSON output (.json)'))
  const pages = numberPages(drafts)

  return {
    schemaVersion: 1,
    generatedAt: input.generatedAt,
    generatedBy: `pts ${m.tool.version}`,
    runId: r.runId,
    test: r.test,
    reportTitle: `${header.title} - ${header.vendor === 'none' ? '' : header.vendor + ' '}${header.model} - ${r.runId}`,
    header,
    pages,
    data: {
      rounds,
      windowFrom: r.steadyState.fromRound,
      windowTo: r.steadyState.toRound,
      convergence,
      tracking,
      determinations,
      matrix,
      mixesWriteFirst,
      blockSizesSmallFirst,
    },
  }
}

