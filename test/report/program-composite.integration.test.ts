/**
 * CBW/ECW/DIRTH report pages (src/report/program/tests/composite.ts) on ONE real DIRTH run (file
 * target, real fio, shortened: 0.05 s points, 5 rounds, time scale 0.0002; about 8 minutes here:
 * its 150 preconditioning and ~260 demand-variation steps run up to 32 fio threads each). Every expected value is
 * recomputed from the stored results.json, never hard-coded: page titles (P1-P14 + extras, titled
 * with the chosen pattern), the operating points shown (against the operating-points phase and
 * against chooseOperatingPoints over the DV window averages), the histogram IO counts (fio json+
 * clat bins count completed IOs: compared with the measured step's ioCount), the DV table, and the
 * rendered PDF (pdftotext / pdfinfo).
 */
import {expect} from 'chai'
import {spawn} from 'node:child_process'
import {join} from 'node:path'
import type {TopLevelSpec} from 'vega-lite'
import {runCli} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'
import {type OperatingPoint, type PhaseResult, type ProgramResults} from '../../src/model/results.js'
import {chooseOperatingPoints} from '../../src/analysis/derive.js'
import {fmtIops, fmtMs} from '../../src/report/format.js'
import {renderReport} from '../../src/report/index.js'
import {hashRawFiles} from '../../src/report/load.js'
import {buildProgramReportModel, type ProgramReportModel} from '../../src/report/model.js'
import {compositePages, histogramIoCount} from '../../src/report/pages/composite.js'
import {cappedAtMax} from '../../src/model/latency.js'
import {readStoredRun} from '../../src/store/read.js'

const GENERATED_AT = '2026-12-01T12:00:00Z'
type Loop = Extract<PhaseResult, {kind: 'loop'}>
type Ops = Extract<PhaseResult, {kind: 'operating-points'}>

function tool(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    child.stdout.on('data', d => { out += d })
    child.stderr.on('data', d => { err += d })
    child.on('error', reject)
    child.on('exit', code => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))))
  })
}

/** The data values of a chart spec: its top-level data, or the first layer's that passes `layer`. */
function chartValues(spec: TopLevelSpec, layer?: (l: Record<string, unknown>) => boolean): Array<Record<string, number | string>> {
  const s = spec as unknown as {data?: {values: unknown[]}; layer?: Array<Record<string, unknown> & {data?: {values: unknown[]}}>}
  if (!layer && s.data) return s.data.values as Array<Record<string, number | string>>
  const l = (s.layer ?? []).find(x => x.data && (!layer || layer(x)))
  return (l?.data?.values ?? []) as Array<Record<string, number | string>>
}
const markType = (l: Record<string, unknown>) => (l.mark as {type: string}).type

describe('CBW/ECW/DIRTH report pages on a real DIRTH run (real fio, Chromium)', function () {
  this.timeout(1_200_000)
  const tmpDir = useTmpDir('pts-composite-')
  let runDir = ''
  let results: ProgramResults
  let model: ProgramReportModel
  let pc: Loop
  let dv: Loop
  let ops: Ops
  let prefix = ''
  const roleName = {max: 'Max IOPS', mid: 'Mid IOPS', min: 'Min IOPS'} as const
  const tcqd = (o: {threadCount: number; queueDepth: number}) => `TC ${o.threadCount}/QD ${o.queueDepth}`
  const role = (r: OperatingPoint['role']) => ops.points.find(p => p.role === r)!
  // the 5 9s in the title never exceeds the MRT (fio's bucket value is capped at the maximum, marked "≤")
  const histTitle = (o: OperatingPoint) => { const c = cappedAtMax(o.measure!.latP99999Ns, o.measure!.latMaxNs); return `${prefix}${roleName[o.role]} (${tcqd(o)}) - Response Time Histogram - MRT ${fmtMs(o.measure!.latMaxNs)} ms, 5 9s ${c.ns === null ? 'n/a' : `${c.capped ? '≤ ' : ''}${fmtMs(c.ns)} ms`}` }
  const page = (title: string) => {
    const p = model.pages.find(x => x.title === title)
    expect(p, `page "${title}"`).to.not.equal(undefined)
    return p!
  }

  before(async () => {
    const tmp = tmpDir()
    runDir = join(tmp, 'run')
    const img = join(tmp, 'dirth.img')
    // --tc 1: the WIPC is split over --tc threads; with 4 threads and a time scale of 0.001 or less three slices get io_size=0, which fio reads as
    // "the whole slice" (the run then fails: "wipc wrote 50855936 bytes, expected exactly 524288"). TC/QD of every DIRTH loop are fixed by the spec.
    const r = await runCli(['run', 'dirth', '--device', `file:${img}`, '--size', '64MiB', '--point-seconds', '0.05', '--max-rounds', '5', '--time-scale', '0.0002', '--tc', '1',
      '--out', runDir, '--yes-destroy-data', img, '--json'], {cwd: tmp, timeoutMs: 1_100_000})
    expect(r.code, r.stderr.slice(-3000)).to.equal(0)
    const stored = readStoredRun(runDir)
    results = stored.results
    model = buildProgramReportModel({manifest: stored.manifest, results, rawFiles: hashRawFiles(runDir), generatedAt: GENERATED_AT}, compositePages)
    pc = results.phases.find((p): p is Loop => p.kind === 'loop' && p.id === 'precondition')!
    dv = results.phases.find((p): p is Loop => p.kind === 'loop' && p.id === 'dv')!
    ops = results.phases.find((p): p is Ops => p.kind === 'operating-points')!
    const pattern = results.parameters.workloadLabel!.replace(/\s*\((default|operator choice)\)\s*$/, '')
    prefix = `DIRTH - ${pattern} - `
  })

  it('the run is complete: two loops of 5 rounds, 49 DV points, three operating points with histograms', () => {
    expect(results.status).to.equal('complete')
    expect(pc.rounds).to.have.length(5)
    expect(dv.rounds).to.have.length(5)
    expect(dv.windowAverages).to.have.length(49)
    expect(ops.points.map(p => p.role)).to.deep.equal(['max', 'mid', 'min'])
    for (const o of ops.points) expect(o.histogram, o.role).to.be.an('array').that.is.not.empty
  })

  it('page titles in order: summary, P1-P14, IOPS and ART vs Total OIO, tabular data, parameters, appendix; titled with the pattern', () => {
    expect(prefix).to.equal('DIRTH - OLTP: RND 8KiB R/W 65/35 - ')
    const pcAt = tcqd(pc.rounds[0].points[0])
    const track = dv.rounds[0].points[dv.tracking[0].pointIndex]
    const expected = [
      `${prefix}PC IOPS vs Round`,
      `${prefix}PC Steady State Check - ${pcAt}`,
      `${prefix}Between-Round Pre-Writes - IOPS vs Round`,
      `${prefix}DV IOPS vs Round - TC = ${track.threadCount}, all QD`,
      `${prefix}DV Steady State Check - ${tcqd(track)}`,
      `${prefix}Demand Variation - IOPS vs QD`,
      `${prefix}Demand Intensity - ART vs IOPS`,
      `${prefix}System CPU Utilisation by TC x QD`,
      ...(['max', 'mid', 'min'] as const).flatMap(r => [`${prefix}${roleName[r]} (${tcqd(role(r))}) - Pre-Write - IOPS vs Time`, `${prefix}${roleName[r]} (${tcqd(role(r))}) - Pre-Write`, histTitle(role(r))]),
      `${prefix}IOPS and ART vs Total OIO`,
      `${prefix}Demand Variation - Tabular Data`,
    ]
    expect(pcAt).to.equal('TC 32/QD 32')
    expect(tcqd(track)).to.equal('TC 32/QD 32')
    const plots = model.pages.filter(p => p.caption.startsWith('Plot A.'))
    expect(plots.map(p => p.title)).to.deep.equal(expected)
    expect(plots.map(p => p.caption)).to.deep.equal(expected.map((t, i) => `Plot A.${i + 1} - ${t}`))
    expect(model.pages[0].title).to.equal('Demand Intensity / Response Time Histogram (DIRTH) Test - Summary')
    // after the summary (and its continuation pages) and the test's own pages: the drive health page, then the parameters
    const summaries = model.pages.filter(p => p.kind === 'summary').length
    expect(model.pages[expected.length + summaries].title).to.equal('Drive Health and Temperature')
    expect(model.pages[expected.length + summaries + 1].title).to.match(/^Demand Intensity \/ Response Time Histogram \(DIRTH\) Test - Test Definition Parameters/)
    expect(model.pages.at(-1)!.title).to.equal('Appendix - Raw Data and Seal')
    expect(model.header.subtitle).to.equal(`DIRTH - ${prefix.slice(8, -3)}`)
    expect(model.pages.map(p => p.number)).to.deep.equal(model.pages.map((_, i) => i + 1))
  })

  it('header: WIPC, PC loop with its SS rounds, the pattern, the DV loop (TC = threads, QD = OIO per thread), the ceiling, both steady-state windows', () => {
    const kv = (list: Array<{label: string; value: string}>, label: string) => list.find(x => x.label === label)?.value
    const h = model.header
    expect(kv(h.setup, 'Pre Condition 1')).to.match(/^WIPC SEQ 128KiB W /)
    expect(kv(h.setup, 'Pre Condition 2')).to.equal('RND 8KiB R/W 0/100 loop, TC 32/QD 32')
    const ss = (l: Loop) => `Rounds ${l.steadyState.fromRound}-${l.steadyState.toRound}${l.steadyState.verdict === 'steady' ? '' : ' (NOT ACHIEVED)'}`
    expect(kv(h.setup, 'SS Rounds')).to.equal(ss(pc))
    expect(kv(h.test, 'Test Stimulus')).to.equal(prefix.slice(8, -3))
    expect(kv(h.test, 'DV Loop')).to.equal('TC 32..1 x QD 32..1 (TC = threads, QD = outstanding IOs per thread)')
    expect(kv(h.test, 'Ceiling')).to.equal(`${results.parameters.ceilingMs} ms (Max IOPS)`)
    expect(kv(h.test, 'Steady State')).to.equal(`PC: ${ss(pc)}; DV: ${ss(dv)}`)
    expect(h.steadyAchieved).to.equal(pc.steadyState.verdict === 'steady' && dv.steadyState.verdict === 'steady')
  })

  it('the operating points shown equal the operating-points phase, which equals chooseOperatingPoints over the DV window averages', () => {
    const chosen = chooseOperatingPoints(dv.windowAverages, ops.ceilingMs)
    expect(ops.points.map(o => ({role: o.role, threadCount: o.threadCount, queueDepth: o.queueDepth, iops: o.iops}))).to.deep.equal(chosen.map(o => ({role: o.role, threadCount: o.threadCount, queueDepth: o.queueDepth, iops: o.iops})))
    for (const o of ops.points) {
      const pre = page(`${prefix}${roleName[o.role]} (${tcqd(o)}) - Pre-Write`)
      const t = pre.tables.find(x => x.heading === `${roleName[o.role]} operating point`)!
      const cell = (label: string) => t.rows.find(r => r.label === label)!.cells[0]
      expect(cell('TC / QD (total OIO)')).to.equal(`${tcqd(o)} (${o.threadCount * o.queueDepth})`)
      expect(cell('Why chosen')).to.equal(o.reason)
      expect(cell('DV window-average IOPS')).to.equal(fmtIops(o.iops))
      expect(cell('DV window-average ART (ms)')).to.equal(fmtMs(o.latMeanNs))
      expect(cell('Histogram run IOPS')).to.equal(fmtIops(o.measure!.iops))
      // the pre-write as back-to-back samples (60 x 1 min at full scale; 3 x 0.24 s at time scale 0.0002: samples no shorter than 0.2 s), plotted per sample
      expect(o.prewrite).to.equal(null)
      expect(o.prewriteSamples).to.have.length(3)
      const step = pre.tables[0].rows[0].cells
      expect(step[1]).to.equal(tcqd(o.prewriteSamples![0]))
      expect(step[3]).to.equal(fmtIops(o.prewriteSamples![0].iops))
      const trace = chartValues(model.charts[page(`${prefix}${roleName[o.role]} (${tcqd(o)}) - Pre-Write - IOPS vs Time`).chart!]).filter(x => x.series === 'Pre-write IOPS')
      expect(trace.map(x => x.y)).to.deep.equal(o.prewriteSamples!.map(s => s.iops))
      for (let i = 1; i < trace.length; i++) expect(trace[i].x as number).to.be.greaterThan(trace[i - 1].x as number)
      // summary headline
      const head = model.pages[0].summary!.headline.find(x => x.label === roleName[o.role])!
      expect(head.value).to.equal(`${fmtIops(o.iops)} IOPS at ${tcqd(o)}, ART ${fmtMs(o.latMeanNs)} ms`)
    }
    // marked on the Demand Intensity chart, with the ceiling
    const di = model.charts[page(`${prefix}Demand Intensity - ART vs IOPS`).chart!]
    const marks = chartValues(di, l => markType(l) === 'point')
    expect(marks.map(m => m.label)).to.deep.equal(ops.points.map(o => `${roleName[o.role]} (${tcqd(o)})`))
    expect(marks.map(m => m.iops)).to.deep.equal(ops.points.map(o => o.iops))
    expect(chartValues(di, l => markType(l) === 'rule')[0].artMs).to.equal(ops.ceilingMs)
    expect(chartValues(di)).to.have.length(49)
  })

  it('each histogram: bins in ms from latNs, total IO count = the measured step\'s ioCount (clat bins count completed IOs, reads + writes)', () => {
    for (const o of ops.points) {
      const p = page(histTitle(o))
      expect(p.kind).to.equal('chart')
      const bins = chartValues(model.charts[p.chart!])
      expect(bins.map(b => b.latMs)).to.deep.equal(o.histogram!.map(b => b.latNs / 1e6))
      const n = bins.reduce((a, b) => a + (b.count as number), 0)
      expect(n).to.equal(histogramIoCount(o.histogram))
      // completed IOs of the run; fio's total_ios of the step is the same count here (tolerance: the IOs outstanding at the end, TC x QD)
      expect(Math.abs(n - o.measure!.ioCount), `${o.role}: histogram ${n} vs ioCount ${o.measure!.ioCount}`).to.be.at.most(o.threadCount * o.queueDepth)
      expect(p.note).to.include(o.reason).and.to.include(tcqd(o)).and.to.include('completed IO')
      // total latency, the same basis as the MRT and 5 9s in the title (fio json+ lat_ns bins)
      expect(o.histogramBasis).to.equal('lat')
      expect(p.note).to.include("fio's json+ total-latency (lat) bins")
    }
  })

  it('P2/P5 determinations are the loops\' evaluations; DV charts and the 49-cell tables are the window averages', () => {
    for (const [l, title] of [[pc, `${prefix}PC Steady State Check - TC 32/QD 32`], [dv, `${prefix}DV Steady State Check - TC 32/QD 32`]] as const) {
      const d = page(title).determination!
      const v = l.steadyState.variables[0]
      expect([d.fromRound, d.toRound]).to.deep.equal([l.steadyState.fromRound, l.steadyState.toRound])
      expect(d.window.map(w => w.value)).to.deep.equal(v.window.map(w => w.value))
      expect(d.steady).to.equal(v.steady)
    }
    const dvRound = model.charts[page(`${prefix}DV IOPS vs Round - TC = 32, all QD`).chart!]
    const dvRows = chartValues(dvRound, l => markType(l) === 'line')
    expect(dvRows).to.have.length(dv.rounds.length * 7)
    expect(dvRows.map(x => `${x.series} r${x.x} ${x.y}`).sort()).to.deep.equal(dv.rounds.flatMap(rd => rd.points.filter(q => q.threadCount === 32).map(q => `QD ${q.queueDepth} r${rd.round} ${q.iops}`)).sort())
    const tab = page(`${prefix}Demand Variation - Tabular Data`)
    const [iops, art] = tab.tables
    expect(iops.columns).to.deep.equal(['TC \\ QD', ...[1, 2, 4, 6, 8, 16, 32].map(q => `QD ${q}`)])
    for (const w of dv.windowAverages) {
      const col = iops.columns.indexOf(`QD ${w.queueDepth}`) - 1
      expect(iops.rows.find(r => r.label === `TC ${w.threadCount}`)!.cells[col]).to.equal(fmtIops(w.iops))
      expect(art.rows.find(r => r.label === `TC ${w.threadCount}`)!.cells[col]).to.equal(fmtMs(w.latMeanNs))
    }
    const oio = chartValues(model.charts[page(`${prefix}IOPS and ART vs Total OIO`).chart!], l => markType(l) === 'point')
    expect(oio.map(x => x.x)).to.deep.equal(dv.windowAverages.map(w => w.threadCount * w.queueDepth))
    expect(page(`${prefix}System CPU Utilisation by TC x QD`).tables[0].rows[0].cells[0]).to.equal('not recorded by pts')
  })

  it('an unfinished run (2 DV rounds, no window, no operating points) keeps the page list, with "not available" pages instead of charts', () => {
    const cut = structuredClone(results)
    cut.status = 'failed'
    const l = cut.phases.find((p): p is Loop => p.kind === 'loop' && p.id === 'dv')!
    l.rounds = l.rounds.slice(0, 2)
    l.steadyState = {verdict: 'pending', fromRound: null, toRound: null, variables: []}
    l.windowAverages = []
    const o = cut.phases.find((p): p is Ops => p.kind === 'operating-points')!
    o.points = []
    o.status = 'pending'
    const stored = readStoredRun(runDir)
    const m = buildProgramReportModel({manifest: stored.manifest, results: cut, rawFiles: [], generatedAt: GENERATED_AT}, compositePages)
    const plots = m.pages.filter(p => p.caption.startsWith('Plot A.'))
    expect(plots).to.have.length(16)
    expect(plots[0].title).to.equal(`${prefix}PC IOPS vs Round`)
    expect(plots.filter(p => p.kind === 'chart' || p.kind === 'closeup').map(p => p.title)).to.deep.equal([
      `${prefix}PC IOPS vs Round`, `${prefix}PC Steady State Check - TC 32/QD 32`, `${prefix}Between-Round Pre-Writes - IOPS vs Round`, `${prefix}DV IOPS vs Round - TC = 32, all QD`])
    expect(plots[8].title).to.equal(`${prefix}Max IOPS - Pre-Write`)
    expect(plots[9].title).to.equal(`${prefix}Max IOPS - Response Time Histogram - MRT n/a, 5 9s n/a`)
    expect(m.header.steadyAchieved).to.equal(false)
    expect(m.header.steadyState).to.match(/DV: NOT ACHIEVED \(2 rounds, run incomplete\)/)
  })

  it('renders the PDF: pdfinfo page count = model pages, pdftotext finds the operating points and histogram titles', async () => {
    const out = join(tmpDir(), 'report.pdf')
    const r = await renderReport(runDir, {formats: ['pdf'], out, generatedAt: GENERATED_AT})
    expect(r.files).to.deep.equal([out])
    const info = await tool('pdfinfo', [out])
    expect(info).to.match(new RegExp(`Pages:\\s+${model.pages.length}\\n`))
    expect(info).to.match(/Page size:\s+59[45]\.\d+ x 841\.\d+ pts \(A4\)/)
    const flat = (await tool('pdftotext', ['-layout', out, '-'])).replace(/\s+/g, ' ')
    for (const p of model.pages.filter(x => x.caption.startsWith('Plot A.'))) expect(flat, p.title).to.include(p.title)
    for (const o of ops.points) {
      expect(flat).to.include(`${roleName[o.role]} (${tcqd(o)})`)
      expect(flat).to.include(histTitle(o))
      expect(flat).to.include(`${fmtIops(o.iops)} IOPS at ${tcqd(o)}, ART ${fmtMs(o.latMeanNs)} ms`)
    }
    expect(flat).to.include('not recorded by pts')
  })
})
