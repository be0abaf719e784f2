/**
 * pts verify with a fob-ss review run: FOB claims (and claims of unstated condition) are matched
 * to the FOB sweep's point at the claim's TC/QD, with the steady-state sweep's point beside it.
 * The run is a real one (test/fixtures/review-runs/fob-ss-1, README beside it); every expected value is
 * read from its results.json.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {fobSweeps, matchClaim, verifyRuns} from '../../src/claims/match.js'
import {outcomeCells, runLine, verifyText} from '../../src/claims/text.js'
import {checkVerifyResult} from '../../src/claims/schema.js'
import {claimsPages} from '../../src/report/claims-page.js'
import type {Claim, ClaimsFile} from '../../src/claims/types.js'
import type {PhaseResult, ProgramResults, StepResult} from '../../src/model/results.js'
import type {RunManifest} from '../../src/model/manifest.js'

const dir = new URL('../fixtures/review-runs/fob-ss-1/', import.meta.url)
const results = JSON.parse(readFileSync(new URL('results.json', dir), 'utf8')) as ProgramResults
const manifest = JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as RunManifest
const mx100 = JSON.parse(readFileSync(new URL('../../../../specs/claims/crucial-mx100-256gb.json', dir), 'utf8')) as ClaimsFile
const sweep = (id: string) => (results.phases.find(p => p.kind === 'sweep' && p.id === id) as Extract<PhaseResult, {kind: 'sweep'}>).points
const point = (id: string, readPct: number, qd: number): StepResult => sweep(id).find(p => p.readPct === readPct && p.queueDepth === qd && p.threadCount === 1)!
const fmt = (v: number, d = 0) => new Intl.NumberFormat('en-US', {minimumFractionDigits: d, maximumFractionDigits: d}).format(v)
const ratio = (r: number) => (r > 0 && r < 0.01 ? `${Number(r.toPrecision(2))}x` : `${r.toFixed(2)}x`)

const ctx = {sources: [], fob: fobSweeps(results, null), tolerancePct: 10}
const claim = (over: Partial<Claim>): Claim => ({metric: 'iops', access: 'random', blockSize: '4KiB', readPct: 0, queueDepth: 32, value: 85000, unit: 'IOPS', condition: 'fob', ...over})

describe('pts verify: FOB claims against a fob-ss run (real run)', () => {
  it('the run has both sweeps at QD 1 and 32 for each workload (what the matching reads)', () => {
    const f = fobSweeps(results, 'fob')[0]
    expect(f.fob.map(p => `${p.readPct}/${p.queueDepth}`)).to.deep.equal(['100/1', '100/32', '0/1', '0/32', '70/1', '70/32'])
    expect(f.ss.map(p => `${p.readPct}/${p.queueDepth}`)).to.deep.equal(f.fob.map(p => `${p.readPct}/${p.queueDepth}`))
    expect(fobSweeps({...results, test: 'iops'})).to.deep.equal([])
  })

  // claim -> the FOB point it must take (workload, QD) and the steady-state point beside it
  const table: Array<{name: string; c: Partial<Claim>; readPct: number; qd: number; value: (s: StepResult) => number; unit: string; d: number}> = [
    {name: 'FOB random write IOPS at QD 32', c: {}, readPct: 0, qd: 32, value: s => s.iops, unit: 'IOPS', d: 0},
    {name: 'FOB random read IOPS at QD 1', c: {readPct: 100, queueDepth: 1, value: 10000}, readPct: 100, qd: 1, value: s => s.iops, unit: 'IOPS', d: 0},
    {name: 'FOB 70/30 IOPS at TC 1 / QD 32', c: {readPct: 70, threadCount: 1, value: 40000}, readPct: 70, qd: 32, value: s => s.iops, unit: 'IOPS', d: 0},
    {name: 'FOB MB/s at QD 32', c: {metric: 'mbps', unit: 'MB/s', value: 300}, readPct: 0, qd: 32, value: s => s.bwBytesPerSec / 1e6, unit: 'MB/s', d: 1},
    {name: 'FOB mean latency in ms at QD 1', c: {metric: 'latency', unit: 'ms', queueDepth: 1, readPct: 100, value: 0.1}, readPct: 100, qd: 1, value: s => s.latMeanNs / 1e6, unit: 'ms', d: 3},
    {name: 'condition unspecified: matched to FOB too', c: {condition: 'unspecified'}, readPct: 0, qd: 32, value: s => s.iops, unit: 'IOPS', d: 0},
  ]
  for (const t of table) {
    it(t.name, () => {
      const c = claim(t.c)
      const o = matchClaim(c, 0, ctx)
      const fob = point('fob', t.readPct, t.qd)
      const ss = point('ss', t.readPct, t.qd)
      const v = t.value(fob)
      const lower = c.metric === 'latency'
      expect(o.measured).to.include({condition: 'fob', readPct: t.readPct, queueDepth: t.qd, threadCount: 1})
      expect(o.measured!.value).to.equal(v)
      expect(o.ratio).to.equal(v / c.value)
      expect(o.verdict).to.equal((lower ? v <= c.value * 1.1 : v >= c.value * 0.9) ? 'meets' : 'below')
      expect(o.steadyState!.value).to.equal(t.value(ss))
      expect(o.steadyState!.ratio).to.equal(t.value(ss) / c.value)
      expect(o.steadyState!.ofFob).to.equal(t.value(ss) / v)
      expect(o.load!.likeForLike).to.equal(true)
      expect(o.source).to.deep.equal({test: 'fob-ss', runId: results.runId, dir: null, phase: 'fob'})
      const word = o.verdict === 'meets' ? 'meets' : lower ? 'worse than claimed' : 'below'
      const cond = c.condition === 'fob' ? 'FOB' : 'condition unspecified'
      const load = c.threadCount ? `TC ${c.threadCount} / QD ${c.queueDepth}` : `QD ${c.queueDepth}`
      expect(o.text).to.equal(`${o.label}: claimed ${fmt(c.value, c.unit === 'ms' ? 1 : 0)} ${c.unit} (${cond}, ${load}); FOB ${fmt(v, t.d)} (${ratio(v / c.value)}, ${word}); steady state ${fmt(t.value(ss), t.d)} (${ratio(t.value(ss) / c.value)})`)
      expect(outcomeCells(o).measured).to.equal(`FOB ${fmt(v, t.d)} ${t.unit}; steady state ${fmt(t.value(ss), t.d)} ${t.unit} (${ratio(t.value(ss) / c.value)})`)
    })
  }

  it('the issue\'s sentence shape: "claimed 85,000 IOPS (FOB, QD 32); FOB n (r, verdict); steady state m (r)"', () => {
    const o = matchClaim(claim({}), 0, ctx)
    expect(o.text).to.match(/^4 KiB random write: claimed 85,000 IOPS \(FOB, QD 32\); FOB [\d,]+ \(\d+\.\d\dx, (meets|below)\); steady state [\d,]+ \(\d+\.\d\dx\)$/)
  })

  it('a claim without a load takes the best FOB point for it and says so', () => {
    const o = matchClaim(claim({queueDepth: undefined}), 0, ctx)
    const best = sweep('fob').filter(p => p.readPct === 0).reduce((a, b) => (b.iops > a.iops ? b : a))
    expect(o.measured!.queueDepth).to.equal(best.queueDepth)
    expect(o.notes.join(' ')).to.include(`the claim states no load: the FOB sweep's best point for it, TC 1 / QD ${best.queueDepth}`)
  })

  it('not matched to FOB: a steady-state claim, a QD the sweep lacks, a sequential claim, a QoS percentile fio does not give per point', () => {
    for (const c of [claim({condition: 'steady-state'}), claim({queueDepth: 8}), claim({access: 'sequential', blockSize: '128KiB'}), claim({metric: 'latency', unit: 'ms', statistic: 'p99', value: 1})]) {
      const o = matchClaim(c, 0, ctx)
      expect(o.measured?.condition ?? null, JSON.stringify(c)).to.not.equal('fob')
      expect(o.verdict).to.equal('not-measured')
    }
  })

  it('the example MX100 claims file: its two QD 32 IOPS claims (condition unspecified) from the FOB sweep, the MB/s claims need a TP run; the result validates', () => {
    const r = verifyRuns({claims: mx100, runs: [{dir: 'fob', results, manifest, resultsSha256: '0'.repeat(64)}], tolerancePct: 10, generatedAt: '2026-12-04T00:00:00Z', generatedBy: 'pts test', claimsFile: {name: 'crucial-mx100-256gb.json', sha256: '0'.repeat(64)}})
    expect(checkVerifyResult(r)).to.deep.equal([])
    const by = Object.fromEntries(r.claims.map(o => [o.id, o]))
    for (const [id, readPct] of [['rnd-4k-read', 100], ['rnd-4k-write', 0]] as const) {
      expect(by[id].measured!.value).to.equal(point('fob', readPct, 32).iops)
      expect(by[id].steadyState!.value).to.equal(point('ss', readPct, 32).iops)
      expect(by[id].text).to.include('(condition unspecified, QD 32); FOB ')
      // the run is a file: flagged as not a drive, as any other measurement of a file
      expect(by[id].plausibility!.status).to.equal('not-a-drive')
    }
    for (const id of ['seq-read', 'seq-write']) {
      expect(by[id].verdict).to.equal('not-measured')
      expect(by[id].text).to.include('the runs given (FOB-SS) include no TP run')
    }
    expect(runLine(r.run)).to.equal('fob: FOB-SS review test (not part of the SNIA PTS), random access, a queue-depth sweep: each point once fresh out of box (before any preconditioning) and once after preconditioning')
    expect(verifyText(r)).to.include('steady state')
    // the report's chart labels each value with its own ratio to the claim (seen as "FOB 35,893 IOPS;
    // steady state 6,771 IOPS (0.08x) (0.42x)": the FOB ratio came last, after the steady state's)
    const bar = claimsPages(r)[0].bars.find(b => b.id === 'rnd-4k-write')!
    expect(bar.measuredText).to.equal(`FOB ${fmt(point('fob', 0, 32).iops)} IOPS (${ratio(by['rnd-4k-write'].ratio!)}); steady state ${fmt(point('ss', 0, 32).iops)} IOPS (${ratio(by['rnd-4k-write'].steadyState!.ratio)})`)
    expect(claimsPages(r)[0].tolerance).to.include('A claim is met when the measurement (a PTS run\'s window average; a FOB-SS run\'s point) is at least 90% of it')
  })
})
