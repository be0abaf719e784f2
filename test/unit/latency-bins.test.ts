/**
 * Response times from fio's json+ latency bins (issue 11 items 4 and 9): total-latency bins parsed
 * with the measurement, fio's percentile rule over pooled bins, the LAT window's 5 9s over the
 * window's pooled IOs, and percentiles capped at the maximum for display. Table-driven; the fio
 * outputs are the real json+ outputs of the stored golden runs (test/fixtures/runs/golden-*,
 * captured by test/fixtures/runs/capture-all.sh with fio 3.33 on a file target).
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {parseFioJson} from '../../src/engine/parse.js'
import {binsOf, cappedAtMax, mergeBins, percentileFromBins} from '../../src/model/latency.js'
import {loopWindowAverages} from '../../src/steady-state/conclude.js'
import type {HistogramBins, LoopRound, StepResult} from '../../src/model/results.js'
import {histogramSource} from '../../src/analysis/derive.js'

const RUNS = join(import.meta.dirname, '..', 'fixtures', 'runs')
const JSON_PLUS = [
  'golden-lat/raw/04-histogram/histogram.json',
  'golden-dirth/raw/05-histograms/max-histogram.json',
  'golden-dirth/raw/05-histograms/mid-histogram.json',
  'golden-dirth/raw/05-histograms/min-histogram.json',
  'golden-cbw/raw/05-histograms/max-histogram.json',
  'golden-ecw/raw/05-histograms/min-histogram.json',
]
const text = (rel: string) => readFileSync(join(RUNS, rel), 'utf8')
const fioJson = (rel: string) => JSON.parse(text(rel).slice(text(rel).search(/^\{/m)))

/** The percentile by brute force: every IO's bucket value, sorted; the first IO at or past p/100 of them (fio's "sum >= p/100 * N"). */
function bruteForce(bins: HistogramBins, pct: number): number {
  const all = bins.flatMap(b => Array.from({length: b.count}, () => b.latNs)).sort((a, b) => a - b)
  return all[Math.max(0, Math.ceil((pct / 100) * all.length) - 1)]
}

describe('fio json+ total-latency bins (lat_ns.bins with lat_percentiles=1)', () => {
  for (const rel of JSON_PLUS) {
    it(`${rel}: parsed as the "mixed" lat_ns bins, one count per IO`, () => {
      const g = parseFioJson(text(rel)).groups[0]
      const mixed = fioJson(rel).jobs[0].mixed.lat_ns
      expect(g.latBins).to.deep.equal(mixed.bins)
      expect(Object.values(g.latBins!).reduce((a, b) => a + b, 0)).to.equal(mixed.N)
      expect(g.latBins).not.to.deep.equal(g.clatBins) // total latency is not completion latency
      expect(histogramSource(g, 'lat')).to.equal(g.latBins)
      expect(histogramSource(g, undefined)).to.equal(g.clatBins) // runs of older versions: their histograms were clat
    })
    it(`${rel}: fio's own percentiles are recomputed from the bins by fio's rule`, () => {
      const mixed = fioJson(rel).jobs[0].mixed.lat_ns
      const bins = binsOf(mixed.bins)!
      for (const [key, pct] of [['99.000000', 99], ['99.900000', 99.9], ['99.990000', 99.99], ['99.999000', 99.999]] as const) {
        expect(percentileFromBins(bins, pct), key).to.deep.equal({latNs: mixed.percentile[key], ioCount: mixed.N})
      }
    })
  }

  it('pooled bins: the percentile over every IO of the runs together (brute force over the IOs agrees)', () => {
    const a = binsOf(fioJson(JSON_PLUS[1]).jobs[0].mixed.lat_ns.bins)!
    const b = binsOf(fioJson(JSON_PLUS[3]).jobs[0].mixed.lat_ns.bins)!
    const pooled = mergeBins([a, b])
    expect(pooled.reduce((s, x) => s + x.count, 0)).to.equal(a.reduce((s, x) => s + x.count, 0) + b.reduce((s, x) => s + x.count, 0))
    for (const pct of [50, 99, 99.9, 99.999]) expect(percentileFromBins(pooled, pct)!.latNs, String(pct)).to.equal(bruteForce(pooled, pct))
  })

  it('no IOs: no percentile', () => {
    expect(percentileFromBins([], 99.999)).to.equal(null)
  })
})

describe('LAT window 5 9s: over the window\'s pooled IOs (digest Part A 12)', () => {
  // two rounds of one point built from two real json+ outputs (their measurement and bins)
  const stepOf = (rel: string, withBins: boolean): StepResult => {
    const g = parseFioJson(text(rel)).groups[0]
    return {...g.measurement, index: 0, id: 'p', label: 'p', readPct: 0, blockSizeBytes: 4096, threadCount: 1, queueDepth: 1,
      startedAt: '2026-12-01T00:00:00Z', finishedAt: '2026-12-01T00:00:01Z', startNs: '0', endNs: '1', seed: 1, raw: {json: `raw/${rel}`, job: 'raw/x.fio'},
      ...(withBins ? {latBins: binsOf(g.latBins)!} : {})}
  }
  const rounds = (withBins: boolean): LoopRound[] => [JSON_PLUS[1], JSON_PLUS[3]].map((rel, i) => ({round: i + 1, startedAt: '', finishedAt: '', preRound: null, points: [stepOf(rel, withBins)]}))

  const cases = [
    {name: 'with the rounds\' bins (new runs): the percentile of the pooled IOs, with the pooled IO count', withBins: true},
    {name: 'without bins (runs of older versions): the average of the per-round values, as before', withBins: false},
  ]
  for (const c of cases) {
    it(c.name, () => {
      const rs = rounds(c.withBins)
      const [w] = loopWindowAverages(rs, 1, 2)
      const per = rs.map(r => r.points[0])
      const mean = (per[0].latP99999Ns! + per[1].latP99999Ns!) / 2
      if (c.withBins) {
        const pooled = percentileFromBins(mergeBins(per.map(p => p.latBins!)), 99.999)!
        expect(w.latP99999Basis).to.equal('pooled')
        expect(w.latP99999Ns).to.equal(pooled.latNs)
        expect(w.latPercentileSamples).to.equal(per[0].ioCount + per[1].ioCount)
        expect(w.latP99999Ns).not.to.equal(mean) // the two definitions differ on these rounds
        expect(w.latP99999Ns).to.equal(Math.max(per[0].latP99999Ns!, per[1].latP99999Ns!)) // pooled 5 9s sits at the slower round's tail here
      } else {
        expect(w).not.to.have.property('latP99999Basis')
        expect(w.latP99999Ns).to.equal(mean)
        expect(w.latPercentileSamples).to.equal(per[0].latPercentileSamples + per[1].latPercentileSamples)
      }
    })
  }
})

describe('a percentile shown next to the maximum is never above it', () => {
  const cases: Array<{p: number | null; max: number; want: {ns: number | null; capped: boolean}}> = [
    {p: 1_500_000, max: 2_000_000, want: {ns: 1_500_000, capped: false}},
    {p: 2_000_000, max: 2_000_000, want: {ns: 2_000_000, capped: false}},
    {p: 2_031_616, max: 2_010_000, want: {ns: 2_010_000, capped: true}}, // fio's bucket middle above the largest IO
    {p: null, max: 2_000_000, want: {ns: null, capped: false}},
  ]
  for (const c of cases) it(`${c.p} vs max ${c.max}`, () => expect(cappedAtMax(c.p, c.max)).to.deep.equal(c.want))

  it('happens in the stored runs: some fio 5 9s of a histogram run exceeds its maximum latency', () => {
    const over = JSON_PLUS.filter(rel => { const l = fioJson(rel).jobs[0].mixed.lat_ns; return l.percentile['99.999000'] > l.max })
    expect(over.length, 'fio bucket values above the maximum in the captured runs').to.be.greaterThan(0)
  })
})
