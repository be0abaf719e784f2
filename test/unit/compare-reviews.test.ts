/**
 * pts compare of review runs (pure model): three real fob-ss runs (test/fixtures/review-runs,
 * README there) compared sweep by sweep, point by point, with their ratios to the first run and,
 * as samples of one model, the per-point minimum, median, maximum and CV. Every expected value is
 * read from the runs' results.json.
 */
import {expect} from 'chai'
import {loadCompareRuns} from '../../src/compare/load.js'
import {buildCompareModel} from '../../src/compare/model.js'
import {buildCompareChartSpecs} from '../../src/compare/charts.js'
import {comparePhases, loopTables, type LoopPhaseCompare} from '../../src/compare/phases.js'
import {sampleStats} from '../../src/compare/table.js'
import {fixed} from '../../src/report/format.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'
import {reviewSource} from '../../src/model/tests.js'

const DIRS = [1, 2, 3].map(k => `test/fixtures/review-runs/fob-ss-${k}`)
const AT = '2026-12-04T00:00:00Z'
const keys = DIRS.map((_, i) => ({key: `R${i + 1}`, name: `run ${i + 1}`}))
const sweep = (r: ProgramResults, id: string) => r.phases.find(p => p.kind === 'sweep' && p.id === id) as Extract<PhaseResult, {kind: 'sweep'}>

describe('pts compare of fob-ss review runs (real stored runs, pure model)', () => {
  const inputs = loadCompareRuns(DIRS)
  const programs = inputs.map(x => x.program!)

  it('each sweep (FOB, steady state) is compared point by point: every run\'s stored value', () => {
    const phases = comparePhases(programs, keys).filter((c): c is LoopPhaseCompare => c.kind === 'loop' && c.sweep === true)
    expect(phases.map(c => c.id)).to.deep.equal(['fob', 'ss'])
    for (const c of phases) {
      expect(c.points.map(p => p.id)).to.deep.equal(sweep(programs[0], c.id).points.map(p => p.id))
      c.points.forEach((p, i) => programs.forEach((r, k) => {
        const s = sweep(r, c.id).points[i]
        expect(p.runs[k]).to.deep.equal({iops: s.iops, mbPerSec: s.bwBytesPerSec / 1e6, latMeanMs: s.latMeanNs / 1e6})
      }))
    }
  })

  it('3 runs as samples: per metric a table of each run, Rk / R1, and min, median, max, CV per point', () => {
    const c = comparePhases(programs, keys).find(x => x.id === 'fob') as LoopPhaseCompare
    const [iops] = loopTables(c, keys, true)
    expect(iops.heading).to.equal('fob: IOPS (read + write), each point measured once (every point RND 4KiB); sample variation over the 3 runs')
    expect(iops.columns).to.deep.equal(['Point', 'R1', 'R2', 'R2 / R1', 'R3', 'R3 / R1', 'Min', 'Median', 'Max', 'CV'])
    iops.rows.forEach((row, i) => {
      const vs = programs.map(r => sweep(r, 'fob').points[i].iops)
      const st = sampleStats(vs)
      const texts = row.cells.map(x => x.text)
      // ratio cells carry a mark when outside 0.90-1.10 ("2.02 ▲")
      expect([texts[0], texts[1], texts[3], ...texts.slice(5)]).to.deep.equal([fixed(vs[0], 0), fixed(vs[1], 0), fixed(vs[2], 0), fixed(st.min, 0), fixed(st.median, 0), fixed(st.max, 0), `${fixed(st.cvPct, 1)} %`])
      expect(texts[2].split(' ')[0]).to.equal((vs[1] / vs[0]).toFixed(2))
      expect(texts[4].split(' ')[0]).to.equal((vs[2] / vs[0]).toFixed(2))
    })
    // not samples (another model, or files without --samples): no variation columns
    expect(loopTables(c, keys, false)[0].columns).to.deep.equal(['Point', 'R1', 'R2', 'R2 / R1', 'R3', 'R3 / R1'])
  })

  it('the report model: one page per sweep, titled as a sweep (no measurement window); file targets are samples only with --samples', () => {
    const forced = buildCompareModel(inputs, {generatedAt: AT, samples: true})
    const pages = forced.pages.filter(p => p.kind === 'cphase' && /^Sweep .* - Values and Ratios/.test(p.title))
    expect(pages.map(p => p.title.replace(/ \(\d of \d\)$/, ''))).to.include.members(['Sweep fob - IOPS, MB/s and Mean Response Time per Point - Values and Ratios', 'Sweep ss - IOPS, MB/s and Mean Response Time per Point - Values and Ratios'])
    for (const p of pages) expect(p.note).to.match(/^Sweep (fob|ss) \(.*\): each point of each run measured once \(one fio step, no steady-state window\)/)
    expect(pages.flatMap(p => p.tables).some(t => t.columns.includes('CV'))).to.equal(true)
    // the three runs are on file targets: without --samples they are not called sample variation
    const plain = buildCompareModel(inputs, {generatedAt: AT})
    expect(plain.pages.flatMap(p => p.tables).some(t => t.columns.includes('CV') && /each point measured once/.test(t.heading))).to.equal(false)
  })

  it('the header of review runs: review tests, not part of the SNIA PTS; no SNIA lines, no compliance or steady-state verdict', () => {
    const h = buildCompareModel(inputs, {generatedAt: AT, samples: true}).header
    expect(h.review).to.equal(true)
    expect(h.issuer).to.deep.equal(['pts review test', 'not part of the SNIA PTS'])
    expect(h.complianceLines[0]).to.equal(`Review tests, not part of the SNIA PTS: FOB-SS comes from ${reviewSource('fob-ss')}; no steady-state check, and the results are not PTS results`)
    // the stored reasons besides the review one, once for all runs (read from the manifests)
    const others = inputs[0].manifest.compliance.reasons.filter(x => !x.startsWith('a review test'))
    expect(others.length).to.be.greaterThan(0)
    expect(h.complianceLines.slice(1)).to.deep.equal([`Every run: ${others.join('; ')}`])
    expect(h.steadyLine).to.equal('Every run complete')
    expect(h.runs.map(r => r.runStatus)).to.deep.equal(['complete', 'complete', 'complete'])
    expect(JSON.stringify([h.issuer, h.complianceLines, h.steadyLine])).to.not.match(/SNIA SSS TWG|Compliant|COMPLIANT|Steady state achieved|steady-state loop/)
  })

  it('the summary\'s side-by-side rows of review runs: only what is true of them, lengths as stored; a PTS compare keeps its rows', () => {
    const model = buildCompareModel(inputs, {generatedAt: AT, samples: true})
    const rows = model.pages.filter(p => p.kind === 'csummary').flatMap(p => p.summary!.runs)
    const labels = rows.map(r => r.label)
    const row = (l: string) => rows.find(r => r.label === l)!
    // rows only true of a SNIA PTS run are absent
    for (const l of ['Steady state', 'Measurement window', 'Compliance', 'Compliance reasons', 'Compliance reasons, all runs', 'Round limit', 'Point duration', 'Rounds run', 'TC / QD', 'Profile', 'ActiveRange']) {
      expect(labels, l).to.not.include(l)
    }
    expect(JSON.stringify(rows)).to.not.match(/NOT COMPLIANT|Compliant|NOT ACHIEVED|without steady state|\b60 s\b/)
    // test, where it comes from, run status, time scale: from the stored runs
    expect(row('Test').values).to.deep.equal(programs.map(r => `${r.test.toUpperCase()}, Review test, not SNIA PTS`))
    expect(row('Test comes from').values).to.deep.equal(programs.map(r => reviewSource(r.test)))
    expect(row('Run status').values).to.deep.equal(programs.map(r => r.status))
    expect(row('Time scale').values).to.deep.equal(programs.map(r => `${r.parameters.timeScale} (fixed-duration phases scaled)`))
    // each stored phase with a length: its point / sample length and step count as stored (not the definition's 60 s)
    const timed = programs[0].phases.filter(p => p.kind === 'sweep' || p.kind === 'series')
    expect(timed.map(p => p.id)).to.deep.equal(['fob', 'rnd-precondition', 'ss'])
    for (const ph of timed) {
      const label = `${ph.kind === 'sweep' ? 'Point' : 'Sample'} length, ${ph.id}`
      expect(row(label).values, label).to.deep.equal(programs.map(r => {
        const q = r.phases.find(x => x.id === ph.id)!
        return q.kind === 'sweep' ? `${q.pointSeconds} s per point x ${q.points.length}` : q.kind === 'series' ? `${q.sampleSeconds} s per sample x ${q.samples.length}` : 'wrong kind'
      }))
      expect(programs[0].parameters.pointSeconds, 'the definition\'s length differs from the stored one').to.not.equal((ph as {pointSeconds?: number; sampleSeconds?: number}).pointSeconds ?? (ph as {sampleSeconds: number}).sampleSeconds)
    }
    // the drive's identity, and the notes besides the review one (the header says that once)
    expect(row('Device').values).to.deep.equal(inputs.map(x => `${x.manifest.target.identity.model} (file target)`))
    expect(row('Capacity').values.length).to.equal(3)
    const notes = inputs[0].manifest.compliance.reasons.filter(x => !x.startsWith('a review test'))
    expect(row('Notes, all runs').values).to.deep.equal([notes.join('; ')])
    expect(model.pages.find(p => p.kind === 'csummary')!.summary!.baselineNote).to.match(/A review test has no steady-state loop/)

    // a PTS compare (two stored DIRTH runs) keeps the PTS rows
    const pts = buildCompareModel(loadCompareRuns([1, 2].map(k => `test/fixtures/runs/compare-dirth-${k}`)), {generatedAt: AT})
    const ptsLabels = pts.pages.filter(p => p.kind === 'csummary').flatMap(p => p.summary!.runs.map(r => r.label))
    expect(ptsLabels).to.include.members(['Steady state', 'Measurement window', 'Compliance', 'Round limit', 'Point duration', 'Rounds run', 'TC / QD'])
    expect(ptsLabels).to.not.include.members(['Test comes from', 'Time scale'])
    expect(pts.header.review).to.equal(false)
  })

  it('overlaid QD curves: a chart page per sweep, IOPS against queue depth, one line per run and workload, from the stored points', () => {
    const model = buildCompareModel(inputs, {generatedAt: AT, samples: true})
    const page = model.pages.find(p => p.title === 'Sweep fob - IOPS vs Queue Depth, Run by Run')!
    expect(page.chart).to.equal('qd-fob')
    const spec = buildCompareChartSpecs(model)['qd-fob'] as unknown as {data: {values: Array<{run: string; workload: string; qd: number; iops: number}>}}
    const fob = programs.map(r => sweep(r, 'fob').points)
    expect(spec.data.values.length).to.equal(fob.flat().length)
    for (const v of spec.data.values) {
      const k = Number(/^R(\d+):/.exec(v.run)![1]) - 1
      const p = fob[k].find(q => q.queueDepth === v.qd && q.label.startsWith(v.workload + ' TC'))!
      expect(v.iops).to.equal(p.iops)
    }
    expect([...new Set(spec.data.values.map(v => v.workload))]).to.deep.equal(['RND 4KiB R', 'RND 4KiB W', 'RND 4KiB R/W 70/30'])
    expect([...new Set(spec.data.values.map(v => v.qd))]).to.deep.equal([1, 32])
  })
})
