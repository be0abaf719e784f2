import {expect} from 'chai'
import {renderHtml} from '../../src/report/html.js'
import {loadRun} from '../../src/report/load.js'
import {buildProgramReportModel} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import {loadTemplates} from '../../src/report/templates.js'
import {FIXTURE, GENERATED_AT} from './helpers.js'

describe('report HTML', () => {
  const run = loadRun(FIXTURE)
  const evil = '<script>alert(1)</script>'
  const manifest = structuredClone(run.manifest)
  manifest.target.identity.model = evil
  manifest.target.identity.serial = `"><img src=x onerror=alert(2)>`
  manifest.deviations.push(evil)
  const model = buildProgramReportModel({manifest, results: run.results, rawFiles: run.rawFiles.slice(0, 5), generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS.iops!)
  const svgs = Object.fromEntries(model.pages.filter(p => p.chart).map(p => [p.chart!, `<svg data-chart="${p.chart}"></svg>`]))
  const html = renderHtml(loadTemplates(), model, svgs)

  it('escapes device and file strings: a model "<script>alert(1)</script>" prints literally', () => {
    expect(html).not.to.include('<script')
    expect(html).not.to.include('<img')
    expect(html).to.include('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('inlines the SVGs unescaped and the CSS, with no external reference', () => {
    const convergence = model.pages.find(p => p.title === 'IOPS Steady State Convergence Plot - All Block Sizes')!.chart
    expect(convergence).to.equal('iops-1')
    expect(html).to.include(`<svg data-chart="${convergence}"></svg>`)
    expect(html).to.include('@page')
    expect(html).not.to.match(/(src|href)=["']?(https?:|file:|\/\/)/)
  })

  it('renders every page with the header, page n of N and its caption', () => {
    const n = model.pages.length
    expect(html.match(/<section class="page /g)).to.have.length(n)
    expect(html).to.include(`Page ${n} of ${n}`)
    expect(html.match(/IOPS Test - Report Page/g)!.length).to.be.at.least(n)
    for (const p of model.pages) expect(html).to.include(p.caption.replace(/&/g, '&amp;'))
  })

  it('fails loudly when a chart was not rendered (strict)', () => {
    expect(() => renderHtml(loadTemplates(), model, {})).to.throw(/was not rendered/)
  })
})
