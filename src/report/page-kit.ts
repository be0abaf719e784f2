/**
 * The page kit of every report: the pieces a report model is made of (header, pages, tables,
 * determination blocks, appendix) and the helpers that build them. Pure. The model itself is
 * assembled in report/program/model.ts from a test's page builder (report/program/tests/).
 *
 * Page layout follows the SNIA report-page template (digest B §6.1) and the table conventions
 * (B §6.3).
 */
import type {Integrity, RunManifest} from '../model/manifest.js'
import {sealHash} from '../model/seal.js'
import type {VariableEvaluation} from '../model/results.js'
import {blockSizeLabel, formatBytes, formatCapacity, formatDecimalVolume as formatDecimalVolumeText, mixLabel} from '../units.js'
import type {ClaimUnit, Verdict} from '../claims/types.js'
import {fitFormula, fixed, fmtFileBytes, fmtInstant} from './format.js'
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
  /** Left of the title bar, one entry a line; absent: the SNIA template's "SNIA SSS TWG / Solid State Storage Performance Test Specification". */
  issuer?: string[]
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
  /** A run still in progress: what every page's header says about it (absent for a run that ended). */
  inProgress?: string
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

/** One section of the summary's lists (compliance reasons, run timing, deviations, how to read), as much of it as one page shows. */
export interface SummarySection {
  /** "Compliance: NOT COMPLIANT", "Audit of run timing", "Deviations", "How to read this report". */
  heading: string
  /** A verdict after the heading, coloured ("PASS" / "FAIL"). */
  status?: {text: string; ok: boolean}
  /** The section began on an earlier page: the heading says "(continued)". */
  continued: boolean
  items: string[]
  /** What the section says when it has no items. */
  empty: string
  /** Class of the list ("timing", "howto"); the how-to lines are printed smaller. */
  listClass: string
}

/** What one summary page shows: the top (verdict and columns) on the first page only, then the sections or their parts. */
export interface SummaryFlow {
  top: boolean
  sections: SummarySection[]
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
  /** The run-timing checks of pts audit (durations and idle gaps), from results.json (report/model.ts timingSummary). */
  timing: {ok: boolean; verdict: 'PASS' | 'FAIL'; lines: string[]}
  /** The drive health line (report/pages/health.ts): a warning when the drive throttled or raised a critical warning; absent in models of earlier versions. */
  health?: {warning: boolean; text: string}
  howToRead: string[]
  /** Heading of the headline results; absent: "Headline results (window averages)". */
  headlineHeading?: string
  /**
   * What this page of the summary shows (report/layout-estimate.ts paginateSummary): the top on the
   * first page, then the sections, or the part of a section, that fit; a long summary goes on over
   * continuation pages. Absent in models of earlier versions (one page with everything).
   */
  flow?: SummaryFlow
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
  /** The appendix page: the seal of the raw data (one page; the full list is manifest.json /integrity/files). */
  appendix: null | SealPage
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

/** The appendix: the seal hash, where the full list of files and SHA-256 is, and how to check it. */
export interface SealPage {
  /** SHA-256 of the seal list (model/seal.ts); null when the run has no seal. */
  sealHash: string | null
  rows: KV[]
  /** How to check the seal: a command and what it does. */
  check: Array<{command: string; how: string}>
}


const none = (v: string | null | undefined): string => (v === null || v === undefined || v === '' ? 'none' : v)

const NOT_AVAILABLE = 'not available'

/** Test Platform column of the SNIA header (digest B §6.1), shared by every test's report. */
export function platformKV(m: RunManifest, ioengine: string): KV[] {
  const id = m.target.identity
  return [
    {label: 'Host', value: m.host.hostname},
    {label: 'CPU', value: `${m.host.cpu} (${m.host.cores} cores)`},
    {label: 'Memory', value: formatBytes(m.host.memoryBytes)},
    {label: 'OS', value: m.host.os},
    {label: 'Kernel', value: `${m.host.kernel} (${m.host.arch})`},
    {label: 'NUMA node', value: id.numaNode === undefined ? NOT_AVAILABLE : String(id.numaNode)},
    {label: 'I/O scheduler', value: id.ioScheduler ?? NOT_AVAILABLE},
    {label: 'Test SW', value: `pts ${m.tool.version}; ${m.fio.version} (${ioengine})`},
    ...(m.metadata?.notes ? [{label: 'Notes', value: m.metadata.notes}] : []),
    ...concurrencyKV(m),
  ]
}

/** A lane of a multi-drive run: the drives tested at the same time and the host's CPU use (test conditions). */
export function concurrencyKV(m: RunManifest): KV[] {
  const c = m.concurrency
  if (!c) return []
  const cpu = c.hostCpu.at(-1)
  return [
    {label: 'Concurrent', value: `${c.drives.length} drives at once (lane ${c.lane}): ${c.drives.join(', ')}`},
    {label: 'Host CPU', value: cpu ? `${cpu.busyPct}% busy (user ${cpu.userPct}%, system ${cpu.systemPct}%, iowait ${cpu.iowaitPct}%) of ${cpu.cpus} CPUs over the run${c.hostCpu.length > 1 ? ` (last of ${c.hostCpu.length} sessions)` : ''}` : 'not measured'},
  ]
}

/** "pts 0.1.0 on host", after the operator when one was given (--operator). */
export function testedBy(m: RunManifest): string {
  const tool = `pts ${m.tool.version} on ${m.host.hostname}`
  return m.metadata?.operator ? `${m.metadata.operator} (${tool})` : tool
}

/** The device vendor: the operator's (--vendor) when given, else what the device reports. */
export function vendorOf(m: RunManifest): string {
  return m.metadata?.vendor ?? none(m.target.identity.vendor)
}

/** "8.0 GT/s PCIe x4" for an NVMe drive, the host adapter's link for a SATA/SAS drive, else not available. */
export function pcieLinkValue(id: RunManifest['target']['identity']): string {
  if (id.pcieLinkSpeed !== undefined || id.pcieLinkWidth !== undefined) {
    const cur = [id.pcieLinkSpeed ?? 'speed unknown', id.pcieLinkWidth ? `x${id.pcieLinkWidth}` : null].filter(Boolean).join(' ')
    const below = (id.pcieMaxLinkSpeed && id.pcieMaxLinkSpeed !== id.pcieLinkSpeed) || (id.pcieMaxLinkWidth && id.pcieMaxLinkWidth !== id.pcieLinkWidth)
    return below ? `${cur} (max ${id.pcieMaxLinkSpeed ?? id.pcieLinkSpeed ?? 'speed unknown'}${id.pcieMaxLinkWidth ? ` x${id.pcieMaxLinkWidth}` : ''})` : cur
  }
  return id.hostAdapterPcieLink ? `${NOT_AVAILABLE} (${id.interface}); host adapter ${id.hostAdapterPcieLink}` : NOT_AVAILABLE
}

/** Device Under Test column of the SNIA header (digest B §6.1), shared by every test's report. */
export function deviceKV(m: RunManifest, writeCacheRequired: string, purge: string): KV[] {
  const id = m.target.identity
  const given = m.metadata?.vendor
  const reported = id.vendor?.trim() || null
  return [
    {label: 'Vendor', value: given ? (reported && reported.toLowerCase() !== given.toLowerCase() ? `${given} (the device reports "${reported}")` : given) : none(id.vendor)},
    {label: 'Model', value: none(id.model)},
    {label: 'S/N', value: none(id.serial)},
    {label: 'Firmware', value: none(id.firmware)},
    {label: 'Capacity', value: formatCapacity(id.capacityBytes)},
    {label: 'Interface', value: `${id.interface} (${m.target.kind} ${m.target.path})`},
    {label: 'PCIe link', value: pcieLinkValue(id)},
    {label: 'Sector size', value: m.target.kind === 'file' ? `${NOT_AVAILABLE} (file target)` : `${id.logicalSectorBytes} B logical, ${id.physicalSectorBytes} B physical`},
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
  // IOPS print as integers; their fit keeps one decimal (the slope of a flat series is small)
  const fit = fitFormula(v.slope * scale, v.intercept * scale, o.decimals === 0 ? 1 : 3)
  const rows: KV[] = [
    {label: 'Measurement Window', value: `Rounds ${v.fromRound}-${v.toRound}`},
    {label: 'Average', value: f(v.average) + u},
    {label: `Allowed Max Data Excursion (${pctData}%)`, value: f(v.allowedDataExcursion) + u},
    {label: 'Measured Max Data Excursion', value: `${f(v.dataExcursion)}${u} (${v.dataExcursionOk ? 'pass' : 'FAIL'})`},
    {label: `Allowed Max Slope Excursion (${pctSlope}%)`, value: f(v.allowedSlopeExcursion) + u},
    {label: 'Measured Max Slope Excursion', value: `${f(v.slopeExcursion)}${u} (${v.slopeExcursionOk ? 'pass' : 'FAIL'})`},
    {label: 'Least Squares Linear Fit Formula', value: o.fitUnit ? `${fit} (${unitName})` : fit},
    {label: 'R² (coefficient of determination)', value: v.rSquared === null ? 'n/a (constant values)' : v.rSquared.toFixed(4)},
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

/**
 * The appendix: one page with the seal hash of the run's data (results.json and every file under
 * raw/, listed with size and SHA-256 in manifest.json /integrity/files), where that list is, and
 * how to check it. `what` says what raw/ holds.
 */
export function sealDrafts(integrity: Integrity | null | undefined, runId: string, what: string): PageDraft[] {
  const rows: KV[] = []
  if (integrity) {
    const raw = integrity.files.filter(f => f.path.startsWith('raw/'))
    const bytes = integrity.files.reduce((a, f) => a + f.bytes, 0)
    rows.push(
      {label: 'Seal hash (SHA-256)', value: sealHash(integrity.files)},
      {label: 'Sealed', value: fmtInstant(integrity.sealedAt)},
      {label: 'Files sealed', value: `${integrity.files.length} (${fmtFileBytes(bytes)}): results.json and ${raw.length} files under raw/, ${what}`},
    )
  } else {
    rows.push({label: 'Seal', value: 'none: manifest.json lists no SHA-256 (a run stored by an earlier pts, or one that was killed before it ended; pts resume seals it when it finishes)'})
  }
  rows.push(
    {label: 'Full list', value: 'manifest.json in the run directory, /integrity/files: the path, size and SHA-256 of every sealed file'},
    {label: 'Run directory', value: runId},
  )
  const check = [
    {command: 'pts audit <run directory>', how: 'checks every file against the list (naming any changed, missing or added file), recomputes every reported number from raw/, and checks the run\'s timing, order and compliance disclosures; exit 0 when all pass. With --verify-key <public key> it also checks the signature (manifest.sig) of a signed run (pts run --sign-key).'},
    {command: 'jq -r \'.integrity.files[] | "\\(.sha256)  \\(.path)"\' manifest.json | sha256sum -c', how: 'without pts, from the run directory: checks every file; the same list piped into sha256sum alone prints the seal hash above.'},
  ]
  return [{...BLANK_PAGE, kind: 'appendix', plot: false, title: 'Appendix - Raw Data and Seal', appendix: {sealHash: integrity ? sealHash(integrity.files) : null, rows, check},
    note: 'The report is built from results.json alone; raw/ holds what fio wrote (each job file and its JSON output), from which pts audit recomputes every number.'}]
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
