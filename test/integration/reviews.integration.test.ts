/**
 * The review tests (specs/reviews/, not part of the SNIA PTS) end to end through real fio: fob-ss,
 * four-corners, transfer-sizes and fill on a file, consistency and consistency-128k on a loop
 * block device (losetup --direct-io=on on a sparse file, purged by discard); each report rendered
 * by Chromium and read back with pdftotext; pts audit recomputes every step. Small scale: a copy
 * of specs/ (PTS_SPECS_DIR) with fewer queue depths, block sizes and fill pieces, and a tiny
 * --time-scale, so that the whole file stays within a few minutes.
 */
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {closeSync, ftruncateSync, openSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {runCli} from '../helpers/cli.js'
import {requireRoot} from '../helpers/requires.js'
import {useTmpDir} from '../helpers/tmp.js'
import {reviewSpecsCopy} from '../helpers/review-specs.js'
import {check} from '../../src/validate.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'
import {reviewSource} from '../../src/model/tests.js'

const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T
const pdfText = (p: string) => execFileSync('pdftotext', ['-layout', p, '-'], {encoding: 'utf8'})
const flat = (s: string) => s.replace(/\s+/g, ' ')
function results(dir: string): ProgramResults {
  const r = readJson<ProgramResults>(join(dir, 'results.json'))
  expect(check('program-result.schema.json', r), 'results.json validates').to.deep.equal([])
  expect(r.status).to.equal('complete')
  return r
}
const phase = <K extends PhaseResult['kind']>(r: ProgramResults, id: string, kind: K) => {
  const p = r.phases.find(x => x.id === id)
  expect(p?.kind, id).to.equal(kind)
  return p as Extract<PhaseResult, {kind: K}>
}

/** A copy of specs/ whose review tests are smaller (every value is a definition parameter). */
function smallSpecs(dir: string): string {
  return reviewSpecsCopy(dir, {
    'fob-ss': s => {
      for (const ph of s.phases) if (ph.kind === 'sweep') ph.loops[1].values = [1, 4]
      s.phases.find((ph: {id: string}) => ph.id === 'rnd-precondition').durationSeconds = 5000 // 1 s at time scale 0.0002: 5 samples
    },
    'transfer-sizes': s => { s.phases[0].loops[0].values = [512, 4194304] },
    fill: s => { s.phases[0].steps = 8 },
  })
}

/** What each review report's "How to read this report" says of its own test (words that fail on the PTS text). */
const HOW_TO: Record<string, string[]> = {
  'fob-ss': ['The FOB sweep (RND 4KiB R, W, R/W 70/30, TC 1, QD 1, 4;', 'then the same sweep again', 'not a PTS steady state', 'Ratio: steady-state IOPS / FOB IOPS'],
  consistency: ['Per fill level (75 %, 100 % of the capacity): purge, SEQ 128KiB W of that share twice, then RND 4KiB W', 'not a PTS steady state'],
  'consistency-128k': ['Per fill level (75 %, 100 % of the capacity): purge, then RND 128KiB W', 'not a PTS steady state'],
  'four-corners': ['Each corner is one fio step of fixed time on the drive as it is', 'Random seeks: one 4KiB read at a time'],
  'transfer-sizes': ['At each of 2 block sizes: SEQ W, then SEQ R, from LBA 0 at TC 1/QD 4'],
  fill: ['The whole capacity is written sequentially in LBA order, once, in 8 pieces of about 8 MiB'],
}

/** The words every review report must say, on its summary and on every page's header; and none of the PTS report's fixed wording. */
function expectReviewNotice(text: string, test: string, pages: number): void {
  const t = flat(text)
  // the title bar names pts's review test, not the SNIA template; the summary explains this test, not PTS steady state
  expect(text.split('pts review test').length - 1, 'the title bar of every page').to.equal(pages)
  for (const w of ['SNIA SSS TWG', 'Solid State Storage Performance Test Specification', '5-round', 'measurement window (rounds', 'window averages', 'Steady-state loops', 'Steady State: none']) expect(t, test).not.to.include(w)
  expect(t).to.include('How to read this report').and.include('there are no rounds, no measurement window and no steady-state check')
  for (const w of HOW_TO[test]) expect(t, test).to.include(w)
  expect(t).to.include('a review test, not part of the SNIA PTS').and.include(flat(reviewSource(test)!))
  expect(text.split('Rev. Review test, not SNIA PTS').length - 1, 'the header of every page names it').to.equal(pages)
  // the summary lists the reasons one per line (the page header interleaves its columns in pdftotext)
  expect(t).to.include('NOT COMPLIANT').and.include(`a review test (from ${flat(reviewSource(test)!)}), not part of the SNIA PTS`)
}
const pageCount = (pdf: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], {encoding: 'utf8'}))![1])

describe('review tests on a file (real fio, Chromium)', function () {
  this.timeout(600_000)
  const tmp = useTmpDir('pts-it-reviews-')
  let env: NodeJS.ProcessEnv
  before(() => { env = {PTS_SPECS_DIR: smallSpecs(tmp())} })
  const run = async (test: string, extra: string[] = []) => {
    const out = join(tmp(), test)
    const r = await runCli(['run', test, '--device', `file:${join(tmp(), `${test}.img`)}`, '--size', '64MiB', '--time-scale', '0.0002', '--out', out, ...extra], {env})
    expect(r.code, r.stderr.slice(-3000)).to.equal(0)
    return out
  }

  it('fob-ss: FOB sweep, preconditioning, steady-state sweep; chart and ratio table per workload; plan, audit', async () => {
    const plan = await runCli(['plan', 'fob-ss', '--device', `file:${join(tmp(), 'p.img')}`, '--size', '64MiB', '--time-scale', '0.0002'], {env})
    expect(plan.code, plan.stderr).to.equal(0)
    expect(plan.stdout.split('\n')[0]).to.include('a review test, not part of the SNIA PTS').and.include(reviewSource('fob-ss')!)
    const out = await run('fob-ss')
    const r = results(out)
    expect(r.revision).to.equal('reviews')
    const fob = phase(r, 'fob', 'sweep')
    const ss = phase(r, 'ss', 'sweep')
    // the FOB point at a given workload/TC/QD and the steady-state point beside it (what pts verify reads)
    expect(fob.points.map(p => `${p.readPct}/${p.threadCount}/${p.queueDepth}`)).to.deep.equal(['100/1/1', '100/1/4', '0/1/1', '0/1/4', '70/1/1', '70/1/4'])
    expect(ss.points.map(p => p.label)).to.deep.equal(fob.points.map(p => p.label))
    for (const p of [...fob.points, ...ss.points]) expect(p.ioCount).to.be.greaterThan(0)
    expect(phase(r, 'rnd-precondition', 'series').samples.length).to.equal(5)
    const job = readFileSync(join(out, fob.points[3].raw.job), 'utf8')
    expect(job).to.match(/^rw=randwrite$/m).and.match(/^iodepth=4$/m).and.match(/^numjobs=1$/m)
    const pdf = join(out, 'report.pdf')
    const text = pdfText(pdf)
    expectReviewNotice(text, 'fob-ss', pageCount(pdf))
    for (const t of ['FOB-SS - RND 4KiB R - IOPS vs QD', 'FOB-SS - RND 4KiB W - Tabular Data', 'FOB-SS - RND 4KiB R/W 70/30 - IOPS vs QD', 'Steady state / FOB', 'FOB-SS - Preconditioning']) expect(text).to.include(t)
    const audit = await runCli(['audit', out], {env})
    expect(audit.stdout).to.match(/PASS {2}Every step recomputed from its raw fio JSON: 17 fio steps/)
    expect(audit.stdout).to.match(/PASS {2}Report model equals the one rebuilt from raw data/)
  })

  it('four-corners: the 8 GiB span clamped to the file (plan, step labels, report); compressible data; random seeks with their distribution', async () => {
    const out = await run('four-corners')
    const r = results(out)
    const random = phase(r, 'random', 'sweep')
    expect(random.points.map(p => p.label)).to.deep.equal([
      'RND 4KiB W, 8 GiB span clamped to 64 MiB (the target is smaller), incompressible data',
      'RND 4KiB W, 8 GiB span clamped to 64 MiB (the target is smaller), 50 % compressible data',
      'RND 4KiB R, 8 GiB span clamped to 64 MiB (the target is smaller)',
      'RND 4KiB W, 8 GiB span clamped to 64 MiB (the target is smaller), incompressible data'])
    expect(readFileSync(join(out, random.points[1].raw.job), 'utf8')).to.match(/^buffer_compress_percentage=50$/m)
    const seeks = phase(r, 'seeks', 'sweep').points[0]
    expect(seeks.latBins!.reduce((a, b) => a + b.count, 0)).to.equal(seeks.ioCount)
    const pdf = join(out, 'report.pdf')
    const text = pdfText(pdf)
    expectReviewNotice(text, 'four-corners', pageCount(pdf))
    expect(flat(text)).to.include('8 GiB span clamped to 64 MiB').and.include('FOUR-CORNERS - Random Seeks').and.include('Accesses per second')
    expect(text, 'the parameters page lists the clamp').to.match(/Span\s+8 GiB span clamped to 64 MiB/)
  })

  it('transfer-sizes and fill: MB/s per block size; MB/s by position in LBA order', async () => {
    const ts = results(await run('transfer-sizes'))
    expect(phase(ts, 'sizes', 'sweep').points.map(p => `${p.blockSizeBytes}/${p.readPct}`)).to.deep.equal(['512/0', '512/100', '4194304/0', '4194304/100'])
    const tsText = pdfText(join(tmp(), 'transfer-sizes', 'report.pdf'))
    expect(tsText).to.include('TRANSFER-SIZES - MB/s vs block size')
    expectReviewNotice(tsText, 'transfer-sizes', pageCount(join(tmp(), 'transfer-sizes', 'report.pdf')))
    const fillOut = await run('fill')
    const f = phase(results(fillOut), 'fill', 'fill')
    expect(f.steps.map(s => s.offsetBytes)).to.deep.equal(Array.from({length: 8}, (_, k) => k * 8 * 1024 * 1024))
    for (const s of f.steps) expect(s.writeBytes).to.equal(s.sizeBytes)
    const pdf = join(fillOut, 'report.pdf')
    const text = pdfText(pdf)
    expectReviewNotice(text, 'fill', pageCount(pdf))
    expect(text).to.include('FILL - MB/s vs % of capacity written').and.include('Slowest piece at')
  })
})

describe('review consistency tests on a loop block device (real fio, root)', function () {
  this.timeout(600_000)
  const tmp = useTmpDir('pts-it-reviews-loop-')
  let dev = ''
  before(function () {
    requireRoot(this, 'creating a loop device')
    const file = join(tmp(), 'disk.img')
    const fd = openSync(file, 'w')
    ftruncateSync(fd, 64 * 1024 * 1024)
    closeSync(fd)
    dev = execFileSync('losetup', ['-f', '--show', '--direct-io=on', file], {encoding: 'utf8'}).trim()
  })
  after(() => { if (dev) execFileSync('losetup', ['-d', dev]) })

  for (const test of ['consistency', 'consistency-128k'] as const) {
    it(`${test}: a purge per fill level through the safety gate, per-second samples, statistics and traces`, async () => {
      const out = join(tmp(), test)
      const args = ['run', test, '--device', dev, '--purge', 'discard', '--time-scale', '0.001', '--out', out]
      const refused = await runCli(args)
      expect(refused.code, 'refused without --yes-destroy-data').to.equal(4)
      const r0 = await runCli([...args, '--yes-destroy-data', dev])
      expect(r0.code, r0.stderr.slice(-3000)).to.equal(0)
      const r = results(out)
      for (const lvl of [75, 100]) {
        expect(phase(r, `purge-${lvl}`, 'purge')).to.include({method: 'discard', status: 'done'})
        const s = phase(r, `rnd-${lvl}`, 'series')
        expect(s.samples.length).to.equal(10)
        for (const x of s.samples) { expect(x.ioCount).to.be.greaterThan(0); expect(x.latMaxNs).to.be.at.least(x.latMeanNs) }
        const job = readFileSync(join(out, s.samples[0].raw.job), 'utf8')
        const range = Math.floor(64 * 1024 * 1024 * lvl / 100 / 131072) * 131072
        expect(job).to.include(`size=${range}\n`).and.match(/^iodepth=32$/m)
        if (test === 'consistency') expect(phase(r, `fill-${lvl}`, 'wipc').plannedBytes).to.equal(Math.max(131072, Math.floor(range * 2 * 0.001 / 131072) * 131072))
      }
      const pdf = join(out, 'report.pdf')
      const text = pdfText(pdf)
      expectReviewNotice(text, test, pageCount(pdf))
      expect(text).to.include(`${test.toUpperCase()} - Statistics`).and.include('Floor reached at').and.match(/75 % fill - response time per (second|[\d.]+m?s sample)/)
    })
  }
})
