/**
 * Vega-Lite chart builders shared by the test-program report pages (TP, LAT, WSAT, HIR, XSR,
 * CBW/ECW, DIRTH). Pure: data in, spec out; the same fonts and sizes as the IOPS charts.
 */
import type {TopLevelSpec} from 'vega-lite'
import {CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, SERIES_COLORS, SHAPES, VL_SCHEMA} from '../charts/common.js'
import {downsampleGroups} from '../charts/downsample.js'
import type {Determination} from '../model.js'

export interface XYRow { x: number; y: number; series: string }

export interface LineChartOptions {
  xTitle: string
  yTitle: string
  /** Series names in legend order (default: order of first appearance). */
  series?: string[]
  logY?: boolean
  logX?: boolean
  /** Integer x axis with these tick values (rounds, QD). */
  xTicks?: number[]
  /** Shade x from..to (a steady-state window). */
  band?: {from: number; to: number; label: string}
  points?: boolean
  yFormat?: string
  height?: number
}

/** Line chart with one line per series (downsampled to at most 2,000 points per series). */
export function lineChart(rows: XYRow[], o: LineChartOptions): TopLevelSpec {
  const data = downsampleGroups(rows.map(r => ({round: r.x, value: r.y, series: r.series})), r => r.series, r => r.value)
    .map(r => ({x: r.round, y: r.value, series: r.series}))
  const series = o.series ?? [...new Set(rows.map(r => r.series))]
  const layers: TopLevelSpec[] = []
  const line = {
    mark: {type: 'line' as const, point: o.points ?? data.length <= 400},
    encoding: {
      x: {field: 'x', type: 'quantitative' as const, title: o.xTitle, scale: {type: o.logX ? 'log' as const : 'linear' as const, nice: !o.xTicks, zero: false}, axis: o.xTicks ? {values: o.xTicks, format: 'd'} : {}},
      y: {field: 'y', type: 'quantitative' as const, title: o.yTitle, scale: {type: o.logY ? 'log' as const : 'linear' as const, zero: !o.logY}, axis: {format: o.yFormat ?? ',.3~f', tickCount: 6}},
      color: {field: 'series', type: 'nominal' as const, title: null, sort: series, scale: {domain: series, range: SERIES_COLORS}, legend: {orient: 'bottom' as const, columns: Math.min(4, series.length)}},
      shape: {field: 'series', type: 'nominal' as const, title: null, sort: series, scale: {domain: series, range: SHAPES}, legend: {orient: 'bottom' as const, columns: Math.min(4, series.length)}},
    },
  }
  const spec: Record<string, unknown> = {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: o.height ?? CHART_HEIGHT, config: CHART_CONFIG,
  }
  if (o.band) {
    spec.layer = [
      {data: {values: [{from: o.band.from, to: o.band.to, label: o.band.label}]}, mark: {type: 'rect', color: '#e8eef7'}, encoding: {x: {field: 'from', type: 'quantitative'}, x2: {field: 'to'}}},
      {data: {values: data}, ...line},
    ]
  } else {
    Object.assign(spec, {data: {values: data}}, line)
  }
  void layers
  return spec as unknown as TopLevelSpec
}

/** Grouped bars: one group per category, one bar per series. */
export function barChart(rows: Array<{category: string; series: string; value: number}>, o: {xTitle: string; yTitle: string; categories?: string[]; series?: string[]; logY?: boolean}): TopLevelSpec {
  const categories = o.categories ?? [...new Set(rows.map(r => r.category))]
  const series = o.series ?? [...new Set(rows.map(r => r.series))]
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: CHART_HEIGHT, config: CHART_CONFIG,
    data: {values: rows},
    mark: {type: 'bar'},
    encoding: {
      x: {field: 'category', type: 'nominal', title: o.xTitle, sort: categories, axis: {labelAngle: 0}},
      xOffset: {field: 'series', type: 'nominal', sort: series},
      y: {field: 'value', type: 'quantitative', title: o.yTitle, scale: {type: o.logY ? 'log' : 'linear'}, axis: {format: ',.3~f'}},
      color: {field: 'series', type: 'nominal', title: null, sort: series, scale: {domain: series, range: SERIES_COLORS}, legend: {orient: 'bottom'}},
    },
  } as TopLevelSpec
}

/** Response-time histogram: IO count per latency bin (log x), from fio's own bins. */
export function histogramChart(bins: Array<{latMs: number; count: number}>, o: {title: string}): TopLevelSpec {
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: CHART_HEIGHT - 40, config: CHART_CONFIG,
    data: {values: bins},
    mark: {type: 'bar', width: 3, color: '#4e79a7'},
    encoding: {
      x: {field: 'latMs', type: 'quantitative', title: `Response time (ms, log scale) - ${o.title}`, scale: {type: 'log'}, axis: {format: '~g'}},
      y: {field: 'count', type: 'quantitative', title: 'IO count (log scale)', scale: {type: 'symlog'}, axis: {format: ',.0f'}},
    },
  } as TopLevelSpec
}

/** Measurement-window close-up with the unit of the tracking variable (IOPS, MB/s, ms): values, average, ±10 % band, fit line. */
export function closeupChart(d: Determination, unit: string, scale = 1): TopLevelSpec {
  const S = [unit, 'Average', '110% * Average', '90% * Average', 'Least squares fit']
  const a = d.fromRound
  const b = d.toRound
  const fit = (r: number) => (d.slope * r + d.intercept) * scale
  const avg = d.average * scale
  const values = [
    ...d.window.map(w => ({round: w.round, value: w.value * scale, series: S[0]})),
    {round: a, value: avg, series: S[1]}, {round: b, value: avg, series: S[1]},
    {round: a, value: 1.1 * avg, series: S[2]}, {round: b, value: 1.1 * avg, series: S[2]},
    {round: a, value: 0.9 * avg, series: S[3]}, {round: b, value: 0.9 * avg, series: S[3]},
    {round: a, value: fit(a), series: S[4]}, {round: b, value: fit(b), series: S[4]},
  ]
  const legend = {orient: 'bottom' as const, direction: 'horizontal' as const, columns: 5, symbolType: 'stroke', symbolStrokeWidth: 2, symbolSize: 300}
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: CHART_HEIGHT - 30, config: CHART_CONFIG,
    data: {values},
    layer: [
      {
        mark: {type: 'line'},
        encoding: {
          x: {field: 'round', type: 'quantitative', title: 'Round', scale: {domain: [a - 0.25, b + 0.25], nice: false}, axis: {tickMinStep: 1, format: 'd', values: d.window.map(w => w.round)}},
          y: {field: 'value', type: 'quantitative', title: `${unit} (${d.label})`, scale: {zero: false}, axis: {format: ',.3~f'}},
          color: {field: 'series', type: 'nominal', title: null, sort: S, scale: {domain: S, range: ['#1f4e8c', '#222222', '#c0392b', '#c0392b', '#2e8b57']}, legend},
          strokeDash: {field: 'series', type: 'nominal', sort: S, scale: {domain: S, range: [[1, 0], [6, 3], [2, 2], [2, 2], [8, 3, 2, 3]]}, title: null, legend},
        },
      },
      {transform: [{filter: {field: 'series', equal: S[0]}}], mark: {type: 'point', filled: true, size: 60, color: '#1f4e8c'}, encoding: {x: {field: 'round', type: 'quantitative'}, y: {field: 'value', type: 'quantitative'}}},
    ],
  } as TopLevelSpec
}
