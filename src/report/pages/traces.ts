/**
 * Per-second trace pages (pts run --per-second), added to any test's report: per test point,
 * IOPS and the mean and maximum response time of every second fio logged, against seconds,
 * with the per-second statistics. Pure. Each series is downsampled (min/max per bucket, peaks
 * kept) so that 2,000 s of several series stay readable.
 */
import type {ProgramResults} from '../../model/results.js'
import {pointTraces, type PointTrace} from '../../analysis/traces.js'
import {traceStats} from '../../analysis/reviews.js'
import {downsampleMinMax} from '../charts/downsample.js'
import {stackedLineChart, type XYRow} from '../charts/generic.js'
import {fixed, fmtIops, fmtMs} from '../format.js'
import type {TopLevelSpec} from 'vega-lite'

/** Points per series on a trace chart: about one per pixel pair of the plot width, min and max of each bucket kept. */
export const TRACE_CHART_POINTS = 600

/** The series of one trace as chart rows, each downsampled on its own. */
export function traceChartRows(t: PointTrace, maxPoints = TRACE_CHART_POINTS): {iops: XYRow[]; lat: XYRow[]} {
  const ds = (rows: XYRow[]) => downsampleMinMax(rows, r => r.y, maxPoints)
  const iops = ds(t.rows.map(r => ({x: r.x, y: r.iops, series: 'IOPS'})))
  const mean = ds(t.rows.filter(r => r.latMeanNs !== null).map(r => ({x: r.x, y: r.latMeanNs! / 1e6, series: 'Mean response time'})))
  const max = ds(t.rows.filter(r => r.latMaxNs !== null).map(r => ({x: r.x, y: r.latMaxNs! / 1e6, series: 'Maximum response time'})))
  return {iops, lat: [...mean, ...max]}
}

/** The note under a trace chart: the per-second statistics and what fio logs. */
export function traceNote(t: PointTrace): string {
  const stats = (v: number[]) => (v.length ? traceStats(v) : null)
  const io = stats(t.rows.map(r => r.iops))
  const mx = stats(t.rows.flatMap(r => (r.latMaxNs === null ? [] : [r.latMaxNs])))
  const mean = stats(t.rows.flatMap(r => (r.latMeanNs === null ? [] : [r.latMeanNs])))
  const parts = [`Source: fio's per-second logs of the steps (1-second windows), not their JSON statistics. ${t.label}, ${t.span}; ${t.tracedSeconds} of ${fixed(t.stepSeconds, 0)} s traced.`]
  if (io) parts.push(`IOPS per second: min ${fmtIops(io.min)}, median ${fmtIops(io.p50)}, max ${fmtIops(io.max)}, coefficient of variation ${io.cv === null ? 'n/a' : `${fixed(io.cv * 100, 1)} %`}.`)
  if (mean) parts.push(`Mean response time per second: ${fmtMs(mean.min)}-${fmtMs(mean.max)} ms.`)
  if (mx) parts.push(`Maximum response time per second: median ${fmtMs(mx.p50)} ms, highest ${fmtMs(mx.max)} ms.`)
  if (t.steps.length > 1 && t.stepSeconds / t.steps.length <= 1) parts.push(`Each step here is ${fixed(t.stepSeconds / t.steps.length, 1)} s long: fio logs its second only when the window completes before the step ends, so this trace has gaps; the test's own per-sample pages have every sample, from fio's JSON of each step.`)
  parts.push('fio logs a second when it is complete: a step\'s last second is often not logged (it ends with the step), and has no value here; the maximum of a step\'s last logged second can be missing too (fio writes no histogram window the step ended in). The mean is the total response time (submission + completion), the maximum the top of the highest completion-latency histogram bucket of the second.')
  if (t.rows.length > TRACE_CHART_POINTS) parts.push(`Each line is drawn from at most ${TRACE_CHART_POINTS} points (the lowest and highest value of each interval kept); results.json has every second.`)
  return parts.join(' ')
}

/** One chart page per traced test point; none for a run without traces. */
export function tracePages(r: ProgramResults, testTitle: string): Array<{kind: 'chart'; title: string; chart: TopLevelSpec; note: string}> {
  return pointTraces(r).filter(t => t.rows.length > 0).map(t => {
    const rows = traceChartRows(t)
    return {
      kind: 'chart' as const,
      title: `${testTitle} - Per-Second Trace - ${t.phase.id}: ${t.label}`,
      chart: stackedLineChart([
        {rows: rows.iops, options: {yTitle: 'IOPS', yFormat: ',.0f', points: false}},
        {rows: rows.lat, options: {yTitle: 'Response time (ms)', logY: true, points: false, series: ['Mean response time', 'Maximum response time']}},
      ], {xTitle: 'Time (s)'}),
      note: traceNote(t),
    }
  })
}
