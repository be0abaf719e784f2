/**
 * Print-height estimates for paginating the reports on A4 (pure). Every page is a fixed 297 mm
 * sheet (templates/styles.css: `.page { height: 297mm; overflow: hidden }`) and Chromium prints
 * with JavaScript off, so nothing flows onto a next sheet by itself: the model decides what goes on
 * each page from these deliberately pessimistic estimates (text at 0.6 em per character, DejaVu
 * Sans averages less). Sizes follow templates/styles.css (line heights measured in Chromium's
 * print layout: 3.7 mm a line at 8.5 pt, 3.2 mm at 7.8 pt); keep them in step with it.
 */
import type {KV, ReportHeader, SummaryData, SummaryFlow, SummarySection} from './page-kit.js'

export const PT_MM = 25.4 / 72
/** Average advance of DejaVu Sans (mixed text, digits, capitals) in em; pessimistic. */
export const CHAR_EM = 0.6
/** The same for bold text. */
const BOLD_EM = 0.64
/**
 * The header's small text (6 to 6.75 pt, labels bold): calibrated on the headers of the nine
 * golden reports and of lane reports (Chromium's layout), where 0.6 em took one to three lines
 * more than Chromium in a column; 0.55 em is within one line, and above it more often than below.
 */
const HEADER_EM = 0.55
/** The title bar's title (9.5 pt bold): Chromium fits 44 characters of the titles on a line, not 48. */
const TITLE_EM = 0.56

/** Lines a text takes when wrapped greedily at spaces in a box `widthMm` wide, at `fontPt`. */
export function textLines(text: string, widthMm: number, fontPt: number, charEm = CHAR_EM): number {
  const perLine = Math.max(1, Math.floor(widthMm / (fontPt * PT_MM * charEm)))
  let lines = 0
  for (const para of text.split('\n')) {
    let used = 0
    lines++
    for (const word of para.split(/\s+/).filter(Boolean)) {
      let w = word.length
      if (used > 0 && used + 1 + w > perLine) { lines++; used = 0 }
      // A word longer than a line breaks anywhere (overflow-wrap: anywhere).
      while (w > perLine) { lines++; w -= perLine }
      used += (used > 0 ? 1 : 0) + w
    }
  }
  return Math.max(1, lines)
}

/** Height of a line of text at `fontPt` with a CSS line height of `lineHeight`. */
export const lineMm = (fontPt: number, lineHeight: number): number => fontPt * PT_MM * lineHeight

/** Width of a text on one line (no wrapping), mm. */
const widthMm = (text: string, fontPt: number, charEm = CHAR_EM): number => text.length * fontPt * PT_MM * charEm

/** Content width of a page (210 mm - 2 x 10 mm padding). */
export const CONTENT_MM = 190
/** Line heights of the report's body text (Chromium, DejaVu Sans): 8.5 pt lists and tables, 7.8 pt how-to-read lines. */
const BODY_LINE_MM = 3.7
const SMALL_LINE_MM = 3.2
/** A second-level heading with its margins (2.5 mm above, 1.2 mm below). */
const H2_MM = 2.5 + BODY_LINE_MM + 1.2
/** Kept free at the bottom of every page's body, for what the estimates miss. */
const SAFETY_MM = 4

/**
 * Height of a page's body under a header of `headerHeightMm`, below its title: the sheet less its
 * padding (8 + 7 mm), the caption (5.5 mm), the body's top padding (2.5 mm) and the page title
 * (11 pt bold, 4.5 mm a line, 2 mm below it).
 */
export function bodyMm(headerHeightMm: number, title: string): number {
  return 297 - 8 - 7 - 5.5 - 2.5 - headerHeightMm - (textLines(title, CONTENT_MM, 11, BOLD_EM) * 4.5 + 2) - SAFETY_MM
}

/** The header's columns as they flow ("Label: value · Label: value"). */
const flowText = (kv: readonly KV[]): string => kv.map(x => `${x.label}: ${x.value}`).join(' · ')

/** Height of the SNIA header of a test report (templates/partials/header.hbs), mm. */
export function headerMm(h: ReportHeader): number {
  const inner = CONTENT_MM - 1.2 - 3
  // title bar: 1fr 1.6fr 1fr; title 9.5 pt bold, subtitle 6.6 pt; the left lines 5.8 pt; 0.7 mm padding
  const centre = inner * 1.6 / 3.6
  const side = inner / 3.6
  const titleBar = 1.4 + Math.max(
    textLines(h.title, centre, 9.5, TITLE_EM) * lineMm(9.5, 1.15) + textLines(h.subtitle, centre, 6.6) * lineMm(6.6, 1.15),
    (h.issuer ?? ['SNIA SSS TWG', 'Solid State Storage Performance Test Specification']).reduce((a, l) => a + textLines(l, side, 5.8), 0) * lineMm(5.8, 1.15),
    (textLines(`Rev. ${h.revision} ${h.profile}`, side, 6.6, BOLD_EM) + 1) * lineMm(6.6, 1.15))
  // identity line: flex items wrapped whole, 2.5 mm apart, 6.2 pt
  const items = [`Vendor: ${h.vendor}`, `SSD Model: ${h.model}`, `Tested By: ${h.testedBy}`, `Test Run Date: ${h.runStart}`, `Test Run Finished: ${h.runFinish}`, `Report Date: ${h.reportDate}`]
  let rows = 1
  let used = 0
  for (const it of items) {
    const w = Math.min(widthMm(it, 6.2), inner)
    if (used > 0 && used + 2.5 + w > inner) { rows++; used = 0 }
    used += (used > 0 ? 2.5 : 0) + w
  }
  const identity = rows * lineMm(6.2, 1.15) + 1.5
  // the four columns: 21/25/25/24 of the width, 9 px (6.75 pt) text, 1 mm padding each side
  const shares = [21, 25, 25, 24].map(x => x / 95)
  const cols = [h.platform, h.device, h.setup, h.test].map((kv, i) => textLines(flowText(kv), inner * shares[i] - 2.5, 6.75, HEADER_EM))
  const params = 3.4 + Math.max(...cols) * lineMm(6.75, 1.15) + 1.1
  const progress = h.inProgress ? textLines(h.inProgress, inner, 6, BOLD_EM) * lineMm(6, 1.15) + 1.5 : 0
  // status line: the steady-state text on one line at the right, the compliance text wraps beside it
  const ss = widthMm(`Steady State: ${h.steadyState}`, 6, HEADER_EM)
  const comp = h.complianceText + (h.compliant ? '' : `: ${h.reasons.join('; ')}`) + (h.deviations.length ? ` Deviations: ${h.deviations.join('; ')}` : '')
  const status = textLines(comp, Math.max(20, inner - ss - 3), 6, HEADER_EM) * lineMm(6, 1.15) + 1.5
  return titleBar + identity + params + progress + status + 0.6
}

/**
 * A label/value table (table.kvtable) in a column `colMm` wide. Chromium sizes its columns to their
 * content: when the longest label and the longest value fit side by side, every row is one line;
 * otherwise the width is shared in proportion to those lengths and the rows wrap.
 */
function kvTableMm(rows: readonly KV[], colMm: number, o: {labelPt: number; valuePt: number; valueEm: number; lineMm: number}): number {
  if (rows.length === 0) return 0
  const labelMax = Math.max(...rows.map(r => widthMm(r.label, o.labelPt, 0.66))) + 3
  const valueMax = Math.max(...rows.map(r => widthMm(r.value, o.valuePt, o.valueEm))) + 4
  if (labelMax + valueMax <= colMm) return rows.length * (o.lineMm + 1.6)
  const labelW = Math.max(colMm * 0.3, Math.min(labelMax, colMm * labelMax / (labelMax + valueMax)))
  const valueW = colMm - labelW
  return rows.reduce((a, r) => a + Math.max(textLines(r.label, labelW - 3, o.labelPt, BOLD_EM), textLines(r.value, valueW - 4, o.valuePt, o.valueEm)) * o.lineMm + 1.6, 0)
}

/** Height of the summary page's top (templates/partials/summary.hbs): the verdict box and the two columns (device; headline results and drive health). */
export function summaryTopMm(s: SummaryData): number {
  const verdict = 5.7 + textLines(s.verdict, CONTENT_MM - 6, 14, BOLD_EM) * 5.9 + 1 + textLines(s.verdictDetail, CONTENT_MM - 6, 8.5) * BODY_LINE_MM + 2
  const col = (CONTENT_MM - 6) / 2
  const left = H2_MM + kvTableMm(s.device, col, {labelPt: 8.5, valuePt: 8.5, valueEm: 0.66, lineMm: BODY_LINE_MM})
  const right = H2_MM + kvTableMm(s.headline, col, {labelPt: 9, valuePt: 9.5, valueEm: 0.66, lineMm: 4})
    + (s.health ? H2_MM + textLines(s.health.text, col, 8.5) * BODY_LINE_MM + 1 : 0)
  return verdict + Math.max(left, right)
}

/** The summary's sections in page order, whole. */
export function summarySections(s: SummaryData): SummarySection[] {
  return [
    {heading: `Compliance: ${s.compliance}`, continued: false, items: s.reasons, empty: 'The run followed the specification\'s required parameters.', listClass: ''},
    {heading: 'Audit of run timing', status: {text: s.timing.verdict, ok: s.timing.ok}, continued: false, items: s.timing.lines, empty: '', listClass: 'timing'},
    {heading: 'Deviations', continued: false, items: s.deviations, empty: 'None.', listClass: ''},
    {heading: 'How to read this report', continued: false, items: s.howToRead, empty: '', listClass: 'howto'},
  ]
}

const itemMm = (text: string, listClass: string): number => listClass === 'howto'
  ? textLines(text, CONTENT_MM - 5, 7.8) * SMALL_LINE_MM + 0.3
  : textLines(text, CONTENT_MM - 5, 8.5) * BODY_LINE_MM + 0.3

/**
 * The summary's pages: the first has the top and as many section lines as fit under it; the rest
 * follow on continuation pages, a section that is cut going on under its heading "(continued)". A
 * heading is never left at the foot of a page without its first line. `firstBodyMm` and
 * `nextBodyMm`: the body height of the first and of a continuation page (bodyMm).
 */
export function paginateSummary(s: SummaryData, firstBodyMm: number, nextBodyMm: number): SummaryFlow[] {
  const pages: SummaryFlow[] = [{top: true, sections: []}]
  let left = firstBodyMm - summaryTopMm(s)
  for (const sec of summarySections(s)) {
    let cur: SummarySection | null = null
    for (const item of sec.items.length > 0 ? sec.items : [null]) {
      const h = item === null ? BODY_LINE_MM + 1 : itemMm(item, sec.listClass)
      const page = pages[pages.length - 1]
      // a page that holds nothing yet takes the line whatever its height (nothing else could)
      if (h + (cur ? 0 : H2_MM) > left && (page.top || page.sections.length > 0)) {
        pages.push({top: false, sections: []})
        left = nextBodyMm
        cur = null
      }
      if (!cur) {
        const started = pages.some(p => p.sections.some(x => x.heading === sec.heading))
        cur = {...sec, continued: started, items: []}
        pages[pages.length - 1].sections.push(cur)
        left -= H2_MM
      }
      if (item !== null) cur.items.push(item)
      left -= h
    }
  }
  return pages
}

/** Height of one row of the parameters table (24 / 62 / 14 % columns, 9 px text, 1.2 mm padding). */
export function paramsRowMm(label: string, value: string, source: string): number {
  const w = (share: number) => CONTENT_MM * share - 3
  return Math.max(textLines(label, w(0.24), 6.75, BOLD_EM), textLines(value, w(0.62), 6.75), textLines(source, w(0.14), 6.75)) * lineMm(6.75, 1.2) + 2.6
}

/** The parameters table's heading (9 pt bold) and its head row. */
export function paramsHeadMm(heading: string): number {
  return 2.5 + textLines(heading, CONTENT_MM, 9, BOLD_EM) * 3.9 + 1.2 + 5.6
}
