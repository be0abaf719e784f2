/**
 * LAT report pages (src/report/program/tests/lat.ts) from REAL runs: a short LAT run on a file
 * target for PTS 2.0.2 and one for PTS-E 1.1 (made in `before` through the CLI, ~30 s), then the
 * model is built with buildProgramReportModel and checked against numbers recomputed here from
 * results.json (never hard-coded), and the PDF is rendered and read back with pdftotext/pdfinfo.
 */
import {expect} from 'chai'
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {TopLevelSpec} from 'vega-lite'
import type {LoopRound, PhaseResult, ProgramResults, StepResult} from '../../src/model/results.js'
import {fixed, fmtIops, fmtMs} from '../../src/report/format.js'
import {renderReport} from '../../src/report/index.js'
import {hashRawFiles} from '../../src/report/load.js'
import {buildProgramReportModel, type ProgramReportInput, type ProgramReportModel} from '../../src/report/model.js'
import {latPages} from '../../src/report/pages/lat.js'
import {readStoredRun} from '../../src/store/read.js'
import {blockSizeLabel, formatDecimalVolume, mixLabel} from '../../src/units.js'
import {runCli} from '../helpers/cli.js'
import {tool} from './helpers.js'
import {mergeBins, percentileFromBins} from '../../src/model/latency.js'

const GENERATED_AT = '2026-12-01T12:00:00Z'
const TITLES = [
  'LAT - SS Convergence Plot - Average Latency - 100% Writes',
  'LAT - SS Convergence Plot - Maximum Latency - 100% Writes',
  'LAT - Steady State Measurement Window - RND/4KiB',
  'LAT - Ave, 5 9s, Max Response Times & IOPS',
  'LAT - 3D Plot - Average Latency',
  'LAT - 3D Plot - Maximum Latency',
]
const TABLE_TITLE_1X = 'LAT - Ave & Max Response Times'

type Loop = Extract<PhaseResult, {kind: 'loop'}>
interface Recomputed { art: number; mrt: number; mrtAvg: number; p5: number | null; samples: number; pooled: boolean; iops: number }

/** Window average of one point, recomputed from the rounds of results.json (digest B §4, Part A 4, B §8 item 6). */
function recompute(loop: Loop, readPct: number, bs: number): Recomputed {
  const {fromRound, toRound} = loop.steadyState
  const ps: StepResult[] = loop.rounds.filter((r: LoopRound) => r.finishedAt !== null && r.round >= fromRound! && r.round <= toRound!)
    .map(r => r.points.find(p => p.readPct === readPct && p.blockSizeBytes === bs)!)
  const avg = (f: (p: StepResult) => number) => ps.reduce((a, p) => a + f(p), 0) / ps.length
  return {
    art: avg(p => p.latMeanNs), mrt: Math.max(...ps.map(p => p.latMaxNs)), mrtAvg: avg(p => p.latMaxNs),
    // LAT points keep their json+ total-latency bins: the window's 5 9s is over the window's pooled IOs (issue 11 item 4)
    ...(ps.every(p => p.latBins !== undefined)
      ? (() => { const q = percentileFromBins(mergeBins(ps.map(p => p.latBins!)), 99.999)!; return {p5: q.latNs, samples: q.ioCount, pooled: true} })()
      : {p5: ps.every(p => p.latP99999Ns !== null) ? avg(p => p.latP99999Ns!) : null, samples: ps.reduce((a, p) => a + p.latPercentileSamples, 0), pooled: false}),
    iops: avg(p => p.iops),
  }
}
/** The 5 9s as the page shows it: capped at the window maximum, marked "≤" (fio's bucket value can lie above it). */
const p5Shown = (c: Recomputed): string => (c.p5! > c.mrt ? `≤ ${fmtMs(c.mrt)}` : fmtMs(c.p5!))

const loopOf = (r: ProgramResults): Loop => r.phases.find((p): p is Loop => p.kind === 'loop')!
const plotPages = (m: ProgramReportModel) => m.pages.filter(p => p.caption.startsWith('Plot A.'))
const chartValues = (m: ProgramReportModel, id: string | null): Array<Record<string, unknown>> => {
  const spec = m.charts[id!] as TopLevelSpec & {data?: {values: Array<Record<string, unknown>>}; layer?: Array<{data?: {values: Array<Record<string, unknown>>}}>}
  return spec.data?.values ?? spec.layer!.flatMap(l => l.data?.values ?? [])
}

describe('LAT report pages (real runs, PTS 2.0.2 and PTS-E 1.1)', function () {
  this.timeout(600_000)
  let dir = ''
  const runs: Record<'v2' | 'v1', {runDir: string; input: ProgramReportInput; model: ProgramReportModel}> = {} as never

  before(async function () {
    dir = mkdtempSync(join(tmpdir(), 'pts-lat-report-'))
    const make = async (key: 'v2' | 'v1', revision: string) => {
      const img = join(dir, `${key}.img`)
      const runDir = join(dir, `run-${key}`)
      const r = await runCli(['run', 'lat', '--revision', revision, '--device', `file:${img}`, '--size', '32MiB', '--point-seconds', '0.2', '--max-rounds', '5',
        '--time-scale', '0.002', '--tc', '1', '--qd', '4', '--out', runDir, '--yes-destroy-data', img], {cwd: dir})
      expect(existsSync(join(runDir, 'results.json')), `pts run lat (${revision}) exited ${r.code}\n${r.stderr.slice(-3000)}`).to.equal(true)
      const {manifest, results} = readStoredRun(runDir)
      expect(results.status, r.stderr.slice(-2000)).to.equal('complete')
      const input: ProgramReportInput = {manifest, results, rawFiles: hashRawFiles(runDir), generatedAt: GENERATED_AT}
      runs[key] = {runDir, input, model: buildProgramReportModel(input, latPages)}
    }
    await Promise.all([make('v2', '2.0.2'), make('v1', 'pts-e-1.1')])
  })
  after(() => { if (dir) rmSync(dir, {recursive: true, force: true}) })

  it('has the LAT pages in the digest order, numbered Plot A.1..A.7, between the summary and the parameters pages; 2.0.2 adds the optional histogram', () => {
    const m = runs.v2.model
    const titles = [...TITLES, 'LAT - Response Time Histogram (optional) - RND 4KiB W TC 1/QD 1']
    expect(m.pages[0].kind).to.equal('summary')
    expect(plotPages(m).map(p => p.title)).to.deep.equal(titles)
    expect(plotPages(m).map(p => p.caption)).to.deep.equal(titles.map((t, i) => `Plot A.${i + 1} - ${t}`))
    expect(plotPages(m).map(p => p.kind)).to.deep.equal(['chart', 'chart', 'closeup', 'tables', 'chart', 'chart', 'chart'])
    // the histogram holds every IO of its run (fio json+ completion-latency bins)
    const h = runs.v2.input.results.phases.find(p => p.kind === 'histogram') as Extract<ProgramResults['phases'][number], {kind: 'histogram'}>
    expect(h.histogram!.reduce((a, b) => a + b.count, 0)).to.equal(h.job!.ioCount)
    expect(plotPages(runs.v1.model).map(p => p.title)).to.deep.equal(TITLES.map(t => (t === 'LAT - Ave, 5 9s, Max Response Times & IOPS' ? 'LAT - Ave & Max Response Times' : t)))
    expect(m.pages.map(p => p.number)).to.deep.equal(m.pages.map((_, i) => i + 1))
    expect(m.header.title).to.equal('Latency (LAT) Test - Report Page')
    expect(m.header.revision).to.equal('PTS 2.0.2')
  })

  it('the loop ran the LAT matrix: R/W 100/0, 65/35, 0/100 (outer) x 8, 4, 0.5 KiB (inner) at TC 1/QD 1', () => {
    const loop = loopOf(runs.v2.input.results)
    const pts = loop.rounds[0].points
    expect(pts.map(p => [p.readPct, p.blockSizeBytes])).to.deep.equal([100, 65, 0].flatMap(rp => [8192, 4096, 512].map(bs => [rp, bs])))
    expect(pts.every(p => p.threadCount === 1 && p.queueDepth === 1)).to.equal(true)
    expect(loop.tracking.map(t => [t.metric, pts[t.pointIndex].readPct, pts[t.pointIndex].blockSizeBytes])).to.deep.equal([['latMeanNs', 0, 4096]])
  })

  it('the stored window averages are the window averages recomputed from the rounds', () => {
    const loop = loopOf(runs.v2.input.results)
    expect(loop.windowAverages).to.have.length(9)
    for (const w of loop.windowAverages) {
      const c = recompute(loop, w.readPct, w.blockSizeBytes!)
      expect(w.latMeanNs).to.be.closeTo(c.art, 1e-6 * c.art)
      expect(w.latMaxNs).to.equal(c.mrt)
      expect(w.latMaxAvgNs).to.be.closeTo(c.mrtAvg, 1e-6 * c.mrtAvg)
      expect(w.latP99999Ns).to.be.closeTo(c.p5!, 1e-6 * c.p5!)
      expect(w.latPercentileSamples).to.equal(c.samples)
      expect(w.iops).to.be.closeTo(c.iops, 1e-6 * c.iops)
    }
  })

  it('the tabular data (2.0.2): ART, 5 9s with sample counts, MRT (max and average of maxima) and IOPS equal the recomputed window averages', () => {
    const loop = loopOf(runs.v2.input.results)
    const page = runs.v2.model.pages.find(p => p.title === TITLES[3])!
    expect(page.tables.map(t => t.heading.split(' ')[0])).to.deep.equal(['ART', '5', 'MRT', 'IOPS'])
    const [art, p5, mrt, iops] = page.tables
    const sizes = [512, 4096, 8192]
    const mixes = [0, 65, 100]
    expect(loop.steadyState.toRound! - loop.steadyState.fromRound! + 1).to.equal(5)
    expect(art.columns).to.deep.equal(['Block Size', 'R/W 0/100 (W)', 'R/W 65/35', 'R/W 100/0 (R)'])
    expect(mrt.columns).to.deep.equal(['Block Size', ...mixes.flatMap(rp => [`${mixLabel(rp)} max`, `${mixLabel(rp)} avg of max`])])
    expect(p5.columns).to.deep.equal(['Block Size', ...mixes.flatMap(rp => [`${mixLabel(rp)} 5 9s`, `${mixLabel(rp)} IOs`])])
    for (const t of page.tables) expect(t.rows.map(r => r.label)).to.deep.equal(sizes.map(blockSizeLabel))
    sizes.forEach((bs, i) => mixes.forEach((rp, j) => {
      const c = recompute(loop, rp, bs)
      expect(art.rows[i].cells[j], `ART ${bs} ${rp}`).to.equal(fixed(c.art / 1e6, 3))
      expect(iops.rows[i].cells[j], `IOPS ${bs} ${rp}`).to.equal(fmtIops(c.iops))
      expect(mrt.rows[i].cells[2 * j], `MRT ${bs} ${rp}`).to.equal(fmtMs(c.mrt))
      expect(mrt.rows[i].cells[2 * j + 1], `MRT avg ${bs} ${rp}`).to.equal(fmtMs(c.mrtAvg))
      expect(c.pooled, 'the LAT points keep their latency bins').to.equal(true)
      expect(p5.rows[i].cells[2 * j], `5 9s ${bs} ${rp}`).to.equal(p5Shown(c))
      // pooled IO count, marked * when the window has fewer than 100,000 IOs
      expect(p5.rows[i].cells[2 * j + 1], `IOs ${bs} ${rp}`).to.equal(fixed(c.samples, 0) + (c.samples < 100_000 ? ' *' : ''))
    }))
    expect(page.note).to.include('maximum over the window').and.to.include('average of the 5 per-round maxima').and.to.include('IOs')
  })

  it('PTS-E 1.1: the tabular page has ART and MRT only, under its own title; every other page is the same', () => {
    const m1 = runs.v1.model
    expect(m1.header.revision).to.equal('PTS-E 1.1')
    expect(plotPages(m1).map(p => p.title)).to.deep.equal(TITLES.map((t, i) => (i === 3 ? TABLE_TITLE_1X : t)))
    const t1 = m1.pages.find(p => p.title === TABLE_TITLE_1X)!
    const t2 = runs.v2.model.pages.find(p => p.title === TITLES[3])!
    expect(t1.tables.map(t => t.heading.split(' ')[0])).to.deep.equal(['ART', 'MRT'])
    expect(t2.tables.map(t => t.heading.split(' ')[0])).to.deep.equal(['ART', '5', 'MRT', 'IOPS'])
    expect(t1.note).to.include('ART and MRT only')
    const loop = loopOf(runs.v1.input.results)
    const c = recompute(loop, 0, 4096)
    expect(t1.tables[0].rows[1].cells[0]).to.equal(fmtMs(c.art))
    expect(t1.tables[1].rows[1].cells.slice(0, 2)).to.deep.equal([fmtMs(c.mrt), fmtMs(c.mrtAvg)])
    expect(m1.header.test.map(kv => kv.value).join(' ')).to.not.include('5 9s')
    expect(runs.v2.model.header.test.map(kv => kv.value).join(' ')).to.include('5 9s')
  })

  it('the closeup page carries the determination of the loop\'s steady-state variable, in ms', () => {
    for (const key of ['v2', 'v1'] as const) {
      const loop = loopOf(runs[key].input.results)
      const v = loop.steadyState.variables[0]
      const d = runs[key].model.pages.find(p => p.kind === 'closeup')!.determination!
      expect(d.id).to.equal(v.id)
      expect(d.label).to.equal(loop.tracking[0].label)
      expect([d.fromRound, d.toRound]).to.deep.equal([loop.steadyState.fromRound, loop.steadyState.toRound])
      expect(d.window).to.deep.equal(v.window.map(w => ({round: w.round, value: w.value})))
      expect([d.average, d.slope, d.intercept, d.steady]).to.deep.equal([v.average, v.slope, v.intercept, v.steady])
      // The tracking series is the RND 4KiB 0/100 ART of each window round.
      expect(v.window.map(w => w.value)).to.deep.equal(v.window.map(w => loop.rounds.find(r => r.round === w.round)!.points.find(p => p.readPct === 0 && p.blockSizeBytes === 4096)!.latMeanNs))
      const row = (label: string) => d.rows.find(r => r.label === label)!.value
      expect(row('Measurement Window')).to.equal(`Rounds ${v.fromRound}-${v.toRound}`)
      expect(row('Average')).to.equal(`${fmtMs(v.average)} ms`)
      expect(row('Allowed Max Data Excursion (20%)')).to.equal(`${fmtMs(v.allowedDataExcursion)} ms`)
      expect(row('Measured Max Slope Excursion')).to.equal(`${fmtMs(v.slopeExcursion)} ms (${v.slopeExcursionOk ? 'pass' : 'FAIL'})`)
    }
  })

  it('convergence plots: the R/W 0/100 ART and MRT of every round, one series per block size', () => {
    const loop = loopOf(runs.v2.input.results)
    const m = runs.v2.model
    const [avgPage, maxPage] = plotPages(m)
    for (const [page, metric] of [[avgPage, 'latMeanNs'], [maxPage, 'latMaxNs']] as const) {
      const got = chartValues(m, page.chart).filter(v => 'series' in v && 'y' in v).map(v => [v.x, v.series, v.y])
      const want = loop.rounds.flatMap(r => [512, 4096, 8192].map(bs => [r.round, `RND ${blockSizeLabel(bs)} W`, r.points.find(p => p.readPct === 0 && p.blockSizeBytes === bs)![metric] / 1e6]))
      expect(got).to.have.deep.members(want)
    }
  })

  it('"3D" pages: heat maps of the window-average ART and the window-maximum MRT, block size x R/W mix, said so in the note', () => {
    const loop = loopOf(runs.v2.input.results)
    const m = runs.v2.model
    const pages = plotPages(m)
    for (const [page, f] of [[pages[4], (c: Recomputed) => c.art], [pages[5], (c: Recomputed) => c.mrt]] as const) {
      const cells = chartValues(m, page.chart).map(v => [v.row, v.col, v.value])
      const want = [512, 4096, 8192].flatMap(bs => [0, 65, 100].map(rp => [blockSizeLabel(bs), mixLabel(rp), f(recompute(loop, rp, bs)) / 1e6]))
      expect(cells).to.have.length(9)
      cells.forEach((c, i) => {
        expect(c.slice(0, 2)).to.deep.equal(want[i].slice(0, 2))
        expect(c[2] as number).to.be.closeTo(want[i][2] as number, 1e-9 * (want[i][2] as number))
      })
      expect(page.note).to.include('heat map').and.to.include('3D')
    }
  })

  it('header and summary: WIPC multiple, TOIO TC 1/QD 1, loops, window and the 4KiB headline', () => {
    const {results: r} = runs.v2.input
    const m = runs.v2.model
    const wipc = r.phases.find((p): p is Extract<PhaseResult, {kind: 'wipc'}> => p.kind === 'wipc')!
    const kv = (list: Array<{label: string; value: string}>, label: string) => list.filter(x => x.label === label).map(x => x.value)
    // the volume fio wrote as a multiple of the user capacity, and where (a shortened WIPC, 0.0039X, must not read 0.00X)
    const mult = wipc.writtenBytes / r.parameters.capacityBytes
    expect(kv(m.header.setup, 'Pre Condition 1')[0]).to.equal(`WIPC SEQ 128KiB W, ${mult >= 1 ? +mult.toFixed(2) : +mult.toPrecision(2)}X user capacity (${formatDecimalVolume(wipc.writtenBytes)}) in the ${r.parameters.preconditionActiveRangePct} % ActiveRange (required 2X)`)
    expect(kv(m.header.setup, 'Pre Condition 2')).to.deep.equal(['LAT loop (WDPC)'])
    expect(kv(m.header.setup, 'TOIO - TC/QD')).to.deep.equal([`TC ${r.parameters.threadCount} / QD ${r.parameters.queueDepth}`, 'TC 1 / QD 1'])
    expect(kv(m.header.test, 'TOIO - TC/QD')).to.deep.equal(['TC 1 / QD 1 (TOIO 1)'])
    expect(kv(m.header.test, 'RW Mix (Outer Loop)')).to.deep.equal(['100/0, 65/35, 0/100'])
    expect(kv(m.header.test, 'Block Sizes (Inner Loop)')).to.deep.equal(['8KiB, 4KiB, 0.5KiB'])
    const loop = loopOf(r)
    const window = `Rounds ${loop.steadyState.fromRound}-${loop.steadyState.toRound}${loop.steadyState.verdict === 'steady' ? '' : ' (NOT ACHIEVED)'}`
    expect(m.header.steadyState).to.equal(window)
    expect(kv(m.header.test, 'Steady State')).to.deep.equal([window])
    const s = m.pages[0].summary!
    const c = recompute(loop, 0, 4096)
    expect(kv(s.headline, 'ART 4KiB W')).to.deep.equal([`${fmtMs(c.art)} ms`])
    expect(kv(s.headline, '5 9s 4KiB W')).to.deep.equal([`${p5Shown(c)} ms (${fixed(c.samples, 0)} IOs)`])
    expect(kv(s.headline, 'MRT 4KiB W')).to.deep.equal([`${fmtMs(c.mrt)} ms (window max)`])
    // the summary's verdict names the window and says NOT ACHIEVED once (ecfb7db)
    const rounds = `Rounds ${loop.steadyState.fromRound}-${loop.steadyState.toRound}`
    expect(s.verdict).to.equal(loop.steadyState.verdict === 'steady' ? `Steady state achieved: ${rounds}` : `Steady State NOT ACHIEVED: ${rounds}`)
    expect(s.steady).to.equal(loop.steadyState.verdict === 'steady')
  })

  it('renders the PDF: pdftotext finds every page title, pdfinfo counts model.pages.length pages', async () => {
    for (const key of ['v2', 'v1'] as const) {
      const out = join(dir, `report-${key}.pdf`)
      const {files} = await renderReport(runs[key].runDir, {formats: ['pdf'], out, generatedAt: GENERATED_AT})
      expect(files).to.deep.equal([out])
      const m = runs[key].model
      const text = (await tool('pdftotext', ['-layout', out, '-'])).replace(/\s+/g, ' ')
      for (const p of m.pages) {
        expect(text, p.title).to.include(p.title)
        expect(text, p.caption).to.include(p.caption)
      }
      expect(text.match(/Latency \(LAT\) Test - Report Page/g)).to.have.length(m.pages.length)
      const info = await tool('pdfinfo', [out])
      expect(info).to.match(new RegExp(`Pages:\\s+${m.pages.length}\\n`))
    }
  })
})
