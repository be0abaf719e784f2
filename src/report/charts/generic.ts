/**
 * Vega-Lite chart builders shared by the test-program report pages (TP, LAT, WSAT, HIR, XSR,
 * CBW/ECW, DIRTH). Pure: data in, spec out; the same fonts and sizes as the IOPS charts.
 */
import type {TopLevelSpec} from 'vega-lite'
import {CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, SERIES_COLORS, SHAPES, VL_SCHEMA} from './common.js'
import {downsampleGroups} from './downsample.js'
import type {Determination} from '../page-kit.js'

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
  /** The x values are block sizes in bytes: label the ticks as the tables do ("0.5KiB", "64KiB"), slanted so that every one shows. */
  xBlockSizes?: boolean
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
      x: {field: 'x', type: 'quantitative' as const, title: o.xTitle, scale: {type: o.logX ? 'log' as const : 'linear' as const, nice: !o.xTicks, zero: false}, axis: {...(o.xTicks ? {values: o.xTicks, format: 'd'} : {}), ...(o.xBlockSizes ? {labelExpr: "datum.value / 1024 + 'KiB'", labelAngle: -45, labelOverlap: false} : {})}},
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
export function barChart(rows: Array<{category: string; series: string; value: number}>, o: {xTitle: string; yTitle: string; categories?: string[]; series?: string[]; logY?: boolean; labelAngle?: number}): TopLevelSpec {
  const categories = o.categories ?? [...new Set(rows.map(r => r.category))]
  const series = o.series ?? [...new Set(rows.map(r => r.series))]
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: CHART_HEIGHT, config: CHART_CONFIG,
    data: {values: rows},
    mark: {type: 'bar'},
    encoding: {
      x: {field: 'category', type: 'nominal', title: o.xTitle, sort: categories, axis: {labelAngle: o.labelAngle ?? 0, ...(o.labelAngle ? {labelOverlap: false} : {})}},
      xOffset: {field: 'series', type: 'nominal', sort: series},
      y: {field: 'value', type: 'quantitative', title: o.yTitle, scale: {type: o.logY ? 'log' : 'linear'}, axis: {format: ',.3~f'}},
      color: {field: 'series', type: 'nominal', title: null, sort: series, scale: {domain: series, range: SERIES_COLORS}, legend: {orient: 'bottom'}},
    },
  } as TopLevelSpec
}

/**
 * The IO-count axis of a histogram (symlog): 0 and 1, 2, 5, 10, 20, 50, ... up to the largest count
 * (powers of ten alone from 1,000 IOs on, which keeps at most three labels a decade apart), so a
 * bin of a few IOs can be read.
 */
export function countTicks(maxCount: number): number[] {
  const steps = maxCount < 1000 ? [1, 2, 5] : [1]
  const ticks = [0]
  for (let d = 1; d <= Math.max(1, maxCount); d *= 10) for (const m of steps) if (d * m <= Math.max(1, maxCount)) ticks.push(d * m)
  return ticks
}

/**
 * Response-time histogram: IO count per latency bin (log x), from fio's own bins. The count axis is
 * symlog (a bin of 0 stays on the axis) with its ticks at 0, 1, 2, 5, 10, ... (countTicks): Vega's own ticks on a
 * symlog scale are linear steps (40, 80, 120, ...) bunched at the top, none below the largest step.
 */
export function histogramChart(bins: Array<{latMs: number; count: number}>, o: {title: string}): TopLevelSpec {
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: CHART_HEIGHT - 40, config: CHART_CONFIG,
    data: {values: bins},
    mark: {type: 'bar', width: 3, color: '#4e79a7'},
    encoding: {
      x: {field: 'latMs', type: 'quantitative', title: `Response time (ms, log scale) - ${o.title}`, scale: {type: 'log'}, axis: {format: '~g'}},
      y: {field: 'count', type: 'quantitative', title: 'IO count (log scale)', scale: {type: 'symlog'}, axis: {format: ',.0f', values: countTicks(Math.max(0, ...bins.map(b => b.count)))}},
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

export interface HeatmapOptions {
  /** Row axis (top to bottom) and column axis (left to right), in display order. */
  rowTitle: string
  colTitle: string
  rows: string[]
  cols: string[]
  /** Legend title of the colour ramp, e.g. "ms". */
  valueTitle: string
  /** d3 format of the cell labels and the legend (default ',.3f'). */
  format?: string
  /** Colour scheme (default 'blues': darker = larger). */
  scheme?: string
  /** Height of one row in px (default 40, as the IOPS matrix). */
  rowHeight?: number
}

/**
 * Labelled heat map of a row x column matrix: the stand-in for the SNIA "3D" plots, which
 * Vega-Lite cannot draw (the same layout as the IOPS 3D page, src/report/charts/iops-matrix.ts):
 * every cell carries its value, so it stays legible in print and in grey. Log colour scale when
 * every value is positive. Pure.
 */
export function heatmapChart(cells: Array<{row: string; col: string; value: number}>, o: HeatmapOptions): TopLevelSpec {
  const values = cells.filter(c => Number.isFinite(c.value))
  const positive = values.length > 0 && values.every(c => c.value > 0)
  const vs = values.map(c => c.value)
  // Labels turn white on the darker half of the colour ramp.
  const threshold = vs.length === 0 ? 0 : positive ? Math.sqrt(Math.min(...vs) * Math.max(...vs)) : (Math.min(...vs) + Math.max(...vs)) / 2
  const fmt = o.format ?? ',.3f'
  const enc = {
    x: {field: 'col', type: 'ordinal' as const, title: o.colTitle, sort: o.cols, scale: {domain: o.cols}, axis: {labelAngle: 0, orient: 'top' as const}},
    y: {field: 'row', type: 'ordinal' as const, title: o.rowTitle, sort: o.rows, scale: {domain: o.rows}},
  }
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: (o.rowHeight ?? 40) * Math.max(1, o.rows.length), config: CHART_CONFIG,
    data: {values},
    layer: [
      {
        mark: {type: 'rect', stroke: 'white', strokeWidth: 1.5},
        encoding: {...enc, color: {field: 'value', type: 'quantitative', title: o.valueTitle, scale: {type: positive ? 'log' : 'linear', scheme: o.scheme ?? 'blues'}, legend: {format: fmt.includes('~') ? fmt : fmt.replace(/f$/, '~f'), orient: 'bottom', direction: 'horizontal', gradientLength: 360}}},
      },
      {
        mark: {type: 'text', fontSize: 12, fontWeight: 'bold'},
        encoding: {...enc, text: {field: 'value', type: 'quantitative', format: fmt}, color: {condition: {test: `datum.value >= ${threshold}`, value: 'white'}, value: '#111111'}},
      },
    ],
  } as TopLevelSpec
}

// ---------------------------------------------------------------------------------------------
// CBW/ECW/DIRTH (digest B §5.7-5.8): Demand Intensity with marked operating points and a ceiling,
// and a two-axis chart (IOPS and ART against total outstanding IOs).

export interface DemandIntensityRow { iops: number; artMs: number; series: string; /** Draw order along the line (QD). */ order: number }

/** Demand Intensity: x = IOPS, y = mean response time (ms, log), one line per series (TC) through its QD points; operating points marked and labelled, the ceiling as a dashed rule. */
export function demandIntensityChart(rows: DemandIntensityRow[], o: {series: string[]; marks: Array<{iops: number; artMs: number; label: string}>; ceilingMs: number | null; xTitle?: string; yTitle?: string}): TopLevelSpec {
  const s = o.series
  const x = {field: 'iops', type: 'quantitative' as const, title: o.xTitle ?? 'IOPS', scale: {zero: true}, axis: {format: ',.0f', tickCount: 6}}
  const y = {field: 'artMs', type: 'quantitative' as const, title: o.yTitle ?? 'Mean response time (ms, log scale)', scale: {type: 'log' as const}, axis: {format: '~g'}}
  const layer: unknown[] = [
    {data: {values: rows}, mark: {type: 'line', point: true},
      encoding: {x, y, order: {field: 'order', type: 'quantitative'},
        color: {field: 'series', type: 'nominal', title: null, sort: s, scale: {domain: s, range: SERIES_COLORS}, legend: {orient: 'bottom', columns: Math.min(7, s.length)}},
        shape: {field: 'series', type: 'nominal', title: null, sort: s, scale: {domain: s, range: SHAPES}, legend: {orient: 'bottom', columns: Math.min(7, s.length)}}}},
  ]
  if (o.ceilingMs !== null && o.ceilingMs > 0) {
    layer.push({data: {values: [{artMs: o.ceilingMs, label: `ceiling ${o.ceilingMs} ms`}]}, mark: {type: 'rule', color: '#c0392b', strokeDash: [6, 3], strokeWidth: 1.5}, encoding: {y: {field: 'artMs', type: 'quantitative'}}})
    layer.push({data: {values: [{artMs: o.ceilingMs, label: `ceiling ${o.ceilingMs} ms`}]}, mark: {type: 'text', color: '#c0392b', align: 'left', baseline: 'bottom', dy: -3, fontSize: 10, fontWeight: 'bold', x: 4}, encoding: {y: {field: 'artMs', type: 'quantitative'}, text: {field: 'label'}}})
  }
  if (o.marks.length > 0) {
    layer.push({data: {values: o.marks}, mark: {type: 'point', shape: 'circle', size: 260, filled: false, color: '#111111', strokeWidth: 2}, encoding: {x: {field: 'iops', type: 'quantitative'}, y: {field: 'artMs', type: 'quantitative'}}})
    // labels drawn twice: a white outline first, so they stay legible over lines and the ceiling rule
    for (const halo of [true, false]) {
      layer.push({data: {values: o.marks}, mark: {type: 'text', align: 'left', dx: 10, dy: -10, fontSize: 10, fontWeight: 'bold', color: '#111111', ...(halo ? {stroke: 'white', strokeWidth: 3, strokeJoin: 'round'} : {})},
        encoding: {x: {field: 'iops', type: 'quantitative'}, y: {field: 'artMs', type: 'quantitative'}, text: {field: 'label'}}})
    }
  }
  return {$schema: VL_SCHEMA, width: CHART_WIDTH, height: CHART_HEIGHT, config: CHART_CONFIG, layer} as unknown as TopLevelSpec
}

/** Two measures against one x (e.g. IOPS and ART vs total OIO), as points: the first on the left axis, the second on the right axis; independent y scales. */
export function dualAxisChart(rows: Array<{x: number; left: number; right: number}>, o: {xTitle: string; leftTitle: string; rightTitle: string; logX?: boolean; xTicks?: number[]; rightLog?: boolean; leftFormat?: string; rightFormat?: string}): TopLevelSpec {
  const colors = ['#4e79a7', '#e15759']
  const x = {field: 'x', type: 'quantitative' as const, title: o.xTitle, scale: {type: o.logX ? 'log' as const : 'linear' as const, nice: !o.xTicks, zero: false}, axis: o.xTicks ? {values: o.xTicks, format: 'd'} : {}}
  const legendData = [{k: o.leftTitle}, {k: o.rightTitle}]
  const side = (field: 'left' | 'right', title: string, color: string, shape: string, orient: 'left' | 'right', log: boolean, format: string) => ({
    mark: {type: 'point', shape, filled: true, size: 45, color},
    encoding: {x, y: {field, type: 'quantitative', title, scale: {type: log ? 'log' : 'linear', zero: !log}, axis: {orient, format, titleColor: color, tickCount: 6}}},
  })
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: CHART_HEIGHT, config: CHART_CONFIG,
    layer: [
      {data: {values: rows}, ...side('left', o.leftTitle, colors[0], 'circle', 'left', false, o.leftFormat ?? ',.0f')},
      {data: {values: rows}, ...side('right', o.rightTitle, colors[1], 'square', 'right', o.rightLog ?? false, o.rightFormat ?? '~g')},
      {data: {values: legendData}, mark: {type: 'point', opacity: 0}, encoding: {color: {field: 'k', type: 'nominal', title: null, scale: {domain: legendData.map(d => d.k), range: colors}, legend: {orient: 'bottom', symbolOpacity: 1, symbolType: 'circle'}}}},
    ],
    resolve: {scale: {y: 'independent'}},
  } as unknown as TopLevelSpec
}

// ---------------------------------------------------------------------------------------------
// Time series of WSAT / HIR / XSR (digest B §5.4-5.6): lines that break between segments, and
// stacked panels sharing one x axis.

export interface SegmentRow extends XYRow { /** Rows of one segment are joined by a line; segments are not joined to each other. */ segment: string }

/**
 * Line chart whose series may consist of several separate segments (e.g. HIR's five baseline
 * periods between the wait states): one colour/shape per series, one line per segment.
 * Each segment is downsampled on its own (at most 2,000 points); rows of a segment must be in x order.
 */
export function segmentedLineChart(rows: SegmentRow[], o: LineChartOptions & {colors?: string[]}): TopLevelSpec {
  const data = downsampleGroups(rows, r => r.segment, r => r.y).map(r => ({x: r.x, y: r.y, series: r.series, segment: r.segment}))
  const series = o.series ?? [...new Set(rows.map(r => r.series))]
  const legend = {orient: 'bottom' as const, columns: Math.min(6, series.length)}
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: o.height ?? CHART_HEIGHT, config: CHART_CONFIG,
    data: {values: data},
    mark: {type: 'line', point: o.points ?? data.length <= 400},
    encoding: {
      x: {field: 'x', type: 'quantitative', title: o.xTitle, scale: {type: o.logX ? 'log' : 'linear', nice: true, zero: false}},
      y: {field: 'y', type: 'quantitative', title: o.yTitle, scale: {type: o.logY ? 'log' : 'linear', zero: !o.logY}, axis: {format: o.yFormat ?? ',.3~f', tickCount: 6}},
      color: {field: 'series', type: 'nominal', title: null, sort: series, scale: {domain: series, range: o.colors ?? SERIES_COLORS}, legend},
      shape: {field: 'series', type: 'nominal', title: null, sort: series, scale: {domain: series, range: SHAPES}, legend},
      detail: {field: 'segment', type: 'nominal'},
    },
  } as TopLevelSpec
}

/**
 * Panels stacked vertically with one shared x scale (e.g. XSR: MB/s above, ms below), each a
 * lineChart (downsampled, own legend); only the bottom panel carries the x-axis title.
 */
export function stackedLineChart(panels: Array<{rows: XYRow[]; options: Omit<LineChartOptions, 'xTitle'>}>, o: {xTitle: string; panelHeight?: number}): TopLevelSpec {
  const vconcat = panels.map((p, i) => {
    const spec = lineChart(p.rows, {...p.options, xTitle: i === panels.length - 1 ? o.xTitle : '', height: p.options.height ?? o.panelHeight ?? 170}) as unknown as Record<string, unknown>
    delete spec.$schema
    delete spec.config
    return spec
  })
  return {
    $schema: VL_SCHEMA, config: CHART_CONFIG, spacing: 14, vconcat,
    resolve: {scale: {x: 'shared', color: 'independent', shape: 'independent'}, legend: {color: 'independent', shape: 'independent'}},
  } as unknown as TopLevelSpec
}
