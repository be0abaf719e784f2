/**
 * The review tests (specs/reviews/, not part of the SNIA PTS) end to end through real fio, each on
 * a file and on a loop block device (losetup --direct-io=on on a sparse file, purged by discard);
 * each report rendered by Chromium and read back with pdftotext; pts audit recomputes every step
 * and every per-second trace (the review tests always have them, without --per-second). Small
 * scale: a copy of specs/ (PTS_SPECS_DIR) with fewer queue depths, block sizes and fill pieces,
 * and a tiny --time-scale, so that the whole file stays within a few minutes; the loop device runs
 * have even fewer points, some of them long enough (2 s or more) for fio to log whole seconds.
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
import {reviewSource, testName} from '../../src/model/tests.js'
import {stepsOf} from '../../src/analysis/steps.js'
import {pointTraces} from '../../src/analysis/traces.js'

const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T
const pdfText = (p: string) => execFileSync('pdftotext', ['-layout', p, '-'], {encoding: 'utf8'})
const flat = (s: string) => s.replace(/\s+/g, ' ')
const squeeze = (s: string) => s.replace(/\s+/g, '')
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

/** four-corners' random corners on a 64 MiB target (file or loop device): the 8 GiB span clamped. */
const FOUR_CORNER_RANDOM_LABELS = [
  'RND 4KiB W, 8 GiB span clamped to 64 MiB (the target is smaller), incompressible data',
  'RND 4KiB W, 8 GiB span clamped to 64 MiB (the target is smaller), 50 % compressible data',
  'RND 4KiB R, 8 GiB span clamped to 64 MiB (the target is smaller)',
  'RND 4KiB W, 8 GiB span clamped to 64 MiB (the target is smaller), incompressible data']

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
  // the runs here are shortened (--time-scale): the sequential fills wrote a part of what the review writes, and the text says so
  'fob-ss': ['The FOB sweep (RND 4KiB R, W, R/W 70/30, TC 1, QD 1, 4;', 'then preconditioning (SEQ 128KiB W of 0.', 'X the capacity (131072 B; the review writes it twice), then RND 4KiB W', 'then the same sweep again', 'not a PTS steady state', 'Ratio: steady-state IOPS / FOB IOPS'],
  consistency: ['Per fill level (75 %, 100 % of the capacity): ', ' (75 %) and ', ' (100 %) of that share (', 'the review writes it twice), then RND 4KiB W', 'not a PTS steady state'],
  'consistency-128k': ['Per fill level (75 %, 100 % of the capacity): ', ', then RND 128KiB W', 'not a PTS steady state'],
  'four-corners': ['Each corner is one fio step of fixed time on the drive as it is', 'Random seeks: one 4KiB read at a time'],
  'transfer-sizes': ['At each of 2 block sizes: SEQ W, then SEQ R, from LBA 0 at TC 1/QD 4'],
  fill: ['The whole capacity is written sequentially in LBA order, once, in 8 pieces of about 8 MiB'],
}

/** The words every review report must say, on its summary and on every page's header; and none of the PTS report's fixed wording. */
function expectReviewNotice(text: string, test: string, pages: number, howTo: string[] = HOW_TO[test]): void {
  const t = flat(text)
  // the title bar names pts's review test, not the SNIA template; the summary explains this test, not PTS steady state
  expect(text.split('pts review test').length - 1, 'the title bar of every page').to.equal(pages)
  for (const w of ['SNIA SSS TWG', 'Solid State Storage Performance Test Specification', '5-round', 'measurement window (rounds', 'window averages', 'Steady-state loops', 'Steady State: none']) expect(t, test).not.to.include(w)
  expect(t).to.include('How to read this report').and.include('there are no rounds, no measurement window and no steady-state check')
  for (const w of howTo) expect(t, test).to.include(w)
  expect(t).to.include('a review test, not part of the SNIA PTS').and.include(flat(reviewSource(test)!))
  expect(text.split('Rev. Review test, not SNIA PTS').length - 1, 'the header of every page names it').to.equal(pages)
  // the summary lists the reasons one per line (the page header interleaves its columns in pdftotext)
  expect(t).to.include('NOT COMPLIANT').and.include(`a review test (from ${flat(reviewSource(test)!)}), not part of the SNIA PTS`)
}
/**
 * Per-second traces without --per-second: on in the stored parameters, a trace for every step but
 * WIPC (its logs named in its job), said on the parameters page, recomputed by pts audit; with
 * `traced`, the report has a trace page per point that fio logged whole seconds of.
 */
async function expectPerSecond(out: string, r: ProgramResults, text: string, env: NodeJS.ProcessEnv | undefined, traced: boolean): Promise<void> {
  expect(r.parameters.perSecond, 'per-second traces on without the flag').to.equal(true)
  const steps = stepsOf(r)
  expect(steps.length).to.be.greaterThan(0)
  for (const s of steps) {
    expect(s.step.perSecond, s.what).to.be.an('object')
    expect(s.step.perSecond!.logs.length, s.what).to.be.greaterThan(0)
    expect(readFileSync(join(out, s.step.raw.job), 'utf8'), s.what).to.match(/^write_iops_log=/m).and.match(/^write_hist_log=/m)
  }
  for (const ph of r.phases) if (ph.kind === 'wipc' && ph.raw) expect(readFileSync(join(out, ph.raw.job), 'utf8'), `${ph.id}: WIPC logs nothing per second`).to.not.include('write_iops_log=')
  // the parameters table read in reading order (pdftotext without -layout), without whitespace: its cells wrap anywhere (a hyphen at a line end is dropped)
  const raw = squeeze(execFileSync('pdftotext', [join(out, 'report.pdf'), '-'], {encoding: 'utf8'}))
  expect(raw, 'the parameters page').to.match(/Per-secondtraceson(in|-in)everyrunofthistest,withorwithout--per-?second:fiologsIOPS,bandwidthandresponsetimeofeverysecond/)
  const seconds = steps.reduce((a, s) => a + s.step.perSecond!.seconds.length, 0)
  const withRows = pointTraces(r).filter(t => t.rows.length > 0)
  const title = `${testName(r.test)} - Per-Second Trace - `
  expect(text.split('\f').filter(p => p.includes(title)).length, 'one trace page per point with logged seconds').to.equal(withRows.length)
  // no step ran a whole second: no trace page, and the summary says why
  const none = 'Per-second traces were on, but fio logs a second only when it is complete and no step of this run ran a whole second'
  if (withRows.length === 0) expect(flat(text)).to.include(none)
  else expect(flat(text)).to.not.include(none)
  if (traced) {
    expect(withRows.length, 'points with whole seconds logged').to.be.greaterThan(0)
    expect(squeeze(text)).to.include(squeeze('Source: fio\'s per-second logs of the steps (1-second windows), not their JSON statistics.'))
  }
  const audit = await runCli(['audit', out], {env})
  expect(audit.code, audit.stdout.slice(-3000)).to.equal(0)
  expect(audit.stdout).to.include(`PASS  Per-second traces recomputed from the raw fio logs: ${steps.length} steps, ${seconds} seconds: every stored per-second value equals the one recomputed from its fio logs`)
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
    expect(plan.stdout, 'pts plan lists the per-second traces').to.match(/^ {2}- Per-second traces: on in every run of this test, with or without --per-second: /m)
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
    // a file is not purged: the report never says the FOB sweep ran on a purged drive
    expect(flat(text)).to.include('on the target as it was (no purge: a regular file cannot be purged)').and.include('fresh out of the box (no purge: a regular file cannot be purged; no preconditioning)')
    expect(flat(text)).to.not.include('purged drive').and.not.include('after the purge')
    for (const t of ['FOB-SS - RND 4KiB R - IOPS vs QD', 'FOB-SS - RND 4KiB W - Tabular Data', 'FOB-SS - RND 4KiB R/W 70/30 - IOPS vs QD', 'Steady state / FOB', 'FOB-SS - Preconditioning']) expect(text).to.include(t)
    // 1 s of preconditioning is charted in seconds, not as 0.00 ... 0.02 minutes
    expect(text).to.include('Time (s)').and.not.include('Time (min)')
    await expectPerSecond(out, r, text, env, false)
    const audit = await runCli(['audit', out], {env})
    expect(audit.stdout).to.match(/PASS {2}Every step recomputed from its raw fio JSON: 17 fio steps/)
    expect(audit.stdout).to.match(/PASS {2}Report model equals the one rebuilt from raw data/)
  })

  it('four-corners: the 8 GiB span clamped to the file (plan, step labels, report); compressible data; random seeks with their distribution', async () => {
    const out = await run('four-corners')
    const r = results(out)
    const random = phase(r, 'random', 'sweep')
    expect(random.points.map(p => p.label)).to.deep.equal(FOUR_CORNER_RANDOM_LABELS)
    expect(readFileSync(join(out, random.points[1].raw.job), 'utf8')).to.match(/^buffer_compress_percentage=50$/m)
    const seeks = phase(r, 'seeks', 'sweep').points[0]
    expect(seeks.latBins!.reduce((a, b) => a + b.count, 0)).to.equal(seeks.ioCount)
    const pdf = join(out, 'report.pdf')
    const text = pdfText(pdf)
    expectReviewNotice(text, 'four-corners', pageCount(pdf))
    expect(flat(text)).to.include('8 GiB span clamped to 64 MiB').and.include('FOUR-CORNERS - Random Seeks').and.include('Accesses per second')
    expect(text, 'the parameters page lists the clamp').to.match(/Span\s+8 GiB span clamped to 64 MiB/)
    // the summary names each corner by its workload, not by its step id (was "rnd-4k-w-qd3-compressible 2.3 MB/s"); its
    // headline table read from the HTML report (in the PDF text its wrapped labels interleave with the device column)
    const html = readFileSync(join(out, 'report.html'), 'utf8')
    for (const c of ['RND 4KiB W QD 3, 50 % compressible', 'RND 4KiB W QD 32, incompressible', 'SEQ 128KiB R QD 1']) expect(html).to.match(new RegExp(`<tr><th>${c}</th><td class="num">[\\d,.]+ MB/s</td></tr>`)) // 1,234.5 MB/s on an idle host
    expect(html).to.not.match(/<th>rnd-4k-w-qd3/)
    // the header's data pattern says that one corner writes compressible data (was "RND" alone); pdftotext in reading order
    expect(squeeze(execFileSync('pdftotext', [pdf, '-'], {encoding: 'utf8'}))).to.include(squeeze('Data Pattern: RND (one RND 4KiB W corner: 50 % compressible)'))
    await expectPerSecond(out, r, text, env, false)
  })

  it('transfer-sizes and fill: MB/s per block size; MB/s by position in LBA order', async () => {
    const tsOut = await run('transfer-sizes')
    const ts = results(tsOut)
    expect(phase(ts, 'sizes', 'sweep').points.map(p => `${p.blockSizeBytes}/${p.readPct}`)).to.deep.equal(['512/0', '512/100', '4194304/0', '4194304/100'])
    const tsText = pdfText(join(tmp(), 'transfer-sizes', 'report.pdf'))
    expect(tsText).to.include('TRANSFER-SIZES - MB/s vs block size')
    expectReviewNotice(tsText, 'transfer-sizes', pageCount(join(tmp(), 'transfer-sizes', 'report.pdf')))
    await expectPerSecond(tsOut, ts, tsText, env, false)
    const fillOut = await run('fill')
    const fr = results(fillOut)
    const f = phase(fr, 'fill', 'fill')
    expect(f.steps.map(s => s.offsetBytes)).to.deep.equal(Array.from({length: 8}, (_, k) => k * 8 * 1024 * 1024))
    for (const s of f.steps) expect(s.writeBytes).to.equal(s.sizeBytes)
    const pdf = join(fillOut, 'report.pdf')
    const text = pdfText(pdf)
    expectReviewNotice(text, 'fill', pageCount(pdf))
    expect(text).to.include('FILL - MB/s vs % of capacity written').and.include('Slowest piece at')
    // the fill pieces have no planned length because they are written by volume, not because an older pts stored them
    expect(flat(text)).to.include('8 of 8 steps are fill pieces, each written by its volume, not for a time').and.not.include('a run stored by an earlier pts')
    expect(flat(text)).to.include('Idle gaps: no gap between two timed steps of a phase to check').and.not.include('0 gaps between steps')
    await expectPerSecond(fillOut, fr, text, env, false)
  })

  it('consistency and consistency-128k on a file: no purge (a file), per-sample statistics from fio\'s JSON, per-second logs on', async () => {
    for (const test of ['consistency', 'consistency-128k'] as const) {
      const out = join(tmp(), test)
      const r0 = await runCli(['run', test, '--device', `file:${join(tmp(), `${test}.img`)}`, '--size', '32MiB', '--time-scale', '0.0005', '--out', out], {env})
      expect(r0.code, r0.stderr.slice(-3000)).to.equal(0)
      const r = results(out)
      for (const lvl of [75, 100]) {
        expect(r.phases.find(p => p.id === `purge-${lvl}`), `purge-${lvl}: a file cannot be purged`).to.include({kind: 'purge', method: 'none'})
        const s = phase(r, `rnd-${lvl}`, 'series')
        expect(s.samples.length, `${test} ${lvl} %`).to.equal(5)
        for (const x of s.samples) { expect(x.ioCount).to.be.greaterThan(0); expect(x.latMaxNs).to.be.at.least(x.latMeanNs) }
        const range = Math.floor(32 * 1024 * 1024 * lvl / 100 / 131072) * 131072
        expect(readFileSync(join(out, s.samples[0].raw.job), 'utf8')).to.include(`size=${range}\n`)
      }
      const pdf = join(out, 'report.pdf')
      const text = pdfText(pdf)
      expectReviewNotice(text, test, pageCount(pdf))
      // a file is not purged: no level is said to start from a purge
      expect(flat(text)).to.include('Per fill level (75 %, 100 % of the capacity): no purge (a regular file cannot be purged), ')
      if (test === 'consistency') expect(flat(text)).to.include('each fill level in turn on the same target (no purge: a regular file cannot be purged)')
      expect(flat(text)).to.not.include('each fill level from its own purge')
      expect(text).to.include(`${test.toUpperCase()} - Statistics`).and.include('Floor reached at')
      // the test's own per-sample pages say their source: fio's statistics of each step, not its per-second logs
      expect(squeeze(text)).to.match(/Source:fio'sownstatistics\(itsJSONoutput\)ofeach[\d.]+m?ssample/)
      await expectPerSecond(out, r, text, env, false)
    }
  })
})

/**
 * A copy of specs/ for the loop device runs: fewer points than on the file, some of them long
 * enough at the run's --time-scale (2 s or more) for fio to log whole seconds (trace pages).
 */
function loopSpecs(dir: string): string {
  return reviewSpecsCopy(dir, {
    'fob-ss': s => {
      for (const ph of s.phases) if (ph.kind === 'sweep') { ph.loops[0].values = [0]; ph.loops[1].values = [4] }
      s.phases.find((ph: {id: string}) => ph.id === 'rnd-precondition').durationSeconds = 120 // 2 samples of 3 s at time scale 0.05
    },
    'transfer-sizes': s => { s.phases[0].loops[0].values = [131072] },
    fill: s => { s.phases[0].steps = 4 },
  })
}

describe('review tests on a loop block device (real fio, root)', function () {
  this.timeout(600_000)
  const tmp = useTmpDir('pts-it-reviews-loop-')
  let dev = ''
  let env: NodeJS.ProcessEnv
  before(function () {
    requireRoot(this, 'creating a loop device')
    env = {PTS_SPECS_DIR: loopSpecs(tmp())}
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
      // each level from its own purge, by the method that ran
      expect(flat(text)).to.include('Per fill level (75 %, 100 % of the capacity): purge (discard), ')
      if (test === 'consistency') expect(flat(text)).to.include('each fill level from its own purge (discard)')
      expect(text).to.include(`${test.toUpperCase()} - Statistics`).and.include('Floor reached at').and.match(/75 % fill - response time per (second|[\d.]+m?s sample)/)
      await expectPerSecond(out, r, text, undefined, false)
    })
  }

  /** A run on the loop device through the safety gate (purged by discard where the test purges). */
  const runLoop = async (test: string, scale: string) => {
    const out = join(tmp(), test)
    const r = await runCli(['run', test, '--device', dev, '--purge', 'discard', '--time-scale', scale, '--out', out, '--yes-destroy-data', dev], {env})
    expect(r.code, r.stderr.slice(-3000)).to.equal(0)
    return out
  }

  it('fob-ss: purge by discard, FOB and steady-state sweeps, a per-second trace page per point (3 s points)', async () => {
    const out = await runLoop('fob-ss', '0.05')
    const r = results(out)
    expect(phase(r, 'purge', 'purge')).to.include({method: 'discard', status: 'done'})
    for (const id of ['fob', 'ss']) expect(phase(r, id, 'sweep').points.map(p => `${p.readPct}/${p.queueDepth}`), id).to.deep.equal(['0/4'])
    const pdf = join(out, 'report.pdf')
    const text = pdfText(pdf)
    expectReviewNotice(text, 'fob-ss', pageCount(pdf), ['The FOB sweep (RND 4KiB W, TC 1, QD 4;', 'right after the purge (discard), then preconditioning (SEQ 128KiB W of 0.1X the capacity', 'then the same sweep again', 'not a PTS steady state'])
    expect(flat(text)).to.include('fresh out of the box (right after the purge (discard); no preconditioning)')
    expect(text).to.include('FOB-SS - RND 4KiB W - IOPS vs QD').and.include('Steady state / FOB')
    await expectPerSecond(out, r, text, env, true)
    // page titles may wrap: compared without whitespace
    for (const t of ['fob: RND 4KiB W', 'ss: RND 4KiB W', 'rnd-precondition: RND 4KiB W']) expect(squeeze(text), t).to.include(squeeze(`Per-Second Trace - ${t}`))
  })

  it('four-corners: every corner and the random seeks on the device, traces of the 2.7 s random corners', async () => {
    const out = await runLoop('four-corners', '0.015')
    const r = results(out)
    const random = phase(r, 'random', 'sweep')
    expect(random.points.map(p => p.label)).to.deep.equal(FOUR_CORNER_RANDOM_LABELS)
    for (const p of [...random.points, ...phase(r, 'sequential', 'sweep').points]) expect(p.ioCount, p.label).to.be.greaterThan(0)
    const seeks = phase(r, 'seeks', 'sweep').points[0]
    expect(seeks.latBins!.reduce((a, b) => a + b.count, 0)).to.equal(seeks.ioCount)
    const pdf = join(out, 'report.pdf')
    const text = pdfText(pdf)
    expectReviewNotice(text, 'four-corners', pageCount(pdf))
    expect(flat(text)).to.include('FOUR-CORNERS - Random Seeks').and.include('Accesses per second')
    await expectPerSecond(out, r, text, env, true)
  })

  it('transfer-sizes and fill on the device: MB/s per block size (2.5 s points, traced); MB/s by position', async () => {
    const tsOut = await runLoop('transfer-sizes', '0.5')
    const ts = results(tsOut)
    expect(phase(ts, 'sizes', 'sweep').points.map(p => `${p.blockSizeBytes}/${p.readPct}`)).to.deep.equal(['131072/0', '131072/100'])
    const tsPdf = join(tsOut, 'report.pdf')
    const tsText = pdfText(tsPdf)
    expectReviewNotice(tsText, 'transfer-sizes', pageCount(tsPdf), ['SEQ W, then SEQ R, from LBA 0 at TC 1/QD 4'])
    expect(tsText).to.include('TRANSFER-SIZES - MB/s vs block size')
    await expectPerSecond(tsOut, ts, tsText, env, true)
    const fillOut = await runLoop('fill', '0.0002')
    const fr = results(fillOut)
    const f = phase(fr, 'fill', 'fill')
    expect(f.steps.map(s => s.offsetBytes)).to.deep.equal(Array.from({length: 4}, (_, k) => k * 16 * 1024 * 1024))
    for (const s of f.steps) expect(s.writeBytes).to.equal(s.sizeBytes)
    const pdf = join(fillOut, 'report.pdf')
    const text = pdfText(pdf)
    expectReviewNotice(text, 'fill', pageCount(pdf), ['The whole capacity is written sequentially in LBA order, once, in 4 pieces of about 16 MiB'])
    expect(text).to.include('FILL - MB/s vs % of capacity written')
    await expectPerSecond(fillOut, fr, text, env, false)
  })
})
