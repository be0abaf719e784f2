/**
 * Loads the comparison report's Handlebars templates (templates/compare/: layout.hbs and
 * partials/*.hbs) and its CSS: the report's templates/styles.css followed by
 * templates/compare/compare.css. Resolved from this module, so it works from src/ and dist/.
 */
import {loadTemplateSet, TEMPLATES_DIR} from '../report/templates.js'
import type {ReportTemplates} from '../report/html.js'

export const COMPARE_TEMPLATES_DIR = new URL('compare/', TEMPLATES_DIR)

export function loadCompareTemplates(): ReportTemplates {
  return loadTemplateSet(COMPARE_TEMPLATES_DIR, [new URL('styles.css', TEMPLATES_DIR), new URL('compare.css', COMPARE_TEMPLATES_DIR)])
}
