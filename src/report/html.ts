/**
 * The report HTML: one self-contained file (inline CSS and SVG, no external reference). Pure:
 * template strings + model + rendered SVGs in, HTML string out. Handlebars runs in strict mode
 * (a missing field throws) and escapes every value by default; only the SVGs vega produced are
 * inserted raw (triple-stash; toolchain.md gotcha 12).
 */
import Handlebars from 'handlebars'
import type {ReportHeader, ReportPage} from './page-kit.js'

export interface ReportTemplates {
  layout: string
  /** Partial name -> source; "header" plus one per page kind. */
  partials: Record<string, string>
  css: string
}

/** What the layout reads of a model (every report model, and the compare model, has it). */
export interface RenderableModel { generatedBy: string; runId: string; generatedAt: string; reportTitle: string; header: ReportHeader; pages: ReportPage[] }

/**
 * Every document of pts (reports, comparisons): the layout gets {model, css, pages: [{page, svg}]},
 * one partial per page kind; `eq` / `neq` helpers are available to the templates.
 */
export function renderHtml(templates: ReportTemplates, model: {pages: ReadonlyArray<{kind: string; chart: string | null; number: number}>}, svgs: Record<string, string>): string {
  const hb = Handlebars.create()
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b)
  hb.registerHelper('neq', (a: unknown, b: unknown) => a !== b)
  for (const [name, source] of Object.entries(templates.partials)) hb.registerPartial(name, source)
  for (const page of model.pages) {
    if (!(page.kind in templates.partials)) throw new Error(`No template partial for page kind "${page.kind}"`)
  }
  const layout = hb.compile(templates.layout, {strict: true})
  const pages = model.pages.map(page => {
    let svg = ''
    if (page.chart !== null) {
      const s = svgs[page.chart]
      if (s === undefined) throw new Error(`Chart "${page.chart}" of page ${page.number} was not rendered`)
      svg = s
    }
    return {page, svg}
  })
  // The CSS is ours (templates/*.css); "</" cannot occur in it, so it cannot close <style>.
  if (templates.css.includes('</')) throw new Error('the report CSS must not contain "</"')
  return layout({model, css: templates.css, pages})
}
