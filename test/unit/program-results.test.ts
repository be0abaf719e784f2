/** The pure derivations of program results (src/program/results.ts), table-driven. */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {parseFioJson, parseIopsLog} from '../../src/engine/parse.js'
import {type LoopWindowAverage, type SeriesSample} from '../../src/model/results.js'
import {burstIops, chooseOperatingPoints, histogramFromBins, recoveryTime, seriesStop} from '../../src/analysis/derive.js'
import type {PlannedPhase} from '../../src/plan/expand.js'

type Series = Extract<PlannedPhase, {kind: 'series'}>
const series = (o: Partial<Series>): Series => ({
  kind: 'series', id: 's', title: 's', sampleSeconds: 60, maxSamples: 3, durationSeconds: 180, durationBy: 'spec', stopAtBytes: null, stopAtCapacityMultiple: null, steadyStateExit: null, stream: null,
  workload: {access: 'random', readPct: 0, blockSizeBytes: 4096, bssplit: null, zones: null, threadCount: 1, queueDepth: 1, label: 'RND 4KiB W'}, ...o,
})
const sample = (cum: number, iops = 100): SeriesSample => ({cumulativeWrittenBytes: cum, iops} as SeriesSample)

describe('series stop rules (WSAT: 4x capacity, 24 h, operator limits, optional steady state)', () => {
  const cases: Array<{name: string; phase: Series; samples: SeriesSample[]; maxWritten: number | null; want: string | null}> = [
    {name: 'runs on below every limit', phase: series({stopAtBytes: 1000}), samples: [sample(500)], maxWritten: null, want: null},
    {name: 'capacity multiple reached (inclusive)', phase: series({stopAtBytes: 1000}), samples: [sample(1000)], maxWritten: null, want: 'capacity'},
    {name: 'the operator byte limit is the lower one', phase: series({stopAtBytes: 800}), samples: [sample(900)], maxWritten: 800, want: 'operator-bytes'},
    {name: 'the spec duration', phase: series({}), samples: [sample(1), sample(2), sample(3)], maxWritten: null, want: 'duration'},
    {name: 'the operator time limit', phase: series({durationBy: 'operator'}), samples: [sample(1), sample(2), sample(3)], maxWritten: null, want: 'operator-time'},
    {name: 'steady-state exit: 5 flat tracking samples (every 2nd)', phase: series({maxSamples: 100, steadyStateExit: {trackEvery: 2, windowRounds: 5, maxDataExcursionPct: 20, maxSlopeExcursionPct: 10}}),
      samples: Array.from({length: 10}, (_, i) => sample(i, 1000)), maxWritten: null, want: 'steady-state'},
    {name: 'steady-state exit: not yet with 4 tracking samples', phase: series({maxSamples: 100, steadyStateExit: {trackEvery: 2, windowRounds: 5, maxDataExcursionPct: 20, maxSlopeExcursionPct: 10}}),
      samples: Array.from({length: 8}, (_, i) => sample(i, 1000)), maxWritten: null, want: null},
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(seriesStop(c.phase, c.samples, {maxWrittenBytes: c.maxWritten})?.reason ?? null).to.equal(c.want)
    })
  }
})

describe('HIR bursts from fio\'s IOPS log', () => {
  it('groups entries separated by the idle time and averages each burst', () => {
    const log = parseIopsLog('100, 1000, 1, 0, 0\n200, 3000, 1, 0, 0\n1300, 500, 1, 0, 0\n1400, 700, 1, 0, 0\nnot a line\n')
    expect(log).to.have.length(4)
    expect(burstIops(log, 1, 100)).to.deep.equal([{index: 0, startMs: 0, iops: 2000}, {index: 1, startMs: 1200, iops: 600}])
  })
  it('ignores zero entries (idle windows)', () => {
    expect(burstIops([{ms: 100, iops: 0}, {ms: 200, iops: 50}], 1, 100)).to.deep.equal([{index: 0, startMs: 100, iops: 50}])
  })
})

describe('XSR recovery time (G-AD definition)', () => {
  const s = (bw: number) => ({bwBytesPerSec: bw} as SeriesSample)
  it('minutes into group 3 until TP reaches group 1\'s average', () => {
    expect(recoveryTime([s(100), s(300)], [s(50), s(150), s(250)], 60)).to.deep.equal({group1AverageBwBytesPerSec: 200, recoveredAtSample: 3, recoverySeconds: 180})
    expect(recoveryTime([s(100)], [s(50)], 60)).to.deep.equal({group1AverageBwBytesPerSec: 100, recoveredAtSample: null, recoverySeconds: null})
  })
})

describe('DIRTH/CBW operating points', () => {
  const wa = (tc: number, qd: number, iops: number, latMs: number) => ({threadCount: tc, queueDepth: qd, iops, latMeanNs: latMs * 1e6} as LoopWindowAverage)
  const all = [wa(32, 32, 9000, 9), wa(8, 8, 8000, 4.9), wa(4, 4, 5000, 2), wa(2, 2, 3000, 1), wa(1, 1, 1000, 0.5)]
  it('Max = highest IOPS at or under the ceiling, Min = lowest demand, Mid = closest to the midpoint', () => {
    const p = chooseOperatingPoints(all, 5)
    expect(p.map(x => [x.role, x.threadCount, x.queueDepth])).to.deep.equal([['max', 8, 8], ['mid', 4, 4], ['min', 1, 1]])
  })
  it('the ceiling is inclusive', () => {
    expect(chooseOperatingPoints(all, 9)[0]).to.include({threadCount: 32, queueDepth: 32})
  })
  it('no point under the ceiling: Max falls back to the lowest-demand point, and says so', () => {
    const p = chooseOperatingPoints(all, 0.1)
    expect(p[0]).to.include({threadCount: 1, queueDepth: 1})
    expect(p[0].reason).to.match(/no point met/)
  })
})

describe('response-time histogram from fio json+ bins (parsed once, with the measurement)', () => {
  // A real json+ output: the LAT histogram run of test/fixtures/runs-v1/lat-interrupted-resumed (fio 3.33).
  const real = readFileSync(new URL('../fixtures/runs-v1/lat-interrupted-resumed/raw/04-histogram/histogram.json', import.meta.url), 'utf8')
  it('holds every IO of the run: the bins add up to fio\'s IO count, sorted by latency', () => {
    const g = parseFioJson(real).groups[0]
    const h = histogramFromBins(g.clatBins)!
    expect(h.length).to.be.greaterThan(1)
    expect(h.reduce((a, b) => a + b.count, 0)).to.equal(g.measurement.ioCount)
    for (let i = 1; i < h.length; i++) expect(h[i].latNs).to.be.greaterThan(h[i - 1].latNs)
  })
  it('plain JSON (no json+ bins) gives no histogram', () => {
    const plain = readFileSync(new URL('../fixtures/fio/3.33/55-rw0-bs4k.json', import.meta.url), 'utf8')
    expect(parseFioJson(plain).groups[0].clatBins).to.equal(undefined)
    expect(histogramFromBins(undefined)).to.equal(null)
  })
})
