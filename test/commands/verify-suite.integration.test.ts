/**
 * `pts verify` on a real small suite (pts run all --tests iops,tp,lat on a file target): each
 * claim from the test that measures it (random: IOPS run, sequential: TP loops, response time:
 * LAT loop), <suite>/claims.json against its schema, suite.pdf re-rendered with the "Claims vs
 * measured" pages after its contents page, and a TP or LAT run verified on its own.
 */
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {cpSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {currentSuiteClaims} from '../../src/claims/load.js'
import {checkVerifyResult} from '../../src/claims/schema.js'
import type {ClaimsFile, VerifyResult} from '../../src/claims/types.js'
import type {LoopWindowAverage, PhaseResult, ProgramResults} from '../../src/model/results.js'
import {runCli, ROOT} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'

const CLAIMS = join(ROOT, 'specs/claims/crucial-mx100-256gb.json')
const pdfPages = (pdf: string) => Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [pdf], {encoding: 'utf8'}))![1])
const pdfText = (pdf: string, page?: number) => execFileSync('pdftotext', [...(page ? ['-f', String(page), '-l', String(page)] : []), pdf, '-'], {encoding: 'utf8'})
const noStack = (stderr: string) => expect(stderr, stderr).to.not.include('    at ')
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
type Loop = Extract<PhaseResult, {kind: 'loop'}>

describe('pts verify <suite> (claims vs a real iops + tp + lat suite)', function () {
  this.timeout(900_000)
  const tmp = useTmpDir('pts-verify-suite-')
  let suite = ''
  let pagesBefore = 0
  let json: VerifyResult
  let iops: ProgramResults
  let tp: ProgramResults
  let lat: ProgramResults
  const claimsFile = JSON.parse(readFileSync(CLAIMS, 'utf8')) as ClaimsFile
  const loop = (r: ProgramResults, id: string) => r.phases.find((p): p is Loop => p.kind === 'loop' && p.id === id)!
  const tpAvg = (readPct: number): {w: LoopWindowAverage; l: Loop} => {
    const l = loop(tp, 'loop-128k')
    return {w: l.windowAverages.find(x => x.readPct === readPct && x.blockSizeBytes === 131072)!, l}
  }

  before(async () => {
    suite = join(tmp(), 'suite')
    const run = await runCli(['run', 'all', '--tests', 'iops,tp,lat', '--device', `file:${join(tmp(), 's.img')}`, '--size', '32MiB', '--point-seconds', '0.1',
      '--max-rounds', '5', '--tc', '1', '--qd', '4', '--time-scale', '0.01', '--out', suite], {timeoutMs: 900_000})
    expect(run.code, run.stderr.slice(-3000)).to.equal(0)
    iops = JSON.parse(readFileSync(join(suite, '01-iops/results.json'), 'utf8')) as ProgramResults
    tp = JSON.parse(readFileSync(join(suite, '02-tp/results.json'), 'utf8')) as ProgramResults
    lat = JSON.parse(readFileSync(join(suite, '03-lat/results.json'), 'utf8')) as ProgramResults
    pagesBefore = pdfPages(join(suite, 'suite.pdf'))
    const r = await runCli(['verify', suite, '--claims', CLAIMS, '--json'])
    expect(r.code, r.stderr).to.equal(0)
    noStack(r.stderr)
    json = JSON.parse(r.stdout) as VerifyResult
  })

  it('the sequential 128 KiB read/write claims are measured by the TP run\'s loop-128k window averages', () => {
    expect(json.claims.map(c => c.id)).to.deep.equal(['rnd-4k-read', 'rnd-4k-write', 'seq-read', 'seq-write'])
    for (const [i, readPct] of [[2, 100], [3, 0]] as const) {
      const c = json.claims[i]
      const {w, l} = tpAvg(readPct)
      expect(c.verdict, c.text).to.not.equal('not-measured')
      expect(c.measured!.value).to.equal(w.bwBytesPerSec / 1e6)
      expect(c.measured!.unit).to.equal('MB/s')
      expect([c.measured!.readPct, c.measured!.blockSizeBytes, c.measured!.threadCount, c.measured!.queueDepth]).to.deep.equal([readPct, 131072, w.threadCount, w.queueDepth])
      expect([c.measured!.fromRound, c.measured!.toRound]).to.deep.equal([l.steadyState.fromRound, l.steadyState.toRound])
      expect(c.measured!.condition).to.equal(l.steadyState.verdict === 'steady' ? 'steady-state' : l.steadyState.verdict === 'not-achieved' ? 'after-preconditioning' : 'incomplete')
      expect(c.source).to.deep.equal({test: 'tp', runId: tp.runId, dir: '02-tp', phase: 'loop-128k'})
      expect(c.ratio).to.equal(w.bwBytesPerSec / 1e6 / claimsFile.claims[i].value)
      expect(c.verdict).to.equal(w.bwBytesPerSec / 1e6 >= claimsFile.claims[i].value * 0.9 ? 'meets' : 'below')
      expect(c.measuredBy).to.equal(null)
      expect(c.notes).to.include(`claim states no QD; measured TC ${w.threadCount} / QD ${w.queueDepth}`).and.include('from the TP run 02-tp, loop-128k')
    }
  })

  it('the random 4 KiB claims are measured by the IOPS run, as before', () => {
    for (const [i, readPct] of [[0, 100], [1, 0]] as const) {
      const c = json.claims[i]
      // the IOPS run's one loop phase (phases[2]: purge, wipc, loop)
      expect(iops.phases.map(p => p.kind)).to.deep.equal(['purge', 'wipc', 'loop'])
      const w = loop(iops, 'loop').windowAverages.find(x => x.readPct === readPct && x.blockSizeBytes === 4096)!
      expect(c.measured!.value).to.equal(w.iops)
      expect(c.source).to.deep.equal({test: 'iops', runId: iops.runId, dir: '01-iops', phase: 'loop'})
      expect(c.notes).to.include(`claim at QD32, measured TC ${iops.parameters.threadCount} / QD ${iops.parameters.queueDepth}`)
    }
    expect(json.summary.notMeasured).to.equal(0)
  })

  it('<suite>/claims.json: the --json output, valid against schemas/verify-result.schema.json, listing the suite\'s runs', () => {
    expect(checkVerifyResult(json)).to.deep.equal([])
    expect(JSON.parse(readFileSync(join(suite, 'claims.json'), 'utf8'))).to.deep.equal(json)
    const manifest = JSON.parse(readFileSync(join(suite, 'suite.json'), 'utf8')) as {suiteId: string}
    expect(json.runId).to.equal(manifest.suiteId)
    expect(json.suite).to.deep.equal({suiteId: manifest.suiteId})
    expect(json.runs!.map(r => [r.dir, r.test, r.runId, r.resultsSha256])).to.deep.equal(['01-iops', '02-tp', '03-lat'].map((d, i) =>
      [d, ['iops', 'tp', 'lat'][i], [iops, tp, lat][i].runId, sha(join(suite, d, 'results.json'))]))
    expect(json.runs![2]).to.deep.include({threadCount: 1, queueDepth: 1, access: 'random'})
  })

  it('suite.pdf is re-rendered with the "Claims vs measured" page(s) right after the contents page', () => {
    const pdf = join(suite, 'suite.pdf')
    const claimsPages = pdfPages(join(suite, 'claims.pdf'))
    expect(pdfPages(pdf)).to.be.greaterThan(pagesBefore)
    expect(pdfPages(pdf)).to.equal(pagesBefore + claimsPages)
    expect(pdfText(pdf)).to.include('Claims vs measured')
    const first = pdfText(pdf, 1)
    expect(first, first).to.match(/Claims\s+vs\s+measured\s+\(pts\s+verify\)/).and.include('Contents')
    expect(pdfText(pdf, 2)).to.include('Claims vs measured - Crucial MX100 256GB').and.include('128 KiB sequential read').and.include('02-tp')
    expect(currentSuiteClaims(suite)?.pdf).to.equal(join(suite, 'claims.pdf'))
  })

  it('pts verify <tp-run> alone measures only the sequential claims (writes claims.json there and re-renders its report with the claims page)', async () => {
    const dir = join(suite, '02-tp')
    const reportPages = pdfPages(join(dir, 'report.pdf'))
    expect(pdfText(join(dir, 'report.pdf'))).to.not.include('Claims vs measured')
    const r = await runCli(['verify', dir, '--claims', CLAIMS, '--json'])
    expect(r.code, r.stderr).to.equal(0)
    const v = JSON.parse(r.stdout) as VerifyResult
    expect(checkVerifyResult(v)).to.deep.equal([])
    expect(v.claims.map(c => c.verdict !== 'not-measured')).to.deep.equal([false, false, true, true])
    for (const c of v.claims.slice(0, 2)) {
      expect(c.measuredBy).to.match(/^IOPS \(iops\) test, RND 4 KiB/)
      expect(c.notes[0]).to.match(/^the TP test is sequential access only/)
    }
    expect(v.claims[2].measured!.value).to.equal(tpAvg(100).w.bwBytesPerSec / 1e6)
    expect(v.claims[3].measured!.value).to.equal(tpAvg(0).w.bwBytesPerSec / 1e6)
    expect(v.runId).to.equal(tp.runId)
    expect(v.run.phases!.map(p => p.id)).to.deep.equal(['loop-1024k', 'loop-128k'])
    expect(JSON.parse(readFileSync(join(dir, 'claims.json'), 'utf8'))).to.deep.equal(v)
    // a run's claims go into its own report (report.pdf, report.html), not into a claims.pdf beside it
    expect(existsSync(join(dir, 'claims.pdf'))).to.equal(false)
    expect(pdfText(join(dir, 'report.pdf'))).to.include('Claims vs measured - Crucial MX100 256GB')
    expect(pdfPages(join(dir, 'report.pdf'))).to.be.greaterThan(reportPages)
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).to.include('class="page page-claims"')
  })

  it('latency claims from the LAT run (TC 1/QD 1); a sequential claim at a block size TP does not run stays not measured', async () => {
    const w = loop(lat, 'loop').windowAverages.find(x => x.readPct === 0 && x.blockSizeBytes === 4096)!
    const file = {...claimsFile, claims: [
      {id: 'lat-w', metric: 'latency', access: 'random', blockSize: '4KiB', readPct: 0, queueDepth: 32, value: 0.1, unit: 'ms', condition: 'unspecified'},
      {id: 'lat-w-5-9s', metric: 'latency', access: 'random', blockSize: '4KiB', readPct: 0, statistic: 'p99.999', value: 5, unit: 'ms', condition: 'unspecified'},
      {id: 'seq-64k', metric: 'mbps', access: 'sequential', blockSize: '64KiB', readPct: 100, value: 500, unit: 'MB/s', condition: 'unspecified'},
    ]}
    const path = join(tmp(), 'lat-claims.json')
    writeFileSync(path, JSON.stringify(file))
    const r = await runCli(['verify', suite, '--claims', path, '--json', '--no-report'])
    expect(r.code, r.stderr).to.equal(0)
    const v = JSON.parse(r.stdout) as VerifyResult
    expect(checkVerifyResult(v)).to.deep.equal([])
    const [mean, p5, seq] = v.claims
    expect(mean.measured!.value).to.equal(w.latMeanNs / 1e6)
    expect(mean.source).to.deep.equal({test: 'lat', runId: lat.runId, dir: '03-lat', phase: 'loop'})
    expect([mean.measured!.threadCount, mean.measured!.queueDepth]).to.deep.equal([1, 1])
    expect(mean.notes).to.include('claim at QD32, measured TC 1 / QD 1')
    if (w.latP99999Ns !== null) {
      expect(p5.measured!.value).to.equal(w.latP99999Ns / 1e6)
      expect(p5.source!.test).to.equal('lat')
    }
    expect(seq.verdict).to.equal('not-measured')
    expect(seq.measuredBy).to.equal(null)
    expect(seq.notes[0]).to.include('SEQ 1024 KiB and 128 KiB') // the TP run's order: 1024 KiB first
    // --no-report wrote a newer claims.json: the old claims.pdf no longer goes into suite.pdf
    expect(currentSuiteClaims(suite)).to.equal(null)
  })

  it('a suite still running -> exit 8, nothing written', async () => {
    const copy = join(tmp(), 'running')
    mkdirSync(copy)
    const s = JSON.parse(readFileSync(join(suite, 'suite.json'), 'utf8')) as Record<string, unknown>
    writeFileSync(join(copy, 'suite.json'), JSON.stringify({...s, status: 'running', finishedAt: null}))
    for (const d of ['01-iops', '02-tp', '03-lat']) cpSync(join(suite, d, 'results.json'), join(copy, d, 'results.json'))
    const r = await runCli(['verify', copy, '--claims', CLAIMS])
    expect(r.code).to.equal(8)
    expect(r.stderr).to.match(/Suite still in progress/)
    noStack(r.stderr)
    expect(existsSync(join(copy, 'claims.json'))).to.equal(false)
  })
})
