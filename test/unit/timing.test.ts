/**
 * Run timing (src/analysis/timing.ts), table-driven: the bounds that pts run records, pts audit
 * checks and the report shows; then every step of the captured fixture runs (real fio, some
 * captured at load ~30) against them: no stored step overran its bound.
 */
import {expect} from 'chai'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {acrossResume, DEFAULT_MAX_GAP_MS, gapMs, gapText, MAX_STEPS_AHEAD, overrunLimitSec, reviewTiming, runTimingReview, SETUP_LEAD_SEC, spanSec, startAhead, stepTiming, timingFindings, type TimedStep} from '../../src/analysis/timing.js'
import {stepsOf} from '../../src/analysis/steps.js'
import {jobRuntimeSec} from '../../src/engine/parse.js'
import {readStoredRun} from '../../src/store/read.js'

const RUNS = fileURLToPath(new URL('../fixtures/runs/', import.meta.url))

describe('run timing: bounds (pure)', () => {
  it('the overrun bound is the step\'s maximum response time + 10 ms', () => {
    expect(overrunLimitSec(0)).to.equal(0.01)
    expect(overrunLimitSec(372_000_000)).to.equal(0.382)
    expect(overrunLimitSec(1_234_567)).to.equal(0.011235)
  })

  it('gapMs: start minus the previous end, in ms', () => {
    expect(gapMs(1_000_000_000n, 1_250_500_000n)).to.equal(250.5)
    expect(gapMs('5', '5')).to.equal(0)
  })

  const cases: Array<{name: string; planned: number; runtime: number; latMaxMs: number; gap: number | null; span?: number; kinds: string[]}> = [
    {name: 'on time (fio adds 1 ms)', planned: 0.2, runtime: 0.201, latMaxMs: 3, gap: 5, kinds: []},
    {name: 'an overrun of 328 ms within a 372 ms maximum response time (load ~30)', planned: 0.2, runtime: 0.528, latMaxMs: 372, gap: 20, kinds: []},
    {name: 'an overrun beyond the maximum response time + 10 ms', planned: 1, runtime: 1.274, latMaxMs: 100, gap: 20, kinds: ['overrun']},
    {name: 'shorter than its length', planned: 1, runtime: 0.2, latMaxMs: 3, gap: null, kinds: ['short']},
    {name: '1 ms short is short (fio reports whole ms and never ends a time_based job early)', planned: 60, runtime: 59.999, latMaxMs: 3, gap: null, kinds: ['short']},
    {name: 'a runtime below the length in a step that lasted its length is not short (fio 3.33 at load ~40: its runtime counts from its I/O loop, its limit from its epoch)', planned: 0.1, runtime: 0.056, latMaxMs: 3, gap: null, span: 0.104, kinds: []},
    {name: 'short when the step\'s span is below its length too (fio stopped early)', planned: 1, runtime: 0.6, latMaxMs: 3, gap: null, span: 0.65, kinds: ['short']},
    {name: 'a span of exactly the length is not short', planned: 0.2, runtime: 0.198, latMaxMs: 3, gap: null, span: 0.2, kinds: []},
    {name: 'a gap at the limit passes, beyond fails', planned: 0.2, runtime: 0.201, latMaxMs: 3, gap: DEFAULT_MAX_GAP_MS + 0.5, kinds: ['gap']},
    {name: 'a gap of exactly the limit passes', planned: 0.2, runtime: 0.201, latMaxMs: 3, gap: DEFAULT_MAX_GAP_MS, kinds: []},
  ]
  for (const c of cases) {
    it(c.name, () => {
      const t = stepTiming(c.planned, {runtimeSec: c.runtime, latMaxNs: c.latMaxMs * 1e6}, c.gap)
      const f = timingFindings(t, 'step', DEFAULT_MAX_GAP_MS, c.span ?? null)
      expect(f.map(x => x.kind)).to.deep.equal(c.kinds)
      for (const x of f) expect(x.text).to.match(/^step: /)
    })
  }

  it('overrunSec carries no float noise', () => {
    expect(stepTiming(0.2, {runtimeSec: 0.528, latMaxNs: 0}, null).overrunSec).to.equal(0.328)
  })

  it('reviewTiming: figures of the run, excused gaps (across a resume) are not failures', () => {
    const t = (runtime: number, gap: number | null): TimedStep['timing'] => stepTiming(0.2, {runtimeSec: runtime, latMaxNs: 50e6}, gap)
    const steps: TimedStep[] = [
      {what: 'a', timing: t(0.201, null), spanSec: 0.21, gapExcused: false},
      {what: 'b', timing: t(0.3, 12), spanSec: 0.31, gapExcused: false},
      {what: 'c', timing: t(0.201, 9000), spanSec: 0.21, gapExcused: true},
      {what: 'd', timing: null, spanSec: 0.2, gapExcused: false},
      {what: 'e', timing: t(0.201, 1500), spanSec: 0.21, gapExcused: false},
      {what: 'f', timing: t(0.15, 20), spanSec: 0.203, gapExcused: false},
      {what: 'g', timing: t(0.15, 20), spanSec: 0.16, gapExcused: false},
    ]
    const r = reviewTiming(steps, 1000)
    expect(r.ok).to.equal(false)
    expect(r.checked).to.equal(6)
    expect(r.steps).to.equal(7)
    expect(r.short).to.deep.equal(['g: fio ran 0.15 s and the step lasted 0.16 s from its start to its end, shorter than the 0.2 s its job asked for'])
    expect(r.overruns).to.have.length(1)
    expect(r.overruns[0]).to.match(/^b: .*overrun of 100 ms beyond its bound of 60 ms/)
    expect(r.gaps).to.deep.equal(['e: started 1500 ms after the previous step ended (limit 1000 ms of idle time)'])
    expect(r.gapStats).to.deep.equal({count: 4, medianMs: 20, maxMs: 1500, excused: 1})
    expect(r.maxOverrun).to.deep.equal({sec: 0.1, limitSec: 0.06, what: "b"})
  })

  /** How many steps a pipeline keeps started ahead of a running step, all of `sec` planned length. */
  const ahead = (min: number, sec: number | null) => {
    const waiting: Array<number | null> = []
    while (startAhead(min, sec, waiting)) waiting.push(sec)
    return waiting.length
  }

  it('startAhead: short steps are started far enough ahead to set up on a busy host (>= 3 s of planned time before the newest)', () => {
    expect(SETUP_LEAD_SEC).to.equal(4)
    // the newest step started ahead waits behind the running one and the others: that is its time to set up
    const lead = (sec: number) => sec * ahead(2, sec)
    expect(ahead(2, 0.5)).to.equal(6)
    expect(lead(0.5)).to.equal(3)
    expect(ahead(2, 1)).to.equal(3)
    expect(lead(1)).to.equal(3)
    expect(ahead(2, 2)).to.equal(2)
    // at most MAX_STEPS_AHEAD fio processes waiting, however short the steps
    expect(ahead(2, 0.05)).to.equal(MAX_STEPS_AHEAD)
  })

  it('startAhead: long steps and steps of unknown length keep the minimum; 0 never starts a step ahead', () => {
    expect(ahead(2, 60)).to.equal(2)
    expect(ahead(2, null)).to.equal(2)
    expect(ahead(1, 60)).to.equal(1)
    expect(ahead(0, 0.5)).to.equal(0)
    expect(startAhead(2, 0.5, [null, null])).to.equal(false)
  })

  it('acrossResume: a resume between the two steps', () => {
    const end = 1_700_000_000_000n * 1_000_000n
    expect(acrossResume([1_700_000_000_500], end, end + 1_000_000_000n)).to.equal(true)
    expect(acrossResume([1_700_000_002_000], end, end + 1_000_000_000n)).to.equal(false)
  })

  // Seen on the fill report's summary: "0 gaps between steps: median 0.0 ms, max 0.0 ms" for a run
  // whose steps are all fill pieces (no length, so no gap is measured)
  it('gapText: with no gap to check it says so, not "0 gaps ... median 0.0 ms"', () => {
    const untimed: TimedStep[] = [1, 2, 3].map(i => ({what: `piece ${i}`, timing: null, spanSec: null, gapExcused: false}))
    expect(gapText(reviewTiming(untimed, DEFAULT_MAX_GAP_MS))).to.equal('no gap between two timed steps of a phase to check (limit 1000 ms)')
    const timed: TimedStep[] = [null, 12, 30].map((g, i) => ({what: `step ${i}`, timing: stepTiming(1, {runtimeSec: 1, latMaxNs: 1e6}, g), spanSec: 1.01, gapExcused: false}))
    expect(gapText(reviewTiming(timed, DEFAULT_MAX_GAP_MS))).to.equal('2 gaps between steps: median 30.0 ms, max 30.0 ms (limit 1000 ms)')
  })

  it('jobRuntimeSec reads a time_based job\'s runtime= (ms or s); null otherwise', () => {
    expect(jobRuntimeSec('[global]\ntime_based=1\nruntime=200ms\n[a]\nrw=write\n')).to.equal(0.2)
    expect(jobRuntimeSec('[global]\ntime_based=1\nruntime=60\n[a]\n')).to.equal(60)
    expect(jobRuntimeSec('[global]\nsize=1g\n[a]\nrw=write\n')).to.equal(null)
  })
})

describe('run timing of every captured fixture run (real fio)', () => {
  const dirs = readdirSync(RUNS).filter(d => existsSync(join(RUNS, d, 'results.json')))
  it('covers the stored runs', () => expect(dirs.length).to.be.greaterThan(10))
  for (const d of dirs) {
    it(`${d}: no step shorter than its job's runtime, every overrun within its maximum response time + 10 ms`, () => {
      const {results} = readStoredRun(join(RUNS, d))
      let n = 0
      for (const s of stepsOf(results)) {
        // the compare-* fixtures keep only the fio JSON outputs, not the job files
        if (!existsSync(join(RUNS, d, s.step.raw.job))) continue
        const planned = jobRuntimeSec(readFileSync(join(RUNS, d, s.step.raw.job), 'utf8'))
        if (planned === null) continue
        n++
        const f = timingFindings(stepTiming(planned, s.step, null), s.what, DEFAULT_MAX_GAP_MS, spanSec(s.step))
        expect(f.map(x => x.text)).to.deep.equal([])
      }
      if (!d.startsWith('compare-')) expect(n).to.be.greaterThan(0)
      // the report's review (from results.json alone) finds no duration problem either
      const r = runTimingReview(results, [])
      expect([...r.short, ...r.overruns]).to.deep.equal([])
    })
  }
})
