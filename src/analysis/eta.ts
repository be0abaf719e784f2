/**
 * The ETA of a running test from measured time (pure). Each fio step takes its planned length
 * (the job's runtime=) plus an overhead that the plan cannot know: fio's start-up, the hand-over
 * between steps, parsing and storing the output. With 60 s points the overhead is noise; with
 * 0.1 s points on a busy host fio's start-up (~0.3-0.5 s) is most of a step, and an ETA from the
 * planned lengths alone is off by a factor of several. The runner measures every step's wall time
 * (from the previous step's end, or the pipeline's start, to its end), takes the mean overhead of
 * the recent steps, and adds it once per step still to run.
 */
import type {PlannedPhase, TimelineEntry} from '../plan/expand.js'

/** One finished step: its planned length (s) and the wall time it took, start-up and hand-over included (s). */
export interface StepWall { plannedSec: number; wallSec: number }

/** What is left to run: planned seconds and fio steps, at least and at most (a loop may stop at its first steady window). */
export interface Remaining { minSec: number; maxSec: number; minSteps: number; maxSteps: number }

/** How many recent steps the overhead is averaged over (a phase's start-up cost changes with its thread count and output format). */
export const ETA_WINDOW_STEPS = 32

/**
 * The mean overhead per step (wall time beyond the planned length) over the last ETA_WINDOW_STEPS
 * steps, never below 0 (a step cannot take less than its runtime=); 0 before any step was measured.
 */
export function stepOverheadSec(steps: readonly StepWall[]): number {
  const recent = steps.slice(-ETA_WINDOW_STEPS)
  if (recent.length === 0) return 0
  const mean = recent.reduce((a, s) => a + (s.wallSec - s.plannedSec), 0) / recent.length
  return Math.max(0, mean)
}

/** The ETA: the planned seconds left plus one measured overhead per step left. */
export function etaFromMeasured(rem: Remaining, overheadSec: number): {min: number; max: number} {
  return {min: rem.minSec + rem.minSteps * overheadSec, max: rem.maxSec + rem.maxSteps * overheadSec}
}

/** Element-wise sum of Remaining values. */
export function addRemaining(...parts: Remaining[]): Remaining {
  return parts.reduce((a, r) => ({minSec: a.minSec + r.minSec, maxSec: a.maxSec + r.maxSec, minSteps: a.minSteps + r.minSteps, maxSteps: a.maxSteps + r.maxSteps}),
    {minSec: 0, maxSec: 0, minSteps: 0, maxSteps: 0})
}

/**
 * A whole phase as planned: its timeline seconds and its number of fio steps (a purge has none;
 * WIPC is one step whose length depends on the device, as in the timeline).
 */
export function phaseRemaining(phase: PlannedPhase, t: Pick<TimelineEntry, 'minSec' | 'maxSec'>): Remaining {
  const sec = {minSec: t.minSec, maxSec: t.maxSec}
  switch (phase.kind) {
    case 'purge': return {...sec, minSteps: 0, maxSteps: 0}
    case 'wipc': return {...sec, minSteps: 1, maxSteps: 1}
    case 'loop': {
      const perRound = phase.points.length + (phase.preRound ? 1 : 0)
      return {...sec, minSteps: Math.min(phase.steadyState.windowRounds, phase.maxRounds) * perRound, maxSteps: phase.roundCap * perRound}
    }
    case 'series': return {...sec, minSteps: Math.round(t.minSec / phase.sampleSeconds), maxSteps: phase.maxSamples}
    case 'bursts': return {...sec, minSteps: phase.repeats, maxSteps: phase.repeats}
    case 'histogram': return {...sec, minSteps: 1, maxSteps: 1}
    case 'sweep': return {...sec, minSteps: phase.points.length, maxSteps: phase.points.length}
    case 'fill': {
      const n = phase.passes * phase.pieces.length
      return {...sec, minSteps: n, maxSteps: n}
    }
    case 'operating-points': {
      const n = 3 * (phase.prewrite.samples + 1)
      return {...sec, minSteps: n, maxSteps: n}
    }
  }
}
