/**
 * Print-height estimates for paginating the comparison report on A4 (pure). Every page is a fixed
 * 297 mm sheet whose overflow would be cut off, and the header grows with the number of runs, so
 * the model decides how much goes on a page from these (deliberately pessimistic) estimates.
 * Sizes follow templates/styles.css and templates/compare/compare.css; keep them in step.
 */

import {CONTENT_MM, lineMm, PT_MM, CHAR_EM, textLines} from '../report/layout-estimate.js'

export {CONTENT_MM, textLines}

/** Sheet height minus padding (15), caption (5.5), body padding and page title (6.5) and a safety margin (6). */
const BODY_MM = 297 - 15 - 5.5 - 6.5 - 6

export interface HeaderRunText {
  label: string
  identity: string
  revisionProfile: string
  tcQd: string
  steadyState: string
  complianceText: string
}

/** Height of the comparison header (templates/compare/partials/cheader.hbs). */
export function headerMm(runs: readonly HeaderRunText[], complianceLines: readonly string[], steadyLine: string): number {
  const l = lineMm(6.4, 1.25)
  let mm = 5 + 11 + 4 // top line, title bar, runs table head
  for (const r of runs) {
    const labelLines = textLines(r.label, 68 - 2.4, 6.4) + (r.label !== r.identity ? textLines(r.identity, 68 - 2.4, 6.4) : 0)
    const lines = Math.max(labelLines, textLines(r.revisionProfile, 24 - 2.4, 6.4), textLines(r.tcQd, 26 - 2.4, 6.4),
      textLines(r.steadyState, 27 - 2.4, 6.4), textLines(r.complianceText, 21 - 2.4, 6.4))
    mm += lines * l + 1.4
  }
  const statusWidth = CONTENT_MM - 3 - Math.min(90, steadyLine.length * 6.4 * PT_MM * CHAR_EM) - 3
  mm += complianceLines.reduce((a, c) => a + textLines(c, statusWidth, 6.4), 0) * l + 2
  return mm + 1
}

/** Height left for the body of a page under a header of `headerHeightMm`. */
export function bodyBudgetMm(headerHeightMm: number): number {
  return BODY_MM - headerHeightMm
}

/** One block-size x R/W-mix matrix table with its heading (8 rows at 8 pt). */
export function matrixTableMm(rows: number): number {
  return 7 + (rows + 1) * 5.4 + 1
}

/** How many matrix tables fit on a page with a note and legend under them (1 to 3). */
export function tablesPerPage(headerHeightMm: number, rows: number): number {
  const fit = Math.floor((bodyBudgetMm(headerHeightMm) - 14) / matrixTableMm(rows))
  return Math.max(1, Math.min(3, fit))
}

/** Side-by-side row height at 7 pt: label column 27 mm, the rest shared by the runs. */
export function sideRowMm(label: string, values: readonly string[], runCount: number, span: boolean): number {
  const colMm = (CONTENT_MM - 27) / runCount - 2.4
  const lines = Math.max(textLines(label, 27 - 2.4, 7), ...values.map(v => textLines(v, span ? colMm * runCount : colMm, 7)))
  return lines * lineMm(7, 1.2) + 0.9
}

/** Paragraph at `fontPt` (line height about 1.17) across `widthMm`, plus `extraMm` of margins and padding. */
export function paragraphMm(text: string, fontPt: number, widthMm = CONTENT_MM, extraMm = 2): number {
  return textLines(text, widthMm, fontPt) * lineMm(fontPt, 1.17) + extraMm
}

/** A second-level heading (h2) with its margins. */
export const H2_MM = 7.5
