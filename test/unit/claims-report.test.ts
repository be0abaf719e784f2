/**
 * The report's "Claims vs measured" page: model, chart spec and HTML from a verify result, on the
 * stored fixture run; and <run>/claims.json loading (optional file, ignored with a warning when
 * invalid or of another run).
 */
import {expect} from 'chai'
import {readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {readClaimsResult, resultsSha256} from '../../src/claims/load.js'
import {verifyClaims} from '../../src/claims/match.js'
import type {ClaimsFile, VerifyResult} from '../../src/claims/types.js'
import {claimsDomain, claimsSpec, needsLogScale} from '../../src/report/charts/claims.js'
import {CLAIMS_PER_PAGE} from '../../src/report/claims-page.js'
import {renderHtml} from '../../src/report/html.js'
import {loadRun} from '../../src/report/load.js'
import {buildProgramReportModel, type ProgramReportInput} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import {renderSvg} from '../../src/report/svg.js'
import {loadTemplates} from '../../src/report/templates.js'
import {copyFixture, FIXTURE, GENERATED_AT, ROOT} from '../report/helpers.js'

describe('report: Claims vs measured page', function () {
  this.timeout(60_000)
  const run = loadRun(FIXTURE)
  const file = JSON.parse(readFileSync(join(ROOT, 'specs/claims/crucial-mx100-256gb.json'), 'utf8')) as ClaimsFile
  const verify = (claims: ClaimsFile = file): VerifyResult => verifyClaims({claims, results: run.results, manifest: run.manifest, tolerancePct: 10,
    generatedAt: GENERATED_AT, generatedBy: 'pts test', claimsFile: {name: 'crucial-mx100-256gb.json', sha256: '0'.repeat(64)}, resultsSha256: resultsSha256(FIXTURE)})
  const buildReportModel = (input: ProgramReportInput) => buildProgramReportModel(input, PROGRAM_PAGE_BUILDERS.iops!)
  const base = buildReportModel({manifest: run.manifest, results: run.results, rawFiles: run.rawFiles, generatedAt: GENERATED_AT})
  const withClaims = buildReportModel({manifest: run.manifest, results: run.results, rawFiles: run.rawFiles, generatedAt: GENERATED_AT, claims: verify()})

  it('the fixture has no claims.json: loadRun gives null, and claims: null builds the same model as none', () => {
    expect(run.claims).to.equal(null)
    expect(run.claimsWarning).to.equal(null)
    expect(buildReportModel({...run, generatedAt: GENERATED_AT})).to.deep.equal(base)
    expect(JSON.stringify(base)).to.not.include('"claims"')
  })

  it('adds one claims page before the appendix; SNIA plot numbers stay; every page is renumbered n of N', () => {
    expect(withClaims.pages).to.have.length(base.pages.length + 1)
    const i = withClaims.pages.findIndex(p => p.kind === 'claims')
    expect(withClaims.pages[i + 1].kind).to.equal('appendix')
    expect(withClaims.pages[i - 1].title).to.equal(base.pages[i - 1].title)
    const page = withClaims.pages[i]
    expect(page.title).to.equal('Claims vs measured - Crucial MX100 256GB')
    expect(page.caption).to.equal(page.title)
    expect(page.chart).to.equal('claims-1')
    expect(withClaims.pages.filter(p => /^Plot A\./.test(p.caption)).map(p => p.caption)).to.deep.equal(base.pages.filter(p => /^Plot A\./.test(p.caption)).map(p => p.caption))
    withClaims.pages.forEach((p, n) => expect(p.pageLabel).to.equal(`Page ${n + 1} of ${withClaims.pages.length}`))
    const loop = run.results.phases.find(p => p.kind === 'loop')!
    if (loop.kind !== 'loop') throw new Error('the IOPS run has a loop phase')
    const w = (rp: number) => loop.windowAverages.find(x => x.readPct === rp && x.blockSizeBytes === 4096)!
    expect(page.claims!.rows.map(r => r.verdict)).to.deep.equal(['BELOW', 'BELOW', 'NOT MEASURED', 'NOT MEASURED'])
    expect(page.claims!.bars[0].measured).to.equal(w(100).iops)
    expect(page.claims!.bars[1].measured).to.equal(w(0).iops)
  })

  it('more claims than fit a page: several claims pages, each with its own chart', () => {
    const many = {...file, claims: Array.from({length: CLAIMS_PER_PAGE + 2}, (_, i) => ({...file.claims[i % 4], id: `c${i}`}))}
    const m = buildReportModel({...run, generatedAt: GENERATED_AT, claims: verify(many)})
    const pages = m.pages.filter(p => p.kind === 'claims')
    expect(pages.map(p => p.title)).to.deep.equal(['Claims vs measured - Crucial MX100 256GB (1 of 2)', 'Claims vs measured - Crucial MX100 256GB (2 of 2)'])
    expect(pages.map(p => p.claims!.rows.length)).to.deep.equal([CLAIMS_PER_PAGE, 2])
    expect(Object.keys(m.charts)).to.include.members(['claims-1', 'claims-2'])
    expect(pages.map(p => p.chart)).to.deep.equal(['claims-1', 'claims-2'])
  })

  it('chart: one panel per unit, log scale only beyond 2 decades, renders to SVG', async () => {
    expect(needsLogScale([85_000, 36_000])).to.equal(false)
    expect(needsLogScale([85_000, 500])).to.equal(true)
    expect(needsLogScale([85_000])).to.equal(false)
    expect(claimsDomain([100, 50], false)).to.deep.equal([0, 150])
    const page = withClaims.pages.find(p => p.kind === 'claims')!
    const spec = claimsSpec(page.claims!.bars) as {vconcat: Array<{title: {text: string}}>}
    expect(spec.vconcat.map(p => p.title.text)).to.deep.equal(['IOPS', 'MB/s (10^6 B/s)'])
    const svg = await renderSvg(spec as never)
    expect(svg).to.match(/^<svg/).and.include('not measured').and.include('85,000 IOPS')
    const logSpec = claimsSpec([{...page.claims!.bars[0], measured: 100, measuredText: '100 IOPS'}]) as {vconcat: Array<{title: {text: string}}>}
    expect(logSpec.vconcat[0].title.text).to.equal('IOPS - log scale')
  })

  it('HTML: the claims page carries the SNIA header and the table', async () => {
    const specs = withClaims.charts
    const svgs: Record<string, string> = {}
    for (const [id, s] of Object.entries(specs)) svgs[id] = id.startsWith('claims') ? await renderSvg(s) : '<svg></svg>'
    const html = renderHtml(loadTemplates(), withClaims, svgs)
    const section = /<section class="page page-claims"[\s\S]*?<\/section>/.exec(html)![0]
    expect(section).to.include('class="snia"').and.include('Solid State Storage Performance Test Specification')
    expect(section).to.include('Claims vs measured - Crucial MX100 256GB').and.include('CT256MX100SSD1')
    expect(section).to.include('NOT MEASURED').and.include('Throughput (tp) test')
    expect(section).to.match(/Page \d+ of \d+/)
  })

  it('claims.json: loaded when valid for the run; ignored with a warning when invalid, of another run or of an earlier results.json', () => {
    const dir = copyFixture()
    try {
      const path = join(dir, 'claims.json')
      writeFileSync(path, JSON.stringify(verify()))
      expect(loadRun(dir).claims?.datasheet.model).to.equal('MX100 256GB')
      writeFileSync(path, JSON.stringify({...verify(), runId: 'another-run'}))
      expect(readClaimsResult(dir, run.results.runId).warning).to.match(/belongs to run another-run/)
      writeFileSync(path, JSON.stringify({...verify(), tolerancePct: 'ten'}))
      const bad = loadRun(dir)
      expect(bad.claims).to.equal(null)
      expect(bad.claimsWarning).to.match(/tolerancePct/)
      writeFileSync(path, '{nope')
      expect(readClaimsResult(dir, run.results.runId).warning).to.match(/not readable JSON/)
      writeFileSync(path, JSON.stringify(verify()))
      writeFileSync(join(dir, 'results.json'), JSON.stringify(run.results)) // same data, other bytes: a rewritten results.json
      expect(readClaimsResult(dir, run.results.runId).warning).to.match(/earlier results\.json/)
    } finally {
      rmSync(dirname(dir), {recursive: true, force: true})
    }
  })
})
