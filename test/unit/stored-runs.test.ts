/**
 * Runs stored by the previous version of pts (commit 5bf8a4e, before IOPS became a phase-based
 * test): test/fixtures/runs-v1/, captured from real runs of that code (README.md there says how).
 * Each is read as phases (migrate on read), audited with its seal and signature intact, rendered,
 * verified and compared; none of its files is rewritten. No fio, no Chromium.
 */
import {createHash, createPublicKey} from 'node:crypto'
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {expect} from 'chai'
import {auditRun} from '../../src/audit/load.js'
import {fmtIops} from '../../src/report/format.js'
import {readClaimsFile} from '../../src/claims/load.js'
import {verifyRuns} from '../../src/claims/match.js'
import {loadCompareRuns} from '../../src/compare/load.js'
import {buildCompareModel, checkCompatibility} from '../../src/compare/model.js'
import {loopView} from '../../src/analysis/loop-view.js'
import {buildProgramReportModel} from '../../src/report/model.js'
import {programCsv} from '../../src/report/csv.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import {loadRun} from '../../src/report/load.js'
import {isV1Results} from '../../src/store/migrate-v1.js'
import {readStoredRun} from '../../src/store/read.js'
import {assertValid} from '../../src/validate.js'
import * as M from '../../src/messages.js'
import {TESTS, type TestId} from '../../src/model/tests.js'

const FIXTURES = new URL('../fixtures/runs-v1/', import.meta.url).pathname
const KEY = createPublicKey(readFileSync(join(FIXTURES, 'signing.pub')))

/** SHA-256 of every file under a directory, by relative path (to prove nothing is rewritten). */
function snapshot(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const f of readdirSync(join(dir, rel))) {
    const r = rel ? `${rel}/${f}` : f
    if (statSync(join(dir, r)).isDirectory()) Object.assign(out, snapshot(dir, r))
    else out[r] = createHash('sha256').update(readFileSync(join(dir, r))).digest('hex')
  }
  return out
}

const RUNS = [
  {dir: 'iops-complete-signed', test: 'iops', signed: true, status: 'complete', v1: true},
  {dir: 'iops-interrupted-resumed', test: 'iops', signed: false, status: 'complete', v1: true},
  {dir: 'iops-interrupted', test: 'iops', signed: false, status: 'interrupted', v1: true},
  {dir: 'tp-complete-signed', test: 'tp', signed: true, status: 'complete', v1: false},
  {dir: 'lat-interrupted-resumed', test: 'lat', signed: false, status: 'complete', v1: false},
]

describe('runs stored by the previous pts (test/fixtures/runs-v1)', function () {
  this.timeout(20000)
  for (const f of RUNS) {
    describe(f.dir, () => {
      const dir = join(FIXTURES, f.dir)
      let before: Record<string, string>
      beforeEach(() => { before = snapshot(dir) })
      afterEach(() => { expect(snapshot(dir), 'no stored file is rewritten').to.deep.equal(before) })

      it(`is read as phases (${f.v1 ? 'IOPS format of earlier versions, migrated on read' : 'already phases'})`, () => {
        const raw = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))
        expect(isV1Results(raw)).to.equal(f.v1)
        const run = readStoredRun(dir)
        expect(run.format).to.equal(f.v1 ? 'v1' : 'phases')
        expect(run.results.test).to.equal(f.test)
        expect(run.results.status).to.equal(f.status)
        // the migrated object is a valid result of today's shape
        assertValid('program-result.schema.json', run.results, p => M.data.invalid('results', 'migrated results', p))
        const loop = run.results.phases.find(p => p.kind === 'loop')!
        expect(loop.kind).to.equal('loop')
        if (f.v1) {
          // every stored point is carried over with its raw paths and values as stored
          expect(loop.kind === 'loop' && loop.rounds.map(r => r.points.length)).to.deep.equal(raw.rounds.map((r: {points: unknown[]}) => r.points.length))
          expect(loop.kind === 'loop' && loop.rounds[0].points[0].raw).to.deep.equal(raw.rounds[0].points[0].raw)
          expect(loop.kind === 'loop' && loop.rounds[0].points[0].iops).to.equal(raw.rounds[0].points[0].iops)
          expect(loop.kind === 'loop' && loop.steadyState.verdict).to.equal(raw.steadyState.verdict)
        }
      })

      it(`passes pts audit${f.signed ? ', its signature checked' : ''}`, () => {
        const r = auditRun(dir, {maxGapMs: 1000, ...(f.signed ? {verifyKey: KEY} : {})})
        const failed = r.checks.filter(c => c.status === 'fail').map(c => `${c.id}: ${c.reason}`)
        expect(failed, 'failed checks').to.deep.equal([])
        expect(r.ok).to.equal(true)
        const byId = Object.fromEntries(r.checks.map(c => [c.id, c.status]))
        expect(byId.integrity).to.equal('pass')
        expect(byId.signature).to.equal(f.signed ? 'pass' : 'skip')
        expect(byId.measurements).to.equal('pass')
        expect(byId['steady-state']).to.equal('pass')
      })

      it('renders with the same report pipeline as a new run (model and CSV)', () => {
        const run = loadRun(dir)
        const builder = PROGRAM_PAGE_BUILDERS[run.results.test]!
        const model = buildProgramReportModel({manifest: run.manifest, results: run.results, rawFiles: run.rawFiles, generatedAt: '2026-12-01T00:00:00Z'}, builder)
        expect(model.pages[0].title).to.equal(`${TESTS[f.test as TestId].name} - Summary`)
        expect(model.pages.at(-1)!.kind).to.equal('appendix')
        expect(Object.keys(model.charts).length).to.be.greaterThan(0)
        for (const p of model.pages) if (p.chart) expect(model.charts, `chart of page "${p.title}"`).to.have.property(p.chart)
        const rows = programCsv(run.results).trim().split('\r\n')
        const steps = run.results.phases.reduce((a, p) => a + (p.kind === 'loop' ? p.rounds.reduce((b, r) => b + r.points.length, 0) : 0), 0)
        expect(rows.filter(r => /,point,\d+,(true|false),.*,iops,/.test(r))).to.have.length(steps)
      })
    })
  }

  it('IOPS v1 runs keep their pages: the IOPS page list of the earlier report', function () {
    this.timeout(20000)
    const run = loadRun(join(FIXTURES, 'iops-complete-signed'))
    const model = buildProgramReportModel({manifest: run.manifest, results: run.results, rawFiles: run.rawFiles, generatedAt: '2026-12-01T00:00:00Z'}, PROGRAM_PAGE_BUILDERS.iops!)
    const titles = model.pages.map(p => p.title)
    for (const t of ['IOPS Test - Summary', // the registry's full name of IOPS is "IOPS Test"
      'IOPS Steady State Convergence Plot - All Block Sizes', 'IOPS Steady State Measurement Window',
      'IOPS - All RW Mix & BS - Tabular Data', 'IOPS - All RW Mix & BS - 2D Plot', 'IOPS - All RW Mix & BS - Heat Map', 'Bandwidth & Response Time - All RW Mix & BS - Tabular Data']) {
      expect(titles, t).to.include(t)
    }
    // the table's numbers are the stored window averages
    const stored = JSON.parse(readFileSync(join(FIXTURES, 'iops-complete-signed', 'results.json'), 'utf8'))
    const w = stored.windowAverages.find((x: {readPct: number; blockSizeBytes: number}) => x.readPct === 0 && x.blockSizeBytes === 4096)
    const headline = model.pages[0].summary!.headline.find(h => h.label === 'RND 4KiB write (R/W 0/100)')!
    expect(headline.value).to.equal(`${fmtIops(w.iops)} IOPS`)
  })

  it('pts verify reads them: the MX100 claims against the v1 IOPS run and the TP run', () => {
    const claims = readClaimsFile(new URL('../../specs/claims/crucial-mx100-256gb.json', import.meta.url).pathname)
    const runs = ['iops-complete-signed', 'tp-complete-signed'].map(d => {
      const r = readStoredRun(join(FIXTURES, d))
      return {dir: d, results: r.results, manifest: r.manifest, resultsSha256: 'x'}
    })
    const v = verifyRuns({claims: claims.claims, runs, tolerancePct: 10, generatedAt: '2026-12-01T00:00:00Z', generatedBy: 'pts test', claimsFile: claims.file})
    const measured = v.claims.filter(o => o.measured !== null)
    expect(measured.length, 'claims measured').to.be.greaterThan(0)
    // a random 4 KiB claim is measured by the IOPS run, a sequential one by the TP run
    expect(measured.some(o => o.source?.test === 'iops')).to.equal(true)
    expect(measured.some(o => o.source?.test === 'tp')).to.equal(true)
  })

  it('pts compare reads them: two v1 IOPS runs side by side, with a ratio per matrix point', () => {
    const runs = loadCompareRuns([join(FIXTURES, 'iops-complete-signed'), join(FIXTURES, 'iops-interrupted-resumed')])
    expect(checkCompatibility(runs.map(r => r.results!)).ok).to.equal(true)
    const model = buildCompareModel(runs, {generatedAt: '2026-12-01T00:00:00Z'})
    expect(model.pages.length).to.be.greaterThan(2)
    const a = loopView(readStoredRun(join(FIXTURES, 'iops-complete-signed')).results)!
    expect(a.parameters.rwMixReadPct).to.deep.equal([100, 95, 65, 50, 35, 5, 0])
    expect(a.parameters.blockSizesBytes).to.deep.equal([1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512])
  })
})
