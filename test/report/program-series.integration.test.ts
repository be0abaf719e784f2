/**
 * Report pages of the time-series test programs, WSAT, HIR and XSR (digest B §5.4-5.6, §6.2), from
 * one real (shortened) run of each on a regular file: page titles in order, every plotted and
 * tabulated value recomputed here from results.json, and the rendered PDF (pdftotext, pdfinfo).
 */
import {expect} from 'chai'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {type PhaseResult, type ProgramResults} from '../../src/model/results.js'
import {recoveryTime} from '../../src/analysis/derive.js'
import {hashRawFiles} from '../../src/report/load.js'
import {renderReport} from '../../src/report/index.js'
import {fixed, fmtIops, fmtMBps, fmtMs} from '../../src/report/format.js'
import {buildProgramReportModel, type ProgramReportInput, type ProgramReportModel} from '../../src/report/model.js'
import {hirPages} from '../../src/report/pages/hir.js'
import {wsatPages, wsatStopText} from '../../src/report/pages/wsat.js'
import {xsrPages} from '../../src/report/pages/xsr.js'
import {readStoredRun} from '../../src/store/read.js'
import {runCli} from '../helpers/cli.js'
import {tool} from './helpers.js'

const GENERATED_AT = '2026-12-01T12:00:00Z'
type Series = Extract<PhaseResult, {kind: 'series'}>
type Bursts = Extract<PhaseResult, {kind: 'bursts'}>
type Row = {x: number; y: number; series: string; segment?: string}

const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0)
const mean = (xs: number[]) => sum(xs) / xs.length
const minutesBetween = (from: string, to: string) => Number(BigInt(to) - BigInt(from)) / 60e9

function inputOf(runDir: string): ProgramReportInput {
  const {manifest, results} = readStoredRun(runDir)
  return {manifest, results, rawFiles: hashRawFiles(runDir), generatedAt: GENERATED_AT}
}

function page(model: ProgramReportModel, title: string) {
  const p = model.pages.find(x => x.title === title)
  if (!p) throw new Error(`no page "${title}" in ${model.pages.map(x => x.title).join(' | ')}`)
  return p
}

/** The data rows of a page's chart (a plain lineChart / segmentedLineChart, or panel i of a stacked chart). */
function chartRows(model: ProgramReportModel, title: string, panel?: number): Row[] {
  const id = page(model, title).chart
  expect(id, `chart of "${title}"`).to.be.a('string')
  let spec = model.charts[id!] as unknown as Record<string, unknown>
  if (panel !== undefined) spec = (spec.vconcat as Array<Record<string, unknown>>)[panel]
  if (spec.data) return (spec.data as {values: Row[]}).values
  // lineChart with a band: the data sit in the second layer
  const layer = (spec.layer as Array<{data: {values: Row[]}}>)
  return layer[layer.length - 1].data.values
}

function tableCell(model: ProgramReportModel, title: string, rowLabel: string, col: number, table = 0): string {
  const t = page(model, title).tables[table]
  const row = t.rows.find(r => r.label === rowLabel)
  if (!row) throw new Error(`no row "${rowLabel}" in "${title}": ${t.rows.map(r => r.label).join(' | ')}`)
  return row.cells[col]
}

/** Titles of the builder's pages (between the summary and the framework's parameter/appendix pages). */
function builderTitles(model: ProgramReportModel): string[] {
  // the test's own pages: not the drive health page every report has, the parameters or the appendix
  return model.pages.filter(p => p.kind !== 'summary').map(p => p.title).filter(t => !/Test Definition Parameters|^Appendix|^Drive Health and Temperature/.test(t))
}

async function expectPdf(runDir: string, out: string, model: ProgramReportModel): Promise<void> {
  const r = await renderReport(runDir, {formats: ['pdf'], out, generatedAt: GENERATED_AT})
  expect(r.files).to.deep.equal([out])
  const info = await tool('pdfinfo', [out])
  expect(info).to.match(new RegExp(`Pages:\\s+${model.pages.length}\\n`))
  expect(info).to.match(/Page size:\s+59[45]\.\d+ x 841\.\d+ pts \(A4\)/)
  const flat = (await tool('pdftotext', ['-layout', out, '-'])).replace(/\s+/g, ' ')
  for (const p of model.pages) {
    expect(flat, p.title).to.include(p.title)
    expect(flat, p.caption).to.include(p.caption)
  }
}

describe('report pages of WSAT, HIR and XSR (real shortened runs)', function () {
  this.timeout(600_000)
  let dir = ''
  const runs: Record<'wsat' | 'hir' | 'xsr', string> = {wsat: '', hir: '', xsr: ''}

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'pts-series-report-'))
    // WSAT: the 4x-capacity stop is scaled by --time-scale like the durations, so on a 32 MiB file it ends
    // after one sample at any scale; a sparse 4 GiB file at 0.004 gives ~10 samples of 0.24 s (69 MB).
    const args = {
      wsat: ['--size', '4GiB', '--time-scale', '0.004'],
      hir: ['--size', '32MiB', '--point-seconds', '0.1', '--max-rounds', '5', '--time-scale', '0.0005'],
      xsr: ['--size', '32MiB', '--time-scale', '0.0001'],
    }
    await Promise.all((['wsat', 'hir', 'xsr'] as const).map(async t => {
      const img = join(dir, `${t}.img`)
      runs[t] = join(dir, t)
      const r = await runCli(['run', t, '--device', `file:${img}`, ...args[t], '--tc', '1', '--qd', '4', '--out', runs[t], '--yes-destroy-data', img])
      if (r.code !== 0) throw new Error(`pts run ${t} exited ${r.code}\n${r.stderr.slice(-3000)}`)
    }))
  })
  after(() => { if (dir) rmSync(dir, {recursive: true, force: true}) })

  describe('WSAT', () => {
    let input: ProgramReportInput
    let r: ProgramResults
    let model: ProgramReportModel
    let s: Series
    before(() => {
      input = inputOf(runs.wsat)
      r = input.results
      model = buildProgramReportModel(input, wsatPages)
      s = r.phases.find((p): p is Series => p.kind === 'series')!
    })

    it('has the PTS 2.0.2 WSAT pages in order', () => {
      expect(r.revision).to.equal('2.0.2')
      expect(s.samples.length).to.be.greaterThan(2)
      expect(model.pages[0].title).to.equal('Write Saturation (WSAT) Test - Summary')
      expect(builderTitles(model)).to.deep.equal(['WSAT - IOPS vs Time', 'WSAT - IOPS vs TGBW', 'WSAT - IOPS vs Normalized Capacity', 'WSAT - Response Times vs Time', 'WSAT - Summary Figures'])
      expect(model.pages.at(-1)!.title).to.equal('Appendix - Raw Data and Seal')
      // after the test's own pages, the drive health page (a file target: not available, said so)
      expect(model.pages[builderTitles(model).length + model.pages.filter(p => p.kind === 'summary').length].title).to.equal('Drive Health and Temperature')
      expect(model.pages.filter(p => p.caption.startsWith('Plot A.')).map(p => p.caption)).to.deep.equal(builderTitles(model).map((t, i) => `Plot A.${i + 1} - ${t}`))
    })

    it('IOPS vs Time: IOPS of each sample at its end, minutes from the first sample start', () => {
      const rows = chartRows(model, 'WSAT - IOPS vs Time')
      expect(rows.map(x => x.y)).to.deep.equal(s.samples.map(q => q.iops))
      rows.forEach((row, i) => expect(row.x).to.be.closeTo(minutesBetween(s.samples[0].startNs, s.samples[i].endNs), 1e-9))
    })

    it('IOPS vs TGBW and vs normalized capacity: cumulative writeBytes / 1e9 and / capacity', () => {
      const tgbw = chartRows(model, 'WSAT - IOPS vs TGBW')
      const fills = chartRows(model, 'WSAT - IOPS vs Normalized Capacity')
      let acc = 0
      s.samples.forEach((q, i) => {
        acc += q.writeBytes
        expect(tgbw[i].x).to.be.closeTo(acc / 1e9, 1e-12)
        expect(fills[i].x).to.be.closeTo(acc / r.parameters.capacityBytes, 1e-12)
        expect(tgbw[i].y).to.equal(q.iops)
      })
      const total = sum(s.samples.map(q => q.writeBytes))
      expect(tgbw.at(-1)!.x).to.be.closeTo(total / 1e9, 1e-12)
      expect(tableCell(model, 'WSAT - Summary Figures', 'Total written (TGBW)', 0)).to.match(new RegExp(`^${fixed(total / 1e9, 3)} GB`))
      expect(tableCell(model, 'WSAT - Summary Figures', 'Drive fills (TGBW / user capacity)', 0)).to.match(new RegExp(`^${fixed(total / r.parameters.capacityBytes, 3)} `))
    })

    it('response times: ART, 5 9s and MRT per sample in ms', () => {
      const rows = chartRows(model, 'WSAT - Response Times vs Time')
      for (const [name, f] of [['ART', (q: typeof s.samples[number]) => q.latMeanNs], ['MRT', (q: typeof s.samples[number]) => q.latMaxNs]] as const) {
        expect(rows.filter(x => x.series === name).map(x => x.y)).to.deep.equal(s.samples.map(q => f(q) / 1e6))
      }
      expect(rows.filter(x => x.series === '5 9s').map(x => x.y)).to.deep.equal(s.samples.filter(q => q.latP99999Ns !== null).map(q => q.latP99999Ns! / 1e6))
    })

    it('summary figures, stop reason and steady-state text', () => {
      const iops = s.samples.map(q => q.iops)
      const fig = (label: string) => tableCell(model, 'WSAT - Summary Figures', label, 0)
      expect(fig('First sample IOPS (FOB)')).to.match(new RegExp(`^${fmtIops(iops[0])} \\(sample 1,`))
      expect(fig('Last sample IOPS')).to.match(new RegExp(`^${fmtIops(iops.at(-1)!)} \\(sample ${iops.length},`))
      expect(fig('Maximum IOPS')).to.match(new RegExp(`^${fmtIops(Math.max(...iops))} `))
      expect(fig('Minimum IOPS')).to.match(new RegExp(`^${fmtIops(Math.min(...iops))} `))
      expect(fig('Peak MRT')).to.equal(`${fmtMs(Math.max(...s.samples.map(q => q.latMaxNs)))} ms`)
      // 4 GiB x 4 x 0.004 = 68.7 MB: the (scaled) capacity limit ends the series
      expect(s.stopReason).to.equal('capacity')
      expect(sum(s.samples.map(q => q.writeBytes))).to.be.at.least(Math.round(r.parameters.capacityBytes * 4 * r.parameters.timeScale))
      const stop = `capacity: 4x user capacity written (scaled by time scale ${r.parameters.timeScale} to ${fixed(4 * r.parameters.timeScale, 4)}x)`
      expect(fig('Ended by')).to.equal(stop)
      expect(model.header.test.find(k => k.label === 'Ended by')!.value).to.equal(`${stop}; ${fixed(sum(s.samples.map(q => q.writeBytes)) / 1e9, 3)} GB written`)
      expect(model.header.test.find(k => k.label === 'Sample Length')!.value).to.equal(`${s.sampleSeconds} s`)
      expect(model.header.test.find(k => k.label === 'Test Stimulus')!.value).to.include(r.parameters.workloadLabel!)
      expect(model.header.steadyState).to.equal('not required (FOB to write saturation)')
      expect(model.header.steadyAchieved).to.equal(true)
    })

    it('names every other stop reason', () => {
      const alt = (stopReason: Series['stopReason'], params: Partial<ProgramResults['parameters']> = {}) =>
        wsatStopText({...input, results: {...r, parameters: {...r.parameters, ...params}}}, {...s, stopReason})
      expect(alt('operator-bytes', {maxWrittenBytes: 200 * 1024 ** 2})).to.equal('operator limit of bytes written (200 MiB)')
      expect(alt('operator-time', {maxSeconds: 3600})).to.equal('operator time limit (1h 00m 00s)')
      expect(alt('steady-state')).to.equal('steady state (optional steady-state exit)')
      expect(alt('duration')).to.match(/^duration: the time limit/)
      expect(alt(null)).to.match(/^not ended/)
    })

    it('the optional steady-state exit, when used, adds its measurement window and sets the verdict', () => {
      const hirLoop = readStoredRun(runs.hir).results.phases.find(p => p.kind === 'loop') as Extract<PhaseResult, {kind: 'loop'}>
      const withExit = {...input, results: {...r, phases: r.phases.map(p => (p.kind === 'series' ? {...p, stopReason: 'steady-state' as const, steadyState: {...hirLoop.steadyState, verdict: 'steady' as const}} : p))}}
      const m = buildProgramReportModel(withExit, wsatPages)
      expect(builderTitles(m)).to.include('WSAT - Optional Steady State Exit - Measurement Window')
      expect(m.header.steadyState).to.equal(`optional exit: steady at tracking points ${hirLoop.steadyState.fromRound}-${hirLoop.steadyState.toRound}`)
      expect(m.header.steadyAchieved).to.equal(true)
    })

    it('renders the PDF: every title, one PDF page per model page', async () => {
      await expectPdf(runs.wsat, join(dir, 'wsat.pdf'), model)
    })
  })

  describe('HIR', () => {
    let r: ProgramResults
    let model: ProgramReportModel
    let loop: Extract<PhaseResult, {kind: 'loop'}>
    let ws: Bursts[]
    let baselines: Series[]
    before(() => {
      const input = inputOf(runs.hir)
      r = input.results
      model = buildProgramReportModel(input, hirPages)
      loop = r.phases.find(p => p.kind === 'loop') as typeof loop
      ws = r.phases.filter((p): p is Bursts => p.kind === 'bursts')
      baselines = r.phases.filter((p): p is Series => p.kind === 'series')
    })

    it('has the HIR pages in order', () => {
      expect(ws.map(w => w.waitState)).to.deep.equal([1, 2, 3, 5, 10])
      expect(baselines).to.have.length(5)
      expect(model.pages[0].title).to.equal('Host Idle Recovery (HIR) Test - Summary')
      expect(builderTitles(model)).to.deep.equal(['HIR - Pre-Conditioning IOPS Plot', 'HIR - Pre-Conditioning Steady State Measurement Plot', 'HIR - IOPS v Time - All Wait States', 'HIR - Wait States - Tabular Data'])
    })

    it('pre-conditioning: the tracking IOPS per round and the determination of the window', () => {
      const rows = chartRows(model, 'HIR - Pre-Conditioning IOPS Plot')
      expect(rows.map(x => x.y)).to.deep.equal(loop.tracking[0].series)
      expect(rows.map(x => x.x)).to.deep.equal(loop.rounds.filter(x => x.finishedAt !== null).map(x => x.round))
      const det = page(model, 'HIR - Pre-Conditioning Steady State Measurement Plot').determination!
      const v = loop.steadyState.variables[0]
      expect(det.rows.find(x => x.label === 'Average')!.value).to.equal(`${fixed(v.average, 0)} IOPS`)
      expect(det.rows.find(x => x.label === 'Measurement Window')!.value).to.equal(`Rounds ${loop.steadyState.fromRound}-${loop.steadyState.toRound}`)
      expect(model.header.steadyAchieved).to.equal(loop.steadyState.verdict === 'steady')
    })

    it('IOPS v Time: every burst (one fio step each) at its start, baseline samples at their end', () => {
      const rows = chartRows(model, 'HIR - IOPS v Time - All Wait States')
      const t0 = ws[0].steps![0].startNs
      for (const w of ws) {
        // exactly the planned bursts, each one fio step: IOPS = its IOs / its runtime
        expect(w.method).to.equal('burst-jobs')
        expect(w.steps).to.have.length(w.repeats)
        expect(w.bursts).to.have.length(w.repeats)
        w.bursts.forEach((b, i) => expect(b.iops).to.equal(w.steps![i].ioCount / w.steps![i].runtimeSec))
        const mine = rows.filter(x => x.series === `WS${w.waitState}`)
        expect(mine.map(x => x.y)).to.deep.equal(w.bursts.map(b => b.iops))
        mine.forEach((x, i) => expect(x.x).to.be.closeTo(minutesBetween(t0, w.steps![i].startNs), 1e-9))
      }
      const base = rows.filter(x => x.series === 'Baseline')
      const samples = baselines.flatMap(b => b.samples)
      expect(base.map(x => x.y)).to.deep.equal(samples.map(q => q.iops))
      base.forEach((x, i) => expect(x.x).to.be.closeTo(minutesBetween(t0, samples[i].endNs), 1e-9))
      expect(new Set(base.map(x => x.segment))).to.have.property('size', 5)
    })

    it('table: mean burst IOPS per wait state, its ratio to the steady-state IOPS, the baseline mean after it', () => {
      const ssIops = loop.windowAverages.find(w => w.index === loop.tracking[0].pointIndex)!.iops
      ws.forEach((w, i) => {
        const m = mean(w.bursts.map(b => b.iops))
        const label = `WS${w.waitState}`
        expect(tableCell(model, 'HIR - Wait States - Tabular Data', label, 1)).to.equal(`${w.bursts.length} / ${w.repeats}`)
        expect(tableCell(model, 'HIR - Wait States - Tabular Data', label, 2)).to.equal(fmtIops(m))
        expect(tableCell(model, 'HIR - Wait States - Tabular Data', label, 3)).to.equal(`${fixed(m / ssIops, 2)}x`)
        expect(tableCell(model, 'HIR - Wait States - Tabular Data', label, 4)).to.equal(fmtIops(mean(baselines[i].samples.map(q => q.iops))))
      })
      expect(page(model, 'HIR - Wait States - Tabular Data').tables[0].heading).to.include(`(${fmtIops(ssIops)} IOPS,`)
    })

    it('renders the PDF: every title, one PDF page per model page', async () => {
      await expectPdf(runs.hir, join(dir, 'hir.pdf'), model)
    })
  })

  describe('XSR', () => {
    let r: ProgramResults
    let model: ProgramReportModel
    let g: Series[]
    before(() => {
      const input = inputOf(runs.xsr)
      r = input.results
      model = buildProgramReportModel(input, xsrPages)
      g = r.phases.filter((p): p is Series => p.kind === 'series')
    })

    it('has the XSR pages in order', () => {
      expect(g.map(x => x.id)).to.deep.equal(['group-1', 'group-2', 'group-3'])
      expect(model.pages[0].title).to.equal('Cross Stimulus Recovery (XSR) Test - Summary')
      expect(builderTitles(model)).to.deep.equal(['XSR - TP vs Time - All Access Groups', 'XSR - Throughput, ART & MRT vs Time', 'XSR - Access Groups and Recovery - Tabular Data'])
      expect(model.header.setup.find(k => k.label === 'Write cache')!.value).to.match(/^WCD /)
    })

    it('TP vs Time: MB/s of every sample of the three groups, back to back', () => {
      const rows = chartRows(model, 'XSR - TP vs Time - All Access Groups')
      const all = g.flatMap(x => x.samples)
      expect(rows.map(x => x.y)).to.deep.equal(all.map(q => q.bwBytesPerSec / 1e6))
      rows.forEach((x, i) => expect(x.x).to.be.closeTo(minutesBetween(all[0].startNs, all[i].endNs), 1e-9))
      expect(rows.map(x => x.series)).to.deep.equal(g.flatMap((x, i) => x.samples.map(() => `Group ${i + 1}: ${x.samples[0].label}`)))
      for (let i = 1; i < rows.length; i++) expect(rows[i].x).to.be.greaterThan(rows[i - 1].x)
      const ms = chartRows(model, 'XSR - Throughput, ART & MRT vs Time', 1)
      expect(ms.filter(x => x.series === 'ART').map(x => x.y)).to.deep.equal(all.map(q => q.latMeanNs / 1e6))
      expect(ms.filter(x => x.series === 'MRT').map(x => x.y)).to.deep.equal(all.map(q => q.latMaxNs / 1e6))
    })

    it('table: final TP (mean of the last 5 samples), peak ART and MRT per group', () => {
      g.forEach((x, i) => {
        const label = `Group ${i + 1}: ${x.samples[0].label}`
        const t = 'XSR - Access Groups and Recovery - Tabular Data'
        expect(tableCell(model, t, label, 0)).to.equal(`TC 1 / QD 4 (TOIO 4)`)
        expect(tableCell(model, t, label, 3)).to.equal(fmtMBps(mean(x.samples.slice(-5).map(q => q.bwBytesPerSec))))
        expect(tableCell(model, t, label, 4)).to.equal(fmtMs(Math.max(...x.samples.map(q => q.latMeanNs))))
        expect(tableCell(model, t, label, 5)).to.equal(fmtMs(Math.max(...x.samples.map(q => q.latMaxNs))))
      })
    })

    it('recovery time from recoveryTime (G-AD definition)', () => {
      const rec = recoveryTime(g[0].samples, g[2].samples, g[2].sampleSeconds)
      const cell = tableCell(model, 'XSR - Access Groups and Recovery - Tabular Data', 'Recovery time (Group 3)', 0, 1)
      expect(tableCell(model, 'XSR - Access Groups and Recovery - Tabular Data', 'Group 1 average TP', 0, 1)).to.equal(`${fmtMBps(rec.group1AverageBwBytesPerSec)} MB/s`)
      if (rec.recoverySeconds === null) expect(cell).to.match(/^not recovered/)
      else expect(cell).to.match(new RegExp(`^${fixed(rec.recoverySeconds / 60, 3)} min \\(${fixed(rec.recoverySeconds, 1)} s: sample ${rec.recoveredAtSample} of Group 3`))
      expect(page(model, 'XSR - Access Groups and Recovery - Tabular Data').tables[1].note).to.include('not a confirmed PTS quantity')
    })

    it('renders the PDF: every title, one PDF page per model page', async () => {
      await expectPdf(runs.xsr, join(dir, 'xsr.pdf'), model)
    })
  })
})
