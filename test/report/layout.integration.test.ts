/**
 * Report layout in real Chromium (bench/layout.ts): the SNIA header box, with its compliance and
 * deviations lines, takes a bounded share of every page, measured from Chromium's layout of the
 * HTML report of a stored run (print media, A4). Before the compact header (commit b2726cc) the
 * golden-iops report's header took 25.1 % of the page height and golden-xsr's 24.1 % (bench/layout.ts); now 18.4 % and 16.7 %.
 */
import {expect} from 'chai'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {measureLayout, summarize} from '../../bench/layout.js'
import {pts, ROOT} from './helpers.js'

/** Median header share of the page before the compact header, measured with bench/layout.ts. */
const HEADER_BEFORE = 0.24
/** The most a header may take now (median over the pages, and on any page). */
const MAX_MEDIAN_SHARE = 0.19
const MAX_SHARE = 0.2

describe('report layout: the header takes a bounded share of the page (Chromium layout)', function () {
  this.timeout(120_000)
  const out = mkdtempSync(join(tmpdir(), 'pts-layout-'))
  after(() => rmSync(out, {recursive: true, force: true}))

  for (const test of ['iops', 'xsr']) {
    it(`golden-${test}: header median <= ${MAX_MEDIAN_SHARE * 100} % of the page height, every page <= ${MAX_SHARE * 100} %`, async () => {
      const r = await pts(['report', join(ROOT, 'test/fixtures/runs', `golden-${test}`), '--format', 'html', '--out', join(out, `${test}.html`)])
      expect(r.code, r.stderr).to.equal(0)
      const pages = await measureLayout(readFileSync(join(out, `${test}.html`), 'utf8'))
      const s = summarize(pages)
      expect(s.pages).to.be.greaterThan(3)
      for (const p of pages) expect(p.pageMm).to.be.closeTo(297, 1)
      expect(s.medianShare, JSON.stringify(s)).to.be.at.most(MAX_MEDIAN_SHARE)
      expect(s.medianShare).to.be.below(HEADER_BEFORE)
      for (const p of pages) expect(p.headerShare, `page ${p.page} (${p.kind})`).to.be.at.most(MAX_SHARE)
    })
  }

  // Seen on the summary page (the one page of a report whose content the run decides): the audit
  // of run timing lists up to seven lines, the compliance reasons and deviations one each, and under
  // the larger headers (ECW, a lane of a multi-drive run) the last lines ran under the caption and
  // off the sheet: golden-ecw by 60 mm, golden-dirth 58 mm, golden-hir 27 mm, golden-xsr 20 mm.
  // The summary now goes on over continuation pages, and no page's body reaches its caption.
  for (const test of ['ecw', 'dirth', 'hir', 'xsr', 'cbw']) {
    it(`golden-${test}: no page's body runs under its caption; the summary goes on over a continuation page`, async () => {
      const r = await pts(['report', join(ROOT, 'test/fixtures/runs', `golden-${test}`), '--format', 'html', '--out', join(out, `${test}-flow.html`)])
      expect(r.code, r.stderr).to.equal(0)
      const html = readFileSync(join(out, `${test}-flow.html`), 'utf8')
      const pages = await measureLayout(html)
      for (const p of pages) expect(p.overflowMm, `page ${p.page} (${p.kind}) reaches ${p.overflowMm.toFixed(1)} mm below the top of its caption`).to.be.at.most(0)
      const summaries = pages.filter(p => p.kind === 'summary')
      expect(summaries.length).to.be.at.least(2)
      expect(summaries.map(p => p.page)).to.deep.equal(summaries.map((_, i) => i + 1))
      expect(html).to.include('How to read this report').and.include('Summary (continued)')
    })
  }

  // Seen on the parameters page of every report: the page's rules (table.params, meant for its own
  // table) set every head cell to 24 %, so the short Source column took a third of the width and the
  // values wrapped in a narrow column; the head cells were right-aligned over left-aligned text.
  it('golden-tp parameters page: the value column is the widest, the source column narrow, every head cell left-aligned', async () => {
    const r = await pts(['report', join(ROOT, 'test/fixtures/runs/golden-tp'), '--format', 'html', '--out', join(out, 'tp-params.html')])
    expect(r.code, r.stderr).to.equal(0)
    const params = (await measureLayout(readFileSync(join(out, 'tp-params.html'), 'utf8'))).filter(p => p.kind === 'params')
    expect(params.length).to.be.greaterThan(0)
    for (const p of params) {
      expect(p.paramsColumns.map(c => c.text)).to.deep.equal(['Parameter', 'Value', 'Source'])
      const [name, value, source] = p.paramsColumns.map(c => c.share)
      expect(value, JSON.stringify(p.paramsColumns)).to.be.closeTo(0.62, 0.02)
      expect(name).to.be.closeTo(0.24, 0.02)
      expect(source).to.be.closeTo(0.14, 0.02)
      for (const c of p.paramsColumns) expect(c.align, c.text).to.equal('left')
    }
  })
})
