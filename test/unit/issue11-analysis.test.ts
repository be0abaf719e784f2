/**
 * Measurement and report corrections of issue 11 (items 3 and 10), table-driven on pure functions:
 * HIR burst IOPS from one fio step per burst (and older runs derived as before, from their stored
 * IOPS log), the CBW/DIRTH operating-point pre-write as one-minute samples, the IOPS report's
 * Test Definition Parameters, the "R²" label, the TP verdict per block size and full test names.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {parseFioJson, parseIopsLog, parseJobFile, jobValue} from '../../src/engine/parse.js'
import {burstIops, burstsFromSteps} from '../../src/analysis/derive.js'
import {loadProgramSpec} from '../../src/store/spec-files.js'
import {expandProgram, type PlannedPhase, type ProgramOptions, type ProgramPlan} from '../../src/plan/expand.js'
import {burstComment, programJob, stepSeed} from '../../src/engine/job.js'
import {planJobs} from '../../src/app/plan-text.js'
import type {TargetInfo} from '../../src/plan/target.js'
import {initialProgramResults} from '../../src/runner/run.js'
import {buildProgramReportModel} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import {determination} from '../../src/report/page-kit.js'
import {tpVerdict} from '../../src/report/pages/tp.js'
import {burstBasis, measuredIdle} from '../../src/report/pages/hir.js'
import {testName} from '../../src/model/tests.js'
import {loadRun} from '../../src/report/load.js'
import type {ProgramResults} from '../../src/model/results.js'
import {sourceLabel} from '../../src/model/wording.js'

const RUNS = join(import.meta.dirname, '..', 'fixtures', 'runs')
const opts = (o: Partial<ProgramOptions> = {}): ProgramOptions => ({
  revision: '2.0.2', profile: 'enterprise', threadCount: 2, queueDepth: 4, pointSeconds: 60, maxRounds: 25,
  onNoSteadyState: 'stop', roundCap: 25, wipcMultiple: null, timeScale: 1, ioengine: 'libaio', seed: 42,
  workload: null, ceilingMs: null, maxSeconds: null, maxWrittenBytes: null, steadyStateExit: false, ...o,
})
const file: TargetInfo = {kind: 'file', path: '/tmp/x.img', sizeBytes: 64 * 1024 ** 2, logicalSectorBytes: 512, purge: {method: 'none', deviation: 'no purge: a regular file cannot be purged'}}
const plan = (test: string, o: Partial<ProgramOptions> = {}): ProgramPlan => expandProgram(loadProgramSpec(test, '2.0.2'), opts(o), file)
const phasesOf = <K extends PlannedPhase['kind']>(p: ProgramPlan, kind: K) => p.phases.filter((x): x is Extract<PlannedPhase, {kind: K}> => x.kind === kind)

describe('HIR bursts: one fio step per burst, IOPS = IOs completed / the burst\'s length', () => {
  it('every wait state plans its bursts as fio steps of the burst length, with no thinktime and no IOPS log', () => {
    for (const scale of [1, 0.001]) {
      const p = plan('hir', {timeScale: scale})
      const ws = phasesOf(p, 'bursts')
      expect(ws.map(w => w.waitState)).to.deep.equal([1, 2, 3, 5, 10])
      for (const w of ws) {
        expect(w.repeats).to.equal(scale === 1 ? 360 : 3)
        const pi = p.phases.indexOf(w)
        const job = parseJobFile(programJob(p, {comment: burstComment(w, 0), section: w.id, workload: w.workload, seconds: w.burstSeconds, seed: stepSeed(42, pi, 0, 0)}))
        expect(jobValue(job, 'runtime'), `${w.id} at ${scale}`).to.equal(`${Math.round(5 * scale * 1000)}ms`)
        for (const k of ['thinktime', 'thinktime_iotime', 'write_iops_log', 'log_avg_msec']) expect(jobValue(job, k), k).to.equal(undefined)
      }
    }
  })

  it('pts plan --json shows the job text of the first burst that the run writes', () => {
    const p = plan('hir', {timeScale: 0.001})
    const w = phasesOf(p, 'bursts')[0]
    const pi = p.phases.indexOf(w)
    expect(planJobs(p)[w.id]).to.equal(programJob(p, {comment: burstComment(w, 0), section: w.id, workload: w.workload, seconds: w.burstSeconds, seed: stepSeed(42, pi, 0, 0)}))
    expect(burstComment(w, 0)).to.equal('ws1 burst 1/3: Wait State 1, RND 4KiB W TC 2/QD 4, then 0.005 s host idle')
  })

  const cases: Array<{name: string; steps: Array<{ioCount: number; runtimeSec: number; startNs: string}>; want: Array<{index: number; startMs: number; iops: number}>}> = [
    {name: 'IOPS = IOs / runtime of each step; start = ms after the first burst started',
      steps: [{ioCount: 50_000, runtimeSec: 5, startNs: '1000000000000000'}, {ioCount: 49_000, runtimeSec: 5.001, startNs: '1000010000003000'}],
      want: [{index: 0, startMs: 0, iops: 10_000}, {index: 1, startMs: 10_000.003, iops: 49_000 / 5.001}]},
    {name: 'no steps, no bursts', steps: [], want: []},
    {name: 'a step with no runtime has no IOPS (never a division by zero)', steps: [{ioCount: 0, runtimeSec: 0, startNs: '5'}], want: [{index: 0, startMs: 0, iops: 0}]},
  ]
  for (const c of cases) it(c.name, () => expect(burstsFromSteps(c.steps)).to.deep.equal(c.want))

  it('real burst steps (test/fixtures/fio/3.33/hir-bursts: the first 3 bursts of WS1 of a tiny-scale run): IOPS = fio\'s total_ios / runtime of each step, as fio\'s own iops', () => {
    const dir = join(import.meta.dirname, '..', 'fixtures', 'fio', '3.33', 'hir-bursts')
    const steps = ['0001', '0002', '0003'].map(n => {
      const text = readFileSync(join(dir, `${n}.json`), 'utf8')
      const job = parseJobFile(readFileSync(join(dir, `${n}.fio`), 'utf8'))
      expect(jobValue(job, 'thinktime'), `${n}: no thinktime`).to.equal(undefined)
      expect(jobValue(job, 'runtime')).to.equal('5ms')
      const w = JSON.parse(text.slice(text.search(/^\{/m))).jobs[0].write
      return {m: parseFioJson(text).groups[0].measurement, totalIos: w.total_ios as number, runtimeMs: w.runtime as number, fioIops: w.iops as number}
    })
    const b = burstsFromSteps(steps.map((s, i) => ({ioCount: s.m.ioCount, runtimeSec: s.m.runtimeSec, startNs: String(i * 10_000_000)})))
    b.forEach((x, i) => {
      expect(x.iops).to.be.closeTo(steps[i].totalIos / (steps[i].runtimeMs / 1000), 1e-6)
      expect(x.iops).to.be.closeTo(steps[i].fioIops, 1e-6)
      expect(steps[i].totalIos).to.be.greaterThan(0)
    })
  })

  it('the host idle as run: end of one burst\'s IO to the start of the next (median and max); none for a run without burst steps', () => {
    const st = (s: string, e: string) => ({startNs: s, endNs: e})
    const ws = (steps: Array<{startNs: string; endNs: string}> | undefined) => ({steps} as unknown as Parameters<typeof measuredIdle>[0])
    expect(measuredIdle(ws([st('0', '5000000000'), st('10002000000', '15000000000'), st('20001000000', '25000000000'), st('30500000000', '35000000000')])))
      .to.deep.equal({medianSec: 5.002, maxSec: 5.5})
    expect(measuredIdle(ws([st('0', '5')]))).to.equal(null)
    expect(measuredIdle(ws(undefined))).to.equal(null)
  })

  it('a run stored by an older version (one thinktime job, IOPS log) is derived as before: golden-hir gives its stored 592 "bursts" for 360', () => {
    const r = JSON.parse(readFileSync(join(RUNS, 'golden-hir', 'results.json'), 'utf8')) as ProgramResults
    const ws1 = r.phases.find(p => p.kind === 'bursts') as Extract<ProgramResults['phases'][number], {kind: 'bursts'}>
    expect(ws1.method).to.equal(undefined)
    const job = parseJobFile(readFileSync(join(RUNS, 'golden-hir', ws1.job!.raw.job), 'utf8'))
    const derived = burstIops(parseIopsLog(readFileSync(join(RUNS, 'golden-hir', ws1.log!), 'utf8')), ws1.idleSeconds, Number(jobValue(job, 'log_avg_msec')))
    expect(derived).to.deep.equal(ws1.bursts)
    expect(derived).to.have.length(592)
    expect(ws1.repeats).to.equal(360)
    // the report says how the run's burst IOPS were derived
    expect(burstBasis([ws1])).to.match(/earlier pts version.*more bursts can be found than were run/)
    expect(burstBasis([{...ws1, method: 'burst-jobs'}])).to.match(/^each burst is a fio step of its own; its IOPS = the IOs it completed \/ its length/)
  })
})

describe('CBW/DIRTH operating-point pre-write: 60 one-minute samples', () => {
  const cases = [
    {test: 'cbw', scale: 1, samples: 60, seconds: 3600},
    {test: 'dirth', scale: 1, samples: 60, seconds: 3600},
    {test: 'cbw', scale: 0.01, samples: 60, seconds: 36}, // 0.6 s samples
    {test: 'dirth', scale: 0.001, samples: 18, seconds: 3.6}, // samples of at least MIN_SCALED_SECONDS (0.2 s)
  ]
  for (const c of cases) {
    it(`${c.test} at time scale ${c.scale}: ${c.samples} samples over ${c.seconds} s`, () => {
      const op = phasesOf(plan(c.test, {timeScale: c.scale}), 'operating-points')[0]
      expect(op.prewrite.samples).to.equal(c.samples)
      expect(op.prewrite.seconds).to.be.closeTo(c.seconds, 1e-9)
    })
  }
})

describe('report labels', () => {
  const v = {id: 'x', window: [{round: 1, value: 1}], fromRound: 1, toRound: 5, average: 1, min: 1, max: 1, dataExcursion: 0, allowedDataExcursion: 0.2, slope: 0, intercept: 1,
    slopeExcursion: 0, allowedSlopeExcursion: 0.1, rSquared: 0.5, dataExcursionOk: true, slopeExcursionOk: true, steady: true}
  it('R² is labelled as the coefficient of determination', () => {
    const rows = determination(v, 'x', 20, 10).rows
    expect(rows.find(r => r.label.startsWith('R²'))).to.deep.equal({label: 'R² (coefficient of determination)', value: '0.5000'})
    expect(rows.some(r => /Correlation Coefficient/.test(r.label))).to.equal(false)
  })

  const verdicts: Array<{sizes: string[]; ok: boolean[]; want: string}> = [
    {sizes: ['1024KiB', '128KiB'], ok: [true, false], want: 'Steady State NOT ACHIEVED for 128KiB (achieved for 1024KiB)'},
    {sizes: ['1024KiB', '128KiB'], ok: [false, true], want: 'Steady State NOT ACHIEVED for 1024KiB (achieved for 128KiB)'},
    {sizes: ['1024KiB', '128KiB'], ok: [false, false], want: 'Steady State NOT ACHIEVED for 1024KiB and 128KiB'},
    {sizes: ['1024KiB', '128KiB'], ok: [true, true], want: 'Steady state achieved for every block size (1024KiB, 128KiB)'},
    {sizes: ['1024KiB'], ok: [true], want: 'Steady state achieved for 1024KiB'},
  ]
  for (const c of verdicts) it(`TP verdict: ${c.want}`, () => expect(tpVerdict(c.sizes, c.ok)).to.equal(c.want))

  const names: Array<[string, string]> = [['iops', 'IOPS Test'], ['hir', 'Host Idle Recovery (HIR) Test'], ['xsr', 'Cross Stimulus Recovery (XSR) Test'],
    ['dirth', 'Demand Intensity / Response Time Histogram (DIRTH) Test'], ['foo', 'FOO Test']]
  for (const [id, name] of names) it(`full test name of ${id}: ${name}`, () => expect(testName(id)).to.equal(name))

  it('every page of a stored HIR run carries the full test name in its header and summary title', () => {
    const run = loadRun(join(RUNS, 'golden-hir'))
    const m = buildProgramReportModel({manifest: run.manifest, results: run.results, rawFiles: run.rawFiles, generatedAt: '2026-12-01T00:00:00Z'}, PROGRAM_PAGE_BUILDERS.hir!)
    expect(m.header.title).to.equal('Host Idle Recovery (HIR) Test - Report Page')
    expect(m.pages[0].title).to.equal('Host Idle Recovery (HIR) Test - Summary')
  })
})

describe('IOPS report: Test Definition Parameters page (ActiveRange amount, random map, seeds, alignment)', () => {
  for (const rev of ['2.0.2', 'pts-e-1.1', 'pts-c-1.2'] as const) {
    it(`${rev}: a new run's parameters page lists them, with their source`, () => {
      const p = expandProgram(loadProgramSpec('iops', rev), opts({revision: rev, profile: rev === 'pts-c-1.2' ? 'client' : 'enterprise'}), file)
      const r = initialProgramResults(p, 'run-1')
      const run = loadRun(join(RUNS, 'golden-iops'))
      const m = buildProgramReportModel({manifest: run.manifest, results: {...run.results, parameters: {...run.results.parameters, specParameters: r.parameters.specParameters}}, rawFiles: [], generatedAt: '2026-12-01T00:00:00Z'}, PROGRAM_PAGE_BUILDERS.iops!)
      const params = m.pages.filter(x => x.kind === 'params')
      expect(params.length).to.be.greaterThan(0)
      expect(params[0].title).to.match(/^IOPS Test - Test Definition Parameters/)
      const rows = params.flatMap(x => x.tables[0].rows)
      const row = (name: string) => rows.find(x => x.label === name)
      expect(row('ActiveRange amount'), 'ActiveRange amount').to.not.equal(undefined)
      expect(row('Random map and seeds')!.cells[0]).to.match(/norandommap \(random offsets are drawn with replacement/)
      expect(row('Alignment')!.cells[0]).to.match(/^blockalign = the block size of the point/)
      if (rev === 'pts-c-1.2') {
        expect(row('ActiveRange amount')!.cells[0]).to.match(/^not modelled/)
        expect(row('ActiveRange amount')!.cells[1]).to.equal(sourceLabel('open'))
      }
    })
  }
})
