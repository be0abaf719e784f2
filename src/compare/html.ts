/**
 * The comparison report HTML: one self-contained file (inline CSS and SVG). Pure: templates +
 * model + rendered SVGs in, HTML out. Handlebars in strict mode, every value escaped except the
 * SVGs vega produced (triple-stash), as in src/report/html.ts.
 */
import Handlebars from 'handlebars'
import type {CompareModel} from './model.js'

export interface CompareTemplates {
  layout: string
  /** Partial name -> source: "cheader" plus one per page kind. */
  partials: Record<string, string>
  css: string
}

export function renderCompareHtml(templates: CompareTemplates, model: CompareModel, svgs: Record<string, string>): string {
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
  if (templates.css.includes('</')) throw new Error('the report CSS must not contain "</"')
  return layout({model, css: templates.css, pages})
}
