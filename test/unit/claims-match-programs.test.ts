/**
 * pts verify across tests: claims matched to the best measurement among an IOPS run, a TP run's
 * loops (SEQ 128 / 1024 KiB) and a LAT run's loop (TC 1/QD 1), as in a suite. Pure maths on small
 * synthetic window averages, table-driven.
 */
import {expect} from 'chai'
import {
  combinedVerdict, LAT_TEST, matchClaim, measuringTests, programSources, runSummary, TP_TEST, verifyClaims, verifyRuns,
  type MeasurementSource, type VerifyRunInput,
} from '../../src/claims/match.js'
import {checkVerifyResult} from '../../src/claims/schema.js'
import type {Claim, ClaimsFile} from '../../src/claims/types.js'
import {type LoopRound, type LoopWindowAverage, type ProgramResults, type StepResult} from '../../src/model/results.js'
import {loopWindowAverages} from '../../src/steady-state/conclude.js'
import {claimsDocumentHtml} from '../../src/report/claims-doc.js'
import {loadTemplates} from '../../src/report/templates.js'
import type {RunManifest} from '../../src/model/manifest.js'

type V = 'steady' | 'not-achieved' | 'pending'

/** A loop window average: MB/s and latencies given, IOPS derived from the bandwidth. */
function lw(readPct: number, blockSizeBytes: number | null, o: {mbps?: number; latUs?: number; p5Ms?: number | null; tc?: number; qd?: number} = {}): LoopWindowAverage {
  const bw = (o.mbps ?? 100) * 1e6
  const iops = blockSizeBytes ? bw / blockSizeBytes : 1000
  return {index: 0, id: `p${readPct}-${blockSizeBytes}`, label: '', readPct, blockSizeBytes, threadCount: o.tc ?? 1, queueDepth: o.qd ?? 32,
    iops, readIops: iops * readPct / 100, writeIops: iops * (100 - readPct) / 100, bwBytesPerSec: bw, readBwBytesPerSec: bw * readPct / 100, writeBwBytesPerSec: bw * (100 - readPct) / 100,
    latMeanNs: (o.latUs ?? 500) * 1e3, latMaxNs: 9e6, latMaxAvgNs: 8e6, latP99999Ns: o.p5Ms === null ? null : (o.p5Ms ?? 5) * 1e6, latPercentileSamples: 100_000}
}

/** A program results.json with only what matching reads: test, run id and loop phases (verdict, window, averages, one round for TC/QD). */
function program(test: string, runId: string, loops: Array<{id: string; verdict: V; from?: number; to?: number; averages: LoopWindowAverage[]}>): ProgramResults {
  return {
    schemaVersion: 1, kind: 'program', runId, test, revision: '2.0.2', profile: 'enterprise', status: 'complete',
    parameters: {threadCount: 4, queueDepth: 32},
    phases: [
      {kind: 'purge', id: 'purge', title: 'Purge', status: 'done'},
      ...loops.map(l => ({
        kind: 'loop', id: l.id, title: l.id, status: 'done', tracking: [], evaluations: [],
        rounds: [{round: 1, startedAt: '', finishedAt: '', preRound: null, points: l.averages.map(w => ({threadCount: w.threadCount, queueDepth: w.queueDepth}))}],
        steadyState: {verdict: l.verdict, fromRound: l.verdict === 'pending' ? null : l.from ?? 1, toRound: l.verdict === 'pending' ? null : l.to ?? 5, variables: []},
        windowAverages: l.averages,
      })),
    ],
  } as unknown as ProgramResults
}

/** One IOPS point as every round measures it (mean latency given; IOPS and MB/s from it). */
function wa(readPct: number, blockSizeBytes: number, iops: number, latUs = 1e6 / iops): LoopWindowAverage {
  return {...lw(readPct, blockSizeBytes, {mbps: iops * blockSizeBytes / 1e6, latUs, tc: 1, qd: 4}), iops, readIops: 0, writeIops: 0, latMaxNs: 5e6, latMaxAvgNs: 4e6}
}

/**
 * An IOPS results.json (one loop phase, as every IOPS run is now): TC 1 / QD 4, window rounds 2-6,
 * per-round 99.999th percentiles 3.0 .. 3.4 ms; the window averages are the loop's own (loopWindowAverages).
 */
function iops(points: LoopWindowAverage[], verdict: V = 'steady'): ProgramResults {
  const rounds: LoopRound[] = [1, 2, 3, 4, 5, 6].map(round => ({round, startedAt: '', finishedAt: '', preRound: null,
    points: points.map((w, index) => ({...w, index, latP99999Ns: round >= 2 ? (2.8 + round * 0.1) * 1e6 : 9e9}) as unknown as StepResult)}))
  return {schemaVersion: 1, kind: 'program', runId: 'run-iops', test: 'iops', revision: '2.0.2', profile: 'enterprise', status: 'complete',
    parameters: {threadCount: 1, queueDepth: 4},
    phases: [
      {kind: 'purge', id: 'purge', title: 'Purge', status: 'done'},
      {kind: 'loop', id: 'loop', title: 'IOPS loop', status: 'done', rounds, tracking: [], evaluations: [],
        steadyState: {verdict, fromRound: 2, toRound: 6, variables: []}, windowAverages: loopWindowAverages(rounds, 2, 6)},
    ]} as unknown as ProgramResults
}

const IOPS = iops([wa(100, 4096, 40_000, 90), wa(0, 4096, 4_200, 950), wa(100, 65536, 3_000, 1_300)])
const TP = program('tp', 'run-tp', [
  {id: 'loop-128k', verdict: 'steady', from: 3, to: 7, averages: [lw(100, 131072, {mbps: 550, qd: 4}), lw(0, 131072, {mbps: 300, qd: 4})]},
  {id: 'loop-1024k', verdict: 'not-achieved', from: 21, to: 25, averages: [lw(100, 1048576, {mbps: 600, qd: 4}), lw(0, 1048576, {mbps: 500, qd: 4})]},
])
const LAT = program('lat', 'run-lat', [{id: 'loop', verdict: 'steady', from: 4, to: 8, averages: [
  lw(100, 8192, {latUs: 120, qd: 1}), lw(100, 4096, {latUs: 80, p5Ms: 2, qd: 1}), lw(100, 512, {latUs: 60, qd: 1}),
  lw(0, 4096, {latUs: 30, p5Ms: null, qd: 1}),
]}])

const SUITE: MeasurementSource[] = [...programSources(IOPS, '01-iops'), ...programSources(TP, '02-tp'), ...programSources(LAT, '03-lat')]
const claim = (o: Partial<Claim>): Claim => ({metric: 'mbps', access: 'sequential', blockSize: '128KiB', readPct: 100, value: 550, unit: 'MB/s', condition: 'steady-state', ...o})
const match = (c: Claim, sources: MeasurementSource[] = SUITE, tol = 10) => matchClaim(c, 0, {sources, tolerancePct: tol})

describe('claims matching across tests (pts verify <suite> / <tp-run> / <lat-run>)', () => {
  it('which tests measure a claim, best first', () => {
    expect(measuringTests({metric: 'iops', access: 'random'})).to.deep.equal(['iops'])
    expect(measuringTests({metric: 'mbps', access: 'sequential'})).to.deep.equal(['tp'])
    expect(measuringTests({metric: 'iops', access: 'sequential'})).to.deep.equal(['tp'])
    expect(measuringTests({metric: 'latency', access: 'random'})).to.deep.equal(['lat', 'iops'])
    expect(measuringTests({metric: 'latency', access: 'sequential'})).to.deep.equal(['tp'])
  })

  describe('the best measurement among an IOPS, a TP and a LAT run', () => {
    const cases: Array<{name: string; c: Partial<Claim>; value: number; from: {test: string; dir: string; phase: string | null}; verdict: string; tcqd: [number, number]; window: [number, number]; condition: string}> = [
      {name: 'SEQ 128 KiB read MB/s -> TP loop-128k R/W 100/0', c: {}, value: 550, from: {test: 'tp', dir: '02-tp', phase: 'loop-128k'}, verdict: 'meets', tcqd: [1, 4], window: [3, 7], condition: 'steady-state'},
      {name: 'SEQ 128 KiB write MB/s -> TP loop-128k R/W 0/100 (below: 300 < 315)', c: {readPct: 0, value: 350}, value: 300, from: {test: 'tp', dir: '02-tp', phase: 'loop-128k'}, verdict: 'below', tcqd: [1, 4], window: [3, 7], condition: 'steady-state'},
      {name: 'SEQ 1 MiB write IOPS -> TP loop-1024k iops, its own window and verdict', c: {metric: 'iops', unit: 'IOPS', blockSize: '1MiB', readPct: 0, value: 550}, value: 500e6 / 1048576, from: {test: 'tp', dir: '02-tp', phase: 'loop-1024k'}, verdict: 'below', tcqd: [1, 4], window: [21, 25], condition: 'after-preconditioning'},
      {name: 'RND 4 KiB read IOPS -> the IOPS run (not the LAT run\'s QD 1 point)', c: {metric: 'iops', unit: 'IOPS', access: 'random', blockSize: '4KiB', value: 40_000}, value: 40_000, from: {test: 'iops', dir: '01-iops', phase: 'loop'}, verdict: 'meets', tcqd: [1, 4], window: [2, 6], condition: 'steady-state'},
      {name: 'RND 4 KiB read mean latency -> the LAT run (TC 1/QD 1), not the IOPS run', c: {metric: 'latency', unit: 'us', access: 'random', blockSize: '4KiB', value: 100}, value: 80, from: {test: 'lat', dir: '03-lat', phase: 'loop'}, verdict: 'meets', tcqd: [1, 1], window: [4, 8], condition: 'steady-state'},
      {name: 'RND 4 KiB read p99.999 -> the LAT loop\'s latP99999Ns', c: {metric: 'latency', unit: 'ms', statistic: 'p99.999', access: 'random', blockSize: '4KiB', value: 1.5}, value: 2, from: {test: 'lat', dir: '03-lat', phase: 'loop'}, verdict: 'below', tcqd: [1, 1], window: [4, 8], condition: 'steady-state'},
      {name: 'p99.999 the LAT run lacks (too few IOs) -> the IOPS run\'s per-round values', c: {metric: 'latency', unit: 'ms', statistic: 'p99.999', access: 'random', blockSize: '4KiB', readPct: 0, value: 5}, value: 3.2, from: {test: 'iops', dir: '01-iops', phase: 'loop'}, verdict: 'meets', tcqd: [1, 4], window: [2, 6], condition: 'steady-state'},
      {name: 'RND 64 KiB latency (not a LAT point) -> the IOPS run\'s point', c: {metric: 'latency', unit: 'ms', access: 'random', blockSize: '64KiB', value: 1}, value: 1.3, from: {test: 'iops', dir: '01-iops', phase: 'loop'}, verdict: 'below', tcqd: [1, 4], window: [2, 6], condition: 'steady-state'},
      {name: 'SEQ 128 KiB mean latency -> the TP loop\'s point', c: {metric: 'latency', unit: 'us', value: 600}, value: 500, from: {test: 'tp', dir: '02-tp', phase: 'loop-128k'}, verdict: 'meets', tcqd: [1, 4], window: [3, 7], condition: 'steady-state'},
    ]
    for (const t of cases) {
      it(t.name, () => {
        const o = match(claim(t.c))
        expect(o.measured, o.text).to.not.equal(null)
        expect(o.measured!.value).to.be.closeTo(t.value, 1e-9)
        expect(o.ratio).to.be.closeTo(t.value / o.claimed.value, 1e-12)
        expect(o.verdict).to.equal(t.verdict)
        expect(o.source).to.deep.include(t.from)
        expect([o.measured!.threadCount, o.measured!.queueDepth]).to.deep.equal(t.tcqd)
        expect([o.measured!.fromRound, o.measured!.toRound]).to.deep.equal(t.window)
        expect(o.measured!.condition).to.equal(t.condition)
        expect(o.measuredBy).to.equal(null)
        expect(o.notes).to.include(`from the ${t.from.test.toUpperCase()} run ${t.from.dir}${t.from.phase ? `, ${t.from.phase}` : ''}`)
        if (t.from.phase) expect(o.measured!.source).to.match(new RegExp(`^phases\\[${t.from.phase}\\]\\.windowAverages\\.`))
      })
    }

    it('the steady-state note is the loop\'s own: steady loop-128k, not-achieved loop-1024k', () => {
      expect(match(claim({})).notes.join(' ')).to.not.include('steady state not achieved')
      const o = match(claim({blockSize: '1MiB'}))
      expect(o.notes).to.include('steady-state claim, measured after preconditioning, steady state not achieved')
      expect(o.text).to.include('after preconditioning, steady state not achieved')
    })

    it('queue depth notes use the measured point\'s TC/QD (LAT: TC 1/QD 1)', () => {
      const lat = (qd?: number) => match(claim({metric: 'latency', unit: 'us', access: 'random', blockSize: '4KiB', value: 100, queueDepth: qd}))
      expect(lat(32).notes).to.include('claim at QD32, measured TC 1 / QD 1')
      expect(lat(1).notes.join(' ')).to.not.include('claim at')
      expect(lat().notes).to.include('claim states no QD; measured TC 1 / QD 1')
      expect(match(claim({queueDepth: 32})).notes).to.include('claim at QD32, measured TC 1 / QD 4')
    })
  })

  describe('not measured: why, and which test would measure it', () => {
    const only = (...tests: string[]) => SUITE.filter(s => tests.includes(s.test))
    const tp1024 = programSources(program('tp', 'run-tpc', [{id: 'loop-1024k', verdict: 'steady', averages: [lw(100, 1048576), lw(0, 1048576)]}]), '02-tp')
    const cases: Array<{name: string; c: Partial<Claim>; sources: MeasurementSource[]; reason: string | RegExp; by: string | null}> = [
      {name: 'SEQ 64 KiB: TP does not run it; names its block sizes; no PTS test', c: {blockSize: '64KiB'}, sources: SUITE, reason: 'this TP run has no SEQ 64 KiB R/W 100/0 point (it measures SEQ 128 KiB and 1024 KiB, R/W 100/0 and 0/100)', by: null},
      {name: 'SEQ 128 KiB R/W 70/30: TP runs 100/0 and 0/100 only', c: {readPct: 70}, sources: SUITE, reason: /it measures SEQ 128 KiB and 1024 KiB, R\/W 100\/0 and 0\/100/, by: null},
      {name: 'SEQ 128 KiB from a TP run of 1024 KiB only (PTS-C): another TP run would measure it', c: {}, sources: tp1024, reason: 'this TP run has no SEQ 128 KiB R/W 100/0 point (it measures SEQ 1024 KiB, R/W 100/0 and 0/100)', by: TP_TEST},
      {name: 'sequential claim, no TP run among several', c: {}, sources: only('iops', 'lat'), reason: 'the runs given (IOPS, LAT) include no TP run', by: TP_TEST},
      {name: 'sequential claim, a LAT run alone', c: {}, sources: only('lat'), reason: 'the LAT test is random access only', by: TP_TEST},
      {name: 'random IOPS claim, a TP run alone', c: {metric: 'iops', unit: 'IOPS', access: 'random', blockSize: '4KiB', value: 85_000}, sources: only('tp'), reason: 'the TP test is sequential access only', by: 'IOPS (iops) test, RND 4 KiB R/W 100/0'},
      {name: 'random IOPS claim, a LAT run alone: LAT points count for IOPS claims only at the claim\'s exact load', c: {metric: 'iops', unit: 'IOPS', access: 'random', blockSize: '4KiB', value: 85_000}, sources: only('lat'), reason: 'the LAT test is used for random IOPS claims only at a claim\'s own TC and QD, and this claim states none', by: 'IOPS (iops) test, RND 4 KiB R/W 100/0'},
      {name: 'random IOPS claim at QD 32, a LAT run alone (TC 1 / QD 1): not at the claim\'s load', c: {metric: 'iops', unit: 'IOPS', access: 'random', blockSize: '4KiB', value: 85_000, queueDepth: 32}, sources: only('lat'), reason: 'this LAT run has no RND 4 KiB R/W 100/0 point at the claim\'s TC 1 x QD 32 (its points count for random IOPS claims only at the claim\'s own TC and QD)', by: 'IOPS (iops) test, RND 4 KiB R/W 100/0'},
      {name: 'latency claim, a TP run alone', c: {metric: 'latency', unit: 'ms', access: 'random', blockSize: '4KiB', value: 1}, sources: only('tp'), reason: 'the TP test is sequential access only', by: LAT_TEST},
      {name: 'RND 64 KiB latency, a LAT run alone: the IOPS test has that point', c: {metric: 'latency', unit: 'ms', access: 'random', blockSize: '64KiB', value: 1}, sources: only('lat'), reason: /^this LAT run has no RND 64 KiB R\/W 100\/0 point \(it measures RND 8 KiB, 4 KiB and 0\.5 KiB, R\/W 100\/0 and 0\/100\)$/, by: 'IOPS (iops) test, RND 64 KiB R/W 100/0'},
      {name: 'RND 2 KiB latency, neither LAT nor IOPS has it', c: {metric: 'latency', unit: 'ms', access: 'random', blockSize: '2KiB', value: 1}, sources: SUITE, reason: /this LAT run has no RND 2 KiB .*; this IOPS run has no RND 2 KiB R\/W 100\/0 point \(it measures RND 4 KiB and 64 KiB, R\/W 100\/0 and 0\/100\)$/, by: null},
      {name: 'p99.99: not in results.json, and the raw fio output was not read for these sources', c: {metric: 'latency', unit: 'ms', statistic: 'p99.99', access: 'random', blockSize: '4KiB', value: 1}, sources: SUITE, reason: 'the 99.99th percentile of this point was not read from the run\'s raw fio output', by: LAT_TEST},
      {name: 'a TP loop without a window yet (pending)', c: {}, sources: programSources(program('tp', 'run-p', [{id: 'loop-128k', verdict: 'pending', averages: []}])), reason: 'this TP run has no measurement window (no window averages)', by: TP_TEST},
    ]
    for (const t of cases) {
      it(t.name, () => {
        const o = match(claim(t.c), t.sources)
        expect(o.verdict).to.equal('not-measured')
        expect(o.measured).to.equal(null)
        expect(o.source).to.equal(null)
        expect(o.ratio).to.equal(null)
        expect(o.measuredBy).to.equal(t.by)
        const reason = o.notes[0].replace(/; (measured by the .*|no PTS test measures it)$/, '')
        if (typeof t.reason === 'string') expect(reason).to.equal(t.reason)
        else expect(reason).to.match(t.reason)
        expect(o.text).to.include('not measured').and.include(t.by ? `the ${t.by} measures it` : 'no PTS test measures it')
      })
    }
  })

  describe('program sources', () => {
    it('one per TP / LAT loop phase, with its access, window and verdict; points without a block size (bssplit) are left out', () => {
      const s = programSources(TP, '02-tp')
      expect(s.map(x => [x.phase, x.access, x.steadyState.verdict, x.steadyState.fromRound, x.points.length])).to.deep.equal([['loop-128k', 'sequential', 'steady', 3, 2], ['loop-1024k', 'sequential', 'not-achieved', 21, 2]])
      expect(programSources(LAT)[0].access).to.equal('random')
      expect(programSources(program('lat', 'x', [{id: 'loop', verdict: 'steady', averages: [lw(100, null), lw(100, 4096)]}]))[0].points).to.have.length(1)
    })

    it('other test programs are no claims source', () => {
      expect(programSources(program('wsat', 'x', [{id: 'loop', verdict: 'steady', averages: [lw(0, 4096)]}]))).to.deep.equal([])
    })

    it('combined verdict of several loops: pending, else not-achieved, else steady', () => {
      const cases: Array<[V[], V]> = [[['steady', 'steady'], 'steady'], [['steady', 'not-achieved'], 'not-achieved'], [['not-achieved', 'pending'], 'pending'], [[], 'pending']]
      for (const [vs, want] of cases) expect(combinedVerdict(vs), vs.join(',')).to.equal(want)
    })
  })

  describe('verifyRuns: a suite, a program run, and one IOPS run as before', () => {
    const file: ClaimsFile = {vendor: 'Acme', model: 'X1', capacityBytes: 256e9, source: 'test', claims: [
      {id: 'rnd-r', metric: 'iops', access: 'random', blockSize: '4KiB', readPct: 100, queueDepth: 32, value: 85_000, unit: 'IOPS', condition: 'unspecified'},
      {id: 'seq-r', metric: 'mbps', access: 'sequential', blockSize: '128KiB', readPct: 100, value: 550, unit: 'MB/s', condition: 'unspecified'},
      {id: 'seq-w', metric: 'mbps', access: 'sequential', blockSize: '128KiB', readPct: 0, value: 350, unit: 'MB/s', condition: 'unspecified'},
      {id: 'lat-r', metric: 'latency', access: 'random', blockSize: '4KiB', readPct: 100, value: 0.1, unit: 'ms', condition: 'unspecified'},
    ]}
    const manifest = {target: {kind: 'file', path: '/tmp/x.img', sizeBytes: 1, identity: {vendor: null, model: null, capacityBytes: 1}}} as unknown as RunManifest
    const run = (dir: string, results: ProgramResults, sha: string): VerifyRunInput => ({dir, results, manifest, resultsSha256: sha.repeat(64)})
    const common = {claims: file, tolerancePct: 10, generatedAt: '2026-12-01T12:00:00Z', generatedBy: 'pts 0.1.0', claimsFile: {name: 'x.json', sha256: 'c'.repeat(64)}}
    const runs = [run('01-iops', IOPS, 'a'), run('02-tp', TP, 'b'), run('03-lat', LAT, 'd')]

    it('a suite: each claim from its test, every run listed, the suite id as runId, one device warning; valid against the schema', () => {
      const v = verifyRuns({...common, runs, suite: {suiteId: 'suite-1'}})
      expect(checkVerifyResult(v)).to.deep.equal([])
      expect(v.runId).to.equal('suite-1')
      expect(v.suite).to.deep.equal({suiteId: 'suite-1'})
      expect(v.claims.map(c => [c.id, c.source?.dir])).to.deep.equal([['rnd-r', '01-iops'], ['seq-r', '02-tp'], ['seq-w', '02-tp'], ['lat-r', '03-lat']])
      // a file target: every measured claim is flagged "not a drive"
      expect(v.summary).to.deep.equal({total: 4, meets: 2, below: 2, notMeasured: 0, notMeasurable: 0, flagged: 4})
      expect(v.runs!.map(r => [r.dir, r.test, r.access, r.threadCount, r.queueDepth, r.steadyState, r.fromRound, r.resultsSha256[0]])).to.deep.equal([
        ['01-iops', 'iops', 'random', 1, 4, 'steady', 2, 'a'], ['02-tp', 'tp', 'sequential', 1, 4, 'not-achieved', null, 'b'], ['03-lat', 'lat', 'random', 1, 1, 'steady', 4, 'd']])
      expect(v.runs![1].phases!.map(p => [p.id, p.steadyState, p.fromRound, p.toRound])).to.deep.equal([['loop-128k', 'steady', 3, 7], ['loop-1024k', 'not-achieved', 21, 25]])
      expect(v.run).to.deep.equal(v.runs![0])
      expect(v.warnings).to.have.length(1)
    })

    it('a TP run alone: only the sequential claims are measured; run names its loops', () => {
      const v = verifyRuns({...common, runs: [run('02-tp', TP, 'b')]})
      expect(checkVerifyResult(v)).to.deep.equal([])
      expect(v.claims.map(c => c.verdict)).to.deep.equal(['not-measured', 'meets', 'below', 'not-measured'])
      expect(v.runId).to.equal('run-tp')
      expect(v.runs).to.equal(undefined)
      expect(v.run.phases!.map(p => p.id)).to.deep.equal(['loop-128k', 'loop-1024k'])
      expect(runSummary(run('03-lat', LAT, 'd'), false)).to.deep.include({test: 'lat', threadCount: 1, queueDepth: 1, fromRound: 4, toRound: 8, runId: 'run-lat', dir: '03-lat'})
    })

    it('one IOPS run (verifyClaims): the result as before, plus each outcome\'s source; the run names its one loop like every test program', () => {
      const v = verifyClaims({...common, results: IOPS, manifest, resultsSha256: 'a'.repeat(64)})
      expect(checkVerifyResult(v)).to.deep.equal([])
      expect(Object.keys(v)).to.not.include.members(['runs', 'suite'])
      expect(v.run).to.deep.include({test: 'iops', access: 'random', threadCount: 1, queueDepth: 4, steadyState: 'steady', fromRound: 2, toRound: 6, runId: 'run-iops', dir: null})
      expect(v.run.phases).to.deep.equal([{id: 'loop', steadyState: 'steady', fromRound: 2, toRound: 6}])
      expect(v.claims[0].source).to.deep.equal({test: 'iops', runId: 'run-iops', dir: null, phase: 'loop'})
      expect(v.claims[0].notes.join(' ')).to.not.include('from the')
      expect(v.claims.map(c => c.verdict)).to.deep.equal(['below', 'not-measured', 'not-measured', 'meets'])
    })

    it('older verify results without source, runs and suite stay valid', () => {
      const v = verifyClaims({...common, results: IOPS, manifest, resultsSha256: 'a'.repeat(64)}) as unknown as {claims: Array<Record<string, unknown>>}
      for (const c of v.claims) delete c.source
      expect(checkVerifyResult(v)).to.deep.equal([])
    })

    it('the stand-alone claims document (suite.pdf\'s claims pages): heading, title, the runs, table and chart', () => {
      const v = verifyRuns({...common, runs, suite: {suiteId: 'suite-1'}})
      const html = claimsDocumentHtml(loadTemplates(), v, {'claims-1': '<svg id="chart"></svg>'}, 'PTS test suite suite-1')
      expect(html).to.include('class="page page-claims claims-doc"').and.include('PTS test suite suite-1').and.include('Claims vs measured - Acme X1')
      expect(html).to.include('02-tp: TP test, sequential access').and.include('<svg id="chart"></svg>').and.include('Page 1 of 1')
      expect(() => claimsDocumentHtml(loadTemplates(), v, {}, 'x')).to.throw(/claims-1/)
    })
  })
})
