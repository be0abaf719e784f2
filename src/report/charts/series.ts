/**
 * A generic x/y line chart for long series (per-second samples, IOPS vs time): downsampled with
 * min/max per bucket to at most MAX_CHART_POINTS before it reaches Vega. Pure.
 */
import type {TopLevelSpec} from 'vega-lite'
import {CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, VL_SCHEMA} from './common.js'
import {downsampleMinMax, MAX_CHART_POINTS} from './downsample.js'

export interface SeriesChartInput {
  title: string
  xTitle: string
  yTitle: string
  points: ReadonlyArray<{x: number; y: number}>
  maxPoints?: number
}

export function seriesSpec(input: SeriesChartInput): TopLevelSpec {
  const pts = downsampleMinMax(input.points, p => p.y, input.maxPoints ?? MAX_CHART_POINTS)
  return {
    $schema: VL_SCHEMA,
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    config: CHART_CONFIG,
    title: input.title,
    data: {values: pts.map(p => ({x: p.x, y: p.y}))},
    mark: {type: 'line', strokeWidth: 1},
    encoding: {
      x: {field: 'x', type: 'quantitative', title: input.xTitle},
      y: {field: 'y', type: 'quantitative', title: input.yTitle, axis: {format: ',.0f'}},
    },
  }
}
