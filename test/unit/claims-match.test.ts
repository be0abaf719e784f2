/**
 * pts verify: matching datasheet claims to a run's window averages, verdicts, notes, tolerance and
 * the claims-file schema. Pure functions, table-driven, on a small synthetic results.json.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {UsageError} from '../../src/errors.js'
import {
  anyMiss, claimLabel, deviceWarnings, formatRatio, LAT_TEST, loadNote, matchClaim, parseTolerance, TP_TEST, verifyClaims,
} from '../../src/claims/match.js'
import {jsonErrorWhere} from '../../src/claims/load.js'
import {checkClaims, checkVerifyResult} from '../../src/claims/schema.js'
import type {Claim, ClaimsFile} from '../../src/claims/types.js'
import {type LoopRound, type LoopWindowAverage, type ProgramResults, type StepResult} from '../../src/model/results.js'
import {loopWindowAverages} from '../../src/steady-state/conclude.js'
import type {RunManifest} from '../../src/model/manifest.js'
import {ROOT} from '../helpers/cli.js'

type Verdict = 'steady' | 'not-achieved' | 'pending'

/** What one point measures in every round (the window average of identical rounds is the point itself). */
type PointValues = Pick<LoopWindowAverage, 'readPct' | 'blockSizeBytes' | 'iops' | 'readIops' | 'writeIops' | 'bwBytesPerSec' | 'latMeanNs' | 'latMaxNs' | 'latMaxAvgNs'> & {blockSizeBytes: number}

function avg(readPct: number, blockSizeBytes: number, iops: number, over: Partial<PointValues> = {}): PointValues {
  return {readPct, blockSizeBytes, iops, readIops: iops * readPct / 100, writeIops: iops * (100 - readPct) / 100,
    bwBytesPerSec: iops * blockSizeBytes, latMeanNs: 1e9 / iops, latMaxNs: 5e6, latMaxAvgNs: 4e6, ...over}
}

/**
 * An IOPS results.json (one loop phase, as every IOPS run is now) with only what matching reads:
 * parameters, the loop's steady state, its rounds and the window averages the loop derives from
 * them (loopWindowAverages over the window rounds 2-6, so the 99.999th percentile is the average of the per-round ones).
 */
function results(o: {verdict?: Verdict; tc?: number; qd?: number; averages?: PointValues[]; p99999?: Array<number | null>} = {}): ProgramResults {
  const averages = o.averages ?? [avg(100, 4096, 40_000), avg(0, 4096, 4_200), avg(65, 65536, 3_000), avg(100, 1048576, 500, {bwBytesPerSec: 524_288_000})]
  const p = o.p99999 ?? [2_000_000, 2_100_000, 2_200_000, 2_300_000, 2_400_000]
  const tc = o.tc ?? 1
  const qd = o.qd ?? 4
  const rounds: LoopRound[] = [1, 2, 3, 4, 5, 6].map(round => ({
    round, startedAt: '2026-12-01T00:00:00Z', finishedAt: '2026-12-01T00:01:00Z', preRound: null,
    points: averages.map((w, index) => ({...w, index, id: `rw${w.readPct}-bs${w.blockSizeBytes}`, label: '', threadCount: tc, queueDepth: qd,
      readBwBytesPerSec: w.bwBytesPerSec * w.readPct / 100, writeBwBytesPerSec: w.bwBytesPerSec * (100 - w.readPct) / 100,
      latP99999Ns: round >= 2 ? p[round - 2] : 9e9, latPercentileSamples: 100_000}) as unknown as StepResult),
  }))
  const verdict = o.verdict ?? 'steady'
  const [fromRound, toRound] = verdict === 'pending' ? [null, null] : [2, 6]
  return {
    schemaVersion: 1, kind: 'program', runId: 'run-x', test: 'iops', revision: '2.0.2', profile: 'enterprise', status: 'complete',
    parameters: {threadCount: tc, queueDepth: qd},
    phases: [
      {kind: 'purge', id: 'purge', title: 'Purge', status: 'done'},
      {kind: 'loop', id: 'loop', title: 'IOPS loop', status: 'done', rounds, tracking: [], evaluations: [],
        steadyState: {verdict, fromRound, toRound, variables: []},
        windowAverages: fromRound === null ? loopWindowAverages(rounds, 2, 6) : loopWindowAverages(rounds, fromRound, toRound!)},
    ],
  } as unknown as ProgramResults
}

const claim = (o: Partial<Claim> = {}): Claim => ({metric: 'iops', access: 'random', blockSize: '4KiB', readPct: 100, queueDepth: 4, threadCount: 1, value: 40_000, unit: 'IOPS', condition: 'steady-state', ...o})
const match = (c: Claim, r = results(), tol = 10) => matchClaim(c, 0, {results: r, tolerancePct: tol})

describe('claims matching (pts verify)', () => {
  describe('exact match on access, block size and R/W mix', () => {
    const cases: Array<{name: string; c: Partial<Claim>; verdict: string; measured: number | null; measuredBy?: string | RegExp}> = [
      {name: 'RND 4KiB 100/0 IOPS -> the 100/0 4KiB window average', c: {}, verdict: 'meets', measured: 40_000},
      {name: 'RND 4KiB 0/100 IOPS -> the 0/100 point, not the read one', c: {readPct: 0, value: 75_000}, verdict: 'below', measured: 4_200},
      {name: 'mixed 65/35 64KiB: total (read + write) IOPS', c: {readPct: 65, blockSize: '64KiB', value: 3_000}, verdict: 'meets', measured: 3_000},
      {name: '"1MiB" is 1024 KiB', c: {blockSize: '1MiB', value: 500}, verdict: 'meets', measured: 500},
      {name: 'R/W 70/30 is not in the matrix: not measured, names the IOPS test point', c: {readPct: 70}, verdict: 'not-measured', measured: null, measuredBy: 'IOPS (iops) test, RND 4 KiB R/W 70/30'},
      {name: '2 KiB is not in the matrix: not measured', c: {blockSize: '2KiB'}, verdict: 'not-measured', measured: null, measuredBy: /RND 2 KiB R\/W 100\/0/},
      {name: 'sequential MB/s: not measured, the tp test', c: {metric: 'mbps', access: 'sequential', blockSize: '128KiB', value: 550, unit: 'MB/s'}, verdict: 'not-measured', measured: null, measuredBy: TP_TEST},
      {name: 'sequential IOPS at a measured block size: still not measured (random only)', c: {access: 'sequential'}, verdict: 'not-measured', measured: null, measuredBy: TP_TEST},
      {name: 'latency at a point the run has: measured (mean)', c: {metric: 'latency', value: 0.025, unit: 'ms'}, verdict: 'meets', measured: 0.025},
      {name: 'latency at a point the run lacks: the lat test', c: {metric: 'latency', blockSize: '8KiB', value: 0.1, unit: 'ms'}, verdict: 'not-measured', measured: null, measuredBy: LAT_TEST},
      {name: 'sequential latency: the lat test', c: {metric: 'latency', access: 'sequential', value: 0.1, unit: 'ms'}, verdict: 'not-measured', measured: null, measuredBy: LAT_TEST},
    ]
    for (const t of cases) {
      it(t.name, () => {
        const o = match(claim(t.c))
        expect(o.verdict).to.equal(t.verdict)
        if (t.measured === null) {
          expect(o.measured).to.equal(null)
          expect(o.ratio).to.equal(null)
          if (typeof t.measuredBy === 'string') expect(o.measuredBy).to.equal(t.measuredBy)
          else expect(o.measuredBy).to.match(t.measuredBy!)
          expect(o.text).to.include('not measured').and.include(o.measuredBy!)
        } else {
          expect(o.measured!.value).to.be.closeTo(t.measured, 1e-9)
          expect(o.measuredBy).to.equal(null)
          expect(o.ratio).to.be.closeTo(t.measured / o.claimed.value, 1e-12)
        }
      })
    }
  })

  describe('unit conversions', () => {
    const r = results({averages: [avg(100, 131072, 4_000, {bwBytesPerSec: 524_288_000, latMeanNs: 1_234_567})]})
    const cases: Array<{name: string; c: Partial<Claim>; value: number}> = [
      {name: 'MB/s = bwBytesPerSec / 10^6 (decimal)', c: {metric: 'mbps', unit: 'MB/s', blockSize: '128KiB', value: 500}, value: 524.288},
      {name: 'IOPS = window-average iops', c: {blockSize: '128KiB', value: 4_000}, value: 4_000},
      {name: 'ms = latMeanNs / 10^6', c: {metric: 'latency', unit: 'ms', blockSize: '128KiB', value: 1}, value: 1.234567},
      {name: 'us = latMeanNs / 10^3', c: {metric: 'latency', unit: 'us', blockSize: '128KiB', value: 1000}, value: 1234.567},
    ]
    for (const t of cases) {
      it(t.name, () => {
        const o = match(claim(t.c), r)
        expect(o.measured!.value).to.be.closeTo(t.value, 1e-9)
        expect(o.measured!.unit).to.equal(o.claimed.unit)
      })
    }

    it('p99.999 latency: the window average of the per-round 99.999th percentiles; p99.99 is not stored', () => {
      const o = match(claim({metric: 'latency', unit: 'ms', statistic: 'p99.999', value: 3}))
      expect(o.measured!.value).to.be.closeTo(2.2, 1e-12) // rounds 2-6: 2.0 .. 2.4 ms
      expect(o.verdict).to.equal('meets')
      expect(o.notes.join(' ')).to.include('99.999th')
      const p4 = match(claim({metric: 'latency', unit: 'ms', statistic: 'p99.99', value: 3}))
      expect(p4.verdict).to.equal('not-measured')
      expect(p4.text).to.include('99.99th')
      const missing = match(claim({metric: 'latency', unit: 'ms', statistic: 'p99.999', value: 3}), results({p99999: [1, 2, null, 4, 5]}))
      expect(missing.verdict).to.equal('not-measured')
    })
  })

  describe('tolerance (inclusive) and verdicts', () => {
    const cases: Array<{name: string; claimed: number; measured: number; tol: number; metric?: 'latency'; verdict: string}> = [
      {name: 'exactly claimed x 0.9 meets at 10%', claimed: 75_000, measured: 67_500, tol: 10, verdict: 'meets'},
      {name: 'just under claimed x 0.9 is below', claimed: 75_000, measured: 67_499.99, tol: 10, verdict: 'below'},
      {name: 'above the claim meets', claimed: 75_000, measured: 90_000, tol: 10, verdict: 'meets'},
      {name: 'tolerance 0: equal meets', claimed: 85_000, measured: 85_000, tol: 0, verdict: 'meets'},
      {name: 'tolerance 0: a hair under is below', claimed: 85_000, measured: 84_999.9, tol: 0, verdict: 'below'},
      {name: 'tolerance 100: anything meets', claimed: 85_000, measured: 1, tol: 100, verdict: 'meets'},
      {name: 'latency (lower is better): exactly claimed x 1.1 meets', claimed: 1, measured: 1.1, tol: 10, metric: 'latency', verdict: 'meets'},
      {name: 'latency: just above claimed x 1.1 is below (worse)', claimed: 1, measured: 1.1001, tol: 10, metric: 'latency', verdict: 'below'},
      {name: 'latency: faster than claimed meets', claimed: 1, measured: 0.2, tol: 10, metric: 'latency', verdict: 'meets'},
    ]
    for (const t of cases) {
      it(t.name, () => {
        const lat = t.metric === 'latency'
        const w = lat ? avg(100, 4096, 1, {latMeanNs: t.measured * 1e6}) : avg(100, 4096, t.measured)
        const o = match(claim(lat ? {metric: 'latency', unit: 'ms', value: t.claimed} : {value: t.claimed}), results({averages: [w]}), t.tol)
        expect(o.verdict).to.equal(t.verdict)
        expect(o.ratio).to.be.closeTo(t.measured / t.claimed, 1e-12)
        expect(o.threshold).to.be.closeTo(lat ? t.claimed * (1 + t.tol / 100) : t.claimed * (1 - t.tol / 100), 1e-9)
      })
    }

    it('parses --tolerance "10" and "10%", 0..100 inclusive', () => {
      const ok: Array<[string, number]> = [['10', 10], ['10%', 10], [' 12.5 % ', 12.5], ['0', 0], ['100%', 100]]
      for (const [text, v] of ok) expect(parseTolerance(text), text).to.equal(v)
      for (const bad of ['abc', '-5', '101', '10%%', '', '1e1']) expect(() => parseTolerance(bad), bad).to.throw(UsageError, /--tolerance/)
    })
  })

  describe('notes: queue depth and drive condition', () => {
    it('notes a differing queue depth / thread count (QD without TC is TC 1)', () => {
      const cases: Array<{c: Pick<Claim, 'queueDepth' | 'threadCount'>; tc: number; qd: number; note: string | null}> = [
        {c: {queueDepth: 32}, tc: 1, qd: 4, note: 'claim at QD32, measured TC 1 / QD 4'},
        {c: {queueDepth: 32}, tc: 1, qd: 32, note: null},
        {c: {queueDepth: 32}, tc: 4, qd: 32, note: 'claim at QD32, measured TC 4 / QD 32'},
        {c: {queueDepth: 32, threadCount: 4}, tc: 4, qd: 32, note: null},
        {c: {queueDepth: 8, threadCount: 4}, tc: 1, qd: 4, note: 'claim at TC 4 / QD8, measured TC 1 / QD 4'},
        {c: {}, tc: 1, qd: 4, note: 'claim states no QD; measured TC 1 / QD 4'},
      ]
      for (const t of cases) expect(loadNote(t.c, t.tc, t.qd), JSON.stringify(t)).to.equal(t.note)
      const o = match(claim({queueDepth: 32, threadCount: undefined}))
      expect(o.notes).to.include('claim at QD32, measured TC 1 / QD 4')
      expect(o.text).to.include('claim at QD32, measured TC 1 / QD 4')
    })

    it('the issue\'s example sentence: an FOB claim measured at steady state', () => {
      const o = match(claim({readPct: 0, value: 75_000, condition: 'fob'}), results({verdict: 'steady'}))
      expect(o.text).to.equal('4 KiB random write: claimed 75,000 IOPS (FOB), measured 4,200 IOPS at steady state (0.06x) — below; the claim is a fresh-out-of-box figure')
      expect(o.measured!.condition).to.equal('steady-state')
    })

    const conds: Array<{claim: Claim['condition']; verdict: Verdict; has: string[]; hasNot?: string[]; note?: string}> = [
      {claim: 'fob', verdict: 'steady', has: ['at steady state', 'fresh-out-of-box']},
      {claim: 'fob', verdict: 'not-achieved', has: ['IOPS after preconditioning, steady state not achieved', 'fresh-out-of-box'], note: 'FOB claim, measured after preconditioning, steady state not achieved'},
      {claim: 'unspecified', verdict: 'steady', has: ['at steady state', 'does not state the drive condition']},
      {claim: 'unspecified', verdict: 'not-achieved', has: ['after preconditioning, steady state not achieved', 'does not state the drive condition']},
      {claim: 'steady-state', verdict: 'steady', has: ['at steady state'], hasNot: ['fresh-out-of-box', 'condition']},
      {claim: 'steady-state', verdict: 'not-achieved', has: ['did not reach steady state']},
      {claim: 'fob', verdict: 'pending', has: ['incomplete run']},
    ]
    for (const t of conds) {
      it(`${t.claim} claim, run verdict ${t.verdict}`, () => {
        const o = match(claim({condition: t.claim}), results({verdict: t.verdict}))
        for (const s of t.has) expect(o.text).to.include(s)
        for (const s of t.hasNot ?? []) expect(o.text).to.not.include(s)
        if (t.note) expect(o.notes).to.include(t.note)
        expect(o.measured!.condition).to.equal(t.verdict === 'steady' ? 'steady-state' : t.verdict === 'not-achieved' ? 'after-preconditioning' : 'incomplete')
      })
    }
  })

  it('labels and ratio formatting', () => {
    expect(claimLabel(claim())).to.equal('4 KiB random read')
    expect(claimLabel(claim({readPct: 70, blockSize: '0.5KiB'}))).to.equal('0.5 KiB random R/W 70/30')
    expect(claimLabel(claim({metric: 'latency', unit: 'us', statistic: 'p99.999'}))).to.equal('4 KiB random read latency (99.999th percentile)')
    expect(claimLabel(claim({metric: 'mbps', access: 'sequential', blockSize: '128KiB', readPct: 0, unit: 'MB/s'}))).to.equal('128 KiB sequential write')
    expect(formatRatio(0.056)).to.equal('0.06x')
    expect(formatRatio(0.0042)).to.equal('0.0042x')
    expect(formatRatio(null)).to.equal('n/a')
  })

  describe('verifyClaims: the whole result', () => {
    const file = JSON.parse(readFileSync(`${ROOT}specs/claims/crucial-mx100-256gb.json`, 'utf8')) as ClaimsFile
    const manifest = {target: {kind: 'file', path: '/tmp/x.img', sizeBytes: 1, identity: {vendor: null, model: null, capacityBytes: 1}}} as unknown as RunManifest
    const r = results({verdict: 'not-achieved', averages: [avg(100, 4096, 80_000), avg(0, 4096, 4_200)]})
    const v = verifyClaims({claims: file, results: r, manifest, tolerancePct: 10, generatedAt: '2026-12-01T12:00:00Z', generatedBy: 'pts 0.1.0', claimsFile: {name: 'crucial-mx100-256gb.json', sha256: 'a'.repeat(64)}, resultsSha256: 'b'.repeat(64)})

    it('one outcome per claim, counted, and valid against schemas/verify-result.schema.json', () => {
      expect(v.claims.map(c => [c.id, c.verdict])).to.deep.equal([['rnd-4k-read', 'meets'], ['rnd-4k-write', 'below'], ['seq-read', 'not-measured'], ['seq-write', 'not-measured']])
      // a file target (not a drive) and QD32 claims against TC 1 / QD 4: both measured claims are flagged
      expect(v.summary).to.deep.equal({total: 4, meets: 1, below: 1, notMeasured: 2, notMeasurable: 0, flagged: 2})
      expect(checkVerifyResult(v)).to.deep.equal([])
      expect(anyMiss(v)).to.equal(true)
      expect(anyMiss({claims: v.claims.slice(0, 1)})).to.equal(false)
      expect(v.warnings[0]).to.match(/measured a file/)
    })

    it('default ids are claim-<n>', () => {
      const o = matchClaim(claim(), 2, {results: r, tolerancePct: 10})
      expect(o.id).to.equal('claim-3')
    })

    it('device warnings: another model, another capacity, the same drive', () => {
      const dev = (model: string | null, capacityBytes: number) => ({target: {kind: 'block', path: '/dev/sdb', sizeBytes: capacityBytes, identity: {vendor: null, model, capacityBytes}}} as unknown as RunManifest)
      expect(deviceWarnings(file, dev('Samsung SSD 860', 256e9))[0]).to.match(/does not look like/)
      expect(deviceWarnings(file, dev('Crucial_CT256MX100SSD1', 512e9))[0]).to.match(/512\.0 GB/)
      expect(deviceWarnings(file, dev('Crucial_CT256MX100SSD1', 256060514304))).to.deep.equal([])
    })
  })

  it('malformed JSON: the parser message with line and column', () => {
    const cases: Array<[string, string]> = [
      ['{\n  "vendor": "Crucial",\n  "model": \n}\n', "Unexpected token '}' at line 4, column 1"],
      ['{\n "a": [1, 2,, 3]\n}', "Unexpected token ',' at line 2, column 13"],
      ['{"a": 1,\n "b" 2}', 'Unexpected number at line 2, column 6'],
      ['{"a":1', "Expected ',' or '}' after property value at line 1, column 7"],
      ['', 'Unexpected end of JSON input'],
    ]
    for (const [text, want] of cases) {
      let message = ''
      try { JSON.parse(text) } catch (error) { message = (error as Error).message }
      expect(jsonErrorWhere(text, message), JSON.stringify(text)).to.equal(want)
    }
  })

  describe('claims file schema', () => {
    const good = JSON.parse(readFileSync(`${ROOT}specs/claims/crucial-mx100-256gb.json`, 'utf8')) as ClaimsFile
    const withClaim = (o: Record<string, unknown>, i = 0) => {
      const f = structuredClone(good) as unknown as {claims: Array<Record<string, unknown>>}
      f.claims[i] = {...f.claims[i], ...o}
      for (const [k, v] of Object.entries(o)) if (v === undefined) delete f.claims[i][k]
      return f
    }

    it('the shipped example is valid', () => {
      expect(checkClaims(good)).to.deep.equal([])
    })

    const bad: Array<{name: string; data: () => unknown; pointer: string; msg: RegExp}> = [
      {name: 'unknown unit', data: () => withClaim({unit: 'kIOPS'}, 2), pointer: '/claims/2/unit', msg: /unknown unit "kIOPS".*"IOPS", "MB\/s", "ms", "us"/},
      {name: 'unit that does not fit the metric', data: () => withClaim({unit: 'ms'}), pointer: '/claims/0/unit', msg: /unit "ms" does not fit metric "iops": use "IOPS"/},
      {name: 'latency in IOPS', data: () => withClaim({metric: 'latency'}), pointer: '/claims/0/unit', msg: /use "ms" or "us"/},
      {name: 'statistic on a non-latency claim', data: () => withClaim({statistic: 'mean'}), pointer: '/claims/0/statistic', msg: /only allowed for latency/},
      {name: 'decimal block size', data: () => withClaim({blockSize: '4KB'}), pointer: '/claims/0/blockSize', msg: /"4KB" is not a binary block size/},
      {name: 'R/W mix above 100', data: () => withClaim({readPct: 170}), pointer: '/claims/0/readPct', msg: /must be <= 100 \(found 170\)/},
      {name: 'unknown condition', data: () => withClaim({condition: 'new'}), pointer: '/claims/0/condition', msg: /must be one of "fob", "steady-state", "unspecified"/},
      {name: 'missing value', data: () => withClaim({value: undefined}), pointer: '/claims/0/value', msg: /is required/},
      {name: 'duplicate id', data: () => withClaim({id: 'rnd-4k-read'}, 1), pointer: '/claims/1/id', msg: /already used by \/claims\/0/},
      {name: 'no claims', data: () => ({...good, claims: []}), pointer: '/claims', msg: /fewer than 1/},
    ]
    for (const t of bad) {
      it(`${t.name} -> ${t.pointer}`, () => {
        const problems = checkClaims(t.data())
        const p = problems.find(x => x.pointer === t.pointer)
        expect(p, JSON.stringify(problems)).to.not.equal(undefined)
        expect(p!.message).to.match(t.msg)
        expect(problems.filter(x => x.pointer === t.pointer), 'one message per pointer').to.have.length(1)
        expect(problems.some(x => /"then" schema/.test(x.message))).to.equal(false)
      })
    }
  })
})
