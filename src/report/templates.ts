/** Loads the Handlebars templates shipped in templates/ (resolved from this module, so it works from src/ and dist/). */
import {readFileSync, readdirSync} from 'node:fs'
import type {ReportTemplates} from './html.js'

export const TEMPLATES_DIR = new URL('../../templates/', import.meta.url)

export function loadTemplates(): ReportTemplates {
  return loadTemplateSet(TEMPLATES_DIR, [new URL('styles.css', TEMPLATES_DIR)])
}

/** A template set: dir/layout.hbs, every dir/partials/*.hbs (named by file), and the CSS files joined. */
export function loadTemplateSet(dir: URL, css: URL[]): ReportTemplates {
  const partialsDir = new URL('partials/', dir)
  const partials: Record<string, string> = {}
  for (const f of readdirSync(partialsDir).sort()) {
    if (f.endsWith('.hbs')) partials[f.slice(0, -4)] = readFileSync(new URL(f, partialsDir), 'utf8')
  }
  return {layout: readFileSync(new URL('layout.hbs', dir), 'utf8'), partials, css: css.map(u => readFileSync(u, 'utf8')).join('\n')}
}
