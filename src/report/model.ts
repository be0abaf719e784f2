/**
 * Report model of a test-program run (TP, LAT, WSAT, HIR, XSR, CBW/ECW, DIRTH), built only from
 * the stored run. Pure. The same page structure as IOPS (digest B §6.1): the SNIA header on every
 * page, a summary page, the test's pages (per digest B §6.2, from the test's page builder in
 * ./tests/), "Plot A.n" captions, and the raw-file appendix. Charts are Vega-Lite specs carried in
 * the model (rendered to SVG by the same pipeline).
 */
import type {TopLevelSpec} from 'vega-lite'
import {reviewSource, revisionLabel, testName} from '../model/tests.js'
import type {VerifyResult} from '../claims/types.js'
import {claimsPages} from './claims-page.js'
import {tracePages} from './pages/traces.js'
import {claimsSpec} from './charts/claims.js'
import type {VariableEvaluation} from '../model/results.js'
import type {RunManifest} from '../model/manifest.js'
import type {PhaseResult, ProgramResults} from '../model/results.js'
import {formatBytes} from '../units.js'
import {plainStoredNote, plainStoredText, REVIEW_SOURCE_LEGEND, sourceLabel, SOURCE_LEGEND} from '../model/wording.js'
import {durationText, gapText, runTimingReview} from '../analysis/timing.js'
import {stepsOf} from '../analysis/steps.js'
import {fmtInstant} from './format.js'
import {healthPages} from './pages/health.js'
import {bodyMm, headerMm, paginateSummary, paramsHeadMm, paramsRowMm} from './layout-estimate.js'
import {sealDrafts, BLANK_PAGE, determination, numberPages, type PageDraft, deviceKV, platformKV, testedBy, vendorOf, type Determination, type KV, type RawFile, type ReportHeader, type ReportPage, type SummaryData, type TableData} from './page-kit.js'

export interface ProgramReportInput {
  manifest: RunManifest
  results: ProgramResults
  /** Not read since the appendix became one seal page (the list is in manifest.json); kept so that callers of earlier versions compile. */
  rawFiles?: RawFile[]
  generatedAt: string
  /** The stored verify result (<run>/claims.json), when there is a valid one: adds the "Claims vs measured" page(s). */
  claims?: VerifyResult | null
  /** A run still in progress (or whose pts was killed): the report shows what is stored so far and says so on every page. */
  inProgress?: {alive: boolean | null; runDir: string} | null
}

/** One page a test's builder asks for; numbering, captions and chart ids are added here. */
export interface ProgramPageSpec {
  kind: 'chart' | 'closeup' | 'table' | 'tables'
  title: string
  chart?: TopLevelSpec
  determination?: Determination
  tables?: Array<TableData & {heading: string}>
  note?: string
}

/** What a test's page builder returns (./tests/<test>.ts). */
export interface ProgramSection {
  /** Title-bar centre text, e.g. "TP - SEQ 1024KiB / 128KiB" (default: the spec's subtitle). */
  subtitle: string
  /** Set Up / Test Parameters columns of the header (digest B §6.1). */
  setup: KV[]
  test: KV[]
  /** "Steady State" cell and whether every steady-state loop reached it (true when the test has none). */
  steadyState: {text: string; achieved: boolean}
  /** Summary page: headline results and one line on the verdict. */
  headline: KV[]
  verdict: string
  verdictDetail: string
  /** Extra rows of the summary page's device block (IOPS: rounds run). */
  summaryRows?: KV[]
  /** The header's Data Pattern (default "RND": fio's random data on every write), when some steps write other data. */
  dataPattern?: string
  /** Review tests (not SNIA PTS): the title bar's left lines, the profile shown after the revision, the headline heading and the how-to-read text, in place of the PTS ones. */
  review?: {issuer: string[]; profile: string; headlineHeading: string; howToRead: string[]}
  pages: ProgramPageSpec[]
}

export type ProgramPageBuilder = (input: ProgramReportInput) => ProgramSection

export interface ProgramReportModel {
  schemaVersion: 1
  generatedAt: string
  generatedBy: string
  runId: string
  test: string
  reportTitle: string
  header: ReportHeader
  pages: ReportPage[]
  /** Vega-Lite specs by chart id (the pages' `chart`). */
  charts: Record<string, TopLevelSpec>
}


const none = (v: string | null | undefined): string => (v === null || v === undefined || v === '' ? 'none' : v)
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

export function phasesOf<K extends PhaseResult['kind']>(r: ProgramResults, kind: K): Array<Extract<PhaseResult, {kind: K}>> {
  return r.phases.filter((p): p is Extract<PhaseResult, {kind: K}> => p.kind === kind)
}

/** "Rounds 3-7" / "Rounds 21-25 (NOT ACHIEVED)" for one loop phase. */
export function loopSteadyText(p: Extract<PhaseResult, {kind: 'loop'}>): {text: string; achieved: boolean} {
  const ss = p.steadyState
  const w = ss.fromRound === null ? 'n/a' : `${ss.fromRound}-${ss.toRound}`
  if (ss.verdict === 'steady') return {text: `Rounds ${w}`, achieved: true}
  if (ss.verdict === 'not-achieved') return {text: `Rounds ${w} (NOT ACHIEVED)`, achieved: false}
  return {text: `NOT ACHIEVED (${p.rounds.length} rounds, run incomplete)`, achieved: false}
}

/** The determination block of one tracking variable (digest B §3.2), in the variable's unit. */
export function programDetermination(v: VariableEvaluation, label: string, unit: string, scale: number, pctData: number, pctSlope: number, decimals = 3): Determination {
  return determination(v, label, pctData, pctSlope, {unit, scale, decimals, fitUnit: true})
}

/** The determination block of a loop's tracking variable, with the excursion limits the run recorded (results criteria). */
export function loopDetermination(loop: Extract<PhaseResult, {kind: 'loop'}>, v: VariableEvaluation, label: string, unit: string, scale: number, decimals = 3): Determination {
  return programDetermination(v, label, unit, scale, loop.criteria.maxDataExcursionPct, loop.criteria.maxSlopeExcursionPct, decimals)
}

/** The shaded measurement window of a loop on a per-round chart, or undefined before there is one. */
export function windowBand(loop: Extract<PhaseResult, {kind: 'loop'}> | undefined): {from: number; to: number; label: string} | undefined {
  const ss = loop?.steadyState
  return ss && ss.fromRound !== null && ss.toRound !== null ? {from: ss.fromRound - 0.5, to: ss.toRound + 0.5, label: 'window'} : undefined
}

export function programHeader(input: ProgramReportInput, section: ProgramSection): ReportHeader {
  const {manifest: m, results: r} = input
  const p = r.parameters
  const id = m.target.identity
  const purges = phasesOf(r, 'purge')
  const reasons = m.compliance.reasons.map(plainStoredText)
  if (r.status !== 'complete') reasons.push(`run status: ${r.status}`)
  const compliant = m.compliance.compliant && r.status === 'complete'
  return {
    runStart: fmtInstant(m.createdAt),
    reportDate: fmtInstant(input.generatedAt),
    runFinish: fmtInstant(m.finishedAt),
    title: `${testName(r.test)} - Report Page`,
    ...(section.review ? {issuer: section.review.issuer} : {}),
    subtitle: section.subtitle,
    revision: revisionLabel(r.revision),
    profile: section.review ? section.review.profile : cap(r.profile),
    vendor: vendorOf(m),
    model: none(id.model),
    testedBy: testedBy(m),
    platform: platformKV(m, p.ioengine),
    device: deviceKV(m, p.writeCacheRequired, purges.length === 0 ? 'none' : [...new Set(purges.map(x => `${x.method} (${x.status})`))].join(', ')),
    setup: [{label: 'Data Pattern', value: section.dataPattern ?? 'RND'}, {label: 'ActiveRange', value: `${p.activeRangePct}% (${formatBytes(p.activeRangeBytes)})`}, ...section.setup],
    test: [...section.test, {label: 'Steady State', value: section.steadyState.text}],
    steadyState: section.steadyState.text,
    steadyAchieved: section.steadyState.achieved,
    compliant,
    complianceText: compliant ? 'Compliant' : 'NOT COMPLIANT',
    reasons,
    deviations: m.deviations.map(plainStoredText),
    ...(input.inProgress ? {inProgress: inProgressText(input.inProgress, m.pid, m.host.hostname)} : {}),
  }
}

/** The "in progress" line of every page's header. */
export function inProgressText(p: {alive: boolean | null; runDir: string}, pid: number, host: string): string {
  const state = p.alive === true ? `The run is still running (pts process ${pid}).`
    : p.alive === false ? `The run stopped before its end (its pts process ${pid} is gone); to continue it: pts resume ${p.runDir}`
      : `The run was still running on ${host} when its files were stored.`
  return `IN PROGRESS: this report shows only what was stored when it was made. ${state}`
}

const HOW_TO_READ = [
  'Every page repeats the SNIA header: device, test platform, set-up and test parameters. A non-compliant run says so, with reasons, on every page.',
  'Steady-state loops report the average over the 5-round measurement window (rounds x-4 to x); if steady state was not reached by the round limit, the last 5 rounds are used and marked NOT ACHIEVED (PTS 2.0.2 §2.1.24, steady state).',
  'Time series (WSAT, XSR, HIR) are one fio job per sample, run back to back; in a sequential series (XSR access groups 1 and 3, WSAT VOD and meta data) every sample continues each thread\'s stream where the sample before ended. Their values are fio\'s own per-sample statistics.',
  'IOPS are read + write completions per second. MB/s is decimal (10^6 B/s); block sizes are binary (KiB = 1024 B); response times are fio\'s total latency (submission + completion) in ms; 5 9s is fio\'s 99.999th percentile over every IO of the point (LAT window tables: over the window\'s pooled IOs).',
  'Every constant of the test is listed in the parameters table with its source: the SNIA PTS, public implementations of it, or pts\'s own choice where the spec is open; the appendix gives the seal of the raw data (every fio job and output, listed with its SHA-256 in manifest.json) and how to check it.',
]

/**
 * The run-timing verdict of the summary page: the durations and idle-gap checks of pts audit, by
 * the same functions (analysis/timing.ts), from what results.json stores.
 */
export function timingSummary(r: ProgramResults, m: RunManifest): SummaryData['timing'] {
  const review = runTimingReview(r, m.events.filter(e => e.event === 'resume').map(e => Date.parse(e.at)))
  const problems = [...review.short, ...review.overruns, ...review.gaps]
  const lines = [`Step durations: ${durationText(review)}.`, `Idle gaps: ${gapText(review)}.`]
  // steps without a length: fill pieces (written by volume, not for a time), else steps of a run stored before pts recorded their timing
  const pieces = stepsOf(r).filter(s => s.phase.kind === 'fill' && !s.step.timing).length
  const older = review.steps - review.checked - pieces
  if (pieces > 0) lines.push(`${pieces} of ${review.steps} steps are fill pieces, each written by its volume, not for a time: they have no planned length to check and no idle-gap bound.`)
  if (older > 0) lines.push(`${older} of ${review.steps} steps have no recorded length in results.json (a run stored by an earlier pts); pts audit checks them from their job files.`)
  for (const p of problems.slice(0, 5)) lines.push(`Beyond its bound: ${p}.`)
  if (problems.length > 5) lines.push(`... and ${problems.length - 5} more (pts audit lists all).`)
  lines.push('pts audit <run directory> makes these checks from raw/, and also recomputes every reported number and checks the seal (see the appendix).')
  return {ok: review.ok, verdict: review.ok ? 'PASS' : 'FAIL', lines}
}

export function buildProgramReportModel(input: ProgramReportInput, builder: ProgramPageBuilder): ProgramReportModel {
  const {manifest: m, results: r} = input
  const section = builder(input)
  const header = programHeader(input, section)
  type Draft = PageDraft
  const blank = BLANK_PAGE
  const charts: Record<string, TopLevelSpec> = {}
  const health = healthPages(r)
  const summary: SummaryData = {
    verdict: section.verdict,
    verdictDetail: section.verdictDetail,
    steady: section.steadyState.achieved,
    device: [
      {label: 'Vendor', value: header.vendor},
      {label: 'Model', value: header.model},
      {label: 'Serial', value: none(m.target.identity.serial)},
      {label: 'Firmware', value: none(m.target.identity.firmware)},
      {label: 'Capacity', value: header.device[4].value},
      {label: 'Interface', value: m.target.identity.interface},
      {label: 'Target', value: `${m.target.kind} ${m.target.path}`},
      ...(section.summaryRows ?? []),
      {label: 'Time scale', value: r.parameters.timeScale === 1 ? '1 (no phase shortened by --time-scale)' : `${r.parameters.timeScale} (shortened, non-compliant)`},
    ],
    headline: section.headline,
    compliance: header.complianceText,
    reasons: header.reasons,
    deviations: header.deviations,
    runStatus: r.status,
    timing: timingSummary(r, m),
    health: {warning: health.view.warnings.length > 0, text: health.view.summary},
    howToRead: section.review?.howToRead ?? HOW_TO_READ,
    ...(section.review ? {headlineHeading: section.review.headlineHeading} : {}),
  }
  // The summary goes on over continuation pages when its lists do not fit under the header (layout-estimate.ts).
  const hdrMm = headerMm(header)
  const summaryTitle = `${testName(r.test)} - Summary`
  const flows = paginateSummary(summary, bodyMm(hdrMm, summaryTitle), bodyMm(hdrMm, `${summaryTitle} (continued)`))
  const drafts: Draft[] = flows.map((flow, i) => ({...blank, kind: 'summary' as const, title: i === 0 ? summaryTitle : `${summaryTitle} (continued)`, plot: false, summary: {...summary, flow}}))
  section.pages.forEach((p, i) => {
    let chart: string | null = null
    if (p.chart) { chart = `${r.test}-${i + 1}`; charts[chart] = p.chart }
    drafts.push({...blank, kind: p.kind, title: p.title, plot: true, chart, determination: p.determination ?? null, tables: p.tables ?? [], note: p.note ?? ''})
  })
  // Drive health and temperature (not a SNIA plot, so no "Plot A.n").
  health.pages.forEach((p, i) => {
    let chart: string | null = null
    if (p.chart) { chart = `health-${i + 1}`; charts[chart] = p.chart }
    drafts.push({...blank, kind: p.kind, title: p.title, plot: false, chart, determination: null, tables: p.tables ?? [], note: p.note ?? ''})
  })
  // Per-second traces (pts run --per-second): one chart per test point; not SNIA plots, so no "Plot A.n".
  tracePages(r, testName(r.test)).forEach((p, i) => {
    const chart = `${r.test}-trace-${i + 1}`
    charts[chart] = p.chart
    drafts.push({...blank, kind: p.kind, title: p.title, plot: false, chart, determination: null, tables: [], note: p.note})
  })
  // Datasheet claims vs measured (pts verify), before the parameters; not a SNIA plot, so no "Plot A.n".
  if (input.claims) {
    const ds = input.claims.datasheet
    for (const c of claimsPages(input.claims)) {
      const chart = `claims-${c.part}`
      charts[chart] = claimsSpec(c.bars)
      drafts.push({...blank, kind: 'claims', plot: false, chart, claims: c,
        title: `Claims vs measured - ${ds.vendor} ${ds.model}${c.parts > 1 ? ` (${c.part} of ${c.parts})` : ''}`})
    }
  }
  // Parameters with their provenance (digest §0: spec / implementation-derived / open).
  // As many rows a page as fit under the header (layout-estimate.ts), at least one.
  const paramRows = r.parameters.specParameters.map(x => {
    const note = plainStoredNote(x.note)
    return {label: x.name, cells: [x.value + (note ? ` (${note})` : ''), sourceLabel(x.source)]}
  })
  const paramsHeading = `Constants of this test and where they come from (${reviewSource(r.test) === null ? SOURCE_LEGEND : REVIEW_SOURCE_LEGEND})`
  const paramsTitle = `${testName(r.test)} - Test Definition Parameters`
  const paramPages: Array<typeof paramRows> = []
  let room = 0
  for (const row of paramRows) {
    const h = paramsRowMm(row.label, row.cells[0], row.cells[1])
    if (paramPages.length === 0 || (h > room && paramPages[paramPages.length - 1].length > 0)) {
      paramPages.push([])
      room = bodyMm(hdrMm, `${paramsTitle} (1 of 2)`) - paramsHeadMm(paramsHeading)
    }
    paramPages[paramPages.length - 1].push(row)
    room -= h
  }
  paramPages.forEach((rows, i) => {
    drafts.push({...blank, kind: 'params', plot: false, title: `${paramsTitle}${paramPages.length > 1 ? ` (${i + 1} of ${paramPages.length})` : ''}`,
      tables: [{heading: paramsHeading, columns: ['Parameter', 'Value', 'Source'], rows, note: ''}]})
  })
  drafts.push(...sealDrafts(m.integrity, r.runId, 'every fio job file (.fio), its JSON output (.json) and logs'))
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
    charts,
  }
}

