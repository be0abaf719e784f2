/**
 * A stand-alone "Claims vs measured" document: <suite>/claims.pdf (placed after the contents page
 * of suite.pdf) and <tp-or-lat-run>/claims.pdf. The same page(s) as the IOPS report's claims page
 * (claims-page.ts, templates/partials/claims.hbs, charts/claims.ts, templates/styles.css), under
 * a short heading instead of one run's SNIA header, because the claims may come from several
 * runs. claimsDocumentHtml is pure; writeClaimsPdf renders the charts and prints the PDF.
 */
import Handlebars from 'handlebars'
import {EXIT, PtsError} from '../errors.js'
import type {VerifyResult} from '../claims/types.js'
import {claimsPages} from './claims-page.js'
import {type ClaimsPageData} from './page-kit.js'
import type {ReportTemplates} from './html.js'

export interface ClaimsDocPage {
  title: string
  caption: string
  note: string | null
  pageLabel: string
  chart: string
  claims: ClaimsPageData
}

export function claimsDocPages(v: VerifyResult): ClaimsDocPage[] {
  const ds = v.datasheet
  const pages = claimsPages(v)
  return pages.map(c => {
    const title = `Claims vs measured - ${ds.vendor} ${ds.model}${c.parts > 1 ? ` (${c.part} of ${c.parts})` : ''}`
    return {title, caption: title, note: null, pageLabel: `Page ${c.part} of ${c.parts}`, chart: `claims-${c.part}`, claims: c}
  })
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const DOC_CSS = `
.claims-doc-head { display: flex; justify-content: space-between; gap: 4mm; font-size: 7pt; color: #1f3d6b; border-bottom: 0.8pt solid #1f3d6b; padding: 0 0 1mm 0; }
`

/**
 * The document's HTML (pure): one A4 page per claimsPages() part, each with `heading` (e.g. the
 * suite and device), the page title, the claims partial (table + chart) and a caption.
 */
export function claimsDocumentHtml(templates: ReportTemplates, v: VerifyResult, svgs: Record<string, string>, heading: string): string {
  const partial = templates.partials.claims
  if (partial === undefined) throw new Error('No template partial "claims"')
  if (templates.css.includes('</')) throw new Error('styles.css must not contain "</"')
  const hb = Handlebars.create()
  hb.registerPartial('claims', partial)
  const page = hb.compile(`<section class="page page-claims claims-doc">
<div class="claims-doc-head"><span>{{heading}}</span><span><b>{{page.pageLabel}}</b></span></div>
<div class="body">
<h1 class="page-title">{{page.title}}</h1>
{{> claims page=page svg=svg}}
</div>
<div class="caption">{{page.caption}}</div>
</section>`, {strict: true})
  const body = claimsDocPages(v).map(p => {
    const svg = svgs[p.chart]
    if (svg === undefined) throw new Error(`Chart "${p.chart}" was not rendered`)
    return page({page: p, svg, heading})
  }).join('\n')
  const title = `Claims vs measured - ${v.datasheet.vendor} ${v.datasheet.model} (${v.runId})`
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="${esc(v.generatedBy)}">
<title>${esc(title)}</title>
<style>
${templates.css}
${DOC_CSS}
</style>
</head>
<body>
${body}
</body>
</html>
`
}

/** Render the charts, print the document and write it atomically to `out`; returns `out`. Exit 7 (report) on failure. */
export async function writeClaimsPdf(v: VerifyResult, out: string, heading: string): Promise<string> {
  const [{claimsSpec}, {loadTemplates}, {htmlToPdf, closeBrowser}, {writeFileAtomic}, {assertChromium, renderCharts}] = await Promise.all([
    import('./charts/claims.js'), import('./templates.js'), import('./pdf.js'), import('../store/atomic.js'), import('./index.js'),
  ])
  await assertChromium()
  const svgs = await renderCharts(Object.fromEntries(claimsDocPages(v).map(p => [p.chart, claimsSpec(p.claims.bars)])))
  const html = claimsDocumentHtml(loadTemplates(), v, svgs, heading)
  try {
    const pdf = await htmlToPdf(html)
    try {
      writeFileAtomic(out, pdf)
    } catch (error) {
      throw new PtsError(`Cannot write ${out}: ${(error as Error).message}`, EXIT.report, 'make the directory writable, then run pts verify again')
    }
  } finally {
    await closeBrowser()
  }
  return out
}
