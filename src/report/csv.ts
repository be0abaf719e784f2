/**
 * The report's CSV exports (`pts report --format csv`). Pure. Each file is one table: one header
 * row, RFC 4180 (CRLF records, fields with a comma, quote or line break quoted, quotes doubled),
 * numbers as plain decimals (no thousands separators, no exponents), empty = not applicable.
 *
 * - report.csv (programCsv): tidy long format, one row per measurement: the step it belongs to
 *   (test, phase, round, point, sample), the step's workload (R/W mix, block size, TC, QD), and
 *   one metric with its value and unit. Every fio step of the run, in run order.
 * - report-windows.csv (windowsCsv): the reported values of every loop phase, one row per test
 *   point: the averages over the measurement window (the SNIA tables' numbers).
 * - report-histograms.csv (histogramsCsv): response-time histograms, one row per latency bin.
 */
import type {HistogramBins, LoopWindowAverage, Measurement, PhaseResult, ProgramResults, StepResult} from '../model/results.js'

/** The files of the CSV export, by the suffix added to the report's base name (report.csv, report-windows.csv, ...). */
export function csvFiles(r: ProgramResults): Array<{suffix: '' | '-windows' | '-histograms'; text: string}> {
  return [{suffix: '', text: programCsv(r)}, {suffix: '-windows', text: windowsCsv(r)}, {suffix: '-histograms', text: histogramsCsv(r)}]
}

type Cell = string | number | boolean | null

/** One RFC 4180 field: numbers as plain decimals, null as empty, text quoted when it needs to be. */
export function csvField(v: Cell): string {
  if (v === null) return ''
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  if (typeof v === 'number') return plainNumber(v)
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v
}

/** A finite number as a plain decimal (at most `decimals` places, trailing zeros dropped); never an exponent. */
export function plainNumber(x: number, decimals = 6): string {
  if (!Number.isFinite(x)) throw new Error(`CSV: ${x} is not a finite number`)
  if (Number.isInteger(x) && Math.abs(x) < 1e21) return BigInt(x).toString()
  const s = x.toFixed(decimals).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '')
  return s === '-0' ? '0' : s
}

export function csvTable(head: readonly string[], rows: Cell[][]): string {
  return [head.map(csvField).join(','), ...rows.map(r => r.map(csvField).join(','))].join('\r\n') + '\r\n'
}

/** report.csv columns (in this order). */
export const MEASUREMENT_COLUMNS = ['run_id', 'test', 'phase', 'phase_kind', 'step', 'round', 'in_window', 'point_index', 'point', 'label', 'sample',
  'read_pct', 'block_size_bytes', 'tc', 'qd', 'metric', 'value', 'unit', 'started_at', 'raw_file'] as const

/** The metrics of one fio step: name, unit, value (ms with ns resolution; decimal MB/s = 10^6 B/s). */
function stepMetrics(m: Measurement): Array<[string, string, number | null]> {
  return [
    ['iops', 'IOPS', round(m.iops, 3)],
    ['read_iops', 'IOPS', round(m.readIops, 3)],
    ['write_iops', 'IOPS', round(m.writeIops, 3)],
    ['bw', 'MB/s', round(m.bwBytesPerSec / 1e6, 6)],
    ['read_bw', 'MB/s', round(m.readBwBytesPerSec / 1e6, 6)],
    ['write_bw', 'MB/s', round(m.writeBwBytesPerSec / 1e6, 6)],
    ['lat_mean', 'ms', round(m.latMeanNs / 1e6, 6)],
    ['lat_max', 'ms', round(m.latMaxNs / 1e6, 6)],
    ['lat_p99999', 'ms', m.latP99999Ns === null ? null : round(m.latP99999Ns / 1e6, 6)],
    ['lat_percentile_ios', 'IOs', m.latPercentileSamples],
    ['ios', 'IOs', m.ioCount],
    ['read_bytes', 'B', m.readBytes],
    ['write_bytes', 'B', m.writeBytes],
    ['runtime', 's', round(m.runtimeSec, 6)],
  ]
}

const round = (x: number, d: number): number => Number(x.toFixed(d))

interface RowKey {
  phase: PhaseResult
  step: string
  round: number | null
  inWindow: boolean | null
  sample: number | null
}

/** report.csv: one row per measurement of every fio step of the run, in run order. Pure. */
export function programCsv(r: ProgramResults): string {
  const rows: Cell[][] = []
  const row = (k: RowKey, s: {index: number | null; id: string | null; label: string | null; readPct: number | null; blockSizeBytes: number | null; threadCount: number | null; queueDepth: number | null; startedAt: string | null; rawJson: string | null},
    metric: string, unit: string, value: number | null) => {
    if (value === null) return
    rows.push([r.runId, r.test, k.phase.id, k.phase.kind, k.step, k.round, k.inWindow, s.index, s.id, s.label, k.sample,
      s.readPct, s.blockSizeBytes, s.threadCount, s.queueDepth, metric, value, unit, s.startedAt, s.rawJson])
  }
  const step = (k: RowKey, s: StepResult, extra: Array<[string, string, number | null]> = []) => {
    const info = {index: s.index, id: s.id, label: s.label, readPct: s.readPct, blockSizeBytes: s.blockSizeBytes, threadCount: s.threadCount, queueDepth: s.queueDepth, startedAt: s.startedAt, rawJson: s.raw.json}
    for (const [metric, unit, value] of [...stepMetrics(s), ...extra]) row(k, info, metric, unit, value)
  }
  for (const p of r.phases) {
    const k = (stepName: string, rd: number | null = null, inWindow: boolean | null = null, sample: number | null = null): RowKey => ({phase: p, step: stepName, round: rd, inWindow, sample})
    if (p.kind === 'wipc' && p.status === 'done') {
      const info = {index: null, id: null, label: `SEQ ${p.blockSizeBytes / 1024}KiB W`, readPct: 0, blockSizeBytes: p.blockSizeBytes, threadCount: null, queueDepth: null, startedAt: p.startedAt, rawJson: p.raw?.json ?? null}
      row(k('wipc'), info, 'write_bytes', 'B', p.writtenBytes)
      row(k('wipc'), info, 'bw', 'MB/s', round(p.bwBytesPerSec / 1e6, 6))
      row(k('wipc'), info, 'runtime', 's', round(p.runtimeSec, 6))
    }
    if (p.kind === 'loop') {
      const ss = p.steadyState
      const inWindow = (rd: number) => (ss.fromRound === null || ss.toRound === null ? false : rd >= ss.fromRound && rd <= ss.toRound)
      for (const rd of p.rounds) {
        if (rd.preRound) step(k('pre-round', rd.round, false), rd.preRound)
        for (const pt of rd.points) step(k('point', rd.round, inWindow(rd.round)), pt)
      }
    }
    if (p.kind === 'series') for (const [i, s] of p.samples.entries()) step(k('sample', null, null, i + 1), s, [['cumulative_write_bytes', 'B', s.cumulativeWrittenBytes]])
    if (p.kind === 'bursts' && p.steps && p.steps.length > 0) {
      // one fio step per burst (runs since bursts are exact): the step's own statistics, and where the burst started
      for (const [i, s] of p.steps.entries()) step(k('burst', null, null, i + 1), s)
      for (const b of p.bursts) {
        const s = p.steps[Math.min(b.index, p.steps.length - 1)]
        row(k('burst', null, null, b.index + 1), {...s, rawJson: s.raw.json}, 'start', 's', round(b.startMs / 1000, 6))
      }
    } else if (p.kind === 'bursts') {
      if (p.job) step(k('bursts'), p.job)
      const j = p.job
      for (const b of p.bursts) {
        const info = {index: j?.index ?? null, id: j?.id ?? null, label: j?.label ?? null, readPct: j?.readPct ?? null, blockSizeBytes: j?.blockSizeBytes ?? null, threadCount: j?.threadCount ?? null, queueDepth: j?.queueDepth ?? null, startedAt: j?.startedAt ?? null, rawJson: p.log}
        row(k('burst', null, null, b.index + 1), info, 'iops', 'IOPS', round(b.iops, 3))
        row(k('burst', null, null, b.index + 1), info, 'start', 's', round(b.startMs / 1000, 6))
      }
    }
    if (p.kind === 'histogram' && p.job) step(k('histogram'), p.job)
    if (p.kind === 'operating-points') {
      for (const o of p.points) {
        if (o.prewrite) step(k(`${o.role}-pre-write`), o.prewrite)
        for (const [i, s] of (o.prewriteSamples ?? []).entries()) step(k(`${o.role}-pre-write`, null, null, i + 1), s)
        if (o.measure) step(k(`${o.role}-histogram`), o.measure)
      }
    }
  }
  return csvTable(MEASUREMENT_COLUMNS, rows)
}

/** report-windows.csv columns (units in the names). */
export const WINDOW_COLUMNS = ['run_id', 'test', 'phase', 'verdict', 'window_from_round', 'window_to_round', 'point_index', 'point', 'label', 'read_pct', 'block_size_bytes', 'tc', 'qd',
  'iops', 'read_iops', 'write_iops', 'bw_mb_s', 'read_bw_mb_s', 'write_bw_mb_s', 'lat_mean_ms', 'lat_max_ms', 'lat_max_avg_ms', 'lat_p99999_ms', 'lat_percentile_ios'] as const

/**
 * report-windows.csv: per loop phase and test point, the averages over the measurement window
 * (the values the SNIA tables report; lat_max_ms is the maximum over the window, lat_max_avg_ms
 * the average of the rounds' maxima). Pure.
 */
export function windowsCsv(r: ProgramResults): string {
  const rows: Cell[][] = []
  for (const p of r.phases) {
    if (p.kind !== 'loop') continue
    const ss = p.steadyState
    for (const w of p.windowAverages) rows.push(windowRow(r, p.id, ss, w))
  }
  return csvTable(WINDOW_COLUMNS, rows)
}

function windowRow(r: ProgramResults, phase: string, ss: {verdict: string; fromRound: number | null; toRound: number | null}, w: LoopWindowAverage): Cell[] {
  const ms = (ns: number | null) => (ns === null ? null : round(ns / 1e6, 6))
  return [r.runId, r.test, phase, ss.verdict, ss.fromRound, ss.toRound, w.index, w.id, w.label, w.readPct, w.blockSizeBytes, w.threadCount, w.queueDepth,
    round(w.iops, 3), round(w.readIops, 3), round(w.writeIops, 3), round(w.bwBytesPerSec / 1e6, 6), round(w.readBwBytesPerSec / 1e6, 6), round(w.writeBwBytesPerSec / 1e6, 6),
    ms(w.latMeanNs), ms(w.latMaxNs), ms(w.latMaxAvgNs), ms(w.latP99999Ns), w.latPercentileSamples]
}

/** report-histograms.csv columns. */
export const HISTOGRAM_COLUMNS = ['run_id', 'test', 'phase', 'step', 'point', 'label', 'read_pct', 'block_size_bytes', 'tc', 'qd', 'bin', 'lat_upper_ms', 'ios'] as const

/** report-histograms.csv: every response-time histogram (fio's completion-latency bins), one row per bin. Pure. */
export function histogramsCsv(r: ProgramResults): string {
  const rows: Cell[][] = []
  const add = (phase: string, stepName: string, s: StepResult | null, bins: HistogramBins | null) => {
    if (!bins) return
    bins.forEach((b, i) => rows.push([r.runId, r.test, phase, stepName, s?.id ?? null, s?.label ?? null, s?.readPct ?? null, s?.blockSizeBytes ?? null, s?.threadCount ?? null, s?.queueDepth ?? null,
      i + 1, round(b.latNs / 1e6, 6), b.count]))
  }
  for (const p of r.phases) {
    if (p.kind === 'histogram') add(p.id, 'histogram', p.job, p.histogram)
    if (p.kind === 'operating-points') for (const o of p.points) add(p.id, `${o.role}-histogram`, o.measure, o.histogram)
  }
  return csvTable(HISTOGRAM_COLUMNS, rows)
}
