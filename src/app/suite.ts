/**
 * `pts run all` (and `--tests tp,lat,...`): the chosen tests of a revision in the spec's order,
 * each a complete run (purge first) in its own directory under the suite directory, then one
 * combined PDF: a contents page followed by each test's own report (digest B §6.2 per test).
 * suite.json (schemas/suite.schema.json) records the plan and each test's outcome; `pts resume
 * <suite-dir>` continues an interrupted suite.
 */
import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {EXIT, PtsError, UnsafeTargetError, UsageError} from '../errors.js'
import * as M from '../messages.js'
import {runTool, whichPath} from '../proc.js'
import {revisionLabel, TEST_IDS, testTitle} from '../model/tests.js'
import {revisionDir, SPECS_DIR} from '../store/spec-files.js'
import {readStoredRun} from '../store/read.js'
import {phaseDetail} from '../runner/run.js'
import {execute} from './execute.js'
import {prepare} from './prepare.js'
import type {RunFlagValues} from './flags.js'
import type {KeyObject} from 'node:crypto'
import {writeFileAtomic, writeJsonAtomic} from '../store/atomic.js'
import {assertValid} from '../validate.js'
import {fileURLToPath} from 'node:url'
import {formatDuration} from '../units.js'
import {currentSuiteClaims} from '../claims/load.js'

/** The spec's order of the tests (digest B §1, §5): each purges first, so the order sets no write history. */
export const SUITE_ORDER = TEST_IDS

export interface SuiteEntry {
  test: string
  /** @pattern ^[0-9]{2}-[a-z]+$ */
  dir: string
  status: 'pending' | 'running' | 'complete' | 'failed' | 'interrupted' | 'skipped'
  error: string | null
  /** @format date-time */
  startedAt: string | null
  /** @format date-time */
  finishedAt: string | null
}

export interface SuiteManifest {
  schemaVersion: 1
  kind: 'suite'
  /** @minLength 1 */
  suiteId: string
  revision: string
  device: string
  argv: string[]
  /** The flags every test ran with (for resume). */
  flags: Record<string, string | boolean>
  status: 'running' | 'complete' | 'failed' | 'interrupted'
  /** @format date-time */
  createdAt: string
  /** @format date-time */
  finishedAt: string | null
  /** @minItems 1 */
  tests: SuiteEntry[]
  /** The combined report, relative to the suite directory, once rendered. */
  report: string | null
}

/** The tests a revision defines, in suite order. */
export function revisionTests(revision: string): string[] {
  const root = process.env.PTS_SPECS_DIR ?? fileURLToPath(SPECS_DIR)
  const dir = join(root, revisionDir(revision as never))
  const have = existsSync(dir) ? readdirSync(dir).filter(f => f.endsWith('.json')).map(f => f.slice(0, -5)) : []
  return SUITE_ORDER.filter(t => have.includes(t))
}

/** --tests a,b,c -> the chosen tests in suite order (pure given what the revision defines). */
export function chooseTests(available: string[], requested: string | undefined, revision: string): string[] {
  if (requested === undefined) return available
  const want = requested.split(',').map(s => s.trim().toLowerCase()).filter(Boolean)
  const unknown = want.filter(t => !available.includes(t))
  if (unknown.length > 0 || want.length === 0) throw new UsageError(M.suite.unknownTests(requested, unknown, revision, available))
  return available.filter(t => want.includes(t))
}

export function suitePath(dir: string): string {
  return join(dir, 'suite.json')
}

export function saveSuite(dir: string, s: SuiteManifest): void {
  assertValid('suite.schema.json', s, p => M.internal.builtInvalid(suitePath(dir), p))
  writeJsonAtomic(suitePath(dir), s)
}

export function readSuite(dir: string): SuiteManifest | null {
  const p = suitePath(resolve(dir))
  if (!existsSync(p)) return null
  let data: unknown
  try { data = JSON.parse(readFileSync(p, 'utf8')) } catch (error) {
    throw new PtsError(M.suite.manifestNotJson(p, (error as Error).message), EXIT.runDir)
  }
  return assertValid<SuiteManifest>('suite.schema.json', data, problems => M.suite.invalidManifest(p, problems))
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * What the contents page says about the purges (pure), from each test's purge text (storedPurge):
 * a statement only as strong as what happened.
 */
export function purgeSentence(rows: ReadonlyArray<{test: string; purge?: string}>): string {
  const known = rows.filter(r => r.purge !== undefined && r.purge !== '')
  if (known.length === 0) return 'No test has recorded a purge yet.'
  const done = known.filter(r => /\(done\)/.test(r.purge!) && !/\((skipped|failed|pending)\)/.test(r.purge!))
  if (done.length === rows.length) return 'Every test started from a purge (the Purge column names the method).'
  if (done.length === 0) return `No test started from a purge (the Purge column says why for each); ${known.every(r => /^none/.test(r.purge!)) ? 'a regular file target cannot be purged, so ' : ''}the runs are marked non-compliant for it.`
  return `${done.length} of ${rows.length} tests started from a purge (${done.map(r => r.test).join(', ')}); the Purge column says what happened for each.`
}

/** The contents page (HTML, pure): every test with its status, purge, verdict line and page range in the combined PDF; `claims`: the "Claims vs measured" pages of pts verify, right after it. */
export function contentsHtml(s: SuiteManifest, rows: Array<{test: string; status: string; detail: string; firstPage: number | null; pages: number; purge?: string}>, css: string, claims?: {summary: string; firstPage: number; pages: number}): string {
  const claimsRow = claims ? `<tr><td>Claims vs measured (pts verify)</td><td>claims</td><td>verified</td><td>-</td><td>${esc(claims.summary)}</td><td class="num">${claims.firstPage}-${claims.firstPage + claims.pages - 1}</td></tr>\n` : ''
  const body = claimsRow + rows.map(r => `<tr><td>${esc(testTitle(r.test))}</td><td>${esc(r.test)}</td><td>${esc(r.status)}</td><td>${esc(r.purge || '-')}</td><td>${esc(r.detail)}</td><td class="num">${r.firstPage === null ? '-' : `${r.firstPage}-${r.firstPage + r.pages - 1}`}</td></tr>`).join('\n')
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>PTS suite ${esc(s.suiteId)}</title><style>${css}
.contents h1{font-size:20px;margin:0 0 6px} .contents table{width:100%;border-collapse:collapse;font-size:11px} .contents td,.contents th{border:1px solid #999;padding:4px 6px;text-align:left;vertical-align:top} .contents .num{text-align:right;white-space:nowrap}</style></head>
<body><section class="page contents"><div class="body">
<h1>SNIA Solid State Storage Performance Test Specification: test suite</h1>
<p><b>Revision:</b> ${esc(revisionLabel(s.revision))} &nbsp; <b>Device:</b> ${esc(s.device)} &nbsp; <b>Suite:</b> ${esc(s.suiteId)}</p>
<p><b>Started:</b> ${esc(s.createdAt)} &nbsp; <b>Finished:</b> ${esc(s.finishedAt ?? 'not finished')} &nbsp; <b>Status:</b> ${esc(s.status)}</p>
<h2>Contents</h2>
<table><tr><th>Test</th><th>Id</th><th>Status</th><th>Purge</th><th>Result</th><th>Pages</th></tr>
${body}
</table>
<p>Each section is the test's own report, with the SNIA header on every page and its own page numbering ("Page n of N" of that test); the page ranges above are those of this combined document. ${esc(purgeSentence(rows))} Each test's results, raw fio data and report are also in its own directory: ${esc(s.tests.map(t => t.dir).join(', '))}.</p>
<p>Command: ${esc(s.argv.join(' '))}</p>
</div></section></body></html>`
}

export function pdfPages(path: string): number {
  const r = runTool([whichPath('pdfinfo') ?? 'pdfinfo', path], 60_000)
  const m = /^Pages:\s+(\d+)/m.exec(r.stdout)
  if (r.code !== 0 || !m) throw new PtsError(M.report.pageCount(path, r.stderr.trim() || r.stdout.trim()), EXIT.report)
  return Number(m[1])
}

/** Contents page + every test's report.pdf -> suite.pdf (pdfunite), written atomically. */
export async function renderSuiteReport(dir: string, s: SuiteManifest, details: Record<string, string>): Promise<string> {
  const {loadTemplates} = await import('../report/templates.js')
  const {htmlToPdf, closeBrowser} = await import('../report/pdf.js')
  const sections = s.tests.map(t => ({t, pdf: join(dir, t.dir, 'report.pdf')})).filter(x => existsSync(x.pdf))
  // <suite>/claims.pdf of pts verify, when current, goes right after the contents page.
  const claims = currentSuiteClaims(dir, s.suiteId)
  const claimsPages = claims ? pdfPages(claims.pdf) : 0
  const rows = []
  let page = 2 + claimsPages
  for (const t of s.tests) {
    const pdf = join(dir, t.dir, 'report.pdf')
    const pages = existsSync(pdf) ? pdfPages(pdf) : 0
    rows.push({test: t.test, status: t.status, detail: details[t.test] ?? (t.error ?? ''), firstPage: pages ? page : null, pages, purge: storedPurge(join(dir, t.dir))})
    page += pages
  }
  const tmpContents = join(dir, '.contents.pdf')
  const tmpOut = join(dir, '.suite.pdf.tmp')
  try {
    writeFileAtomic(tmpContents, await htmlToPdf(contentsHtml(s, rows, loadTemplates().css, claims ? {summary: claims.summary, firstPage: 2, pages: claimsPages} : undefined)))
  } finally {
    await closeBrowser()
  }
  const r = runTool([whichPath('pdfunite') ?? 'pdfunite', tmpContents, ...(claims ? [claims.pdf] : []), ...sections.map(x => x.pdf), tmpOut], 300_000)
  if (r.code !== 0) throw new PtsError(M.report.pdfuniteFailed(r.stderr.trim()), EXIT.report)
  renameSync(tmpOut, join(dir, 'suite.pdf'))
  rmSync(tmpContents, {force: true})
  return join(dir, 'suite.pdf')
}

/** The minimum and maximum duration of the whole suite, from each test's plan (pure). */
export function suiteDurationText(parts: Array<{test: string; minSec: number; maxSec: number | null; minDependsOn?: string[]}>): string {
  const min = parts.reduce((a, p) => a + p.minSec, 0)
  const max = parts.some(p => p.maxSec === null) ? null : parts.reduce((a, p) => a + (p.maxSec ?? 0), 0)
  return [...parts.map(p => `  ${p.test.padEnd(6)} ${formatDuration(p.minSec)} to ${p.maxSec === null ? 'unlimited' : formatDuration(p.maxSec)}${p.minDependsOn?.length ? ` (the minimum is the earliest possible stop of ${p.minDependsOn.join(', ')}: it depends on how fast the device writes)` : ''}`),
    `Suite: minimum ${formatDuration(min)}, maximum ${max === null ? 'unlimited' : formatDuration(max)} (plus purges and WIPC, which depend on the device)`].join('\n')
}

/** What the purge of one test did ("none: the target is a regular file (skipped)", "nvme-format-ses1 (done)"), read from its stored results; '' when unknown. */
export function storedPurge(runDir: string): string {
  try {
    if (!existsSync(join(runDir, 'results.json'))) return ''
    const {results: r} = readStoredRun(runDir)
    const purges = r.phases.filter((p): p is Extract<typeof p, {kind: 'purge'}> => p.kind === 'purge')
    return [...new Set(purges.map(p => `${p.method === 'none' && p.detail ? p.detail : p.method} (${p.status})`))].join('; ')
  } catch { return '' }
}

/** One line per test for the contents page, read from its stored results. */
export function storedDetail(runDir: string): string {
  try {
    if (!existsSync(join(runDir, 'results.json'))) return ''
    const {results: r} = readStoredRun(runDir)
    return r.phases.filter(p => p.kind !== 'purge' && p.kind !== 'wipc').map(p => `${p.id}: ${phaseDetail(p)}`).join('; ')
  } catch { return '' }
}

export interface SuiteRunOptions {
  dir: string
  tests: string[]
  flags: RunFlagValues
  argv: string[]
  signKey?: KeyObject
  /** Continue this stored suite (pts resume <suite-dir>). */
  resume?: SuiteManifest
  /** Resume one interrupted test run directory (the pts resume logic). */
  resumeTest: (runDir: string) => Promise<unknown>
}

const nowIso = () => new Date().toISOString()

/**
 * Run (or continue) a suite. Every pending test is prepared first, so a bad flag or an unsafe
 * target stops the suite before anything is written; then the tests run in order, each from its
 * purge. A failed or interrupted test stops the suite (pts resume <suite-dir> continues it).
 */
export async function runSuite(o: SuiteRunOptions): Promise<SuiteManifest & {files: string[]}> {
  const dir = resolve(o.dir)
  const s: SuiteManifest = o.resume ?? {
    schemaVersion: 1, kind: 'suite', suiteId: dir.split('/').pop()!, revision: o.flags.revision, argv: o.argv,
    // a file: target is stored with its absolute path, so that a resume from another directory finds it
    device: o.flags.device.startsWith('file:') ? `file:${resolve(o.flags.device.slice(5))}` : o.flags.device,
    flags: Object.fromEntries(Object.entries(o.flags).filter(([k, v]) => v !== undefined && k !== 'out' && k !== 'json' && k !== 'sign-key' && k !== 'tests' && k !== 'device')) as Record<string, string | boolean>,
    status: 'running', createdAt: nowIso(), finishedAt: null, report: null,
    tests: o.tests.map((t, i) => ({test: t, dir: `${String(i + 1).padStart(2, '0')}-${t}`, status: 'pending', error: null, startedAt: null, finishedAt: null})),
  }
  if (!o.resume && existsSync(dir) && readdirSync(dir).length > 0) throw new UsageError(M.suite.dirNotEmpty(dir))
  const flags = {...(s.flags as unknown as RunFlagValues), revision: s.revision, device: s.device}
  // A file target the suite created (or the operator confirmed) belongs to the suite: its later tests and a resume overwrite it.
  const filePath = s.device.startsWith('file:') ? s.device.slice(5) : null
  if (filePath && (o.resume || flags['yes-destroy-data'] === undefined)) flags['yes-destroy-data'] = o.resume || !existsSync(filePath) ? filePath : flags['yes-destroy-data']
  // Prepare every test that has not started: usage errors and the safety gate before any write.
  const prepared = new Map<string, ReturnType<typeof prepare>>()
  for (const t of s.tests) {
    if (t.status === 'complete' || t.status === 'skipped' || existsSync(join(dir, t.dir, 'results.json'))) continue
    prepared.set(t.test, prepare(t.test, flags))
  }
  const first = [...prepared.values()][0]
  if (first && first.refusals.length > 0) {
    throw new UnsafeTargetError(M.target.refused(first.target.kind === 'file' ? `file:${first.target.path}` : first.target.path, first.refusals))
  }
  mkdirSync(dir, {recursive: true})
  s.status = 'running'
  s.finishedAt = null
  saveSuite(dir, s)
  try {
    for (const t of s.tests) {
      if (t.status === 'complete' || t.status === 'skipped') continue
      const runDir = join(dir, t.dir)
      t.status = 'running'
      t.startedAt = t.startedAt ?? nowIso()
      t.error = null
      saveSuite(dir, s)
      process.stderr.write(`\n=== ${testTitle(t.test)} (${t.test}), test ${s.tests.indexOf(t) + 1} of ${s.tests.length}: ${runDir}\n`)
      try {
        let report: {error: string | null}
        if (existsSync(join(runDir, 'results.json'))) {
          report = (await o.resumeTest(runDir) as {report?: {error: string | null}}).report ?? {error: null}
        } else {
          const p = prepared.get(t.test)!
          // a file target that this suite created is its own: later tests may overwrite it
          const later = s.tests.slice(s.tests.indexOf(t) + 1).map(x => prepared.get(x.test)?.plan.timeline ?? [])
          const suite = {index: s.tests.indexOf(t) + 1, of: s.tests.length, laterMinSec: later.flat().reduce((a, x) => a + x.minSec, 0), laterMaxSec: later.flat().reduce((a, x) => a + x.maxSec, 0)}
          const r = await execute(p, runDir, [...s.argv, `# ${t.test}`], false, {signKey: o.signKey, suite})
          report = r.report
        }
        t.status = 'complete'
        t.error = report.error
      } catch (error) {
        const e = error as PtsError
        t.status = e.exit === EXIT.interrupted ? 'interrupted' : 'failed'
        t.error = e.message
        s.status = t.status === 'interrupted' ? 'interrupted' : 'failed'
        throw new PtsError(M.suite.testStopped(t.test, t.status, e.message, dir), e.exit ?? EXIT.internal)
      } finally {
        t.finishedAt = nowIso()
        saveSuite(dir, s)
      }
    }
    s.status = 'complete'
  } finally {
    s.finishedAt = nowIso()
    saveSuite(dir, s)
  }
  const details = Object.fromEntries(s.tests.map(t => [t.test, storedDetail(join(dir, t.dir))]))
  const files: string[] = []
  try {
    files.push(await renderSuiteReport(dir, s, details))
    s.report = 'suite.pdf'
    saveSuite(dir, s)
  } catch (error) {
    throw new PtsError(M.suite.combinedReportFailed((error as Error).message, dir), EXIT.report)
  }
  return {...s, files}
}
