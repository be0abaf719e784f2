/**
 * `pts compare` of review runs through the CLI (bin/dev.js, real Chromium): the three real fob-ss
 * runs of test/fixtures/review-runs (README there) compared as samples of one model (--samples:
 * they are on file targets). The PDF's text (pdftotext) has the sample-variation table of each
 * sweep with its minimum, median, maximum and CV recomputed here from the runs' results.json, the
 * overlaid QD curves' titles, and on every page a header that says these are review tests, not
 * part of the SNIA PTS, with none of the SNIA header's lines and no compliance or steady-state
 * verdict.
 */
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {ROOT, runCli} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'
import {sampleStats} from '../../src/compare/table.js'
import {fixed} from '../../src/report/format.js'
import {reviewSource} from '../../src/model/tests.js'
import type {CompareModel} from '../../src/compare/model.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'

const DIRS = [1, 2, 3].map(k => join(ROOT, `test/fixtures/review-runs/fob-ss-${k}`))
const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T
const flat = (s: string) => s.replace(/\s+/g, ' ')
/** Without any whitespace: the header's status lines wrap anywhere (also after a hyphen). */
const squeeze = (s: string) => s.replace(/\s+/g, '')
const sweep = (r: ProgramResults, id: string) => r.phases.find(p => p.kind === 'sweep' && p.id === id) as Extract<PhaseResult, {kind: 'sweep'}>

describe('pts compare of review runs (CLI, three real fob-ss runs, real Chromium)', function () {
  this.timeout(300_000)
  const tmp = useTmpDir('pts-compare-reviews-')
  let text = ''
  let pages: string[] = []
  let model: CompareModel
  const programs = DIRS.map(d => readJson<ProgramResults>(join(d, 'results.json')))

  before(async () => {
    const out = join(tmp(), 'cmp')
    const r = await runCli(['compare', ...DIRS, '--samples', '--out', out])
    expect(r.code, r.stderr.slice(-3000)).to.equal(0)
    expect(r.stderr).to.not.include('    at ')
    text = execFileSync('pdftotext', ['-layout', join(out, 'compare.pdf'), '-'], {encoding: 'utf8'})
    pages = text.split('\f').filter(p => p.trim() !== '')
    model = readJson<CompareModel>(join(out, 'compare.json'))
    expect(pages.length, 'one PDF page per model page').to.equal(model.pages.length)
  })

  it('every page\'s header says these are review tests, not part of the SNIA PTS, and shows no SNIA line, compliance or steady-state verdict', () => {
    const source = flat(reviewSource('fob-ss')!)
    pages.forEach((p, i) => {
      const t = flat(p)
      expect(t, `page ${i + 1}`).to.include('pts review test').and.include('not part of the SNIA PTS')
      // the status bar's right-hand 'Every run complete' interleaves with its first line in pdftotext
      expect(squeeze(p).replace('Everyruncomplete', ''), `page ${i + 1}`).to.include(squeeze(`Review tests, not part of the SNIA PTS: FOB-SS comes from ${source}; no steady-state check, and the results are not PTS results`))
      expect(t, `page ${i + 1}`).to.include('Rev. Review test, not SNIA PTS')
      expect(t, `page ${i + 1}: each run's status`).to.match(/Run status/).and.include('Every run complete')
    })
    // the reasons besides the review one (the fixtures are on file targets, shortened), once for every run
    expect(squeeze(pages[0])).to.include(squeeze('Every run: target is a regular file, not a whole block device'))
    const t = flat(text)
    for (const w of ['SNIA SSS TWG', 'Solid State Storage Performance Test Specification', 'All runs compliant', 'All runs NOT COMPLIANT', 'Steady state achieved', 'No steady-state loop in this test', 'TC/QD Steady state Compliance']) {
      expect(t, w).not.to.include(w)
    }
    expect(model.header.review).to.equal(true)
  })

  it('the sample-variation table of each sweep: min, median, max and CV per point, recomputed from the three results.json', () => {
    for (const id of ['fob', 'ss']) {
      const heading = `${id}: IOPS (read + write), each point measured once (every point RND 4KiB); sample variation over the 3 runs`
      expect(flat(text), heading).to.include(heading)
      const block = text.slice(text.indexOf(`${id}: IOPS (read + write), each point measured once`))
      const points = sweep(programs[0], id).points
      points.forEach((_, i) => {
        const vs = programs.map(r => sweep(r, id).points[i].iops)
        const st = sampleStats(vs)
        // the row of that point: each run's IOPS, the ratios, then min, median, max and CV (the table's own column order)
        const want = [fixed(vs[0], 0), fixed(st.min, 0), fixed(st.median, 0), fixed(st.max, 0), `${fixed(st.cvPct, 1)} %`]
        const line = block.split('\n').find(l => l.includes(fixed(vs[0], 0)) && l.includes(fixed(vs[1], 0)) && l.includes(fixed(vs[2], 0)) && l.includes(`${fixed(st.cvPct, 1)} %`))
        expect(line, `${id} point ${i + 1}: a row with ${want.join(', ')}`).to.be.a('string')
        const tail = line!.trim().replace(/[▲▼]/g, '').split(/\s+/).slice(-5).join(' ')
        expect(tail).to.equal(`${fixed(st.min, 0)} ${fixed(st.median, 0)} ${fixed(st.max, 0)} ${fixed(st.cvPct, 1)} %`)
      })
    }
    expect(text).to.include('Min').and.include('Median').and.include('CV')
    expect(flat(text)).to.include('The runs are treated as samples of one model because --samples was given')
  })

  it('the summary page lists only rows true of review runs: test, source, run status, time scale and each phase\'s stored length', () => {
    const summary = pages.filter(p => p.includes('Runs side by side'))
    expect(summary.length, 'a summary page').to.be.greaterThan(0)
    const t = summary.join('\n')
    const rowStarts = t.split('\n').map(l => l.trim())
    // no row only true of a SNIA PTS run
    for (const l of ['Steady state', 'Measurement window', 'Compliance', 'Round limit', 'Point duration', 'Rounds run', 'TC / QD', 'Profile', 'ActiveRange']) {
      expect(rowStarts.some(x => x.startsWith(l)), `row ${l}`).to.equal(false)
    }
    expect(t).to.not.match(/NOT COMPLIANT|Compliant|NOT ACHIEVED|without steady state|\b60 s\b/)
    // the rows that are true of them, valued from the stored runs
    const line = (label: string) => rowStarts.find(x => x.startsWith(label))
    expect(line('Run status')!.split(/\s{2,}/).slice(1)).to.deep.equal(programs.map(r => r.status))
    expect(line('Time scale')!.split(/\s{2,}/).slice(1)).to.deep.equal(programs.map(r => `${r.parameters.timeScale} (fixed-duration phases`))
    expect(squeeze(t)).to.include(squeeze(`Test comes from ${reviewSource('fob-ss')}`.slice(0, 40)))
    for (const id of ['fob', 'ss']) {
      expect(line(`Point length, ${id}`)!.split(/\s{2,}/).slice(1), id).to.deep.equal(programs.map(r => `${sweep(r, id).pointSeconds} s per point x ${sweep(r, id).points.length}`))
      expect(programs[0].parameters.pointSeconds).to.not.equal(sweep(programs[0], id).pointSeconds)
    }
    const series = programs.map(r => r.phases.find(p => p.kind === 'series') as Extract<PhaseResult, {kind: 'series'}>)
    expect(line('Sample length, rnd-')!.split(/\s{2,}/).slice(1)).to.deep.equal(series.map(q => `${q.sampleSeconds} s per sample x ${q.samples.length}`))
    expect(flat(t)).to.include('A review test has no steady-state loop')
  })

  it('the overlaid QD curves: one chart page per sweep, titled run by run', () => {
    for (const id of ['fob', 'ss']) {
      const title = `Sweep ${id} - IOPS vs Queue Depth, Run by Run`
      const page = pages.find(p => p.includes(title))
      expect(page, title).to.be.a('string')
      expect(model.pages.find(p => p.title === title)?.chart).to.equal(`qd-${id}`)
    }
  })
})
