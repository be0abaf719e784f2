/**
 * Report layout measurement (not part of the tests; test/report/layout.integration.test.ts uses it):
 *   node --import tsx bench/layout.ts <report.html> [...]
 * Opens each report HTML in Chromium (print media, A4 pages as the PDF prints them) and measures,
 * on every page, the height of the SNIA header box and of its status/deviations lines as a share of
 * the page height (Chromium's layout, getBoundingClientRect), how far the page's body reaches below
 * the top of its caption, and a parameters table's column widths. Prints median and max per file.
 */
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

export interface PageLayout {
  page: number; kind: string; pageMm: number; headerMm: number; headerShare: number; statusMm: number; deviationsMm: number
  /** How far the lowest element of the page's body reaches below the top of its caption (mm; > 0: it runs under the caption or off the sheet). */
  overflowMm: number
  /** A parameters page: each head cell's width as a share of its table's width, and its text alignment. */
  paramsColumns: Array<{text: string; share: number; align: string}>
}

const PX_PER_MM = 96 / 25.4

/** Every page's header height and share of the page, from Chromium's layout of the HTML. */
export async function measureLayout(html: string): Promise<PageLayout[]> {
  const {default: puppeteer} = await import('puppeteer-core')
  const home = mkdtempSync(join(tmpdir(), 'pts-layout-'))
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true, pipe: true, userDataDir: join(home, 'profile'),
    env: {...process.env, HOME: home}, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--font-render-hinting=none'],
  })
  try {
    const page = await browser.newPage()
    await page.setJavaScriptEnabled(false)
    await page.setContent(html, {waitUntil: 'load'})
    await page.emulateMediaType('print')
    // a string, so that the TypeScript loader's helpers (__name) do not end up in the page
    const raw = await page.evaluate(`Array.from(document.querySelectorAll('section.page')).map(function (s) {
      function h(sel) { var e = s.querySelector(sel); return e ? e.getBoundingClientRect().height : 0 }
      var kind = Array.from(s.classList).filter(function (c) { return c.indexOf('page-') === 0 })[0] || ''
      var cap = s.querySelector('.caption').getBoundingClientRect().top
      var low = cap
      s.querySelectorAll('.body *').forEach(function (e) { var r = e.getBoundingClientRect(); if (r.height > 0) low = Math.max(low, r.bottom) })
      var t = s.querySelector('table.matrix.params')
      var cols = t ? Array.from(t.querySelectorAll('thead th')).map(function (c) {
        return {text: c.textContent, share: c.getBoundingClientRect().width / t.getBoundingClientRect().width, align: getComputedStyle(c).textAlign}
      }) : []
      return {kind: kind.slice(5), page: s.getBoundingClientRect().height, header: h('header.snia'), status: h('header.snia .status'), deviations: h('header.snia .deviations'), overflow: low - cap, cols: cols}
    })`) as Array<{kind: string; page: number; header: number; status: number; deviations: number; overflow: number; cols: PageLayout['paramsColumns']}>
    return raw.map((r, i) => ({page: i + 1, kind: r.kind, pageMm: r.page / PX_PER_MM, headerMm: r.header / PX_PER_MM, headerShare: r.header / r.page, statusMm: r.status / PX_PER_MM, deviationsMm: r.deviations / PX_PER_MM,
      overflowMm: r.overflow / PX_PER_MM, paramsColumns: r.cols}))
  } finally {
    await browser.close()
    rmSync(home, {recursive: true, force: true})
  }
}

export function summarize(pages: PageLayout[]): {pages: number; medianShare: number; maxShare: number; medianHeaderMm: number} {
  const shares = pages.map(p => p.headerShare).sort((a, b) => a - b)
  const mm = pages.map(p => p.headerMm).sort((a, b) => a - b)
  return {pages: pages.length, medianShare: shares[Math.floor(shares.length / 2)], maxShare: shares.at(-1)!, medianHeaderMm: mm[Math.floor(mm.length / 2)]}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const f of process.argv.slice(2)) {
    const s = summarize(await measureLayout(readFileSync(f, 'utf8')))
    console.log(`${f}: ${s.pages} pages; header ${s.medianHeaderMm.toFixed(1)} mm median = ${(s.medianShare * 100).toFixed(1)} % of the page height (max ${(s.maxShare * 100).toFixed(1)} %)`)
  }
}
