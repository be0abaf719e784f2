/**
 * renderCompare: run directories -> compare.pdf / compare.html / compare.json, through the same
 * pipeline as `pts report` (pure model -> Vega-Lite specs -> SVG -> Handlebars -> Chromium PDF).
 * Everything comes from the stored runs. Each output is written atomically, so a failure leaves
 * no half-written file.
 */
import {PtsError, UsageError} from '../errors.js'
import * as M from '../messages.js'
import {loadCompareRuns} from './load.js'
import {assertChromium, documentPaths, prepareOutputDirs, renderCharts, writeOut} from '../report/index.js'
import {buildCompareModel, checkCompatibility, withView, type CompareModel, type Difference} from './model.js'

export type CompareFormat = 'pdf' | 'html' | 'json'
export const COMPARE_FORMATS: readonly CompareFormat[] = ['pdf', 'html', 'json']

const NAMES: Record<CompareFormat, string> = {pdf: 'compare.pdf', html: 'compare.html', json: 'compare.json'}

/** reports/compare-<UTC timestamp> (the timestamp as in run directories: 2026-12-01T101500Z). */
export function defaultCompareDir(now: Date): string {
  return `reports/compare-${now.toISOString().replace(/[:]/g, '').replace(/\..*$/, 'Z')}`
}

/** Where each format goes: a file with a known extension (siblings for the other formats) or a directory. */
export function compareOutputPaths(formats: readonly CompareFormat[], out: string): Record<CompareFormat, string> {
  return documentPaths(NAMES, formats, out)
}

export interface CompareOptions {
  formats: CompareFormat[]
  out?: string
  labels?: string[]
  samples?: boolean
  generatedAt?: string
  toolVersion?: string
}

export interface CompareResult {
  files: string[]
  runs: Array<{key: string; label: string; runDir: string; runId: string; device: string; serial: string; target: string; baseline: boolean}>
  differences: Difference[]
  samples: boolean
  /** The headline differences (model.headlines). */
  headlines: string[]
}


export async function renderCompare(runDirs: readonly string[], opts: CompareOptions): Promise<CompareResult & {model: CompareModel}> {
  if (runDirs.length < 2) {
    throw new UsageError(M.compare.tooFewRuns(runDirs.length))
  }
  if (opts.labels && opts.labels.length > 0 && opts.labels.length !== runDirs.length) {
    throw new UsageError(M.compare.labelCount(opts.labels.length, runDirs.length))
  }
  const runs = loadCompareRuns(runDirs)
  const verdict = checkCompatibility(runs.map(r => withView(r).results))
  if (!verdict.ok) throw new UsageError(verdict)

  const formats = [...new Set(opts.formats.length > 0 ? opts.formats : COMPARE_FORMATS)]
  const paths = compareOutputPaths(formats, opts.out ?? defaultCompareDir(new Date()))
  prepareOutputDirs(paths)
  if (paths.pdf) await assertChromium()

  const model = buildCompareModel(runs, {labels: opts.labels, samples: opts.samples,
    generatedAt: opts.generatedAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), toolVersion: opts.toolVersion})
  const result: CompareResult & {model: CompareModel} = {
    files: [],
    runs: model.runs.map(r => ({key: r.key, label: r.label, runDir: r.runDir, runId: r.runId, device: r.device, serial: r.serial, target: r.target, baseline: r.baseline})),
    differences: model.differences,
    samples: model.samples.samples,
    headlines: model.headlines,
    model,
  }
  if (paths.json) { writeOut(paths.json, JSON.stringify(model, null, 2) + '\n'); result.files.push(paths.json) }
  if (!paths.html && !paths.pdf) return result

  const [{buildCompareChartSpecs}, {renderHtml}, {loadCompareTemplates}] = await Promise.all([
    import('./charts.js'), import('../report/html.js'), import('./templates.js'),
  ])
  const svgs = await renderCharts(buildCompareChartSpecs(model))
  const html = renderHtml(loadCompareTemplates(), model, svgs)
  if (paths.html) { writeOut(paths.html, html); result.files.push(paths.html) }
  if (paths.pdf) {
    const {htmlToPdf, closeBrowser} = await import('../report/pdf.js')
    try {
      writeOut(paths.pdf, await htmlToPdf(html))
      result.files.push(paths.pdf)
    } catch (error) {
      if (error instanceof PtsError && result.files.length > 0) {
        throw new PtsError(M.report.writtenBefore(error, result.files), error.exit)
      }
      throw error
    } finally {
      await closeBrowser()
    }
  }
  return result
}
