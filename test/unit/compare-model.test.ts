/**
 * The comparison model (src/compare/model.ts), table-driven on small hand-built runs: the maths
 * (ratios, median, min/max, CV), compatibility verdicts, readiness, sample detection and the
 * tables the pages show. The runs are synthetic on purpose (pure maths); nothing here is fio
 * output. The HTML of such a model is rendered with the real templates at the end, so a template
 * error shows up here rather than in a PDF.
 */
import {expect} from 'chai'
import {buildCompareModel, checkCompatibility, conditionDifferences, detectSamples, factorLists, median, runProblem, sampleStats, type CompareRunInput} from '../../src/compare/model.js'
import {formatRatio, ratio} from '../../src/compare/table.js'
import {renderHtml as renderCompareHtml} from '../../src/report/html.js'
import {loadCompareTemplates} from '../../src/compare/templates.js'
import {buildCompareChartSpecs} from '../../src/compare/charts.js'
import type {DeviceIdentity, RunManifest, RunStatus} from '../../src/model/manifest.js'
import type {LoopWindowAverage, ProgramResults, StepResult, SteadyStateVerdict} from '../../src/model/results.js'
import {loopView, type LoopView} from '../../src/analysis/loop-view.js'

const MIXES = [100, 0]
const SIZES = [1048576, 4096]

interface RunSpec {
  runId?: string
  test?: string
  revision?: string
  profile?: string
  tc?: number
  qd?: number
  pointSeconds?: number
  status?: RunStatus
  kind?: 'file' | 'block'
  model?: string | null
  serial?: string | null
  firmware?: string
  mixes?: number[]
  sizes?: number[]
  /** Window-average IOPS per point (mix, block size). */
  iops?: (readPct: number, bs: number) => number
  series?: number[]
  window?: [number, number] | null
  verdict?: SteadyStateVerdict['verdict']
  compliant?: boolean
  reasons?: string[]
  deviations?: string[]
}

const bsId = (bs: number) => (bs % 1024 === 0 ? `${bs / 1024}k` : `${bs}b`)

/**
 * A stored run as pts compare reads it: a results.json of phases (purge, WIPC, one steady-state
 * loop of R/W mix x block size points) seen through loopView, as compare/load.ts does.
 */
function mkRun(s: RunSpec = {}): CompareRunInput & {results: LoopView} {
  const mixes = s.mixes ?? MIXES
  const sizes = s.sizes ?? SIZES
  const iops = s.iops ?? ((rp: number, bs: number) => (rp === 100 ? 2 : 1) * (bs === 4096 ? 1000 : 100))
  const window = s.window === undefined ? [2, 6] as [number, number] : s.window
  const series = s.series ?? [900, 1000, 1010, 990, 1000, 1000]
  const tc = s.tc ?? 4
  const qd = s.qd ?? 32
  const points = mixes.flatMap(rp => sizes.map(bs => ({rp, bs}))).map(({rp, bs}, index) => {
    const v = iops(rp, bs)
    return {index, id: `rw${rp}-bs${bsId(bs)}`, label: '', readPct: rp, blockSizeBytes: bs, threadCount: tc, queueDepth: qd,
      iops: v, readIops: v * rp / 100, writeIops: v * (100 - rp) / 100, bwBytesPerSec: v * bs, readBwBytesPerSec: v * bs * rp / 100, writeBwBytesPerSec: v * bs * (100 - rp) / 100,
      latMeanNs: 1e9 / v, latMaxNs: 4e9 / v, latMaxAvgNs: 3e9 / v, latP99999Ns: null, latPercentileSamples: 0}
  })
  const windowAverages: LoopWindowAverage[] = window === null ? [] : points
  const kind = s.kind ?? 'block'
  const identity: DeviceIdentity = {vendor: kind === 'file' ? null : 'ACME', model: s.model === undefined ? (kind === 'file' ? 'regular file' : 'X1') : s.model,
    serial: s.serial === undefined ? (kind === 'file' ? null : 'SN1') : s.serial, firmware: kind === 'file' ? null : s.firmware ?? '1.0', capacityBytes: 1e12,
    interface: kind === 'file' ? 'file' : 'nvme', logicalSectorBytes: 512, physicalSectorBytes: 4096, rotational: false, writeCache: 'disabled'}
  const runId = s.runId ?? 'run-1'
  const status = s.status ?? 'complete'
  const pointSeconds = s.pointSeconds ?? 60
  const tracked = points.find(p => p.readPct === 0 && p.blockSizeBytes === 4096)
  const stored = {
    schemaVersion: 1, kind: 'program', runId, test: s.test ?? 'iops', revision: s.revision ?? '2.0.2', profile: s.profile ?? 'enterprise', status,
    parameters: {threadCount: tc, queueDepth: qd, pointSeconds, maxRounds: 25, onNoSteadyState: 'stop', roundCap: 25, wipcMultiple: 2, timeScale: 1,
      ioengine: 'libaio', seed: 1, workload: null, workloadLabel: null, ceilingMs: null, maxSeconds: null, maxWrittenBytes: null, steadyStateExit: false,
      activeRangePct: 100, activeRangeBytes: 1e12, preconditionActiveRangePct: 100, preconditionActiveRangeBytes: 1e12,
      writeCacheRequired: 'disabled', dataPattern: 'random', capacityBytes: 1e12, specParameters: []},
    phases: [
      {kind: 'purge', id: 'purge', title: 'Purge', status: 'done', method: 'nvme-sanitize', deviation: null, startedAt: null, finishedAt: null, detail: ''},
      {kind: 'wipc', id: 'wipc', title: 'WIPC', status: 'done', blockSizeBytes: 131072, requiredBytes: 2e12, plannedBytes: 2e12, writtenBytes: 2e12, bwBytesPerSec: 1e9, runtimeSec: 2000, startedAt: null, finishedAt: null, raw: null},
      {kind: 'loop', id: 'loop', title: 'IOPS loop', status: status === 'complete' ? 'done' : 'running',
        criteria: {windowRounds: 5, maxDataExcursionPct: 20, maxSlopeExcursionPct: 10, maxRounds: 25, pointSeconds},
        rounds: series.map((_, i) => ({round: i + 1, startedAt: '2026-12-01T00:00:00Z', finishedAt: '2026-12-01T00:01:00Z', preRound: null, points: points as unknown as StepResult[]})),
        tracking: tracked ? [{id: 'rnd-4k-w', label: 'RND 4KiB R/W 0/100 IOPS', metric: 'iops', pointIndex: tracked.index, series}] : [],
        evaluations: [],
        steadyState: {verdict: s.verdict ?? (window === null ? 'pending' : 'steady'), fromRound: window?.[0] ?? null, toRound: window?.[1] ?? null, variables: []},
        windowAverages},
    ],
  } as unknown as ProgramResults
  const results = loopView(stored)!
  const manifest = {
    schemaVersion: 1, runId, test: results.test, revision: results.revision, profile: results.profile, argv: [], cwd: '/', status,
    createdAt: '2026-12-01T01:02:03.000Z', finishedAt: '2026-12-01T02:00:00.000Z', pid: 1, tool: {name: 'pts', version: '0.1.0'},
    fio: {path: '/usr/bin/fio', version: 'fio-3.33'}, node: 'v20', host: {hostname: 'h', cpu: 'cpu', cores: 2, memoryBytes: 1, os: 'os', kernel: 'k', arch: 'x64'},
    target: {kind, path: kind === 'file' ? `/tmp/${runId}.img` : '/dev/nvme0n1', sizeBytes: 1e12, identity},
    compliance: {compliant: s.compliant ?? true, reasons: s.reasons ?? []}, deviations: s.deviations ?? [], events: [], error: null,
  } as unknown as RunManifest
  return {runDir: `/runs/${runId}`, manifest, results}
}

describe('compare model (src/compare/model.ts)', () => {
  describe('ratio and its printed form (2 decimals, highlighted < 0.90 and > 1.10 as printed)', () => {
    const cases: Array<{value: number | null; base: number | null; text: string; flag: '' | 'lo' | 'hi'}> = [
      {value: 110, base: 100, text: '1.10', flag: ''},
      {value: 111, base: 100, text: '1.11', flag: 'hi'},
      {value: 90, base: 100, text: '0.90', flag: ''},
      {value: 89, base: 100, text: '0.89', flag: 'lo'},
      {value: 89.96, base: 100, text: '0.90', flag: ''},
      {value: 110.4, base: 100, text: '1.10', flag: ''},
      {value: 250, base: 100, text: '2.50', flag: 'hi'},
      {value: 1, base: 3, text: '0.33', flag: 'lo'},
      {value: 5, base: 0, text: 'n/a', flag: ''},
      {value: Number.NaN, base: 100, text: 'n/a', flag: ''},
      {value: null, base: 100, text: 'n/a', flag: ''},
    ]
    for (const c of cases) {
      it(`${c.value} / ${c.base} -> "${c.text}"${c.flag ? ` (${c.flag})` : ''}`, () => {
        expect(formatRatio(ratio(c.value, c.base))).to.deep.equal({text: c.text, flag: c.flag})
      })
    }
    it('ratio is value / base', () => {
      expect(ratio(3, 4)).to.equal(0.75)
      expect(ratio(4, -1)).to.equal(null)
    })
  })

  describe('median, min, max, CV (sample standard deviation, n - 1)', () => {
    const cases: Array<{values: number[]; min: number; median: number; max: number; mean: number; sd: number; cv: number}> = [
      {values: [2, 4, 4, 4, 5, 5, 7, 9], min: 2, median: 4.5, max: 9, mean: 5, sd: Math.sqrt(32 / 7), cv: (Math.sqrt(32 / 7) / 5) * 100},
      {values: [3, 1, 2], min: 1, median: 2, max: 3, mean: 2, sd: 1, cv: 50},
      {values: [100, 100], min: 100, median: 100, max: 100, mean: 100, sd: 0, cv: 0},
      {values: [90, 110], min: 90, median: 100, max: 110, mean: 100, sd: Math.SQRT2 * 10, cv: Math.SQRT2 * 10},
      {values: [4, 1, 3, 2], min: 1, median: 2.5, max: 4, mean: 2.5, sd: Math.sqrt(5 / 3), cv: (Math.sqrt(5 / 3) / 2.5) * 100},
    ]
    for (const c of cases) {
      it(`[${c.values.join(', ')}]`, () => {
        const s = sampleStats(c.values)
        expect(s.n).to.equal(c.values.length)
        expect(s.min).to.equal(c.min)
        expect(s.median).to.equal(c.median)
        expect(s.max).to.equal(c.max)
        expect(s.mean).to.be.closeTo(c.mean, 1e-12)
        expect(s.stddev).to.be.closeTo(c.sd, 1e-12)
        expect(s.cvPct).to.be.closeTo(c.cv, 1e-9)
      })
    }
    it('one value: no spread (NaN), empty: NaN everywhere', () => {
      const one = sampleStats([7])
      expect([one.min, one.median, one.max]).to.deep.equal([7, 7, 7])
      expect(one.stddev).to.be.NaN
      expect(one.cvPct).to.be.NaN
      expect(sampleStats([]).median).to.be.NaN
      expect(median([])).to.be.NaN
    })
    it('median does not reorder its input', () => {
      const v = [3, 1, 2]
      expect(median(v)).to.equal(2)
      expect(v).to.deep.equal([3, 1, 2])
    })
  })

  describe('compatibility: same test, revision and matrix', () => {
    const cases: Array<{name: string; runs: RunSpec[]; ok: boolean; message?: RegExp[]}> = [
      {name: 'same test and revision', runs: [{}, {}], ok: true},
      {name: 'profile, TC/QD and point seconds differ', runs: [{}, {profile: 'client', tc: 2, qd: 16, pointSeconds: 5}], ok: true},
      {name: 'steady-state verdict and compliance differ', runs: [{}, {verdict: 'not-achieved', compliant: false, reasons: ['x']}], ok: true},
      {name: 'three runs of one test', runs: [{}, {}, {}], ok: true},
      {name: 'one run', runs: [{}], ok: false, message: [/at least 2 run directories, got 1/]},
      {name: 'different revisions', runs: [{}, {revision: 'pts-e-1.1'}], ok: false,
        message: [/run 1 is iops PTS 2\.0\.2 enterprise, run 2 is iops PTS-E 1\.1 enterprise/, /revisions define the test differently/]},
      {name: 'different revisions and matrices', runs: [{}, {revision: 'pts-c-1.2', profile: 'client', sizes: [4096]}], ok: false,
        message: [/run 2 is iops PTS-C 1\.2 client/, /block sizes of the R\/W mix x block size matrices differ/]},
      {name: 'different tests', runs: [{}, {test: 'tp'}], ok: false, message: [/run 2 is tp PTS 2\.0\.2 enterprise/, /different tests/]},
      {name: 'same revision, different R/W mixes', runs: [{}, {mixes: [100, 65, 0]}], ok: false, message: [/R\/W mixes of the R\/W mix x block size matrices differ/]},
      {name: 'the third run differs', runs: [{}, {}, {revision: 'pts-e-1.1'}], ok: false, message: [/run 3 is iops PTS-E 1\.1/]},
      {name: 'same sets in another order', runs: [{}, {mixes: [0, 100], sizes: [4096, 1048576]}], ok: true},
    ]
    for (const c of cases) {
      it(`${c.name} -> ${c.ok ? 'comparable' : 'refused'}`, () => {
        const v = checkCompatibility(c.runs.map(s => mkRun(s).results))
        expect(v.ok).to.equal(c.ok)
        if (!v.ok) {
          for (const re of c.message ?? []) expect(v.message).to.match(re)
          expect(v.suggestion).to.match(/same test and revision|two or more run directories/)
        }
      })
    }
    it('different revisions with different tracking variables: the message names them', () => {
      const e = mkRun({revision: 'pts-e-1.1'}).results
      const b = mkRun().results
      b.tracking = [...b.tracking, {id: 'rnd-64k-rw65', label: 'RND 64KiB R/W 65/35 IOPS', readPct: 65, blockSizeBytes: 65536, metric: 'iops', series: [1, 2, 3, 4, 5, 6]}]
      const v = checkCompatibility([b, e])
      expect(v.ok).to.equal(false)
      if (!v.ok) {
        expect(v.message).to.include('run 1 is iops PTS 2.0.2 enterprise, run 2 is iops PTS-E 1.1 enterprise')
        expect(v.message).to.include('their steady-state tracking variables differ (run 1: RND 4KiB R/W 0/100, RND 64KiB R/W 65/35; run 2: RND 4KiB R/W 0/100)')
      }
    })
    it('the loop view gives the matrix of the loop\'s points, its purge and WIPC', () => {
      const r = mkRun({mixes: [100, 65, 0]}).results
      expect(r.parameters).to.include({access: 'random', windowRounds: 5, maxRounds: 25, pointSeconds: 60})
      expect(r.parameters.rwMixReadPct).to.deep.equal([100, 65, 0])
      expect(r.parameters.blockSizesBytes).to.deep.equal(SIZES)
      expect(r.pointsPerRound).to.equal(6)
      expect([r.phase, r.purge?.method, r.wipc?.blockSizeBytes]).to.deep.equal(['loop', 'nvme-sanitize', 131072])
      expect(r.tracking.map(t => [t.id, t.readPct, t.blockSizeBytes])).to.deep.equal([['rnd-4k-w', 0, 4096]])
    })
    it('the suggestion says what can be compared', () => {
      const v = checkCompatibility([mkRun().results, mkRun({revision: 'pts-e-1.1'}).results])
      expect(v.ok).to.equal(false)
      if (!v.ok) expect(v.suggestion).to.match(/profile, TC\/QD, ActiveRange, point duration, compliance and steady-state verdict may differ/)
    })
  })

  describe('runs that cannot be compared yet', () => {
    const cases: Array<{name: string; spec: RunSpec; problem: RegExp | null}> = [
      {name: 'a finished run', spec: {}, problem: null},
      {name: 'a run without steady state (not-achieved) still has a window', spec: {verdict: 'not-achieved'}, problem: null},
      {name: 'a run in progress', spec: {status: 'running'}, problem: /still in progress/},
      {name: 'an interrupted run without window averages', spec: {status: 'interrupted', window: null}, problem: /no measurement-window averages \(status "interrupted"/},
    ]
    for (const c of cases) {
      it(c.name, () => {
        const r = mkRun(c.spec)
        const p = runProblem(r.manifest, r.results)
        if (c.problem === null) expect(p).to.equal(null)
        else expect(p).to.match(c.problem)
      })
    }
    it('window averages that lack a point of the matrix', () => {
      const r = mkRun()
      r.results.windowAverages = r.results.windowAverages.slice(1)
      expect(runProblem(r.manifest, r.results)).to.match(/lack 1 point\(s\) of its matrix, e\.g\. RND 1024KiB R\/W 100\/0/)
    })
  })

  describe('sample detection', () => {
    const cases: Array<{name: string; runs: RunSpec[]; force?: boolean; samples: boolean; reason: RegExp}> = [
      {name: 'three drives of one model', runs: [{serial: 'A'}, {serial: 'B'}, {serial: 'C'}], samples: true, reason: /All 3 runs are of model X1/},
      {name: 'two drives of one model: n=2', runs: [{serial: 'A'}, {serial: 'B'}], samples: true, reason: /n=2/},
      {name: 'models differ', runs: [{model: 'X1'}, {model: 'X2'}], samples: false, reason: /models differ \(X1 vs X2\)/},
      {name: 'a model unknown', runs: [{model: 'X1'}, {model: null}], samples: false, reason: /model of R2 is unknown/},
      {name: 'file targets (model "regular file") are not drives', runs: [{kind: 'file'}, {kind: 'file'}], samples: false, reason: /R1, R2 are file targets/},
      {name: 'forced with --samples', runs: [{kind: 'file'}, {kind: 'file'}], force: true, samples: true, reason: /--samples was given \(n=2/},
      {name: 'forced with three runs', runs: [{model: 'X1'}, {model: 'X2'}, {model: 'X3'}], force: true, samples: true, reason: /--samples was given$/},
      {name: 'two runs of one model, firmware differs: firmware A/B', runs: [{serial: 'A', firmware: 'MU01'}, {serial: 'A', firmware: 'MU02'}], samples: false, reason: /^Firmware A\/B: both runs are of model X1, R1 = A \(firmware MU01\), R2 = B \(firmware MU02\); every ratio R2 \/ R1 is B \/ A/},
      {name: 'three runs of one model, one firmware differs: still samples', runs: [{serial: 'A', firmware: 'MU01'}, {serial: 'B', firmware: 'MU02'}, {serial: 'C'}], samples: true, reason: /All 3 runs are of model X1/},
    ]
    for (const c of cases) {
      it(`${c.name} -> ${c.samples ? 'samples' : 'not samples'}`, () => {
        const v = detectSamples(c.runs.map(s => mkRun(s).manifest), c.force)
        expect(v.samples).to.equal(c.samples)
        expect(v.reason).to.match(c.reason)
      })
    }
  })

  it('firmware A/B: the runs are labelled A and B with their firmware (unless --label is given)', () => {
    const runs = [mkRun({serial: 'A', firmware: 'MU01'}), mkRun({runId: 'run-2', serial: 'A', firmware: 'MU02'})]
    const m = buildCompareModel(runs, {generatedAt: '2026-12-01T00:00:00Z'})
    expect(m.runs.map(r => r.label.split(' - ')[0])).to.deep.equal(['A: firmware MU01', 'B: firmware MU02'])
    expect(m.samples.firmwareAB).to.deep.equal({a: 'MU01', b: 'MU02'})
    expect(buildCompareModel(runs, {generatedAt: '2026-12-01T00:00:00Z', labels: ['old', 'new']}).runs.map(r => r.label)).to.deep.equal(['old', 'new'])
  })

  describe('differences in conditions', () => {
    it('lists what differs (one value per run) and nothing that does not', () => {
      const d = conditionDifferences([mkRun(), mkRun({runId: 'b', tc: 2, qd: 16, profile: 'client', verdict: 'not-achieved', compliant: false, reasons: ['test points of 5 s instead of 60 s']})])
      const fields = d.map(x => x.field)
      expect(fields).to.include.members(['Profile', 'TC / QD', 'Steady state', 'Compliance', 'Compliance reasons'])
      expect(fields).to.not.include.members(['ActiveRange', 'Point duration', 'Run', 'S/N'])
      expect(d.find(x => x.field === 'TC / QD')!.values).to.deep.equal(['TC 4 / QD 32 (TOIO 128)', 'TC 2 / QD 16 (TOIO 32)'])
      expect(d.find(x => x.field === 'Steady state')!.values).to.deep.equal(['achieved', 'NOT ACHIEVED'])
    })
    it('identical conditions: no differences', () => {
      expect(conditionDifferences([mkRun({serial: 'A'}), mkRun({runId: 'b', serial: 'B'})])).to.deep.equal([])
    })
    it('shared lists are factored out', () => {
      expect(factorLists([['a', 'b', 'c'], ['b', 'a'], ['a', 'd', 'b']])).to.deep.equal({common: ['a', 'b'], extra: [['c'], [], ['d']]})
      expect(factorLists([])).to.deep.equal({common: [], extra: []})
    })
  })

  describe('the model', () => {
    const A = mkRun({runId: 'a', serial: 'A'})
    const B = mkRun({runId: 'b', serial: 'B', iops: (rp, bs) => (rp === 100 ? 2 : 1) * (bs === 4096 ? 1000 : 100) * (rp === 0 && bs === 4096 ? 1.2 : 0.85)})
    const model = buildCompareModel([A, B], {generatedAt: '2026-12-01T12:00:00Z'})

    it('the first run is the baseline; runs are labelled by device, serial, run id and date', () => {
      expect(model.runs.map(r => [r.key, r.baseline])).to.deep.equal([['R1', true], ['R2', false]])
      expect(model.runs[0].label).to.equal('ACME X1 S/N A - run a (2026-12-01 01:02 UTC)')
      expect(model.header.baseline).to.match(/R1/)
      // a PTS test: the SNIA title-bar lines and the compliance / steady-state columns (review runs have neither)
      expect(model.header.issuer).to.deep.equal(['SNIA SSS TWG', 'Solid State Storage Performance Test Specification'])
      expect(model.header.review).to.equal(false)
    })

    it('labels given with --label replace the default, one per run', () => {
      const m = buildCompareModel([A, B], {generatedAt: '2026-12-01T12:00:00Z', labels: ['FW 1.0', 'FW 2.0']})
      expect(m.runs.map(r => r.label)).to.deep.equal(['FW 1.0', 'FW 2.0'])
      expect(m.runs[1].identity).to.match(/S\/N B - run b/)
      expect(() => buildCompareModel([A, B], {generatedAt: '2026-12-01T12:00:00Z', labels: ['only one']})).to.throw(/1 label\(s\) for 2 runs/)
    })

    it('a value table per run and a ratio table (run k / run 1) per metric, rows small -> large block size, columns write -> read', () => {
      const iopsPage = model.pages.find(p => p.kind === 'cmatrices' && p.title.startsWith('IOPS'))!
      expect(iopsPage.tables.map(t => t.heading)).to.deep.equal(['R1 (baseline): IOPS (read + write)', 'R2: IOPS (read + write)', 'Ratio R2 / R1: IOPS'])
      const [r1, r2, q] = iopsPage.tables
      expect(r1.columns).to.deep.equal(['Block Size', '0/100', '100/0'])
      expect(r1.rows.map(r => r.label)).to.deep.equal(['4KiB', '1024KiB'])
      expect(r1.rows[0].cells.map(c => c.text)).to.deep.equal(['1,000', '2,000'])
      expect(r2.rows[0].cells.map(c => c.text)).to.deep.equal(['1,200', '1,700'])
      expect(q.ratio).to.equal(true)
      expect(q.rows[0].cells).to.deep.equal([{text: '1.20', flag: 'hi'}, {text: '0.85', flag: 'lo'}])
      expect(model.pages.filter(p => p.kind === 'cmatrices').map(p => p.title.split(' - ')[0])).to.deep.equal(['IOPS', 'Bandwidth', 'Mean Response Time', 'Maximum Response Time'])
    })

    it('MB/s and response-time ratios come from the window averages', () => {
      const lat = model.pages.find(p => p.title.startsWith('Mean Response Time'))!.tables[2]
      // latMeanNs = 1e9 / iops, so the ratio is the inverse of the IOPS ratio
      expect(lat.rows[0].cells.map(c => c.text)).to.deep.equal([(1 / 1.2).toFixed(2), (1 / 0.85).toFixed(2)])
      const bw = model.pages.find(p => p.title.startsWith('Bandwidth'))!.tables[0]
      expect(bw.rows[0].cells[0].text).to.equal('4.10') // 1000 IOPS x 4096 B = 4.096 MB/s
    })

    it('pages: summary, 4 matrix pages, one convergence page per tracking variable; no variation page when not samples', () => {
      const m = buildCompareModel([A, mkRun({runId: 'x', model: 'X2'})], {generatedAt: '2026-12-01T12:00:00Z'})
      expect(m.pages.map(p => p.kind)).to.deep.equal(['csummary', 'cmatrices', 'cmatrices', 'cmatrices', 'cmatrices', 'cconvergence'])
      expect(m.pages.map(p => p.pageLabel)).to.deep.equal([1, 2, 3, 4, 5, 6].map(n => `Page ${n} of 6`))
      expect(m.data.variation).to.equal(null)
      expect(m.pages[0].summary!.samples.reason).to.match(/models differ \(X1 vs X2\)/)
    })

    it('two drives of one model are samples (n=2), with the variation pages last', () => {
      expect(model.samples.samples).to.equal(true)
      expect(model.samples.reason).to.match(/n=2/)
      expect(model.pages.map(p => p.kind).slice(-2)).to.deep.equal(['cvariation', 'cchart'])
      expect(model.pages.at(-1)!.title).to.match(/\(n=2\)/)
    })

    it('samples of one model add the variation pages (min, median, max; CV table and chart)', () => {
      const C = mkRun({runId: 'c', serial: 'C', iops: (rp, bs) => (rp === 100 ? 2 : 1) * (bs === 4096 ? 1000 : 100) * 1.3})
      const m = buildCompareModel([A, B, C], {generatedAt: '2026-12-01T12:00:00Z'})
      expect(m.samples.samples).to.equal(true)
      expect(m.pages.map(p => p.kind).slice(-2)).to.deep.equal(['cvariation', 'cchart'])
      const v = m.data.variation!.find(x => x.readPct === 0 && x.blockSizeBytes === 4096)!
      expect([v.stats.min, v.stats.median, v.stats.max]).to.deep.equal([1000, 1200, 1300])
      expect(v.stats.cvPct).to.be.closeTo(sampleStats([1000, 1200, 1300]).cvPct, 1e-12)
      const stats = m.pages.find(p => p.kind === 'cvariation')!
      expect(stats.tables.map(t => t.rows[0].cells[0].text)).to.deep.equal(['1,000', '1,200', '1,300'])
      const cv = m.pages.find(p => p.kind === 'cchart')!
      expect(cv.tables[0].rows[0].cells[0].text).to.equal(sampleStats([1000, 1200, 1300]).cvPct.toFixed(1))
      expect(cv.note).to.match(/sample standard deviation \(n - 1/)
      expect(buildCompareChartSpecs(m)).to.have.keys(['convergence-rnd-4k-w', 'variation-cv'])
    })

    it('convergence data: one line per run with its window marked', () => {
      const c = model.data.convergence[0]
      expect(c.points.filter(p => p.key === 'R1').map(p => p.inWindow)).to.deep.equal([false, true, true, true, true, true])
      expect(c.windows.map(w => [w.key, w.from, w.to])).to.deep.equal([['R1', 2, 6], ['R2', 2, 6]])
      expect(c.windows[0].average).to.equal(1000)
    })

    it('is deterministic and refuses incompatible runs', () => {
      expect(JSON.stringify(buildCompareModel([A, B], {generatedAt: '2026-12-01T12:00:00Z'}))).to.equal(JSON.stringify(model))
      expect(() => buildCompareModel([A, mkRun({revision: 'pts-e-1.1'})], {generatedAt: '2026-12-01T12:00:00Z'})).to.throw(/cannot be compared/)
    })
  })

  describe('HTML of a model (real templates)', () => {
    it('renders every page kind, differences, shared reasons and highlighted ratios', () => {
      const reasons = ['test points of 5 s instead of 60 s']
      const runs = [
        mkRun({runId: 'a', serial: 'A', compliant: false, reasons}),
        mkRun({runId: 'b', serial: 'B', tc: 2, compliant: false, reasons: [...reasons, 'round limit 6 instead of 25'], verdict: 'not-achieved',
          iops: (rp, bs) => (bs === 4096 ? 1000 : 100) * (rp === 0 ? 0.5 : 3)}),
      ]
      const m = buildCompareModel(runs, {generatedAt: '2026-12-01T12:00:00Z', samples: true, labels: ['FW <1.0>', 'FW 2.0']})
      const svgs = Object.fromEntries(Object.keys(buildCompareChartSpecs(m)).map(id => [id, `<svg id="${id}"></svg>`]))
      const html = renderCompareHtml(loadCompareTemplates(), m, svgs)
      expect(html.match(/<section class="page cmp /g)).to.have.length(m.pages.length)
      expect(html).to.include('FW &lt;1.0&gt;') // escaped
      expect(html).to.include('All runs NOT COMPLIANT: test points of 5 s instead of 60 s')
      expect(html).to.include('R2 also: round limit 6 instead of 25')
      expect(html).to.match(/<b>TC \/ QD:<\/b> <b>R1<\/b> TC 4 \/ QD 32 \(TOIO 128\); <b>R2<\/b> TC 2 \/ QD 32 \(TOIO 64\)/)
      expect(html).to.match(/class="num lo">0\.50/)
      expect(html).to.match(/class="num hi">1\.50/)
      expect(html).to.include('<svg id="variation-cv"></svg>')
      expect(html).to.not.include('</style>\n</style>')
    })
  })
})
