/**
 * pts verify, the checks a buyer needs: like for like (the claim's TC x QD against the
 * measurement's, and a DIRTH run's TC x QD grid used for an exact match), the interface limit
 * (SATA, SAS, the PCIe link when stored), QoS percentiles from the raw fio output, endurance
 * claims (not measurable), and the claims-file schema for them. Real stored runs
 * (test/fixtures/runs/golden-iops, golden-dirth: real fio on a file target) where the data
 * matters; small tables for the pure rules.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {interfaceLimit, parsePcieSpeed, pcieBytesPerSec} from '../../src/claims/interface.js'
import {readWindowPercentiles} from '../../src/claims/load.js'
import {
  anyMiss, claimedLoad, compareLoad, fioQosPercentiles, loadFlag, matchClaim, plausibilityOf, programSources, verifyRuns, windowAverage,
  type VerifyRunInput,
} from '../../src/claims/match.js'
import {checkClaims, checkVerifyResult} from '../../src/claims/schema.js'
import {outcomeCells, verifyText} from '../../src/claims/text.js'
import type {Claim, ClaimsFile} from '../../src/claims/types.js'
import type {PhaseResult} from '../../src/model/results.js'
import {readStoredRun} from '../../src/store/read.js'
import {ROOT} from '../helpers/cli.js'

const RUNS = join(ROOT, 'test/fixtures/runs')
type Loop = Extract<PhaseResult, {kind: 'loop'}>

function stored(name: string, withPercentiles = true): VerifyRunInput {
  const dir = join(RUNS, name)
  const r = readStoredRun(dir)
  return {dir: name, results: r.results, manifest: r.manifest, resultsSha256: '0'.repeat(64), ...(withPercentiles ? {percentiles: readWindowPercentiles(dir, r.results)} : {})}
}

const file = (claims: Claim[]): ClaimsFile => ({vendor: 'Acme', model: 'X1', capacityBytes: 256e9, source: 'Acme X1 datasheet', claims})
const verify = (claims: Claim[], runs: VerifyRunInput[]) => verifyRuns({claims: file(claims), runs, tolerancePct: 10, generatedAt: '2026-12-01T00:00:00Z', generatedBy: 'pts test', claimsFile: {name: 'x.json', sha256: 'a'.repeat(64)}})
const rnd = (o: Partial<Claim>): Claim => ({metric: 'iops', access: 'random', blockSize: '8KiB', readPct: 65, value: 10_000, unit: 'IOPS', condition: 'unspecified', ...o})

describe('pts verify: like for like, interface limit, QoS and endurance', () => {
  describe('the claim\'s load: TC x QD (outstanding IOs)', () => {
    it('a QD without a TC is TC 1; like for like only at the same TC and QD', () => {
      const cases: Array<{c: Pick<Claim, 'queueDepth' | 'threadCount'>; tc: number; qd: number; toio: number | null; like: boolean | null}> = [
        {c: {queueDepth: 32}, tc: 4, qd: 32, toio: 32, like: false},
        {c: {queueDepth: 32}, tc: 1, qd: 32, toio: 32, like: true},
        {c: {queueDepth: 8, threadCount: 4}, tc: 4, qd: 8, toio: 32, like: true},
        {c: {queueDepth: 8, threadCount: 4}, tc: 1, qd: 32, toio: 32, like: false},
        {c: {threadCount: 2}, tc: 2, qd: 16, toio: null, like: true},
        {c: {}, tc: 4, qd: 32, toio: null, like: null},
      ]
      for (const t of cases) {
        expect(claimedLoad(t.c).outstandingIos, JSON.stringify(t)).to.equal(t.toio)
        expect(compareLoad(t.c, t.tc, t.qd).likeForLike, JSON.stringify(t)).to.equal(t.like)
      }
      expect(loadFlag(compareLoad({queueDepth: 32}, 4, 32))).to.equal('not like for like: the claim is at 32 outstanding IOs (TC 1 x QD 32), the measurement at 128 (TC 4 x QD 32)')
      expect(loadFlag(compareLoad({queueDepth: 32}, 1, 32))).to.equal(null)
    })

    it('a QD32 claim against an IOPS run at another load: measured there, flagged in load, notes, verdict reasons and the table', () => {
      const iops = stored('golden-iops')
      const tc = iops.results.parameters.threadCount
      const qd = iops.results.parameters.queueDepth
      expect(tc * qd, 'the fixture runs at another load than 32 outstanding IOs').to.not.equal(32)
      const v = verify([rnd({id: 'r4k', blockSize: '4KiB', readPct: 100, queueDepth: 32})], [iops])
      const o = v.claims[0]
      expect(o.source?.test).to.equal('iops')
      expect(o.load).to.deep.equal({claimed: {threadCount: null, queueDepth: 32, outstandingIos: 32}, measured: {threadCount: tc, queueDepth: qd, outstandingIos: tc * qd}, likeForLike: false})
      const flag = `not like for like: the claim is at 32 outstanding IOs (TC 1 x QD 32), the measurement at ${tc * qd} (TC ${tc} x QD ${qd})`
      expect(o.notes).to.include(flag)
      expect(o.verdictReasons).to.include(flag)
      expect(o.text).to.include(flag)
      expect(outcomeCells(o).flags).to.include(`NOT LIKE FOR LIKE (32 vs ${tc * qd} IOs)`)
      expect(verifyText(v)).to.include(`NOT LIKE FOR LIKE (32 vs ${tc * qd} IOs)`)
      expect(v.summary.flagged).to.equal(1)
      expect(checkVerifyResult(v)).to.deep.equal([])
    })

    it('a DIRTH run\'s TC x QD grid gives the exact load: TC 1 / QD 32 from DIRTH, not the IOPS run\'s TC 2 / QD 4', () => {
      const runs = [stored('golden-iops'), stored('golden-dirth')]
      const dv = runs[1].results.phases.find((p): p is Loop => p.kind === 'loop' && p.id === 'dv')!
      const at = (tc: number, qd: number) => dv.windowAverages.find(w => w.threadCount === tc && w.queueDepth === qd && w.readPct === 65 && w.blockSizeBytes === 8192)!
      const iopsLoop = runs[0].results.phases.find((p): p is Loop => p.kind === 'loop')!
      const v = verify([rnd({id: 'qd32', queueDepth: 32}), rnd({id: 'tc2qd4', queueDepth: 4, threadCount: 2}), rnd({id: 'tc4qd8', queueDepth: 8, threadCount: 4}), rnd({id: 'none'})], runs)
      const [qd32, tc2qd4, tc4qd8, none] = v.claims
      expect(qd32.source).to.include({test: 'dirth', phase: 'dv'})
      expect(qd32.measured!.value).to.equal(at(1, 32).iops)
      expect(qd32.load!.likeForLike).to.equal(true)
      expect(qd32.verdictReasons).to.include('like for like: measured at the claim\'s TC 1 x QD 32')
      // the IOPS run holds the exact load too: it comes first
      expect(tc2qd4.source?.test).to.equal('iops')
      expect(tc2qd4.measured!.value).to.equal(iopsLoop.windowAverages.find(w => w.readPct === 65 && w.blockSizeBytes === 8192)!.iops)
      expect(tc4qd8.source?.test).to.equal('dirth')
      expect(tc4qd8.measured!.value).to.equal(at(4, 8).iops)
      // no load stated: the IOPS run's point, as before, and nothing flagged for load
      expect(none.source?.test).to.equal('iops')
      expect(none.load!.likeForLike).to.equal(null)
      expect(checkVerifyResult(v)).to.deep.equal([])
    })

    it('a DIRTH run alone: a claim at a load its grid lacks is not measured, with the reason', () => {
      const v = verify([rnd({queueDepth: 64})], [stored('golden-dirth')])
      expect(v.claims[0].verdict).to.equal('not-measured')
      expect(v.claims[0].notes[0]).to.match(/no RND 8 KiB R\/W 65\/35 point at the claim's TC 1 x QD 64/)
    })
  })

  describe('the interface limit', () => {
    it('PCIe link speed as sysfs prints it', () => {
      const cases: Array<[string, number | null]> = [['8.0 GT/s PCIe', 8], ['16.0 GT/s PCIe', 16], ['2.5 GT/s', 2.5], ['32 GT/s PCIe', 32], ['Unknown', null], ['', null]]
      for (const [text, gts] of cases) expect(parsePcieSpeed(text), text).to.equal(gts)
      // per direction: 8b/10b up to 5 GT/s, 128b/130b 8-32 GT/s
      expect(pcieBytesPerSec(2.5, 1)).to.equal(250e6)
      expect(pcieBytesPerSec(8, 4)).to.be.closeTo(3938.46e6, 1e4)
      expect(pcieBytesPerSec(16, 4)).to.be.closeTo(7876.92e6, 1e4)
    })

    it('by interface: SATA 600 MB/s half duplex, SAS 1,200 MB/s, NVMe the stored link or PCIe 5.0 x4 (link unknown), files not a drive', () => {
      const cases: Array<{kind?: 'file' | 'block'; iface: string; speed?: string; width?: number; bytes: number | null; half?: boolean; linkKnown?: boolean; notADrive?: RegExp; basis: RegExp}> = [
        {iface: 'sata', bytes: 600e6, half: true, basis: /^SATA 6 Gb\/s/},
        {iface: 'ata', bytes: 600e6, half: true, basis: /SATA/},
        {iface: 'sas', bytes: 1200e6, basis: /^SAS 12 Gb\/s/},
        {iface: 'nvme', speed: '8.0 GT/s PCIe', width: 4, bytes: pcieBytesPerSec(8, 4), linkKnown: true, basis: /^PCIe 8\.0 GT\/s x4 \(the link stored with the run\): 3,938 MB\/s/},
        {iface: 'nvme', bytes: pcieBytesPerSec(32, 4), linkKnown: false, basis: /^PCIe link unknown/},
        {iface: 'nvme', speed: 'Unknown', width: 4, bytes: pcieBytesPerSec(32, 4), linkKnown: false, basis: /^PCIe link unknown/},
        {kind: 'file', iface: 'file', bytes: null, notADrive: /file target is not a drive/, basis: /file/},
        {iface: 'loop', bytes: null, notADrive: /loop device is not a drive/, basis: /loop/},
        {iface: 'virtio', bytes: null, basis: /no limit known for interface "virtio"/},
      ]
      for (const t of cases) {
        const l = interfaceLimit({kind: t.kind ?? 'block', identity: {interface: t.iface, pcieLinkSpeed: t.speed, pcieLinkWidth: t.width}})
        expect(l.bytesPerSec, JSON.stringify(t)).to.equal(t.bytes)
        expect(l.halfDuplex, JSON.stringify(t)).to.equal(t.half ?? false)
        expect(l.linkKnown, JSON.stringify(t)).to.equal(t.linkKnown ?? false)
        expect(l.basis, JSON.stringify(t)).to.match(t.basis)
        if (t.notADrive) expect(l.notADrive).to.match(t.notADrive)
        else expect(l.notADrive).to.equal(null)
      }
    })

    it('a measurement above the limit is implausible; SATA counts reads and writes together', () => {
      const sata = {target: {kind: 'block' as const, identity: {interface: 'sata'}}}
      const nvme = {target: {kind: 'block' as const, identity: {interface: 'nvme', pcieLinkSpeed: '8.0 GT/s PCIe', pcieLinkWidth: 4}}}
      const pt = (mbps: number, readPct: number) => ({bwBytesPerSec: mbps * 1e6, readBwBytesPerSec: mbps * 1e6 * readPct / 100, writeBwBytesPerSec: mbps * 1e6 * (100 - readPct) / 100, readPct})
      const cases: Array<[typeof sata | typeof nvme, ReturnType<typeof pt>, string]> = [
        [sata, pt(7961.9, 100), 'implausible'], [sata, pt(550, 100), 'plausible'], [sata, pt(700, 50), 'implausible'],
        [nvme, pt(3500, 100), 'plausible'], [nvme, pt(5000, 100), 'implausible'], [nvme, pt(7000, 50), 'plausible'],
      ]
      for (const [s, p, status] of cases) expect(plausibilityOf(s, p)?.status, JSON.stringify([s.target.identity, p])).to.equal(status)
      expect(plausibilityOf(sata, pt(7961.9, 100))!.text).to.equal('implausible: 7,962 MB/s is more than the interface carries (SATA 6 Gb/s (SATA 3 assumed; pts does not read the negotiated speed): 600 MB/s, reads and writes together); a cache, or something other than the drive, was measured')
      expect(plausibilityOf({}, pt(1, 100))).to.equal(null)
    })

    it('a stored SATA run measuring 7.9 GB/s: the claim is flagged IMPLAUSIBLE; a file target NOT A DRIVE', () => {
      const run = stored('golden-tp')
      const loop = run.results.phases.find((p): p is Loop => p.kind === 'loop' && p.windowAverages.some(w => w.readPct === 100))!
      const w = loop.windowAverages.find(x => x.readPct === 100)!
      const claim: Claim = {metric: 'mbps', access: 'sequential', blockSize: `${w.blockSizeBytes! / 1024}KiB`, readPct: 100, value: 550, unit: 'MB/s', condition: 'unspecified'}
      const asFile = verify([claim], [run]).claims[0]
      expect(asFile.plausibility!.status).to.equal('not-a-drive')
      expect(outcomeCells(asFile).flags).to.include('NOT A DRIVE')
      // the same measurement as if the run's device were SATA (manifest identity only; the data is the stored run's)
      const manifest = {...run.manifest, target: {...run.manifest.target, kind: 'block' as const, identity: {...run.manifest.target.identity, interface: 'sata'}}}
      const o = verify([claim], [{...run, manifest}]).claims[0]
      const status = w.readBwBytesPerSec + w.writeBwBytesPerSec > 600e6 ? 'implausible' : 'plausible'
      expect(o.plausibility!.status).to.equal(status)
      if (status === 'implausible') {
        expect(outcomeCells(o).flags).to.include('IMPLAUSIBLE (above interface limit)')
        expect(o.verdictReasons!.join(' ')).to.include('implausible')
      }
    })
  })

  describe('QoS and endurance claims', () => {
    it('fio\'s mixed percentiles of a stored point', () => {
      const raw = JSON.parse(readFileSync(join(RUNS, 'golden-lat/raw/03-loop/round-05/05-rw65-bs4k.json'), 'utf8'))
      const p = fioQosPercentiles(raw)
      const want = raw.jobs[0].mixed.lat_ns.percentile
      expect(p).to.deep.equal({p99: want['99.000000'], 'p99.9': want['99.900000'], 'p99.99': want['99.990000']})
      expect(fioQosPercentiles({jobs: [{}]})).to.deep.equal({p99: null, 'p99.9': null, 'p99.99': null})
      expect(windowAverage([1, 2, 3])).to.equal(2)
      expect(windowAverage([1, null])).to.equal(null)
    })

    it('p99, p99.9 and p99.99 claims: the window average of the per-round percentiles of the raw fio output (LAT run)', () => {
      const run = stored('golden-lat')
      const loop = run.results.phases.find((p): p is Loop => p.kind === 'loop')!
      const w = loop.windowAverages.find(x => x.readPct === 65 && x.blockSizeBytes === 4096)!
      const perRound = loop.rounds.filter(r => r.round >= loop.steadyState.fromRound! && r.round <= loop.steadyState.toRound!)
        .map(r => JSON.parse(readFileSync(join(RUNS, 'golden-lat', r.points.find(q => q.index === w.index)!.raw.json), 'utf8')).jobs[0].mixed.lat_ns.percentile['99.900000'] as number)
      const want = perRound.reduce((a, b) => a + b, 0) / perRound.length / 1e6
      const lat = (statistic: Claim['statistic']): Claim => ({metric: 'latency', access: 'random', blockSize: '4KiB', readPct: 65, queueDepth: 1, statistic, value: 1, unit: 'ms', condition: 'unspecified'})
      const v = verify([lat('p99'), lat('p99.9'), lat('p99.99'), lat('p99.999')], [run])
      expect(v.claims.map(c => c.verdict)).to.not.include('not-measured')
      expect(v.claims[1].measured!.value).to.be.closeTo(want, 1e-12)
      expect(v.claims[1].measured!.source).to.match(/raw fio output of loop/)
      expect(v.claims[1].label).to.equal('4 KiB random R/W 65/35 latency (99.9th percentile)')
      expect(v.claims[1].notes).to.include('window average of the per-round 99.9th percentiles')
      // without the raw percentiles (a run read without them) the claim is not measured, with the reason
      const bare = verify([lat('p99.9')], [stored('golden-lat', false)])
      expect(bare.claims[0].verdict).to.equal('not-measured')
      expect(bare.claims[0].notes[0]).to.match(/99\.9th percentile of this point was not read/)
    })

    it('endurance (TBW, DWPD): not measurable by pts, with the reason; not a miss for --fail-on-miss', () => {
      const tbw: Claim = {id: 'tbw', metric: 'endurance', value: 72, unit: 'TBW', periodYears: 5, condition: 'unspecified'}
      const dwpd: Claim = {id: 'dwpd', metric: 'endurance', value: 1, unit: 'DWPD', periodYears: 5, condition: 'unspecified'}
      const v = verify([tbw, dwpd], [stored('golden-iops')])
      expect(v.claims.map(c => c.verdict)).to.deep.equal(['not-measurable', 'not-measurable'])
      expect(v.claims[0].text).to.match(/not measurable by pts — endurance is how much a drive may write/)
      expect(v.claims[0].text).to.include('72 TBW over 5 years of the datasheet\'s 256 GB is 0.15 drive writes per day')
      expect(v.claims[1].text).to.include('1 DWPD over 5 years of the datasheet\'s 256 GB is 467 TBW')
      expect(v.claims[0]).to.include({access: null, blockSizeBytes: null, readPct: null, measuredBy: null})
      expect(v.summary).to.include({notMeasurable: 2, notMeasured: 0})
      expect(anyMiss(v)).to.equal(false)
      expect(outcomeCells(v.claims[0]).verdict).to.equal('NOT MEASURABLE')
      expect(verifyText(v)).to.include('2 not measurable by pts')
      expect(checkVerifyResult(v)).to.deep.equal([])
      expect(matchClaim(tbw, 0, {sources: programSources(stored('golden-iops').results), tolerancePct: 10}).verdict).to.equal('not-measurable')
    })
  })

  describe('claims schema: QoS and endurance claims', () => {
    const withClaim = (c: Record<string, unknown>) => ({vendor: 'Acme', model: 'X1', capacityBytes: 1e12, source: 'Acme X1 datasheet', claims: [c]})
    const cases: Array<{name: string; c: Record<string, unknown>; pointer?: string; msg?: RegExp}> = [
      {name: 'endurance TBW', c: {metric: 'endurance', value: 600, unit: 'TBW', periodYears: 5, condition: 'unspecified'}},
      {name: 'endurance DWPD', c: {metric: 'endurance', value: 1, unit: 'DWPD', condition: 'unspecified'}},
      {name: 'p99.9 QoS', c: {metric: 'latency', access: 'random', blockSize: '4KiB', readPct: 100, queueDepth: 1, statistic: 'p99.9', value: 90, unit: 'us', condition: 'steady-state'}},
      {name: 'endurance in IOPS', c: {metric: 'endurance', value: 1, unit: 'IOPS', condition: 'unspecified'}, pointer: '/claims/0/unit', msg: /does not fit metric "endurance": use "TBW" or "DWPD"/},
      {name: 'endurance with a block size', c: {metric: 'endurance', value: 1, unit: 'TBW', blockSize: '4KiB', condition: 'unspecified'}, pointer: '/claims/0/blockSize', msg: /not part of an endurance claim/},
      {name: 'an IOPS claim without its workload', c: {metric: 'iops', value: 1, unit: 'IOPS', condition: 'unspecified', blockSize: '4KiB', readPct: 100}, pointer: '/claims/0/access', msg: /is required for a "iops" claim/},
      {name: 'a period on an IOPS claim', c: {metric: 'iops', access: 'random', blockSize: '4KiB', readPct: 100, value: 1, unit: 'IOPS', periodYears: 5, condition: 'unspecified'}, pointer: '/claims/0/periodYears', msg: /only allowed for endurance claims/},
      {name: 'an unknown percentile', c: {metric: 'latency', access: 'random', blockSize: '4KiB', readPct: 100, statistic: 'p95', value: 1, unit: 'ms', condition: 'unspecified'}, pointer: '/claims/0/statistic'},
    ]
    for (const t of cases) {
      it(t.name, () => {
        const problems = checkClaims(withClaim(t.c))
        if (!t.pointer) return expect(problems).to.deep.equal([])
        const p = problems.find(x => x.pointer === t.pointer)
        expect(p, JSON.stringify(problems)).to.not.equal(undefined)
        if (t.msg) expect(p!.message).to.match(t.msg)
      })
    }
  })
})
