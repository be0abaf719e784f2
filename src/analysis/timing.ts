/**
 * Run timing (pure): how long each fio step ran against the length its job asked for, the idle
 * time between consecutive steps of a phase, and the bounds pts holds both to. The same functions
 * serve `pts run` (which stores each step's timing with the step and reports a step beyond its
 * bound in the progress log as it happens), `pts audit` (which recomputes them from raw/ and
 * fails a step beyond its bound) and the report's summary page (which shows the same verdict).
 *
 * Why these bounds (digest Part A 7, "no idle gap between test points"):
 * - Shorter than its length: a time_based fio job never ends before its runtime unless it
 *   failed. fio measures that time limit from the job's epoch (set just after pts's start gate
 *   opens) but reports each direction's runtime from the start of its I/O loop, a moment later;
 *   on a busy host fio's thread can be descheduled in between (seen at load ~40 on 2 cores: 56 ms
 *   of reported runtime in a 100 ms step whose fio job_runtime, counted from the epoch, was
 *   100 ms). So a step is short only when its fio runtime is below the job's runtime (fio reports
 *   whole ms) and its span (startNs to endNs: the gate's opening to the end of its last thread,
 *   which contains fio's epoch-to-end time) is below it too: fio stopped before its time was up.
 * - Overrun: when the time is up fio issues no further I/O and waits for the I/O in flight (up
 *   to TC x QD IOs). Each of those was issued before the time was up and completes within the
 *   step's own maximum response time (fio's lat_ns max), so the overrun is at most that maximum,
 *   plus OVERRUN_SLACK_SEC for fio's whole-ms runtime and its clock check between I/Os. (Measured
 *   on 2,931 stored steps, load 0.5 to 30: every overrun was within the maximum response time
 *   + 0.3 ms.) A busy host makes the drain slower, and that shows in the maximum response time, so
 *   the bound follows the load.
 * - Idle gaps: the next steps' fio processes are started ahead and wait, set up, until the
 *   previous step's last I/O has completed (startAhead: at least two, and for short steps as many
 *   as make SETUP_LEAD_SEC of planned time ahead of the newest one, because a busy host can take
 *   two seconds to set a fio job up); the gap is measured from that completion (after the drain)
 *   to the next step's I/O start. The hand-over takes ~5 ms on an idle host and a few hundred ms on a
 *   busy one; pts allows DEFAULT_MAX_GAP_MS (pts audit --max-gap-ms), beyond which the drive has
 *   had idle time the test does not give it. A gap across a recorded interruption (pts resume)
 *   is a disclosed deviation, not a failure.
 */
import type {PhaseResult, ProgramResults, StepResult, StepTiming} from '../model/results.js'
import {stepsOf} from './steps.js'

/** Added to a step's maximum response time for its overrun bound: fio's whole-ms runtime and its clock check. */
export const OVERRUN_SLACK_SEC = 0.01
/** A runtime this far below the job's runtime is short (fio reports runtime in whole ms). */
export const SHORT_TOLERANCE_SEC = 0.0005
/** Idle time allowed between consecutive steps of a phase (pts audit --max-gap-ms), ms. */
export const DEFAULT_MAX_GAP_MS = 1000

/** Planned step time (s) pts keeps ahead of the newest step it starts ahead: the time that step has to set up before its turn. */
export const SETUP_LEAD_SEC = 4
/** At most this many steps started ahead (each is a fio process with its buffers, waiting at the gate). */
export const MAX_STEPS_AHEAD = 6

/**
 * Whether a pipeline starts one more step ahead: `min` steps ahead at least (0: never, each step
 * depends on the one before), and beyond that while the running step and the waiting ones plan
 * less than SETUP_LEAD_SEC together (a step of unknown length counts as long enough), at most
 * MAX_STEPS_AHEAD. Measured at load 14 on 2 cores (two CPU hogs and other test runs): a fio job
 * of 0.5 s points reached its start gate up to 1.8 s after the step before it had ended when it
 * was started only two steps ahead, and that idle time was the gap.
 */
export function startAhead(min: number, runningSec: number | null, waitingSec: readonly (number | null)[]): boolean {
  if (min <= 0) return false
  if (waitingSec.length < min) return true
  if (waitingSec.length >= MAX_STEPS_AHEAD) return false
  const lead = [runningSec, ...waitingSec].reduce<number>((a, b) => a + (b ?? Infinity), 0)
  return lead < SETUP_LEAD_SEC
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6
const round3 = (x: number) => Math.round(x * 1e3) / 1e3

/** The largest overrun accepted for a step: its maximum response time + OVERRUN_SLACK_SEC (s, rounded to µs). */
export function overrunLimitSec(latMaxNs: number): number {
  return round6(latMaxNs / 1e9 + OVERRUN_SLACK_SEC)
}

/** Idle time between a step that ended at endNs and the next one that started at startNs, ms (rounded to µs). */
export function gapMs(endNs: bigint | string, startNs: bigint | string): number {
  return round3(Number(BigInt(startNs) - BigInt(endNs)) / 1e6)
}

/** A step's timing as pts run stores it (results.json, optional field `timing`) and pts audit recomputes it. */
export function stepTiming(plannedSec: number, m: {runtimeSec: number; latMaxNs: number}, gapBefore: number | null): StepTiming {
  return {plannedSec, overrunSec: round6(m.runtimeSec - plannedSec), overrunLimitSec: overrunLimitSec(m.latMaxNs), gapBeforeMs: gapBefore}
}

/** A step's span, s: from its start (the gate's opening, before fio's epoch) to its end (after its last thread's I/O). */
export function spanSec(step: {startNs: bigint | string; endNs: bigint | string}): number {
  return round6(gapMs(step.startNs, step.endNs) / 1000)
}

export interface TimingFinding {
  kind: 'short' | 'overrun' | 'gap'
  /** Human text naming the step, the figure and the bound. */
  text: string
}

const ms = (sec: number) => `${Math.round(sec * 1000)} ms`

/**
 * What is wrong with one step's timing (empty: within every bound). `what` names the step;
 * `span` is the step's span (spanSec), null when not known (then a runtime below the length is short).
 */
export function timingFindings(t: StepTiming, what: string, maxGapMs: number, span: number | null): TimingFinding[] {
  const out: TimingFinding[] = []
  const ran = round6(t.plannedSec + t.overrunSec)
  const short = t.overrunSec < -SHORT_TOLERANCE_SEC && (span === null || span < t.plannedSec - SHORT_TOLERANCE_SEC)
  if (short) out.push({kind: 'short', text: `${what}: fio ran ${ran} s${span === null ? '' : ` and the step lasted ${span} s from its start to its end`}, shorter than the ${t.plannedSec} s its job asked for`})
  if (t.overrunSec > t.overrunLimitSec) out.push({kind: 'overrun', text: `${what}: fio ran ${ran} s for ${t.plannedSec} s, an overrun of ${ms(t.overrunSec)} beyond its bound of ${ms(t.overrunLimitSec)} (the step's maximum response time + ${ms(OVERRUN_SLACK_SEC)})`})
  if (t.gapBeforeMs !== null && t.gapBeforeMs > maxGapMs) out.push({kind: 'gap', text: `${what}: started ${Math.round(t.gapBeforeMs)} ms after the previous step ended (limit ${maxGapMs} ms of idle time)`})
  return out
}

/** One step of a run for the timing review: its timing (null when its planned length is unknown) and whether its gap is excused. */
export interface TimedStep {
  what: string
  timing: StepTiming | null
  /** Its span from start to end, s (spanSec); null when not known. */
  spanSec: number | null
  /** The gap before it spans a recorded interruption (pts resume): disclosed, not a failure. */
  gapExcused: boolean
}

export interface TimingReview {
  ok: boolean
  /** Steps whose duration was checked / all steps. */
  checked: number
  steps: number
  short: string[]
  overruns: string[]
  gaps: string[]
  /** Largest overrun (s) and its bound (s), over the checked steps. */
  maxOverrun: {sec: number; limitSec: number; what: string} | null
  gapStats: {count: number; medianMs: number; maxMs: number; excused: number}
  maxGapMs: number
}

/** Every step's findings and the figures of the whole run. */
export function reviewTiming(steps: readonly TimedStep[], maxGapMs: number): TimingReview {
  const short: string[] = []
  const overruns: string[] = []
  const gaps: string[] = []
  let maxOverrun: TimingReview['maxOverrun'] = null
  const gapList: number[] = []
  let excused = 0
  let checked = 0
  for (const s of steps) {
    if (!s.timing) continue
    checked++
    const t = s.timing
    if (!maxOverrun || t.overrunSec > maxOverrun.sec) maxOverrun = {sec: t.overrunSec, limitSec: t.overrunLimitSec, what: s.what}
    if (t.gapBeforeMs !== null) {
      if (s.gapExcused) excused++
      else gapList.push(t.gapBeforeMs)
    }
    const f = timingFindings(s.gapExcused ? {...t, gapBeforeMs: null} : t, s.what, maxGapMs, s.spanSec)
    for (const x of f) (x.kind === 'short' ? short : x.kind === 'overrun' ? overruns : gaps).push(x.text)
  }
  const sorted = [...gapList].sort((a, b) => a - b)
  return {
    ok: short.length + overruns.length + gaps.length === 0, checked, steps: steps.length, short, overruns, gaps, maxOverrun,
    gapStats: {count: sorted.length, medianMs: sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0, maxMs: sorted.at(-1) ?? 0, excused},
    maxGapMs,
  }
}

/** One line on the step durations of a review (pts audit and the report say the same). */
export function durationText(r: TimingReview): string {
  const bound = `bound per step: its maximum response time + ${ms(OVERRUN_SLACK_SEC)}, the time fio needs to complete the I/O in flight when the step's time is up`
  if (r.checked === 0) return 'no step with a known planned length'
  const largest = r.maxOverrun ? `; largest overrun ${ms(r.maxOverrun.sec)} (${r.maxOverrun.what}, bound ${ms(r.maxOverrun.limitSec)})` : ''
  return `${r.checked} fio steps: ${r.short.length === 0 ? 'no step shorter than its length' : `${r.short.length} shorter than their length`}, ${r.overruns.length === 0 ? 'every overrun within its bound' : `${r.overruns.length} beyond the bound`}${largest} (${bound})`
}

/** One line on the idle gaps of a review. */
export function gapText(r: TimingReview): string {
  const g = r.gapStats
  if (g.count === 0 && g.excused === 0) return `no gap between two timed steps of a phase to check (limit ${r.maxGapMs} ms)`
  return `${g.count} gaps between steps: median ${g.medianMs.toFixed(1)} ms, max ${g.maxMs.toFixed(1)} ms (limit ${r.maxGapMs} ms${r.gaps.length ? `; ${r.gaps.length} beyond it` : ''})${g.excused ? `; ${g.excused} across a recorded interruption (a deviation in the manifest)` : ''}`
}

/** Whether a recorded resume (ms since the epoch) falls between a step's predecessor's end and its start. */
export function acrossResume(resumesMs: readonly number[], prevEndNs: bigint | string, startNs: bigint | string): boolean {
  const a = Number(BigInt(prevEndNs) / 1_000_000n)
  const b = Number(BigInt(startNs) / 1_000_000n)
  return resumesMs.some(t => t >= a && t <= b)
}

/**
 * The timing of every step as stored (results.json) or, for a run stored before pts recorded it,
 * derived from the stored step and its planned length (null when the length is not known from
 * results.json alone: pts audit reads it from the job file).
 */
export function storedTiming(step: StepResult, plannedSec: number | null, prev: StepResult | null): StepTiming | null {
  if (step.timing) return step.timing
  if (plannedSec === null) return null
  return stepTiming(plannedSec, step, prev ? gapMs(prev.endNs, step.startNs) : null)
}

/** The planned length of a step as results.json alone gives it (a run stored before pts recorded step timing), else null. */
function plannedFromPhase(p: PhaseResult): number | null {
  if (p.kind === 'loop') return p.criteria.pointSeconds
  if (p.kind === 'series') return p.sampleSeconds
  // one fio step per burst (p.steps), or, in runs stored before that, one job for every burst and its idle
  if (p.kind === 'bursts') return p.steps && p.steps.length > 0 ? p.burstSeconds : p.repeats * (p.burstSeconds + p.idleSeconds)
  return null
}

/**
 * The timing review of a stored run from results.json and the manifest's resume events alone
 * (the report's summary page): each step's stored timing, or for a run stored before pts recorded
 * it, the timing derived from the step and its phase's planned length. pts audit reaches the same
 * verdict from raw/ (it reads each job's runtime= and recomputes every figure).
 */
export function runTimingReview(r: ProgramResults, resumesMs: readonly number[], maxGapMs = DEFAULT_MAX_GAP_MS): TimingReview {
  const prevOf = new Map<PhaseResult, StepResult>()
  const timed: TimedStep[] = []
  for (const s of stepsOf(r)) {
    const prev = prevOf.get(s.phase) ?? null
    prevOf.set(s.phase, s.step)
    // HIR bursts have planned host idle between them (pts audit checks it against that plan)
    const gapPrev = s.phase.kind === 'operating-points' || s.phase.kind === 'bursts' ? null : prev
    // a loop's pre-round write (CBW/DIRTH) has its own length, not recorded in results.json
    const t = storedTiming(s.step, s.pointer.endsWith('/preRound') ? null : plannedFromPhase(s.phase), gapPrev)
    timed.push({what: `${s.step.raw.json} (${s.what})`, timing: t, spanSec: spanSec(s.step), gapExcused: gapPrev !== null && acrossResume(resumesMs, gapPrev.endNs, s.step.startNs)})
  }
  return reviewTiming(timed, maxGapMs)
}
