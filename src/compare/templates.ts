/**
 * Loads the comparison report's Handlebars templates (templates/compare/: layout.hbs and
 * partials/*.hbs) and its CSS: the report's templates/styles.css followed by
 * templates/compare/compare.css. Resolved from this module, so it works from src/ and dist/.
 */
import {readFileSync, readdirSync} from 'node:fs'
import {TEMPLATES_DIR} from '../report/templates.js'
import type {CompareTemplates} from './html.js'

export const COMPARE_TEMPLATES_DIR = new URL('compare/', TEMPLATES_DIR)

export function loadCompareTemplates(): CompareTemplates {
  const partialsDir = new URL('partials/', COMPARE_TEMPLATES_DIR)
  const partials: Record<string, string> = {}
  for (const f of readdirSync(partialsDir).sort()) {
    if (f.endsWith('.hbs')) partials[f.slice(0, -4)] = readFileSync(new URL(f, partialsDir), 'utf8')
  }
  return {
    layout: readFileSync(new URL('layout.hbs', COMPARE_TEMPLATES_DIR), 'utf8'),
    partials,
    css: readFileSync(new URL('styles.css', TEMPLATES_DIR), 'utf8') + '\n' + readFileSync(new URL('compare.css', COMPARE_TEMPLATES_DIR), 'utf8'),
  }
}
