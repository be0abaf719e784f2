/**
 * pts compare phase by phase (src/compare/phases.ts through buildCompareModel), on real stored
 * runs and without Chromium: series traces (WSAT), further loops (TP loop-1024k), operating points
 * (DIRTH), HIR bursts and baselines, LAT's 99.999th percentile, and the headline lines; the IOPS comparison is unchanged.
 * Every expected ratio is recomputed here from the runs' results.json.
 */
import {expect} from 'chai'
import {existsSync} from 'node:fs'
import {loadCompareRuns} from '../../src/compare/load.js'
import {buildCompareModel, MAX_HEADLINES, type CompareModel, type CompareRunInput} from '../../src/compare/model.js'
import {buildCompareChartSpecs} from '../../src/compare/charts.js'
import type {OperatingPointsCompare, SeriesPhaseCompare} from '../../src/compare/phases.js'
import {readStoredRun} from '../../src/store/read.js'
import {loopView} from '../../src/analysis/loop-view.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'

const RUNS = 'test/fixtures/runs'
const V1 = 'test/fixtures/runs-v1'
const AT = '2026-12-01T00:00:00Z'

type Kind<K extends PhaseResult['kind']> = Extract<PhaseResult, {kind: K}>
const phase = <K extends PhaseResult['kind']>(r: ProgramResults, kind: K, id?: string): Kind<K> =>
  r.phases.find((p): p is Kind<K> => p.kind === kind && (id === undefined || p.id === id))!
const mean = (xs: number[]) => xs.reduce((a, v) => a + v, 0) / xs.length
const r2 = (x: number) => x.toFixed(2)

function compare(dirs: string[]): {model: CompareModel; inputs: CompareRunInput[]} {
  const inputs = loadCompareRuns(dirs)
  return {model: buildCompareModel(inputs, {generatedAt: AT}), inputs}
}

describe('compare phase by phase (real stored runs, pure model)', function () {
  this.timeout(60_000)
  describe('WSAT (a test without a loop): one trace page per series phase', () => {
    const dirs = [`${RUNS}/compare-wsat-1`, `${RUNS}/compare-wsat-2`]
    let model: CompareModel
    let programs: ProgramResults[]
    before(() => {
      const c = compare(dirs)
      model = c.model
      programs = c.inputs.map(x => x.program!)
    })

    it('is no longer refused: a summary and the series page, no matrix pages', () => {
      expect(model.pages.map(p => p.kind)).to.deep.equal(['csummary', 'cphase'])
      expect(model.header.title).to.equal('WSAT Test - Comparison Report')
      expect(model.pages[0].title).to.equal('WSAT Comparison - Summary')
      expect(model.data.matrix).to.deep.equal([])
      const p = model.pages[1]
      expect(p.phase).to.deep.equal({id: 'wsat', kind: 'series'})
      expect(p.chart).to.equal('trace-wsat')
    })

    it('mean IOPS, mean of the last 5 samples and mean response time per run, with ratios from the stored samples', () => {
      const [a, b] = programs.map(r => phase(r, 'series', 'wsat').samples)
      const meanA = mean(a.map(s => s.iops))
      const meanB = mean(b.map(s => s.iops))
      const lastA = mean(a.slice(-5).map(s => s.iops))
      const lastB = mean(b.slice(-5).map(s => s.iops))
      const latA = mean(a.map(s => s.latMeanNs))
      const latB = mean(b.map(s => s.latMeanNs))
      const c = model.data.phases[0] as SeriesPhaseCompare
      expect(c.kind).to.equal('series')
      expect(c.runs[0]!.samples).to.equal(a.length)
      expect(c.runs[1]!.meanIops).to.be.closeTo(meanB, 1e-6)
      expect(c.runs[1]!.meanRatio).to.be.closeTo(meanB / meanA, 1e-12)
      expect(c.runs[1]!.lastRatio).to.be.closeTo(lastB / lastA, 1e-12)
      expect(c.runs[1]!.latRatio).to.be.closeTo(latB / latA, 1e-12)
      const t = model.pages[1].tables[0]
      expect(t.columns.slice(0, 3)).to.deep.equal(['Run', 'Samples', 'Mean IOPS'])
      expect(t.rows.map(r => r.label)).to.deep.equal(['R1', 'R2'])
      expect(t.rows[1].cells.slice(4).map(x => x.text)).to.deep.equal([r2(meanB / meanA), r2(lastB / lastA), r2(latB / latA)])
      expect(t.rows[0].cells[4].text).to.equal('baseline')
    })

    it('the trace: x = TGBW for WSAT (minutes kept too), one line per run in the chart spec', () => {
      const c = model.data.phases[0] as SeriesPhaseCompare
      const a = phase(programs[0], 'series', 'wsat')
      expect(c.x).to.equal('tgbw')
      expect(c.runs[0]!.trace.map(t => t.iops)).to.deep.equal(a.samples.map(s => s.iops))
      expect(c.runs[0]!.trace[1].minutes).to.be.closeTo(a.sampleSeconds / 60, 1e-12)
      expect(c.runs[0]!.trace.at(-1)!.tgbw).to.be.closeTo(a.samples.at(-1)!.cumulativeWrittenBytes / 1e9, 1e-12)
      const spec = buildCompareChartSpecs(model)['trace-wsat'] as unknown as {data: {values: Array<{run: string}>}}
      expect(new Set(spec.data.values.map(v => v.run)).size).to.equal(2)
    })

    it('the headline names the ratio of the mean IOPS', () => {
      const [a, b] = programs.map(r => mean(phase(r, 'series', 'wsat').samples.map(s => s.iops)))
      expect(model.headlines).to.have.length(1)
      expect(model.headlines[0]).to.match(new RegExp(`^wsat: mean IOPS R2 ${r2(b / a)}x R1 \\(`))
    })
  })

  describe('TP: the first loop as matrices (as before), loop-1024k on a page of its own', () => {
    const dirs = [`${V1}/tp-complete-signed`, `${RUNS}/golden-tp`]
    let model: CompareModel
    let programs: ProgramResults[]
    before(() => {
      // both stored runs are committed fixtures (test/fixtures/runs-v1, test/fixtures/runs/golden-tp)
      for (const d of dirs) expect(existsSync(`${d}/results.json`), `${d}/results.json`).to.equal(true)
      const c = compare(dirs)
      model = c.model
      programs = c.inputs.map(x => x.program!)
    })

    it('pages: summary, 4 matrix pages and the convergence plot of loop-128k, then loop-1024k', () => {
      expect(model.pages.map(p => p.kind)).to.deep.equal(['csummary', 'cmatrices', 'cmatrices', 'cmatrices', 'cmatrices', 'cconvergence', 'cphase'])
      expect(model.pages[6].phase).to.deep.equal({id: 'loop-1024k', kind: 'loop'})
    })

    it('the sequential loop is labelled SEQ (its convergence page said "RND 128KiB R/W 0/100"), its matrix pages name the loop', () => {
      expect(model.pages[5].title).to.match(/^IOPS Steady State Convergence - SEQ 128KiB R\/W \d+\/\d+$/)
      expect(model.pages[1].title).to.equal(`IOPS - ${phase(programs[0], 'loop').title} - Window Averages and Ratios`)
      expect(model.header.subtitle).to.equal('2 runs side by side, phase by phase')
    })

    it('per point: window-average IOPS, MB/s and mean response time of both runs and their ratios', () => {
      const t = model.pages[6].tables[0]
      expect(t.heading).to.equal('loop-1024k: window averages per point (every point SEQ 1024KiB)')
      expect(t.columns).to.deep.equal(['Point', 'IOPS R1', 'IOPS R2', 'IOPS R2 / R1', 'MB/s R1', 'MB/s R2', 'MB/s R2 / R1', 'ms R1', 'ms R2', 'ms R2 / R1'])
      const [a, b] = programs.map(r => phase(r, 'loop', 'loop-1024k').windowAverages)
      a.forEach((w, i) => {
        const v = b.find(x => x.id === w.id)!
        const row = t.rows[i]
        expect(row.cells.map(c => c.text)).to.deep.equal([
          w.iops, v.iops, v.iops / w.iops, w.bwBytesPerSec / 1e6, v.bwBytesPerSec / 1e6, v.bwBytesPerSec / w.bwBytesPerSec, w.latMeanNs / 1e6, v.latMeanNs / 1e6, v.latMeanNs / w.latMeanNs,
        ].map((x, k) => (k % 3 === 2 ? r2(x) : x.toLocaleString('en-US', {minimumFractionDigits: [0, 2, 3][Math.floor(k / 3)], maximumFractionDigits: [0, 2, 3][Math.floor(k / 3)]}))))
      })
    })

    it('headlines: both loops\' tracking variables (MB/s), ratios from the window averages', () => {
      const bw = (r: ProgramResults, id: string) => phase(r, 'loop', id).windowAverages.find(w => w.readPct === 0)!.writeBwBytesPerSec
      const ratio1024 = bw(programs[1], 'loop-1024k') / bw(programs[0], 'loop-1024k')
      expect(model.headlines).to.have.length(2)
      expect(model.headlines[0]).to.match(/^loop-128k SEQ 128KiB W MB\/s: R2 \d\.\d\dx R1 \([\d,.]+ MB\/s -> [\d,.]+ MB\/s\)$/)
      expect(model.headlines[1]).to.include(`loop-1024k SEQ 1024KiB W MB/s: R2 ${r2(ratio1024)}x R1`)
    })
  })

  describe('DIRTH: the demand-variation loop and the operating points', () => {
    const dirs = [`${RUNS}/compare-dirth-1`, `${RUNS}/compare-dirth-2`]
    let model: CompareModel
    let programs: ProgramResults[]
    before(() => {
      const c = compare(dirs)
      model = c.model
      programs = c.inputs.map(x => x.program!)
    })

    it('operating points: role x run with TC/QD, IOPS, mean response time and the IOPS ratio to the baseline\'s same role', () => {
      const [a, b] = programs.map(r => phase(r, 'operating-points').points)
      const page = model.pages.find(p => p.phase?.kind === 'operating-points')!
      expect(page.title).to.match(/^DIRTH Operating Points/)
      const t = page.tables[0]
      expect(t.columns).to.deep.equal(['Role', 'Run', 'TC / QD', 'IOPS', 'Mean resp. time, ms', 'IOPS ratio Rk / R1'])
      expect(t.rows.map(r => r.label)).to.deep.equal(['Max', '', 'Mid', '', 'Min', ''])
      ;(['max', 'mid', 'min'] as const).forEach((role, i) => {
        const pa = a.find(p => p.role === role)!
        const pb = b.find(p => p.role === role)!
        expect(t.rows[2 * i].cells.map(c => c.text)).to.deep.equal(['R1', `TC ${pa.threadCount} / QD ${pa.queueDepth}`, Math.round(pa.iops).toLocaleString('en-US'), (pa.latMeanNs / 1e6).toFixed(3), 'baseline'])
        expect(t.rows[2 * i + 1].cells[4].text).to.equal(r2(pb.iops / pa.iops))
      })
      const c = model.data.phases.find(x => x.kind === 'operating-points') as OperatingPointsCompare
      expect(c.roles[0].runs[1]!.ratio).to.be.closeTo(b.find(p => p.role === 'max')!.iops / a.find(p => p.role === 'max')!.iops, 1e-12)
    })

    it('the dv loop gets its per-point pages; the precondition loop keeps the matrix pages', () => {
      expect(model.pages.filter(p => p.kind === 'cmatrices')).to.have.length(4)
      const dv = model.pages.filter(p => p.phase?.id === 'dv')
      expect(dv.length).to.be.at.least(1)
      const rows = dv.flatMap(p => p.tables.flatMap(t => t.rows))
      expect(rows).to.have.length(phase(programs[0], 'loop', 'dv').windowAverages.length)
    })

    it('headlines: the tracking variables, then one line per operating point', () => {
      const [a, b] = programs.map(r => phase(r, 'operating-points').points.find(p => p.role === 'max')!.iops)
      expect(model.headlines).to.include(`dirth Max: IOPS R2 ${r2(b / a)}x R1 (${Math.round(a).toLocaleString('en-US')} -> ${Math.round(b).toLocaleString('en-US')})`)
      expect(model.headlines.filter(l => /^dirth (Max|Mid|Min): /.test(l))).to.have.length(3)
      expect(model.headlines[0]).to.match(/^precondition /)
      expect(model.headlines.length).to.be.at.most(MAX_HEADLINES)
    })
  })

  describe('HIR: a bursts page per wait state, a trace page per baseline', () => {
    const dirs = [`${RUNS}/compare-hir-1`, `${RUNS}/compare-hir-2`]
    let model: CompareModel
    let programs: ProgramResults[]
    before(() => {
      const c = compare(dirs)
      model = c.model
      programs = c.inputs.map(x => x.program!)
    })

    it('the header says phase by phase, and the matrix pages name the loop (its one loop, the preconditioning, is no block size x R/W mix matrix)', () => {
      expect(model.header.subtitle).to.equal('2 runs side by side, phase by phase')
      const titles = model.pages.filter(p => p.kind === 'cmatrices').map(p => p.title)
      const loopTitle = phase(programs[0], 'loop').title
      expect(titles).to.have.length(4)
      for (const t of titles) expect(t).to.match(new RegExp(` - ${loopTitle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} - Window Averages and Ratios$`))
    })

    it('a series of a shortened run is drawn against seconds (a 1.6 s baseline read 0.000 ... 0.028 minutes), a long one against minutes', () => {
      const c = model.data.phases.find(p => p.id === 'baseline-ws1') as SeriesPhaseCompare
      const sec = programs.map(r => phase(r, 'series', 'baseline-ws1')).map(p => p.samples.length * p.sampleSeconds)
      expect(Math.max(...sec)).to.be.below(300)
      expect(c.x).to.equal('seconds')
      const spec = buildCompareChartSpecs(model)['trace-baseline-ws1'] as unknown as {layer: Array<{encoding: {x: {title: string}}}>; data: {values: Array<{run: string; x: number}>}}
      expect(spec.layer[0].encoding.x.title).to.equal('Time since the phase start, seconds')
      const p0 = phase(programs[0], 'series', 'baseline-ws1')
      const xs = spec.data.values.filter(v => v.run === c.runs[0]!.name).map(v => v.x)
      expect(xs).to.deep.equal(p0.samples.map((_, j) => Math.round(j * p0.sampleSeconds * 1e6) / 1e6))
      expect(model.pages.find(p => p.chart === 'trace-baseline-ws1')!.note).to.include('x = seconds since the phase start')
      // the same runs with 60 s samples (9 samples: 9 minutes) are drawn against minutes
      const long = compare(dirs).inputs.map(x => {
        const prog = structuredClone(x.program!)
        for (const p of prog.phases) if (p.kind === 'series') p.sampleSeconds = 60
        return {...x, program: prog}
      })
      const m2 = buildCompareModel(long, {generatedAt: AT})
      expect((m2.data.phases.find(p => p.id === 'baseline-ws1') as SeriesPhaseCompare).x).to.equal('minutes')
    })

    it('pages in the run\'s phase order: ws1 bursts, baseline-ws1 series, ... ws10', () => {
      const ids = programs[0].phases.filter(p => p.kind === 'bursts' || p.kind === 'series').map(p => `${p.kind}:${p.id}`)
      expect(ids).to.have.length(10)
      expect(model.pages.filter(p => p.phase).map(p => `${p.phase!.kind}:${p.phase!.id}`)).to.deep.equal(ids)
      expect(model.pages.filter(p => p.phase?.kind === 'bursts').map(p => p.chart)).to.deep.equal(['bursts-ws1', 'bursts-ws2', 'bursts-ws3', 'bursts-ws5', 'bursts-ws10'])
    })

    it('mean burst IOPS per run and its ratio, from the stored bursts; the headline names it', () => {
      for (const id of ['ws1', 'ws10']) {
        const [a, b] = programs.map(r => mean(phase(r, 'bursts', id).bursts.map(x => x.iops)))
        const t = model.pages.find(p => p.phase?.id === id)!.tables[0]
        expect(t.columns).to.deep.equal(['Run', 'Bursts', 'Mean burst IOPS', 'Min', 'Max', 'Ratio Rk / R1'])
        expect(t.rows[0].cells[0].text).to.equal(String(phase(programs[0], 'bursts', id).bursts.length))
        expect(t.rows[1].cells[4].text).to.equal(r2(b / a))
        expect(model.headlines).to.include(`${id} bursts: mean IOPS R2 ${r2(b / a)}x R1 (${Math.round(a).toLocaleString('en-US')} -> ${Math.round(b).toLocaleString('en-US')})`)
      }
      const spec = buildCompareChartSpecs(model)['bursts-ws1'] as unknown as {layer: Array<{data?: unknown}>}
      expect(spec.layer.length).to.be.at.least(1)
      expect(model.headlines.length).to.be.at.most(MAX_HEADLINES)
    })
  })

  describe('LAT: the 99.999th percentile as a metric table', () => {
    it('adds a 99.999th-percentile matrix page with the window averages', () => {
      const dir = `${V1}/lat-interrupted-resumed`
      const other = existsSync(`${RUNS}/golden-lat/results.json`) ? `${RUNS}/golden-lat` : dir
      const inputs = [dir, other].map((d, i) => {
        const s = readStoredRun(d)
        return {runDir: `${s.runDir}#${i}`, manifest: s.manifest, results: loopView(s.results), program: s.results}
      })
      const model = buildCompareModel(inputs, {generatedAt: AT})
      const titles = model.pages.filter(p => p.kind === 'cmatrices').map(p => p.title.split(' - ')[0])
      expect(titles).to.deep.equal(['IOPS', 'Bandwidth', 'Mean Response Time', 'Maximum Response Time', '99.999th Percentile Response Time'])
      expect(model.header.subtitle).to.equal('2 runs side by side: Block Size x RW Mix Matrix')
      const w = phase(inputs[0].program, 'loop').windowAverages.find(x => x.readPct === 0 && x.blockSizeBytes === 4096)!
      const p5 = model.pages.find(p => p.title.startsWith('99.999th'))!
      const t = p5.tables[0]
      const row = t.rows.find(r => r.label === '4KiB')!
      expect(row.cells[t.columns.indexOf('0/100') - 1].text).to.equal((w.latP99999Ns! / 1e6).toFixed(3))
      expect(model.data.matrix[0].runs[0].latP99999Ms).to.be.a('number')
    })
  })

  describe('IOPS: unchanged (one loop, no phase pages)', () => {
    it('summary, 4 matrix pages, 3 convergence plots; headlines from the 3 tracking variables', () => {
      const {model, inputs} = compare([`${V1}/iops-complete-signed`, `${V1}/iops-interrupted-resumed`])
      // (the summary of these two runs takes 2 pages: they differ in many conditions)
      expect(model.pages.map(p => p.kind).filter(k => k !== 'csummary')).to.deep.equal(['cmatrices', 'cmatrices', 'cmatrices', 'cmatrices', 'cconvergence', 'cconvergence', 'cconvergence'])
      expect(model.pages.every(p => p.phase === undefined)).to.equal(true)
      expect(model.data.phases).to.deep.equal([])
      expect(model.pages[0].title).to.match(/^IOPS Comparison - Summary/)
      expect(model.header.subtitle).to.equal('2 runs side by side: Block Size x RW Mix Matrix')
      expect(model.headlines).to.have.length(3)
      const wa = (x: CompareRunInput) => x.results!.windowAverages.find(w => w.readPct === 0 && w.blockSizeBytes === 4096)!.iops
      const line = model.headlines.find(l => l.startsWith('loop RND 4KiB R/W 0/100'))!
      expect(line).to.include(`R2 ${r2(wa(inputs[1]) / wa(inputs[0]))}x R1 (${Math.round(wa(inputs[0])).toLocaleString('en-US')} -> ${Math.round(wa(inputs[1])).toLocaleString('en-US')})`)
    })
  })
})
