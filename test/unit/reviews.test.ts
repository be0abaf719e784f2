/**
 * The review tests (specs/reviews/; not part of the SNIA PTS): their definitions against the
 * schema, plan expansion table-driven (phases, points, ranges, spans clamped to the target,
 * compressible data, time scale, the "review test" compliance reason), the fio job lines they
 * produce, and the pure derivations of their reports (FOB / steady-state pairs, trace statistics).
 */
import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {check} from '../../src/validate.js'
import {loadProgramSpec, SPECS_DIR} from '../../src/store/spec-files.js'
import {expandProgram, type PlannedPhase, type ProgramOptions, type ProgramPlan} from '../../src/plan/expand.js'
import {REVIEW_TEST_IDS, reviewSource, revisionLabel} from '../../src/model/tests.js'
import type {TargetInfo} from '../../src/plan/target.js'
import {fillPieceJob, programJob} from '../../src/engine/job.js'
import {fobSsRows, nearestRank, traceStats} from '../../src/analysis/reviews.js'
import type {StepResult} from '../../src/model/results.js'
import {planJobs, planText} from '../../src/app/plan-text.js'

const specsDir = fileURLToPath(SPECS_DIR)
const MiB = 1024 ** 2
const GiB = 1024 ** 3
const fileTarget = (sizeBytes: number): TargetInfo => ({kind: 'file', path: '/tmp/x.img', sizeBytes, logicalSectorBytes: 512, purge: {method: 'none', deviation: 'no purge'}})
const blockTarget = (sizeBytes: number): TargetInfo => ({kind: 'block', path: '/dev/nvme9n1', sizeBytes, logicalSectorBytes: 512, purge: {method: 'nvme-sanitize-block', deviation: null}})

function opts(o: Partial<ProgramOptions> = {}): ProgramOptions {
  return {revision: 'reviews', profile: 'client', threadCount: 1, queueDepth: 32, pointSeconds: 60, maxRounds: 25, onNoSteadyState: 'stop', roundCap: 25, wipcMultiple: null, timeScale: 1,
    ioengine: 'libaio', seed: 1, workload: null, ceilingMs: null, maxSeconds: null, maxWrittenBytes: null, steadyStateExit: false, ...o}
}
const plan = (test: string, target: TargetInfo, o: Partial<ProgramOptions> = {}): ProgramPlan => expandProgram(loadProgramSpec(test, '2.0.2'), opts(o), target)
function phase<K extends PlannedPhase['kind']>(p: ProgramPlan, id: string, kind: K): Extract<PlannedPhase, {kind: K}> {
  const ph = p.phases.find(x => x.id === id)
  expect(ph?.kind, `phase ${id}`).to.equal(kind)
  return ph as Extract<PlannedPhase, {kind: K}>
}

describe('review test definitions (specs/reviews/)', () => {
  const files = readdirSync(`${specsDir}/reviews`).filter(f => f.endsWith('.json') && f !== 'revision.json').map(f => f.slice(0, -5)).sort()

  it('are exactly the registry\'s review tests, each valid against the schema and loaded whatever --revision says', () => {
    expect(files).to.deep.equal([...REVIEW_TEST_IDS].sort())
    for (const t of files) {
      const data = JSON.parse(readFileSync(`${specsDir}/reviews/${t}.json`, 'utf8'))
      expect(check('test-program.schema.json', data), t).to.deep.equal([])
      for (const rev of ['2.0.2', 'pts-e-1.1', 'pts-c-1.2']) expect(loadProgramSpec(t, rev).revision, `${t} --revision ${rev}`).to.equal('reviews')
      expect(reviewSource(t), t).to.be.a('string')
    }
    expect(reviewSource('iops')).to.equal(null)
    expect(revisionLabel('reviews')).to.equal('Review test, not SNIA PTS')
  })

  it('every plan says first that it is a review test, not part of the SNIA PTS, and names its review (plan text too)', () => {
    for (const t of files) {
      const p = plan(t, blockTarget(480e9))
      expect(p.compliance.compliant, t).to.equal(false)
      expect(p.compliance.reasons[0], t).to.equal(`a review test (from ${reviewSource(t)}), not part of the SNIA PTS`)
      const text = planText(p, '/dev/nvme9n1', [])
      expect(text.split('\n')[0], t).to.contain('a review test, not part of the SNIA PTS').and.contain(reviewSource(t)!)
      expect(text, t).to.not.match(/\[SNIA PTS\]/)
    }
  })

  it('every review test has per-second traces without --per-second: its definition says so, its plan has them on and lists them with its parameters; their job texts ask fio for the logs', () => {
    for (const t of files) {
      const data = JSON.parse(readFileSync(`${specsDir}/reviews/${t}.json`, 'utf8')) as {perSecond?: string}
      expect(data.perSecond, `${t}: the definition file`).to.equal('always')
      const p = plan(t, fileTarget(256 * MiB))
      expect(p.options.perSecond, t).to.equal(true)
      const text = planText(p, '/tmp/x.img', [])
      expect(text, t).to.match(/^ {2}- Per-second traces: on in every run of this test, with or without --per-second: fio logs IOPS, bandwidth and response time of every second of every step but WIPC .*\[pts's choice\]/m)
      for (const [id, job] of Object.entries(planJobs(p))) {
        if (p.phases.find(x => x.id === id)?.kind === 'wipc') expect(job, `${t} ${id}`).to.not.contain('write_iops_log=')
        else expect(job, `${t} ${id}`).to.match(/^write_iops_log=/m).and.match(/^log_avg_msec=1000$/m)
      }
    }
    // a stored review run made before its definition had them (perSecond false in its results): resume keeps them off
    const old = plan('fob-ss', fileTarget(256 * MiB), {perSecond: false})
    expect(old.options.perSecond).to.equal(false)
    expect(old.choices.map(c => c.name)).to.not.include('Per-second traces')
    expect(Object.values(planJobs(old)).some(j => j.includes('write_iops_log='))).to.equal(false)
    // a PTS test: only with the flag, and then the parameter names the flag
    const iops = (o: Partial<ProgramOptions>) => expandProgram(loadProgramSpec('iops', '2.0.2'), {...opts(o), revision: '2.0.2', profile: 'enterprise'}, blockTarget(480e9))
    expect(iops({}).options.perSecond ?? false).to.equal(false)
    expect(iops({}).choices.map(c => c.name)).to.not.include('Per-second traces')
    expect(iops({perSecond: true}).choices.find(c => c.name === 'Per-second traces')?.value).to.match(/^on \(pts run --per-second\): /)
  })

  // Table-driven: phases and their kinds, point counts and lengths at time scale 1 on a 480 GB drive.
  const TABLE: Array<{test: string; phases: Array<[string, PlannedPhase['kind']]>; points?: Record<string, number>; seconds?: Record<string, number>}> = [
    {test: 'fob-ss', phases: [['purge', 'purge'], ['fob', 'sweep'], ['seq-fill', 'wipc'], ['rnd-precondition', 'series'], ['ss', 'sweep']], points: {fob: 27, ss: 27}, seconds: {fob: 60, 'rnd-precondition': 21600}},
    {test: 'consistency', phases: [['purge-75', 'purge'], ['fill-75', 'wipc'], ['rnd-75', 'series'], ['purge-100', 'purge'], ['fill-100', 'wipc'], ['rnd-100', 'series']], seconds: {'rnd-75': 2000, 'rnd-100': 2000}},
    {test: 'consistency-128k', phases: [['purge-75', 'purge'], ['rnd-75', 'series'], ['purge-100', 'purge'], ['rnd-100', 'series']], seconds: {'rnd-75': 2000}},
    {test: 'four-corners', phases: [['random', 'sweep'], ['sequential', 'sweep'], ['seeks', 'sweep']], points: {random: 4, sequential: 2, seeks: 1}, seconds: {random: 180, sequential: 60, seeks: 60}},
    {test: 'transfer-sizes', phases: [['sizes', 'sweep']], points: {sizes: 36}, seconds: {sizes: 5}},
    {test: 'fill', phases: [['fill', 'fill']]},
  ]
  for (const row of TABLE) {
    it(`${row.test}: phases, points and lengths as the review ran it`, () => {
      const p = plan(row.test, blockTarget(480e9))
      expect(p.phases.map(x => [x.id, x.kind])).to.deep.equal(row.phases)
      for (const [id, n] of Object.entries(row.points ?? {})) expect(phase(p, id, 'sweep').points, id).to.have.length(n)
      for (const [id, sec] of Object.entries(row.seconds ?? {})) {
        const ph = p.phases.find(x => x.id === id)!
        expect(ph.kind === 'sweep' ? ph.pointSeconds : ph.kind === 'series' ? ph.durationSeconds : null, id).to.equal(sec)
      }
    })
  }

  it('fob-ss: R, W and 70/30 at QD 1-256, TC 1; the same points FOB and steady state; 2x SEQ 128KiB then 6 h RND 4KiB W at QD 32 in one-minute samples', () => {
    const p = plan('fob-ss', blockTarget(480e9))
    const fob = phase(p, 'fob', 'sweep').points
    expect(fob.map(x => `${x.readPct}/${x.queueDepth}`)).to.deep.equal([100, 0, 70].flatMap(r => [1, 2, 4, 8, 16, 32, 64, 128, 256].map(q => `${r}/${q}`)))
    expect(fob.every(x => x.threadCount === 1 && x.blockSizeBytes === 4096 && x.access === 'random')).to.equal(true)
    expect(phase(p, 'ss', 'sweep').points.map(x => x.label)).to.deep.equal(fob.map(x => x.label))
    expect(fob[0].label).to.equal('RND 4KiB R TC 1/QD 1')
    expect(phase(p, 'seq-fill', 'wipc').totalBytes).to.equal(2 * Math.floor(480e9 / 131072) * 131072)
    const pre = phase(p, 'rnd-precondition', 'series')
    expect([pre.sampleSeconds, pre.maxSamples, pre.workload.queueDepth, pre.workload.label]).to.deep.equal([60, 360, 32, 'RND 4KiB W'])
  })

  it('--time-scale shrinks the 6 h preconditioning and the 2,000 s consistency runs (samples at least 0.2 s)', () => {
    const rows: Array<[string, string, number, number, number]> = [
      // test, phase, time scale, expected seconds, expected samples
      ['fob-ss', 'rnd-precondition', 0.01, 216, 360],
      ['fob-ss', 'rnd-precondition', 0.0002, 4.4, 22],
      ['consistency', 'rnd-75', 0.01, 20, 100],
      ['consistency', 'rnd-100', 0.001, 2, 10],
      ['consistency-128k', 'rnd-75', 1, 2000, 2000],
    ]
    for (const [test, id, f, sec, n] of rows) {
      const s = phase(plan(test, fileTarget(256 * MiB), {timeScale: f}), id, 'series')
      expect([+s.durationSeconds.toFixed(3), s.maxSamples], `${test} ${id} x ${f}`).to.deep.equal([sec, n])
    }
  })

  it('consistency: each fill level fills its share twice and writes randomly inside it only', () => {
    const size = 1000 * MiB
    const p = plan('consistency', fileTarget(size))
    for (const [lvl, bytes] of [[75, Math.floor(size * 0.75 / 131072) * 131072], [100, size]] as const) {
      const w = phase(p, `fill-${lvl}`, 'wipc')
      expect([w.rangeBytes, w.totalBytes], `fill-${lvl}`).to.deep.equal([bytes, 2 * bytes])
      const s = phase(p, `rnd-${lvl}`, 'series')
      expect(s.workload.label).to.equal(`RND 4KiB W, ${lvl} % of the capacity`)
      expect(programJob(p, {comment: 'c', section: 's', workload: s.workload, seconds: 1, seed: 1})).to.contain(`size=${lvl === 75 ? Math.floor(size * 0.75 / 131072) * 131072 : size}\n`)
    }
    expect(phase(plan('consistency-128k', fileTarget(size)), 'rnd-75', 'series').workload.blockSizeBytes).to.equal(131072)
  })

  it('four-corners: the 8 GiB span is kept on a larger drive and clamped on a smaller target, said in the label and the parameters; compressible data is fio buffer compression', () => {
    const big = phase(plan('four-corners', blockTarget(480e9)), 'random', 'sweep').points
    expect(big.map(x => x.rangeBytes)).to.deep.equal([8 * GiB, 8 * GiB, 8 * GiB, 8 * GiB])
    expect(big[0].label).to.equal('RND 4KiB W, 8 GiB span, incompressible data')
    const small = plan('four-corners', fileTarget(256 * MiB))
    const pts = phase(small, 'random', 'sweep').points
    expect(pts.map(x => x.label)).to.deep.equal([
      'RND 4KiB W, 8 GiB span clamped to 256 MiB (the target is smaller), incompressible data',
      'RND 4KiB W, 8 GiB span clamped to 256 MiB (the target is smaller), 50 % compressible data',
      'RND 4KiB R, 8 GiB span clamped to 256 MiB (the target is smaller)',
      'RND 4KiB W, 8 GiB span clamped to 256 MiB (the target is smaller), incompressible data',
    ])
    expect(pts.map(x => x.queueDepth)).to.deep.equal([3, 3, 3, 32])
    expect(small.choices.map(c => `${c.name}: ${c.value}`)).to.include('Span: 8 GiB span clamped to 256 MiB (the target is smaller)')
    const job = (k: number) => programJob(small, {comment: 'c', section: 's', workload: pts[k], seconds: 1, seed: 1})
    expect(job(1)).to.contain('buffer_compress_percentage=50')
    expect(job(0)).to.not.contain('buffer_compress_percentage')
    expect(phase(small, 'seeks', 'sweep')).to.include({latencyBins: true})
    expect(phase(small, 'sequential', 'sweep').points.map(x => `${x.label} QD ${x.queueDepth}`)).to.deep.equal(['SEQ 128KiB R QD 1', 'SEQ 128KiB W QD 1'])
  })

  it('transfer-sizes: SEQ W then R at 512 B to 64 MiB, TC 1/QD 4', () => {
    const pts = phase(plan('transfer-sizes', fileTarget(256 * MiB)), 'sizes', 'sweep').points
    expect(pts.filter(x => x.readPct === 0).map(x => x.blockSizeBytes)).to.deep.equal(Array.from({length: 18}, (_, i) => 512 * 2 ** i))
    expect(pts.slice(0, 2).map(x => x.label)).to.deep.equal(['SEQ 0.5KiB W', 'SEQ 0.5KiB R'])
    expect(pts.every(x => x.queueDepth === 4 && x.threadCount === 1)).to.equal(true)
  })

  it('fill: the ActiveRange in 100 equal pieces in LBA order, each a size-based fio job of exactly its bytes', () => {
    const size = 1000 * MiB
    const p = plan('fill', fileTarget(size))
    const f = phase(p, 'fill', 'fill')
    expect(f.pieces).to.have.length(100)
    expect(f.pieces[0]).to.deep.equal({offsetBytes: 0, sizeBytes: 10 * MiB})
    expect(f.pieces.reduce((a, x) => a + x.sizeBytes, 0)).to.equal(size)
    f.pieces.forEach((x, k) => { if (k > 0) expect(x.offsetBytes).to.equal(f.pieces[k - 1].offsetBytes + f.pieces[k - 1].sizeBytes) })
    const job = fillPieceJob(p, f, 1, 3, 9)
    expect(job).to.contain(`offset=${30 * MiB}\n`).and.contain(`size=${10 * MiB}\n`).and.contain('rw=write').and.not.contain('time_based')
  })
})

const step = (readPct: number, qd: number, iops: number): StepResult => ({
  index: 0, id: `rw${readPct}-qd${qd}`, label: '', readPct, blockSizeBytes: 4096, threadCount: 1, queueDepth: qd, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z',
  startNs: '0', endNs: '1', seed: 1, raw: {json: 'raw/x.json', job: 'raw/x.fio'}, iops, readIops: 0, writeIops: iops, bwBytesPerSec: 0, readBwBytesPerSec: 0, writeBwBytesPerSec: 0,
  readBytes: 0, writeBytes: 0, ioCount: 0, latMeanNs: 0, latMaxNs: 0, latP99999Ns: null, latPercentileSamples: 0, runtimeSec: 1,
})

describe('review test derivations (analysis/reviews.ts)', () => {
  it('fobSsRows pairs the FOB and steady-state point of each workload and QD, with SS / FOB', () => {
    const rows = fobSsRows([step(0, 1, 1000), step(0, 32, 80000), step(100, 1, 9000)], [step(0, 32, 4000), step(0, 1, 500)])
    expect(rows.map(r => [r.readPct, r.queueDepth, r.fob?.iops ?? null, r.ss?.iops ?? null, r.ratio])).to.deep.equal([
      [0, 1, 1000, 500, 0.5], [0, 32, 80000, 4000, 0.05], [100, 1, 9000, null, null]])
  })

  const TRACES: Array<{name: string; values: number[]; expect: Partial<ReturnType<typeof traceStats>>}> = [
    {name: 'empty', values: [], expect: {samples: 0, floorFrom: null, cv: null}},
    {name: 'flat', values: [5, 5, 5, 5], expect: {samples: 4, min: 5, max: 5, mean: 5, cv: 0, floor: 5, floorFrom: 0}},
    // 20 samples: a high start, then the floor from sample 10 on (rolling window 1 sample)
    {name: 'drop to a floor', values: [...Array(10).fill(100), ...Array(10).fill(10)], expect: {samples: 20, min: 10, max: 100, mean: 55, p50: 10, floor: 10, floorFrom: 10}},
    {name: 'never above 1.1x the floor', values: [10, 11, 10, 11, 10, 11, 10, 11, 10, 11], expect: {floor: 11, floorFrom: 0, p1: 10, p99: 11}},
  ]
  for (const t of TRACES) {
    it(`traceStats: ${t.name}`, () => {
      expect(traceStats(t.values)).to.include(t.expect)
    })
  }

  it('nearestRank percentiles', () => {
    const v = Array.from({length: 100}, (_, i) => i + 1)
    expect([nearestRank(v, 1), nearestRank(v, 50), nearestRank(v, 99), nearestRank(v, 100), nearestRank([], 50)]).to.deep.equal([1, 50, 99, 100, 0])
  })
})
