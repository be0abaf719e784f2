/**
 * renderReport: a stored run directory -> report.pdf / report.html / report.csv (with
 * report-windows.csv and report-histograms.csv) / report-model.json.
 * Everything is built from the files of the run (load.ts), never from a live run. Each output is
 * written atomically (temp name in the same directory, fsync, rename), so a failure leaves no
 * half-written report behind.
 */
import {existsSync, mkdirSync, statSync} from 'node:fs'
import {basename, dirname, extname, join, resolve} from 'node:path'
import {EXIT, PtsError, RunDirError} from '../errors.js'
import * as M from '../messages.js'
import {writeFileAtomic} from '../store/atomic.js'
import {loadRun} from './load.js'
import {buildProgramReportModel} from './model.js'
import {csvFiles} from './csv.js'
import {PROGRAM_PAGE_BUILDERS} from './pages/index.js'
import type {RenderableModel} from './html.js'
import type {TopLevelSpec} from 'vega-lite'

export type ReportFormat = 'pdf' | 'html' | 'csv' | 'json'
export const DEFAULT_FORMATS: ReportFormat[] = ['pdf', 'html']

export interface RenderOptions {
  formats: ReportFormat[]
  /** A file (.pdf/.html/.csv/.json: used for that format, siblings for the others) or a directory. */
  out?: string
  /** Fixed report date (tests); default now. */
  generatedAt?: string
}

const DEFAULT_NAMES: Record<ReportFormat, string> = {pdf: 'report.pdf', html: 'report.html', csv: 'report.csv', json: 'report-model.json'}

/** Where each format goes (pure apart from nothing: path arithmetic only). */
export function outputPaths(runDir: string, formats: ReportFormat[], out?: string): Record<ReportFormat, string> {
  if (out === undefined) return Object.fromEntries(formats.map(f => [f, join(runDir, DEFAULT_NAMES[f])])) as Record<ReportFormat, string>
  return documentPaths(DEFAULT_NAMES, formats, out)
}

/**
 * Output paths of a document set (reports, comparisons): `out` is a file whose extension picks
 * the format it is used for (the others go beside it, same base name) or a directory that gets
 * each format's default name.
 */
export function documentPaths<F extends string>(names: Record<F, string>, formats: readonly F[], out: string): Record<F, string> {
  const paths = {} as Record<F, string>
  const target = resolve(out)
  const ext = extname(target).toLowerCase().slice(1)
  if (ext in names) {
    const base = join(dirname(target), basename(target, extname(target)))
    for (const f of formats) paths[f] = ext === f ? target : `${base}.${f}`
    return paths
  }
  for (const f of formats) paths[f] = join(target, names[f])
  return paths
}

/** report.csv -> report-windows.csv (the suffix before the extension). */
export function csvSibling(csvPath: string, suffix: string): string {
  return suffix === '' ? csvPath : join(dirname(csvPath), `${basename(csvPath, extname(csvPath))}${suffix}${extname(csvPath) || '.csv'}`)
}

/** Write one output atomically; a failure is a report error (exit 7) naming the file. */
export function writeOut(path: string, data: string | Uint8Array): void {
  try {
    writeFileAtomic(path, data)
  } catch (error) {
    throw new PtsError(M.report.cannotWrite(path, (error as Error).message), EXIT.report)
  }
}

/** Create each output's directory (exit 7 when it cannot be). */
export function prepareOutputDirs(paths: Partial<Record<string, string>>): void {
  for (const path of Object.values(paths)) {
    if (!path) continue
    const dir = dirname(path)
    if (!existsSync(dir)) {
      try {
        mkdirSync(dir, {recursive: true})
      } catch (error) {
        throw new PtsError(M.report.cannotCreateDir(dir, (error as Error).message), EXIT.report)
      }
    } else if (!statSync(dir).isDirectory()) {
      throw new PtsError(M.report.outNotADirectory(dir), EXIT.report)
    }
  }
}

/** Fail before any work or write when Chromium is not there (exit 7, nothing written). */
export async function assertChromium(): Promise<void> {
  const {chromiumPath} = await import('./pdf.js')
  const chromium = chromiumPath()
  if (!existsSync(chromium)) {
    throw new PtsError(M.report.chromiumMissing(chromium), EXIT.report)
  }
}

/** Vega-Lite specs -> SVG (exit 7 naming the chart that failed). */
export async function renderCharts(specs: Record<string, TopLevelSpec>): Promise<Record<string, string>> {
  const {renderSvg} = await import('./svg.js')
  const svgs: Record<string, string> = {}
  for (const [id, spec] of Object.entries(specs)) {
    try {
      svgs[id] = await renderSvg(spec)
    } catch (error) {
      throw new PtsError(M.report.chartFailed(id, (error as Error).message), EXIT.report)
    }
  }
  return svgs
}

/**
 * The shared tail of every report: JSON model and CSV, then (when asked) charts -> SVG ->
 * HTML through the templates -> PDF through Chromium, each file written atomically.
 */
async function writeReport(paths: Partial<Record<ReportFormat, string>>, model: RenderableModel, csv: () => ReturnType<typeof csvFiles>, specs: () => Promise<Record<string, TopLevelSpec>>): Promise<string[]> {
  prepareOutputDirs(paths)
  if (paths.pdf) await assertChromium()
  const files: string[] = []
  if (paths.json) { writeOut(paths.json, JSON.stringify(model, null, 2) + '\n'); files.push(paths.json) }
  if (paths.csv) {
    // report.csv and its sibling tables (report-windows.csv, report-histograms.csv), one table per file
    for (const f of csv()) {
      const path = csvSibling(paths.csv, f.suffix)
      writeOut(path, f.text)
      files.push(path)
    }
  }
  if (!paths.html && !paths.pdf) return files
  // Heavy modules (vega, handlebars, puppeteer) load only when a document is rendered.
  const [{renderHtml}, {loadTemplates}] = await Promise.all([import('./html.js'), import('./templates.js')])
  const html = renderHtml(loadTemplates(), model, await renderCharts(await specs()))
  if (paths.html) { writeOut(paths.html, html); files.push(paths.html) }
  if (paths.pdf) {
    const {htmlToPdf, closeBrowser} = await import('./pdf.js')
    try {
      writeOut(paths.pdf, await htmlToPdf(html))
      files.push(paths.pdf)
    } catch (error) {
      if (error instanceof PtsError && files.length > 0) {
        throw new PtsError(M.report.writtenBefore(error, files), error.exit)
      }
      throw error
    } finally {
      await closeBrowser()
    }
  }
  return files
}

/** files written; warnings (e.g. an invalid claims.json left out) only when there are any. */
export async function renderReport(runDir: string, opts: RenderOptions): Promise<{files: string[]; warnings?: string[]}> {
  const formats = [...new Set(opts.formats.length > 0 ? opts.formats : DEFAULT_FORMATS)]
  const generatedAt = opts.generatedAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
  // Chromium starts while the run is read and the charts are drawn (closed in writeReport, or below on an error before it)
  const warm = formats.includes('pdf') && existsSync((await import('./pdf.js')).chromiumPath())
  if (warm) (await import('./pdf.js')).warmBrowser()
  try {
    const run = loadRun(runDir, {inProgress: true})
    const builder = PROGRAM_PAGE_BUILDERS[run.results.test]
    if (!builder) throw new RunDirError(M.runDir.noReportPages(run.results.test))
    const model = buildProgramReportModel({manifest: run.manifest, results: run.results, rawFiles: run.rawFiles, claims: run.claims, generatedAt, inProgress: run.inProgress}, builder)
    const files = await writeReport(outputPaths(run.runDir, formats, opts.out), model, () => csvFiles(run.results), async () => model.charts)
    return run.claimsWarning ? {files, warnings: [run.claimsWarning]} : {files}
  } finally {
    if (warm) await (await import('./pdf.js')).closeBrowser()
  }
}
