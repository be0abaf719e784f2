/**
 * Per-second traces of a stored run (pts run --per-second), one per test point: a loop point's
 * rounds end to end, a series' samples end to end, one trace per other step kind. Pure: read
 * from results.json (the report, compare and CSV read the same traces).
 */
import type {PhaseResult, ProgramResults, StepResult} from '../model/results.js'
import {stepsOf} from './steps.js'

export interface TraceRow {
  /** Seconds into the point's trace: each step's second s at the sum of the earlier steps' lengths + s. */
  x: number
  iops: number
  bwBytesPerSec: number
  latMeanNs: number | null
  latMaxNs: number | null
}

export interface PointTrace {
  /** "<phase id>/<point id>" (a loop point), "<phase id>" (a series, bursts or histogram phase), "<phase id>/<role step>" (operating points). */
  key: string
  phase: PhaseResult
  /** "SEQ 1024KiB R TC 1/QD 4". */
  label: string
  /** What the x axis spans: "rounds 1-5, 3 s each, end to end". */
  span: string
  steps: StepResult[]
  rows: TraceRow[]
  /** Seconds the steps ran (their lengths) and seconds fio logged (the traced ones). */
  stepSeconds: number
  tracedSeconds: number
}

const stepSec = (s: StepResult): number => s.timing?.plannedSec ?? s.runtimeSec

function groupKey(phase: PhaseResult, step: StepResult): string {
  if (phase.kind === 'loop' || phase.kind === 'sweep') return `${phase.id}/${step.id}`
  if (phase.kind === 'operating-points') return `${phase.id}/${step.id.replace(/-\d+$/, '')}`
  return phase.id
}

/** Every point's per-second trace, in run order of its first step; empty for a run without traces. */
export function pointTraces(r: ProgramResults): PointTrace[] {
  const groups = new Map<string, {phase: PhaseResult; steps: StepResult[]; what: string[]}>()
  for (const s of stepsOf(r)) {
    if (!s.step.perSecond) continue
    const k = groupKey(s.phase, s.step)
    const g = groups.get(k) ?? {phase: s.phase, steps: [], what: []}
    g.steps.push(s.step)
    g.what.push(s.what)
    groups.set(k, g)
  }
  return [...groups].map(([key, g]) => {
    const rows: TraceRow[] = []
    let offset = 0
    for (const st of g.steps) {
      for (const v of st.perSecond!.seconds) rows.push({x: offset + v.s, iops: v.iops, bwBytesPerSec: v.bwBytesPerSec, latMeanNs: v.latMeanNs, latMaxNs: v.latMaxNs})
      offset += stepSec(st)
    }
    const first = g.steps[0]
    const len = +stepSec(first).toFixed(3)
    const phase = g.phase
    const rounds = phase.kind === 'loop' ? phase.rounds.filter(rd => rd.points.some(p => g.steps.includes(p)) || (rd.preRound !== null && g.steps.includes(rd.preRound))).map(rd => rd.round) : []
    const span = phase.kind === 'loop' ? (rounds.length > 1 ? `rounds ${rounds[0]}-${rounds.at(-1)}, ${len} s each, end to end` : `round ${rounds[0] ?? 1}, ${len} s`)
      : g.steps.length > 1 ? `${g.steps.length} steps of ${len} s end to end` : `one step of ${len} s`
    return {key, phase: g.phase, label: `${first.label} TC ${first.threadCount}/QD ${first.queueDepth}`, span, steps: g.steps, rows,
      stepSeconds: g.steps.reduce((a, s) => a + stepSec(s), 0), tracedSeconds: rows.length}
  })
}
