/** Loads the Handlebars templates shipped in templates/ (resolved from this module, so it works from src/ and dist/). */
import {readFileSync, readdirSync} from 'node:fs'
import type {ReportTemplates} from './html.js'

export const TEMPLATES_DIR = new URL('../../templates/', import.meta.url)

export function loadTemplates(): ReportTemplates {
  const partialsDir = new URL('partials/', TEMPLATES_DIR)
  const partials: Record<string, string> = {}
  for (const f of readdirSync(partialsDir).sort()) {
    if (f.endsWith('.hbs')) partials[f.slice(0, -4)] = readFileSync(new URL(f, partialsDir), 'utf8')
  }
  return {
    layout: readFileSync(new URL('layout.hbs', TEMPLATES_DIR), 'utf8'),
    partials,
    css: readFileSync(new URL('styles.css', TEMPLATES_DIR), 'utf8'),
  }
}
