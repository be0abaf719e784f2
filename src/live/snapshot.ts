/**
 * What the live page (`pts serve`) shows of one stored run, built from one read of its
 * manifest.json and results.json: the list row (test, device, state, phase, round, ETA, verdict so
 * far) and the detail (steady-state convergence per loop with its window, every fio step's values,
 * with their charts). The list row and the detail are built from the same read, so the two can
 * never disagree. Pure: whether the run's pts process is alive, the plan's timeline and the time
 * come in as values.
 */
import {stepsOf} from '../analysis/steps.js'
import {lineChart} from '../report/charts/generic.js'
import type {RunManifest} from '../model/manifest.js'
import type {ProgramTracking} from '../model/definition.js'
import type {PhaseResult, ProgramResults} from '../model/results.js'
import {testName} from '../model/tests.js'
import {formatDuration} from '../units.js'

/** What a run is doing, as the page says it. */
export type LiveState = 'running' | 'stopped' | 'interrupted' | 'failed' | 'complete' | 'unknown' | 'unreadable'

/** One row of the run list. */
export interface LiveRunRow {
  /** The run directory relative to the served directory ("/"-separated); the key of GET /api/state?run=. */
  id: string
  /** The folder that holds the run directory, relative to the served directory ("" = the served directory itself). */
  group: string
  /** The run directory's absolute path on the serving host. */
  path: string
  runId: string | null
  test: string | null
  /** "IOPS Test". */
  testName: string | null
  device: string | null
  model: string | null
  serial: string | null
  /** The host pts ran on (manifest.json). */
  host: string | null
  state: LiveState
  /** The state in words, e.g. "stopped: its pts process (pid 123) is gone". */
  stateText: string
  /** For a run that can be continued: the command that continues it. */
  resumeCommand: string | null
  /** The phase running now (or the last one with data when the run ended). */
  phase: string | null
  /** @integer @minimum 0 */
  phaseNumber: number | null
  /** @integer @minimum 0 */
  phaseCount: number | null
  /** The loop round of that phase (null outside a steady-state loop). @integer @minimum 0 */
  round: number | null
  /** The loop's round limit. @integer @minimum 1 */
  maxRounds: number | null
  /** fio steps stored so far. @integer @minimum 0 */
  steps: number
  /** Time left while the run is running: the shortest and longest, s; null when not running or not known. */
  eta: null | {
    /** @minimum 0 */
    minSec: number
    /** @minimum 0 */
    maxSec: number
    /** "3m 20s - 8m 05s". */
    text: string
    /** Phases still to run whose length depends on the device (purge, WIPC), not counted in the time. */
    notCounted: string[]
  }
  /** Steady state so far, in words ("steady in rounds 2-6", "needs 5 rounds, has 3", ...). */
  verdict: string
  /** @format date-time */
  startedAt: string | null
  /** When the last test point stored ended; null before the first. @format date-time */
  updatedAt: string | null
  /** The run's error message (failed runs), or why its files could not be read. */
  error: string | null
}

/** The steady-state tracking of one loop phase, round by round. */
export interface LiveConvergence {
  phase: string
  title: string
  /** steady, not-steady (window of the last rounds at the round limit), not-yet (fewer rounds than the window). */
  status: 'steady' | 'not-steady' | 'not-yet'
  /** @integer @minimum 1 */
  windowRounds: number
  /** The measurement window (or the last window evaluated), null before the loop has enough rounds. */
  window: null | {
    /** @integer */
    fromRound: number
    /** @integer */
    toRound: number
  }
  variables: Array<{
    id: string
    label: string
    metric: string
    values: Array<{
      /** @integer @minimum 1 */
      round: number
      value: number
    }>
  }>
}

/** One stored fio step. */
export interface LivePoint {
  /** Position in run order, from 1. @integer @minimum 1 */
  n: number
  phase: string
  /** "loop round 3 point 12 (rw65-bs8k)". */
  what: string
  /** @format date-time */
  finishedAt: string
  /** @minimum 0 */
  iops: number
  /** Decimal MB/s. @minimum 0 */
  mbps: number
  /** Mean total latency, ms. @minimum 0 */
  latMeanMs: number
}

export interface LiveChart {
  title: string
  /** A Vega-Lite specification (compiled and drawn by the page with the vega and vega-lite packages). */
  spec: Record<string, unknown>
}

export interface LiveRunDetail {
  convergence: LiveConvergence[]
  points: LivePoint[]
  charts: LiveChart[]
}

/** The plan's timeline (plan/expand.ts): each phase's shortest and longest duration, in order. */
export interface TimelineFacts {
  phases: Array<{phase: string; title: string; minSec: number; maxSec: number; dependsOnDevice: boolean}>
}

export interface SnapshotInput {
  id: string
  group: string
  path: string
  manifest: RunManifest
  results: ProgramResults
  /** Is the pts process of a run marked running alive? null: cannot tell (the run was on another host). */
  alive: boolean | null
  /** The plan's timeline for the ETA; null when it cannot be computed. */
  timeline: TimelineFacts | null
  /** Now, ISO. */
  now: string
}

const isLoop = (p: PhaseResult): p is Extract<PhaseResult, {kind: 'loop'}> => p.kind === 'loop'

function stateOf(i: SnapshotInput): {state: LiveState; text: string; resume: boolean} {
  const m = i.manifest
  const status = m.status === 'running' || i.results.status === 'running' ? 'running' : m.status
  if (status === 'complete') return {state: 'complete', text: 'complete', resume: false}
  if (status === 'failed') return {state: 'failed', text: `failed: ${m.error?.message ?? 'the run stopped with an error'}`, resume: true}
  if (status === 'interrupted') return {state: 'interrupted', text: 'interrupted (stopped by a signal or Ctrl-C)', resume: true}
  if (i.alive === true) return {state: 'running', text: `running (pid ${m.pid})`, resume: false}
  if (i.alive === false) return {state: 'stopped', text: `stopped: its pts process (pid ${m.pid}) is gone; the run was killed, crashed or its host restarted`, resume: true}
  return {state: 'unknown', text: `marked running by pts on ${m.host.hostname}; this host cannot check that process`, resume: false}
}

/** The phase to show: the first one not done (running, failed, pending with data), else the last. */
function currentPhase(r: ProgramResults): number {
  const i = r.phases.findIndex(p => p.status === 'running' || p.status === 'failed')
  if (i >= 0) return i
  const pending = r.phases.findIndex(p => p.status === 'pending')
  return pending >= 0 ? pending : r.phases.length - 1
}

function verdictOf(r: ProgramResults): string {
  const loops = r.phases.filter(isLoop).filter(l => l.rounds.length > 0)
  const seriesSS = r.phases.flatMap(p => (p.kind === 'series' && p.steadyState ? [{id: p.id, v: p.steadyState}] : []))
  const parts = loops.map(l => {
    const e = l.evaluations.at(-1)
    const complete = l.rounds.filter(x => x.finishedAt !== null).length
    let t: string
    if (!e || e.status === 'not-yet') t = `needs ${l.criteria.windowRounds} complete rounds, has ${complete}${l.criteria.maxRounds < l.criteria.windowRounds ? ` (round limit ${l.criteria.maxRounds}: steady state cannot be reached)` : ''}`
    else if (e.status === 'steady') t = `steady in rounds ${e.fromRound}-${e.toRound}`
    else t = l.status === 'done' ? `not achieved (window rounds ${e.fromRound}-${e.toRound})` : `not steady yet (rounds ${e.fromRound}-${e.toRound})`
    return loops.length > 1 ? `${l.id}: ${t}` : t
  })
  for (const s of seriesSS) {
    if (s.v.verdict === 'steady') parts.push(`${s.id}: steady in rounds ${s.v.fromRound}-${s.v.toRound}`)
    else if (s.v.verdict === 'not-achieved') parts.push(`${s.id}: not achieved`)
  }
  if (parts.length > 0) return parts.join('; ')
  return r.phases.some(isLoop) ? 'no complete round yet' : 'this test has no steady-state loop'
}

/** Time left: the current phase's remainder (a loop by its rounds, another phase by its planned length less what has run) plus every later phase. */
function etaOf(r: ProgramResults, t: TimelineFacts, cur: number, now: string): LiveRunRow['eta'] {
  if (t.phases.length !== r.phases.length) return null
  const p = r.phases[cur]
  let min: number
  let max: number
  if (isLoop(p)) {
    const n = p.rounds[0]?.points.length ?? 0
    const planned = t.phases[cur]
    const roundSec = planned.maxSec > 0 ? planned.maxSec / Math.max(1, roundCapOf(r, p)) : n * p.criteria.pointSeconds
    const last = p.rounds.at(-1)
    const doneRounds = p.rounds.filter(x => x.finishedAt !== null).length
    const inRound = last && last.finishedAt === null ? Math.max(0, roundSec - last.points.length * p.criteria.pointSeconds) : 0
    const started = last && last.finishedAt === null ? doneRounds + 1 : doneRounds
    const minRounds = Math.min(p.criteria.windowRounds, p.criteria.maxRounds)
    min = inRound + Math.max(0, minRounds - started) * roundSec
    max = inRound + Math.max(0, roundCapOf(r, p) - started) * roundSec
    if (p.evaluations.at(-1)?.status === 'steady' && (!last || last.finishedAt !== null)) { min = 0; max = 0 }
  } else {
    const steps = stepsOf({phases: [p]} as ProgramResults).map(s => s.step)
    const first = steps[0]?.startedAt
    const ran = first ? Math.max(0, (Date.parse(now) - Date.parse(first)) / 1000) : 0
    min = Math.max(0, t.phases[cur].minSec - ran)
    max = Math.max(0, t.phases[cur].maxSec - ran)
  }
  const later = t.phases.slice(cur + 1)
  min += later.reduce((a, x) => a + x.minSec, 0)
  max += later.reduce((a, x) => a + x.maxSec, 0)
  const notCounted = [...(t.phases[cur].dependsOnDevice ? [t.phases[cur]] : []), ...later.filter(x => x.dependsOnDevice)].map(x => x.title)
  const text = Math.round(min) === Math.round(max) ? formatDuration(min) : `${formatDuration(min)} - ${formatDuration(max)}`
  return {minSec: min, maxSec: max, text, notCounted: [...new Set(notCounted)]}
}

const roundCapOf = (r: ProgramResults, l: Extract<PhaseResult, {kind: 'loop'}>): number =>
  r.parameters.onNoSteadyState === 'continue' ? (r.parameters.roundCap ?? l.criteria.maxRounds) : l.criteria.maxRounds

/** The list row of a run. */
export function liveRow(i: SnapshotInput): LiveRunRow {
  const {manifest: m, results: r} = i
  const st = stateOf(i)
  const cur = currentPhase(r)
  const phase = r.phases[cur]
  const loop = phase && isLoop(phase) ? phase : null
  const steps = stepsOf(r)
  const lastEnd = steps.map(s => s.step.finishedAt).sort().at(-1) ?? null
  return {
    id: i.id, group: i.group, path: i.path,
    runId: m.runId, test: r.test, testName: testName(r.test),
    device: m.target.path, model: m.target.identity.model, serial: m.target.identity.serial, host: m.host.hostname,
    state: st.state, stateText: st.text,
    resumeCommand: st.resume ? `pts resume ${i.path}` : null,
    phase: phase ? `${phase.title} (${phase.id})` : null,
    phaseNumber: phase ? cur + 1 : null, phaseCount: r.phases.length,
    round: loop ? (loop.rounds.at(-1)?.round ?? 0) : null,
    maxRounds: loop ? roundCapOf(r, loop) : null,
    steps: steps.length,
    eta: st.state === 'running' && i.timeline && phase ? etaOf(r, i.timeline, cur, i.now) : null,
    verdict: verdictOf(r),
    startedAt: m.createdAt,
    updatedAt: lastEnd,
    error: st.state === 'failed' ? (m.error?.message ?? null) : null,
  }
}

/** A run directory whose files cannot be read (yet): shown with why. */
export function unreadableRow(id: string, group: string, path: string, why: string): LiveRunRow {
  return {
    id, group, path, runId: null, test: null, testName: null, device: null, model: null, serial: null, host: null,
    state: 'unreadable', stateText: `cannot be read: ${why}`, resumeCommand: null, phase: null, phaseNumber: null, phaseCount: null,
    round: null, maxRounds: null, steps: 0, eta: null, verdict: 'not known', startedAt: null, updatedAt: null, error: why,
  }
}

/** The unit a tracking metric (model/definition.ts ProgramTracking) is shown in, and its scale from the stored value. */
const METRIC_UNIT: Record<ProgramTracking['metric'], {unit: string; scale: number}> = {
  iops: {unit: 'IOPS', scale: 1}, bwBytesPerSec: {unit: 'MB/s', scale: 1e-6}, writeBwBytesPerSec: {unit: 'MB/s', scale: 1e-6}, latMeanNs: {unit: 'ms', scale: 1e-6},
}

/** The detail of a run: convergence of every loop with data, every step's values, and their charts. */
export function liveDetail(r: ProgramResults): LiveRunDetail {
  const convergence: LiveConvergence[] = r.phases.filter(isLoop).filter(l => l.rounds.length > 0).map(l => {
    const e = l.evaluations.at(-1)
    const from = l.steadyState.fromRound ?? e?.fromRound ?? null
    const to = l.steadyState.toRound ?? e?.toRound ?? null
    return {
      phase: l.id, title: l.title, status: e?.status ?? 'not-yet', windowRounds: l.criteria.windowRounds,
      window: from !== null && to !== null ? {fromRound: from, toRound: to} : null,
      variables: l.tracking.map(t => ({id: t.id, label: t.label, metric: t.metric, values: t.series.map((value, k) => ({round: k + 1, value}))})),
    }
  })
  const points: LivePoint[] = stepsOf(r).map((s, k) => ({
    n: k + 1, phase: s.phase.id, what: s.what, finishedAt: s.step.finishedAt,
    iops: s.step.iops, mbps: s.step.bwBytesPerSec / 1e6, latMeanMs: s.step.latMeanNs / 1e6,
  }))
  const charts: LiveChart[] = []
  for (const c of convergence.filter(x => x.variables.some(v => v.values.length > 0))) {
    const byUnit = new Map<string, Array<{x: number; y: number; series: string}>>()
    for (const v of c.variables) {
      const u = METRIC_UNIT[v.metric as ProgramTracking['metric']] ?? {unit: 'as stored', scale: 1}
      const rows = byUnit.get(u.unit) ?? []
      rows.push(...v.values.map(x => ({x: x.round, y: x.value * u.scale, series: v.label})))
      byUnit.set(u.unit, rows)
    }
    const rounds = Math.max(0, ...c.variables.map(v => v.values.length))
    for (const [unit, rows] of byUnit) {
      charts.push({
        title: `${c.title}: steady-state convergence (${unit} per round${c.window ? `, window rounds ${c.window.fromRound}-${c.window.toRound}` : ''})`,
        spec: lineChart(rows, {xTitle: 'Round', yTitle: unit, xTicks: Array.from({length: rounds}, (_, k) => k + 1), height: 220,
          band: c.window ? {from: c.window.fromRound - 0.5, to: c.window.toRound + 0.5, label: 'window'} : undefined}) as unknown as Record<string, unknown>,
      })
    }
  }
  if (points.length > 0) {
    const phases = [...new Set(points.map(p => p.phase))]
    const perPoint = (title: string, y: (p: LivePoint) => number, unit: string): LiveChart => {
      const spec = lineChart(points.map(p => ({x: p.n, y: y(p), series: p.phase})), {xTitle: 'Test point (fio job, in run order)', yTitle: unit, series: phases, height: 200}) as unknown as {encoding: {x: {axis: object}}}
      spec.encoding.x.axis = {format: 'd', tickMinStep: 1}
      return {title, spec: spec as unknown as Record<string, unknown>}
    }
    charts.push(perPoint('IOPS of every test point stored, in run order', p => p.iops, 'IOPS'))
    charts.push(perPoint('Mean response time of every test point stored, in run order', p => p.latMeanMs, 'ms'))
  }
  return {convergence, points, charts}
}

/** What GET /api/state returns (schemas/cli/serve-state.schema.json). */
export interface ServeStateJson {
  /** @format date-time */
  at: string
  /** The served directory (absolute path). */
  root: string
  groups: Array<{
    /** The folder, relative to the served directory ("" = the served directory itself). */
    folder: string
    /** "fleet" when the folder holds a fleet.json, "suite" when it holds a suite.json, else "folder". */
    kind: 'fleet' | 'suite' | 'folder'
    /** The nearest folder (this one or one above it, inside the served directory) that holds a fleet.json; null when none does. */
    fleet: string | null
    runs: LiveRunRow[]
  }>
  /** The run asked for with ?run=, from the same read as its row in groups; null when none was asked for or it is not listed. */
  selected: null | {
    row: LiveRunRow
    detail: LiveRunDetail | null
  }
}
