/**
 * Report goldens of every test: for each of the nine stored runs test/fixtures/runs/golden-<test>
 * (short real fio runs, captured by test/fixtures/runs/capture-all.sh; see golden-README.md), the
 * report model with a fixed generatedAt against test/golden/report/<test>/model.json (the model
 * without its charts) and each chart's Vega-Lite spec against
 * test/golden/report/<test>/charts/<chart-id>.vl.json.
 * Regenerate: UPDATE_GOLDEN=1 npx mocha --no-config --node-option import=tsx --extension ts test/report/goldens-all.test.ts
 * (then review the diff). No Chromium: the model only.
 *
 * Besides the goldens, each test asserts what can fail on its own: the test's SNIA page titles in
 * order, one spec per chart page, summary first and appendix last, no NaN / undefined / empty
 * table, and headline values read from the stored results.json.
 */
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {expect} from 'chai'
import {fmtIops, fmtMBps, fmtMs} from '../../src/report/format.js'
import {loadRun} from '../../src/report/load.js'
import {buildProgramReportModel, type ProgramReportModel} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'
import {TESTS, type TestId} from '../../src/model/tests.js'
import {GENERATED_AT, ROOT} from './helpers.js'

type Loop = Extract<PhaseResult, {kind: 'loop'}>
type Series = Extract<PhaseResult, {kind: 'series'}>
type Ops = Extract<PhaseResult, {kind: 'operating-points'}>

const UPDATE = process.env.UPDATE_GOLDEN === '1'
const runDir = (test: string) => join(ROOT, 'test/fixtures/runs', `golden-${test}`)
const goldenDir = (test: string) => join(ROOT, 'test/golden/report', test)

/** Compare with a golden JSON file under test/golden/report/<test>/; UPDATE_GOLDEN=1 rewrites it. */
function expectGoldenOf(test: string, relPath: string, actual: unknown): void {
  const path = join(goldenDir(test), relPath)
  const text = JSON.stringify(actual, null, 2) + '\n'
  if (UPDATE) {
    mkdirSync(dirname(path), {recursive: true})
    writeFileSync(path, text)
    return
  }
  if (!existsSync(path)) throw new Error(`golden ${path} is missing; create it with UPDATE_GOLDEN=1 (see the header of this file)`)
  expect(JSON.parse(text)).to.deep.equal(JSON.parse(readFileSync(path, 'utf8')), `differs from golden ${test}/${relPath} (UPDATE_GOLDEN=1 to regenerate)`)
}

const loops = (r: ProgramResults) => r.phases.filter((p): p is Loop => p.kind === 'loop')
const seriesOf = (r: ProgramResults) => r.phases.filter((p): p is Series => p.kind === 'series')
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length
const headlineOf = (m: ProgramReportModel, label: string): string => {
  const h = m.pages[0].summary!.headline.find(x => x.label === label)
  expect(h, `headline "${label}"`).to.not.equal(undefined)
  return h!.value
}

/** The composite tests' page titles after the prefix ("CBW - ", "DIRTH - OLTP: ... - "), P1-P14 and the two extras. */
const COMPOSITE = [
  /^PC IOPS vs Round$/,
  /^PC Steady State Check - TC \d+\/QD \d+$/,
  /^Between-Round Pre-Writes - IOPS vs Round$/,
  /^DV IOPS vs Round - TC = \d+, all QD$/,
  /^DV Steady State Check - TC \d+\/QD \d+$/,
  /^Demand Variation - IOPS vs QD$/,
  /^Demand Intensity - ART vs IOPS$/,
  /^System CPU Utilisation by TC x QD$/,
  ...['Max', 'Mid', 'Min'].flatMap(n => [
    new RegExp(`^${n} IOPS \\(TC \\d+/QD \\d+\\) - Pre-Write$`),
    new RegExp(`^${n} IOPS \\(TC \\d+/QD \\d+\\) - Response Time Histogram - MRT [\\d.,]+ ms, 5 9s (≤ )?[\\d.,]+ ms$`), // "≤": fio's bucket value capped at the MRT
  ]),
  /^IOPS and ART vs Total OIO$/,
  /^Demand Variation - Tabular Data$/,
]
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const prefixed = (prefix: string, res: RegExp[]) => res.map(re => new RegExp(`^${esc(prefix)}${re.source.slice(1)}`))

/** Composite headline: each operating point's IOPS is the DV window average at its TC/QD. */
function compositeHeadline(m: ProgramReportModel, r: ProgramResults): void {
  const dv = loops(r).find(l => l.id === 'dv')!
  const op = r.phases.find((p): p is Ops => p.kind === 'operating-points')!
  expect(op.points.map(o => o.role)).to.have.members(['max', 'mid', 'min'])
  for (const [role, name] of [['max', 'Max IOPS'], ['mid', 'Mid IOPS'], ['min', 'Min IOPS']] as const) {
    const o = op.points.find(x => x.role === role)!
    const w = dv.windowAverages.find(x => x.threadCount === o.threadCount && x.queueDepth === o.queueDepth)!
    expect(w, `${role}: a DV window average at TC ${o.threadCount}/QD ${o.queueDepth}`).to.not.equal(undefined)
    expect(headlineOf(m, name)).to.equal(`${fmtIops(w.iops)} IOPS at TC ${o.threadCount}/QD ${o.queueDepth}, ART ${fmtMs(w.latMeanNs)} ms`)
  }
  expect(headlineOf(m, 'MRT Max/Mid/Min')).to.equal(`${['max', 'mid', 'min'].map(role => fmtMs(op.points.find(x => x.role === role)!.measure!.latMaxNs)).join(' / ')} ms (histogram runs)`)
}

interface Case {
  test: string
  revision: string
  /** Page titles between the summary and the parameters pages, in order. */
  titles: (r: ProgramResults) => Array<string | RegExp>
  headline: (m: ProgramReportModel, r: ProgramResults) => void
}

const CASES: Case[] = [
  {
    test: 'iops', revision: '2.0.2',
    titles: () => [
      'IOPS Steady State Convergence Plot - All Block Sizes',
      'IOPS Steady State Measurement Window',
      'IOPS Steady State Measurement Window - RND 4KiB R/W 0/100',
      'IOPS Steady State Measurement Window - RND 64KiB R/W 65/35',
      'IOPS Steady State Measurement Window - RND 1024KiB R/W 100/0',
      'IOPS - All RW Mix & BS - Tabular Data',
      'IOPS - All RW Mix & BS - 2D Plot',
      'IOPS - All RW Mix & BS - Heat Map',
      'Bandwidth & Response Time - All RW Mix & BS - Tabular Data',
    ],
    headline: (m, r) => {
      const w = (rp: number, bs: number) => loops(r)[0].windowAverages.find(x => x.readPct === rp && x.blockSizeBytes === bs)!
      expect(headlineOf(m, 'RND 4KiB write (R/W 0/100)')).to.equal(`${fmtIops(w(0, 4096).iops)} IOPS`)
      expect(headlineOf(m, 'RND 4KiB read (R/W 100/0)')).to.equal(`${fmtIops(w(100, 4096).iops)} IOPS`)
      expect(headlineOf(m, 'RND 1024KiB read (R/W 100/0)')).to.equal(`${fmtMBps(w(100, 1048576).bwBytesPerSec)} MB/s`)
    },
  },
  {
    test: 'tp', revision: '2.0.2',
    titles: () => ['128KiB', '1024KiB'].flatMap(bs => [`TP - SS Convergence - Write ${bs}`, `TP - SS Convergence - Read ${bs}`, `TP - Steady State Measurement Window - SEQ/${bs}`])
      .concat(['TP - All Block Sizes - Tabular Data', 'TP - All Block Sizes - 2D Plot']),
    headline: (m, r) => {
      const [l128, l1024] = loops(r)
      expect(l128.rounds[0].points[0].blockSizeBytes).to.equal(131072)
      expect(l1024.rounds[0].points[0].blockSizeBytes).to.equal(1048576)
      const bw = (l: Loop, rp: number) => fmtMBps(l.windowAverages.find(x => x.readPct === rp)!.bwBytesPerSec)
      expect(headlineOf(m, 'SEQ 128KiB write')).to.equal(`${bw(l128, 0)} MB/s`)
      expect(headlineOf(m, 'SEQ 128KiB read')).to.equal(`${bw(l128, 100)} MB/s`)
      expect(headlineOf(m, 'SEQ 1024KiB write')).to.equal(`${bw(l1024, 0)} MB/s`)
      expect(headlineOf(m, 'SEQ 1024KiB read')).to.equal(`${bw(l1024, 100)} MB/s`)
    },
  },
  {
    test: 'lat', revision: '2.0.2',
    titles: () => [
      'LAT - SS Convergence Plot - Average Latency - 100% Writes',
      'LAT - SS Convergence Plot - Maximum Latency - 100% Writes',
      'LAT - Steady State Measurement Window - RND/4KiB',
      'LAT - Ave, 5 9s, Max Response Times & IOPS',
      'LAT - 3D Plot - Average Latency',
      'LAT - 3D Plot - Maximum Latency',
      'LAT - Response Time Histogram (optional) - RND 4KiB W TC 1/QD 1',
    ],
    headline: (m, r) => {
      const w = (rp: number) => loops(r)[0].windowAverages.find(x => x.readPct === rp && x.blockSizeBytes === 4096)!
      expect(w(0).threadCount).to.equal(1)
      expect(w(0).queueDepth).to.equal(1)
      expect(headlineOf(m, 'ART 4KiB W')).to.equal(`${fmtMs(w(0).latMeanNs)} ms`)
      expect(headlineOf(m, 'MRT 4KiB W')).to.equal(`${fmtMs(w(0).latMaxNs)} ms (window max)`)
      expect(headlineOf(m, 'ART 4KiB R')).to.equal(`${fmtMs(w(100).latMeanNs)} ms`)
    },
  },
  {
    test: 'wsat', revision: '2.0.2',
    titles: () => ['WSAT - IOPS vs Time', 'WSAT - IOPS vs TGBW', 'WSAT - IOPS vs Normalized Capacity', 'WSAT - Response Times vs Time', 'WSAT - Summary Figures'],
    headline: (m, r) => {
      const s = seriesOf(r)[0]
      expect(s.samples.length).to.be.greaterThan(5)
      expect(headlineOf(m, 'First sample (FOB)')).to.equal(`${fmtIops(s.samples[0].iops)} IOPS`)
      expect(headlineOf(m, 'Last sample')).to.equal(`${fmtIops(s.samples.at(-1)!.iops)} IOPS`)
      expect(headlineOf(m, 'Maximum')).to.equal(`${fmtIops(Math.max(...s.samples.map(q => q.iops)))} IOPS`)
      expect(headlineOf(m, 'Total written (TGBW)')).to.equal(`${(s.samples.at(-1)!.cumulativeWrittenBytes / 1e9).toFixed(3)} GB`)
      expect(headlineOf(m, 'Ended by')).to.equal(s.stopReason)
    },
  },
  {
    test: 'hir', revision: '2.0.2',
    titles: () => ['HIR - Pre-Conditioning IOPS Plot', 'HIR - Pre-Conditioning Steady State Measurement Plot', 'HIR - IOPS v Time - All Wait States', 'HIR - Wait States - Tabular Data'],
    headline: (m, r) => {
      const loop = loops(r)[0]
      const w = loop.windowAverages.find(x => x.index === loop.tracking[0].pointIndex)!
      expect(headlineOf(m, 'PC steady-state IOPS')).to.equal(fmtIops(w.iops))
      const bursts = r.phases.filter((p): p is Extract<PhaseResult, {kind: 'bursts'}> => p.kind === 'bursts')
      expect(bursts.map(b => b.waitState)).to.deep.equal([1, 2, 3, 5, 10])
      for (const b of bursts) {
        expect(b.bursts.length, `WS${b.waitState} bursts`).to.be.greaterThan(0)
        expect(headlineOf(m, `WS${b.waitState} mean burst IOPS`)).to.match(new RegExp(`^${esc(fmtIops(mean(b.bursts.map(x => x.iops))))} \\(`))
      }
    },
  },
  {
    test: 'xsr', revision: '2.0.2',
    titles: () => ['XSR - TP vs Time - All Access Groups', 'XSR - Throughput, ART & MRT vs Time', 'XSR - Access Groups and Recovery - Tabular Data'],
    headline: (m, r) => {
      const groups = seriesOf(r)
      expect(groups.map(g => g.id)).to.deep.equal(['group-1', 'group-2', 'group-3'])
      groups.forEach((g, i) => expect(headlineOf(m, `Group ${i + 1} final TP`)).to.equal(`${fmtMBps(mean(g.samples.slice(-5).map(q => q.bwBytesPerSec)))} MB/s`))
    },
  },
  {
    test: 'cbw', revision: '2.0.2',
    titles: () => prefixed('CBW - ', COMPOSITE),
    headline: compositeHeadline,
  },
  {
    test: 'dirth', revision: '2.0.2',
    titles: () => prefixed('DIRTH - OLTP: RND 8KiB R/W 65/35 - ', COMPOSITE),
    headline: compositeHeadline,
  },
  {
    test: 'ecw', revision: 'pts-e-1.1',
    titles: () => prefixed('ECW - ', COMPOSITE),
    headline: compositeHeadline,
  },
]

for (const c of CASES) {
  describe(`report golden ${c.test} (fixture golden-${c.test})`, () => {
    let run: ReturnType<typeof loadRun>
    let model: ProgramReportModel
    let charts: ProgramReportModel['charts']
    let withoutCharts: Omit<ProgramReportModel, 'charts'>
    const build = (): ProgramReportModel => buildProgramReportModel({manifest: run.manifest, results: run.results, rawFiles: run.rawFiles, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS[c.test]!)
    before(function () {
      this.timeout(30_000) // loadRun hashes every raw file; slow only on a busy machine
      run = loadRun(runDir(c.test))
      model = build();
      ({charts, ...withoutCharts} = model)
    })

    it('is the stored run of this test and revision', () => {
      expect(run.results.test).to.equal(c.test)
      expect(run.results.revision).to.equal(c.revision)
      expect(run.results.status).to.equal('complete')
    })

    it('matches the golden model (without charts)', () => {
      expectGoldenOf(c.test, 'model.json', withoutCharts)
    })

    it('matches the golden Vega-Lite spec of every chart, and no stale chart golden is left', () => {
      const dir = join(goldenDir(c.test), 'charts')
      if (UPDATE) rmSync(dir, {recursive: true, force: true})
      for (const [id, spec] of Object.entries(charts)) expectGoldenOf(c.test, `charts/${id}.vl.json`, spec)
      const files = readdirSync(dir).filter(f => f.endsWith('.vl.json')).sort()
      expect(files).to.deep.equal(Object.keys(charts).map(id => `${id}.vl.json`).sort())
    })

    it('is deterministic and does not depend on where the run directory is', () => {
      expect(build()).to.deep.equal(model)
      expect(JSON.stringify(model)).not.to.include(run.runDir)
    })

    it("has the test's SNIA page titles in order, summary first, parameters then appendix last", () => {
      const pages = model.pages
      expect(pages[0].kind).to.equal('summary')
      expect(pages[0].title).to.equal(`${TESTS[c.test as TestId].name} - Summary`)
      expect(pages.at(-1)!.kind).to.equal('appendix')
      const firstParams = pages.findIndex(p => p.kind === 'params')
      expect(firstParams).to.be.greaterThan(0)
      expect(pages.slice(firstParams).every(p => p.kind === 'params' || p.kind === 'appendix')).to.equal(true)
      // the summary goes on over continuation pages when its lists do not fit under the header
      const summaries = pages.filter(p => p.kind === 'summary').length
      expect(pages.slice(1, summaries).map(p => p.title)).to.deep.equal(Array(summaries - 1).fill(`${TESTS[c.test as TestId].name} - Summary (continued)`))
      const body = pages.slice(summaries, firstParams).map(p => p.title)
      // every report ends its body with the drive health page (a run stored before pts read health logs: not recorded)
      const want = [...c.titles(run.results), 'Drive Health and Temperature']
      expect(body, body.join('\n')).to.have.length(want.length)
      want.forEach((t, i) => (typeof t === 'string' ? expect(body[i]).to.equal(t) : expect(body[i]).to.match(t)))
      expect(model.header.title).to.equal(`${TESTS[c.test as TestId].name} - Report Page`)
      pages.forEach((p, i) => expect(p.pageLabel).to.equal(`Page ${i + 1} of ${pages.length}`))
      // one appendix page: the seal of the run (its digest names the manifest's list of every file)
      expect(pages.filter(p => p.kind === 'appendix')).to.have.length(1)
      const a = pages.at(-1)!.appendix!
      expect(a.sealHash).to.match(/^[0-9a-f]{64}$/)
      expect(a.rows.find(r => r.label === 'Files sealed')!.value).to.match(new RegExp(`^${run.manifest.integrity!.files.length} \\(`))
      expect(run.manifest.integrity!.files.filter(f => f.path.startsWith('raw/')).map(f => f.path).sort()).to.deep.equal(run.rawFiles.map(f => f.path).sort())
    })

    it('a run stored before pts read drive health logs still renders: its health page and summary say "not recorded"', () => {
      expect(run.results.health).to.equal(undefined)
      const page = model.pages.find(p => p.title === 'Drive Health and Temperature')!
      expect(page.tables[0].heading).to.equal('Drive health log and temperature: not recorded')
      expect(page.tables[0].rows[0].cells[0]).to.match(/^not recorded: this run was stored by an earlier version of pts/)
      expect(model.pages[0].summary!.health).to.deep.equal({warning: false, text: 'not recorded (run stored by an earlier version of pts)'})
    })

    it('the summary shows the run-timing verdict (the durations and idle-gap checks of pts audit)', () => {
      const t = model.pages[0].summary!.timing
      expect(t.verdict).to.equal(t.ok ? 'PASS' : 'FAIL')
      expect(t.lines[0]).to.match(/^Step durations: \d+ fio steps: no step shorter than its length, every overrun within its bound/)
      expect(t.lines[1]).to.match(/^Idle gaps: \d+ gaps between steps: median/)
      // the stored runs captured at load ~30: only their idle gaps can be beyond the bound (golden-README.md)
      if (!t.ok) expect(t.lines.filter(l => l.startsWith('Beyond its bound')).every(l => /after the previous step ended/.test(l)), t.lines.join('\n')).to.equal(true)
    })

    it('every chart and closeup page has its Vega-Lite spec, and every spec is on a page', () => {
      for (const p of model.pages) {
        if (p.kind === 'chart' || p.kind === 'closeup') expect(p.chart, p.title).to.be.a('string')
        if (p.chart !== null) {
          expect(charts, p.title).to.have.property(p.chart)
          const spec = charts[p.chart] as unknown as Record<string, unknown>
          expect(String(spec.$schema), p.title).to.match(/vega-lite/)
        }
      }
      const onPages = model.pages.map(p => p.chart).filter((x): x is string => x !== null)
      expect(Object.keys(charts).sort()).to.deep.equal([...new Set(onPages)].sort())
      for (const p of model.pages.filter(x => x.kind === 'closeup')) expect(p.determination, p.title).to.not.equal(null)
    })

    it('has no NaN, Infinity, undefined or null-ish text and no empty table', () => {
      const text = JSON.stringify(model)
      for (const bad of ['NaN', 'Infinity', 'undefined', '[object Object]']) expect(text, bad).not.to.include(bad)
      for (const p of model.pages) {
        for (const t of p.tables) {
          expect(t.rows.length, `${p.title}: ${t.heading}`).to.be.greaterThan(0)
          for (const row of t.rows) {
            expect(row.cells.length, `${p.title}: ${t.heading}: ${row.label}`).to.equal(t.columns.length - 1)
            for (const cell of row.cells) expect(cell, `${p.title}: ${t.heading}: ${row.label}`).to.be.a('string').and.not.equal('')
          }
        }
        if (p.kind === 'table' || p.kind === 'tables' || p.kind === 'params') expect(p.tables.length, p.title).to.be.greaterThan(0)
        if (p.kind === 'table' || p.kind === 'tables') expect(p.tables.map(t => t.heading), p.title).not.to.include('No data')
      }
      for (const h of model.pages[0].summary!.headline) expect(h.value, h.label).to.not.match(/^n\/a/)
    })

    it('reads its headline values from the stored results.json', () => {
      c.headline(model, run.results)
    })
  })
}
