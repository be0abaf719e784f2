/**
 * The page kit of every report: the pieces a report model is made of (header, pages, tables,
 * determination blocks, appendix) and the helpers that build them. Pure. The model itself is
 * assembled in report/program/model.ts from a test's page builder (report/program/tests/).
 *
 * Page layout follows the SNIA report-page template (digest B §6.1) and the table conventions
 * (B §6.3).
 */
import type {RunManifest} from '../model/manifest.js'
import type {VariableEvaluation} from '../steady-state/evaluate.js'
import {blockSizeLabel, formatBytes, formatDecimalGB, formatDecimalVolume as formatDecimalVolumeText, mixLabel} from '../units.js'
import type {ClaimUnit, Verdict} from '../claims/types.js'
import {fitFormula, fixed, fmtFileBytes} from './format.js'
import {multipleLabel, wipcVolumeText} from '../plan/expand.js'

export interface RawFile {
  /** Path relative to the run directory, "/"-separated. */
  path: string
  sha256: string
  bytes: number
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

/** What the IOPS report's charts are drawn from (report/program/tests/iops.ts builds it from the loop phase). */
export interface IopsData {
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

/** Raw-file rows per appendix page (each appendix page carries the full header). */
export const APPENDIX_ROWS_PER_PAGE = 64


const none = (v: string | null | undefined): string => (v === null || v === undefined || v === '' ? 'none' : v)

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

export function matrixTable(cells: MatrixCell[], mixes: number[], sizes: number[], value: (c: MatrixCell) => string, note: string): TableData {
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

// The "Claims vs measured" page (report/claims-page.ts builds it from a stored verify result).

export interface ClaimsBar {
  id: string
  label: string
  unit: ClaimUnit
  claimed: number
  claimedText: string
  measured: number | null
  measuredText: string
  ratio: number | null
  verdict: Verdict
}

export interface ClaimsPageData {
  part: number
  parts: number
  datasheet: KV[]
  summary: string
  tolerance: string
  warnings: string[]
  rows: Array<{id: string; claim: string; claimed: string; measured: string; ratio: string; verdict: string; verdictClass: string; note: string}>
  /** Chart data of this page's claims (the chart id is the page's `chart`). */
  bars: ClaimsBar[]
  /** The verdict sentences of this page's claims. */
  texts: string[]
}

/**
 * What the WIPC phases wrote, from fio's byte count: "2X user capacity (536.9 GB) in the 75 %
 * ActiveRange"; several (TP) as "1024KiB: 2X (536.9 GB), 128KiB: 2X (536.9 GB) user capacity in
 * the 75 % ActiveRange". Runs of earlier versions wrote a multiple of the ActiveRange, and say so
 * truthfully here (e.g. 1.5X user capacity for a 75 % ActiveRange).
 */
export function wipcWrittenText(wipcs: ReadonlyArray<{blockSizeBytes: number; writtenBytes: number; status: string}>, p: {capacityBytes: number; preconditionActiveRangePct: number}): string {
  const done = wipcs.filter(w => w.status === 'done')
  if (done.length === 0) return 'not run'
  if (done.length === 1) return wipcVolumeText(done[0].writtenBytes, p.capacityBytes, p.preconditionActiveRangePct)
  return `${done.map(w => `${blockSizeLabel(w.blockSizeBytes)}: ${multipleLabel(w.writtenBytes / Math.max(1, p.capacityBytes))} (${formatDecimalVolumeText(w.writtenBytes)})`).join(', ')} user capacity in the ${p.preconditionActiveRangePct} % ActiveRange`
}
