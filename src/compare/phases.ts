/**
 * Phase-by-phase comparison of runs of one test (pure): every phase of the baseline run is
 * matched by id in the other runs. What each kind of phase contributes:
 * - loop (every loop after the first, whose matrix pages model.ts builds): per point the window
 *   averages (IOPS, MB/s, mean response time) of every run and their ratios to the baseline;
 * - series (WSAT, XSR access groups, HIR baselines): the IOPS trace of every run (x = minutes
 *   since the phase start = sample index x sampleSeconds / 60, and for WSAT the TGBW) and per run
 *   the samples, mean IOPS, mean of the last 5 samples and mean response time, with ratios;
 * - bursts (HIR wait states): burst IOPS per burst index and the mean burst IOPS with ratios;
 * - operating-points (CBW/ECW/DIRTH): per role (Max/Mid/Min) TC/QD, IOPS and mean response
 *   time of every run, with the ratio of IOPS to the baseline's same role.
 * - sweep (review tests: fob-ss FOB and steady-state QD sweeps, four corners, transfer sizes): per
 *   point (each measured once, one fio step) IOPS, MB/s and mean response time of every run with
 *   their ratios, in the tables of a loop;
 * Purge, WIPC and histogram phases are not compared (they are listed in the summary). Numbers are
 * the runs' stored values (window averages, samples, bursts, operating points), only averaged
 * over a phase's samples, divided and formatted here.
 */
import type {LoopWindowAverage, PhaseResult, ProgramResults} from '../model/results.js'
import {fixed, timeAxisInSeconds} from '../report/format.js'
import {formatRatio, ratio, sampleStats, type Cell, type CompareTable} from './table.js'

type Phase<K extends PhaseResult['kind']> = Extract<PhaseResult, {kind: K}>

/** The last samples averaged for the "end of phase" column of a series. */
export const LAST_SAMPLES = 5

export interface PhaseRunKey { key: string; name: string }

export interface LoopPointCompare {
  id: string
  label: string
  /** One entry per run, null when the run has no window average for the point. */
  runs: Array<{iops: number; mbPerSec: number; latMeanMs: number} | null>
}

export interface LoopPhaseCompare {
  kind: 'loop'
  id: string
  title: string
  points: LoopPointCompare[]
  /** Tracking variables and each run's window-average value of them (headlines). */
  tracking: Array<{id: string; label: string; metric: string; values: Array<number | null>}>
  /** A review test's sweep (each point measured once, no steady-state window); absent for a loop. */
  sweep?: true
  /** A sweep over queue depths: each point's workload (its label without TC/QD) and QD, for the overlaid QD curves. */
  qdCurves?: Array<{id: string; workload: string; threadCount: number; queueDepth: number}>
}

export interface SeriesRunCompare {
  key: string
  name: string
  samples: number
  sampleSeconds: number
  meanIops: number
  lastIops: number
  latMeanMs: number
  meanRatio: number | null
  lastRatio: number | null
  latRatio: number | null
  /** Every sample: minutes since the phase start, TGBW (GB written by the phase, 10^9 B), IOPS. */
  trace: Array<{minutes: number; tgbw: number; iops: number}>
}

export interface SeriesPhaseCompare {
  kind: 'series'
  id: string
  title: string
  /** x axis of the trace chart: TGBW (WSAT), else time, in seconds when every run's phase lasted under 5 minutes (timeAxisInSeconds). */
  x: 'minutes' | 'seconds' | 'tgbw'
  runs: Array<SeriesRunCompare | null>
}

export interface BurstsRunCompare {
  key: string
  name: string
  bursts: Array<{index: number; iops: number}>
  meanIops: number
  ratio: number | null
}

export interface BurstsPhaseCompare {
  kind: 'bursts'
  id: string
  title: string
  waitState: number
  runs: Array<BurstsRunCompare | null>
}

export interface OperatingRoleCompare {
  role: 'max' | 'mid' | 'min'
  runs: Array<{threadCount: number; queueDepth: number; iops: number; latMeanMs: number; ratio: number | null} | null>
}

export interface OperatingPointsCompare {
  kind: 'operating-points'
  id: string
  title: string
  /** The test (cbw, ecw, dirth): the headlines name the operating points by it. */
  test: string
  roles: OperatingRoleCompare[]
}

export type PhaseCompare = LoopPhaseCompare | SeriesPhaseCompare | BurstsPhaseCompare | OperatingPointsCompare

const mean = (xs: readonly number[]): number => (xs.length === 0 ? Number.NaN : xs.reduce((a, v) => a + v, 0) / xs.length)

const ROLE_ORDER: OperatingRoleCompare['role'][] = ['max', 'mid', 'min']
export const roleLabel = (r: OperatingRoleCompare['role']): string => r.charAt(0).toUpperCase() + r.slice(1)

function loopCompare(phases: Array<Phase<'loop'> | undefined>): LoopPhaseCompare {
  const base = phases[0]!
  const find = (p: Phase<'loop'> | undefined, w0: LoopWindowAverage) => p?.windowAverages.find(w => w.id === w0.id) ?? p?.windowAverages[w0.index]
  const points = base.windowAverages.map(w0 => ({
    id: w0.id,
    label: w0.label,
    runs: phases.map(p => {
      const w = find(p, w0)
      return w && w.id === w0.id ? {iops: w.iops, mbPerSec: w.bwBytesPerSec / 1e6, latMeanMs: w.latMeanNs / 1e6} : null
    }),
  }))
  const tracking = base.tracking.map(t => {
    const w0 = base.windowAverages.find(w => w.index === t.pointIndex)
    return {
      id: t.id, label: t.label, metric: t.metric,
      values: phases.map(p => {
        const w = w0 ? find(p, w0) : undefined
        if (!w || !w0 || w.id !== w0.id) return null
        const v = (w as unknown as Record<string, unknown>)[t.metric]
        return typeof v === 'number' ? v : null
      }),
    }
  })
  return {kind: 'loop', id: base.id, title: base.title, points, tracking}
}

/** A sweep's points (each one fio step) compared as a loop's window averages are: by point id, per run. */
function sweepCompare(phases: Array<Phase<'sweep'> | undefined>): LoopPhaseCompare {
  const base = phases[0]!
  const points = base.points.map(p0 => ({
    id: p0.id,
    label: p0.label,
    runs: phases.map(p => {
      const q = p?.points.find(x => x.id === p0.id)
      return q ? {iops: q.iops, mbPerSec: q.bwBytesPerSec / 1e6, latMeanMs: q.latMeanNs / 1e6} : null
    }),
  }))
  const byWorkload = new Map<string, Set<number>>()
  const curve = base.points.map(p => ({id: p.id, workload: p.label.replace(/\s*TC \d+\/QD \d+$/, ''), threadCount: p.threadCount, queueDepth: p.queueDepth}))
  for (const c of curve) byWorkload.set(`${c.workload}/${c.threadCount}`, (byWorkload.get(`${c.workload}/${c.threadCount}`) ?? new Set()).add(c.queueDepth))
  // a QD sweep: every workload at 2 or more queue depths
  const qd = [...byWorkload.values()].every(s => s.size >= 2)
  return {kind: 'loop', id: base.id, title: base.title, points, tracking: [], sweep: true, ...(qd ? {qdCurves: curve} : {})}
}

function seriesCompare(phases: Array<Phase<'series'> | undefined>, keys: readonly PhaseRunKey[], test: string): SeriesPhaseCompare {
  const base = phases[0]!
  const runs: Array<SeriesRunCompare | null> = phases.map((p, i) => {
    if (!p || p.samples.length === 0) return null
    const iops = p.samples.map(s => s.iops)
    return {
      key: keys[i].key, name: keys[i].name,
      samples: p.samples.length,
      sampleSeconds: p.sampleSeconds,
      meanIops: mean(iops),
      lastIops: mean(iops.slice(-LAST_SAMPLES)),
      latMeanMs: mean(p.samples.map(s => s.latMeanNs)) / 1e6,
      meanRatio: null, lastRatio: null, latRatio: null,
      trace: p.samples.map((s, j) => ({minutes: (j * p.sampleSeconds) / 60, tgbw: s.cumulativeWrittenBytes / 1e9, iops: s.iops})),
    }
  })
  const b = runs[0]
  for (const r of runs) {
    if (!r || !b) continue
    r.meanRatio = ratio(r.meanIops, b.meanIops)
    r.lastRatio = ratio(r.lastIops, b.lastIops)
    r.latRatio = ratio(r.latMeanMs, b.latMeanMs)
  }
  const short = runs.every(r => r === null || timeAxisInSeconds(r.samples * r.sampleSeconds))
  return {kind: 'series', id: base.id, title: base.title, x: test === 'wsat' ? 'tgbw' : short ? 'seconds' : 'minutes', runs}
}

function burstsCompare(phases: Array<Phase<'bursts'> | undefined>, keys: readonly PhaseRunKey[]): BurstsPhaseCompare {
  const base = phases[0]!
  const runs: Array<BurstsRunCompare | null> = phases.map((p, i) => (!p || p.bursts.length === 0
    ? null
    : {key: keys[i].key, name: keys[i].name, bursts: p.bursts.map(x => ({index: x.index, iops: x.iops})), meanIops: mean(p.bursts.map(x => x.iops)), ratio: null}))
  for (const r of runs) if (r && runs[0]) r.ratio = ratio(r.meanIops, runs[0].meanIops)
  return {kind: 'bursts', id: base.id, title: base.title, waitState: base.waitState, runs}
}

function operatingCompare(phases: Array<Phase<'operating-points'> | undefined>, test: string): OperatingPointsCompare {
  const base = phases[0]!
  const roles = ROLE_ORDER.filter(role => base.points.some(p => p.role === role)).map(role => {
    const baseIops = base.points.find(p => p.role === role)!.iops
    return {
      role,
      runs: phases.map(p => {
        const op = p?.points.find(q => q.role === role)
        return op ? {threadCount: op.threadCount, queueDepth: op.queueDepth, iops: op.iops, latMeanMs: op.latMeanNs / 1e6, ratio: ratio(op.iops, baseIops)} : null
      }),
    }
  })
  return {kind: 'operating-points', id: base.id, title: base.title, test, roles}
}

/**
 * The compared phases, in the baseline's order: every loop except the first, every series, bursts
 * and operating-points phase of the baseline that has data there (a run without the phase has a
 * null entry).
 */
export function comparePhases(programs: readonly ProgramResults[], keys: readonly PhaseRunKey[]): PhaseCompare[] {
  const base = programs[0]
  const out: PhaseCompare[] = []
  let loops = 0
  for (const p of base.phases) {
    const same = <K extends PhaseResult['kind']>(kind: K) => programs.map(r => r.phases.find((q): q is Phase<K> => q.kind === kind && q.id === p.id))
    if (p.kind === 'loop') {
      if (loops++ === 0) continue
      if (p.windowAverages.length > 0) out.push(loopCompare(same('loop')))
    } else if (p.kind === 'series') {
      if (p.samples.length > 0) out.push(seriesCompare(same('series'), keys, base.test))
    } else if (p.kind === 'sweep') {
      if (p.points.length > 0) out.push(sweepCompare(same('sweep')))
    } else if (p.kind === 'bursts') {
      if (p.bursts.length > 0) out.push(burstsCompare(same('bursts'), keys))
    } else if (p.kind === 'operating-points') {
      if (p.points.length > 0) out.push(operatingCompare(same('operating-points'), base.test))
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Tables

const plain = (text: string): Cell => ({text, flag: ''})
const ratioCell = (r: number | null): Cell => formatRatio(r)
const missing = 'n/a'

/** The words every label starts with ("RND 8KiB R/W 65/35"), and each label without them. */
export function commonPrefix(labels: readonly string[]): {prefix: string; rest: string[]} {
  const words = labels.map(l => l.split(' '))
  let n = 0
  while (labels.length > 1 && words.every(w => w.length > n + 1 && w[n] === words[0][n])) n++
  return {prefix: words[0]?.slice(0, n).join(' ') ?? '', rest: words.map(w => w.slice(n).join(' '))}
}

const LOOP_METRICS = [
  {id: 'iops' as const, heading: 'IOPS (read + write)', short: 'IOPS', decimals: 0},
  {id: 'mbPerSec' as const, heading: 'Bandwidth, MB/s (10^6 B/s)', short: 'MB/s', decimals: 2},
  {id: 'latMeanMs' as const, heading: 'Mean response time, ms', short: 'ms', decimals: 3},
]

/**
 * Per point of a loop, the window averages and ratios: for 2 runs one table (IOPS, MB/s, ms: R1,
 * R2, R2 / R1 each), for more runs one table per metric (R1, then Rk and Rk / R1 for every other run);
 * with `variation` (3 or more runs that are samples of one model) each metric table also has the
 * per-point minimum, median, maximum and coefficient of variation over the runs (sample standard
 * deviation, n - 1).
 */
export function loopTables(c: LoopPhaseCompare, keys: readonly PhaseRunKey[], variation = false): CompareTable[] {
  const {prefix, rest} = commonPrefix(c.points.map(p => p.label))
  const of = prefix ? ` (every point ${prefix})` : ''
  const valueCells = (p: LoopPointCompare, m: (typeof LOOP_METRICS)[number]): Cell[] => {
    const v = (k: number) => p.runs[k]?.[m.id] ?? null
    return [plain(v(0) === null ? missing : fixed(v(0)!, m.decimals)),
      ...keys.slice(1).flatMap((_, j) => [plain(v(j + 1) === null ? missing : fixed(v(j + 1)!, m.decimals)), ratioCell(ratio(v(j + 1), v(0)))])]
  }
  const runColumns = (m: {short: string}, withMetric: boolean) => [keys[0].key, ...keys.slice(1).flatMap(k => [k.key, `${k.key} / ${keys[0].key}`])].map(h => (withMetric ? `${m.short} ${h}` : h))
  if (keys.length <= 2) {
    return [{
      heading: `${c.id}: ${c.sweep ? 'each point measured once' : 'window averages per point'}${of}`,
      columns: ['Point', ...LOOP_METRICS.flatMap(m => runColumns(m, true))],
      ratio: true,
      rows: c.points.map((p, i) => ({label: rest[i] || p.label, cells: LOOP_METRICS.flatMap(m => valueCells(p, m))})),
    }]
  }
  const withStats = variation && keys.length >= 3
  const statCells = (p: LoopPointCompare, m: (typeof LOOP_METRICS)[number]): Cell[] => {
    const vs = p.runs.flatMap(r => (r ? [r[m.id]] : []))
    if (vs.length < 2) return [plain(missing), plain(missing), plain(missing), plain(missing)]
    const st = sampleStats(vs)
    return [plain(fixed(st.min, m.decimals)), plain(fixed(st.median, m.decimals)), plain(fixed(st.max, m.decimals)), plain(Number.isFinite(st.cvPct) ? `${fixed(st.cvPct, 1)} %` : missing)]
  }
  return LOOP_METRICS.map(m => ({
    heading: `${c.id}: ${m.heading}, ${c.sweep ? 'each point measured once' : 'window averages per point'}${of}${withStats ? `; sample variation over the ${keys.length} runs` : ''}`,
    columns: ['Point', ...runColumns(m, false), ...(withStats ? ['Min', 'Median', 'Max', 'CV'] : [])],
    ratio: true,
    rows: c.points.map((p, i) => ({label: rest[i] || p.label, cells: [...valueCells(p, m), ...(withStats ? statCells(p, m) : [])]})),
  }))
}

export function seriesTable(c: SeriesPhaseCompare, keys: readonly PhaseRunKey[]): CompareTable {
  return {
    heading: `${c.id}: per run (ratios Rk / ${keys[0].key})`,
    columns: ['Run', 'Samples', 'Mean IOPS', `Mean IOPS, last ${LAST_SAMPLES}`, 'Mean resp. time, ms', 'Mean IOPS ratio', `Last ${LAST_SAMPLES} ratio`, 'Resp. time ratio'],
    ratio: true,
    rows: c.runs.map((r, i) => (r === null
      ? {label: keys[i].key, cells: [plain('phase absent'), ...Array.from({length: 6}, () => plain(''))]}
      : {label: r.key, cells: [plain(String(r.samples)), plain(fixed(r.meanIops, 0)), plain(fixed(r.lastIops, 0)), plain(fixed(r.latMeanMs, 3)),
          i === 0 ? plain('baseline') : ratioCell(r.meanRatio), i === 0 ? plain('') : ratioCell(r.lastRatio), i === 0 ? plain('') : ratioCell(r.latRatio)]})),
  }
}

export function burstsTable(c: BurstsPhaseCompare, keys: readonly PhaseRunKey[]): CompareTable {
  return {
    heading: `${c.id}: mean burst IOPS per run (Wait State ${c.waitState})`,
    columns: ['Run', 'Bursts', 'Mean burst IOPS', 'Min', 'Max', `Ratio Rk / ${keys[0].key}`],
    ratio: true,
    rows: c.runs.map((r, i) => (r === null
      ? {label: keys[i].key, cells: [plain('phase absent'), plain(''), plain(''), plain(''), plain('')]}
      : {label: r.key, cells: [plain(String(r.bursts.length)), plain(fixed(r.meanIops, 0)), plain(fixed(Math.min(...r.bursts.map(b => b.iops)), 0)),
          plain(fixed(Math.max(...r.bursts.map(b => b.iops)), 0)), i === 0 ? plain('baseline') : ratioCell(r.ratio)]})),
  }
}

export function operatingTable(c: OperatingPointsCompare, keys: readonly PhaseRunKey[]): CompareTable {
  return {
    heading: `${c.id}: operating points per role and run (IOPS ratio to the baseline's same role)`,
    columns: ['Role', 'Run', 'TC / QD', 'IOPS', 'Mean resp. time, ms', `IOPS ratio Rk / ${keys[0].key}`],
    ratio: true,
    rows: c.roles.flatMap(r => r.runs.map((v, i) => ({
      label: i === 0 ? roleLabel(r.role) : '',
      cells: v === null
        ? [plain(keys[i].key), plain('absent'), plain(''), plain(''), plain('')]
        : [plain(keys[i].key), plain(`TC ${v.threadCount} / QD ${v.queueDepth}`), plain(fixed(v.iops, 0)), plain(fixed(v.latMeanMs, 3)), i === 0 ? plain('baseline') : ratioCell(v.ratio)],
    }))),
  }
}

// ---------------------------------------------------------------------------------------------
// Headlines (pts compare's stdout)

const x2 = (r: number | null): string => (r === null ? 'n/a' : `${r.toFixed(2)}x`)

/** A tracked value as the report prints it: IOPS, bandwidth (...BwBytesPerSec) in MB/s, response times (lat...Ns) in ms. */
export function metricText(metric: string, v: number | null): string {
  if (v === null || !Number.isFinite(v)) return 'n/a'
  if (/bw/i.test(metric)) return `${fixed(v / 1e6, 1)} MB/s`
  if (/^lat/i.test(metric)) return `${fixed(v / 1e6, 3)} ms`
  return fixed(v, 0)
}

/** "R2 0.93x R1 (11,928 -> 11,093)"; with more runs "R2 0.93x, R3 1.01x R1 (11,928 -> 11,093, 12,050)". */
export function ratioPhrase(keys: readonly PhaseRunKey[], values: ReadonlyArray<number | null>, text: (v: number | null) => string): string {
  const parts = keys.slice(1).map((k, j) => `${k.key} ${x2(ratio(values[j + 1], values[0]))}`)
  return `${parts.join(', ')} ${keys[0].key} (${text(values[0])} -> ${values.slice(1).map(text).join(', ')})`
}

/** A short line per comparison that matters (tracking variables, series means, burst means, operating points). */
export function phaseHeadlines(phases: readonly PhaseCompare[], keys: readonly PhaseRunKey[]): string[] {
  const lines: string[] = []
  for (const c of phases) {
    if (c.kind === 'loop') {
      for (const t of c.tracking) lines.push(`${c.id} ${t.label}: ${ratioPhrase(keys, t.values, v => metricText(t.metric, v))}`)
    } else if (c.kind === 'series') {
      lines.push(`${c.id}: mean IOPS ${ratioPhrase(keys, c.runs.map(r => r?.meanIops ?? null), v => metricText('iops', v))}`)
    } else if (c.kind === 'bursts') {
      lines.push(`${c.id} bursts: mean IOPS ${ratioPhrase(keys, c.runs.map(r => r?.meanIops ?? null), v => metricText('iops', v))}`)
    } else {
      for (const r of c.roles) lines.push(`${c.test} ${roleLabel(r.role)}: IOPS ${ratioPhrase(keys, r.runs.map(v => v?.iops ?? null), v => metricText('iops', v))}`)
    }
  }
  return lines
}
