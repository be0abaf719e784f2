/**
 * Plot: measurement-window close-up of one tracking variable (digest B §5.1 page 3, §3.2): the
 * values in the window, their average, 110% and 90% of the average, and the least-squares line
 * from the slope and intercept stored in results.json. Pure.
 */
import type {TopLevelSpec} from 'vega-lite'
import type {Determination} from '../page-kit.js'
import {CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, VL_SCHEMA} from './common.js'

const SERIES = ['IOPS', 'Average', '110% * Average', '90% * Average', 'Least squares fit'] as const

const LEGEND = {orient: 'bottom' as const, direction: 'horizontal' as const, columns: 5, symbolType: 'stroke', symbolStrokeWidth: 2, symbolSize: 300}

export function windowCloseupSpec(d: Determination): TopLevelSpec {
  const {fromRound: a, toRound: b, average: avg} = d
  const fit = (r: number) => d.slope * r + d.intercept
  const values = [
    ...d.window.map(w => ({round: w.round, value: w.value, series: SERIES[0]})),
    {round: a, value: avg, series: SERIES[1]}, {round: b, value: avg, series: SERIES[1]},
    {round: a, value: 1.1 * avg, series: SERIES[2]}, {round: b, value: 1.1 * avg, series: SERIES[2]},
    {round: a, value: 0.9 * avg, series: SERIES[3]}, {round: b, value: 0.9 * avg, series: SERIES[3]},
    {round: a, value: fit(a), series: SERIES[4]}, {round: b, value: fit(b), series: SERIES[4]},
  ]
  const domain = [...SERIES]
  return {
    $schema: VL_SCHEMA,
    width: CHART_WIDTH,
    height: CHART_HEIGHT - 30,
    config: CHART_CONFIG,
    data: {values},
    layer: [
      {
        mark: {type: 'line'},
        encoding: {
          x: {field: 'round', type: 'quantitative', title: 'Round', scale: {domain: [a - 0.25, b + 0.25], nice: false}, axis: {tickMinStep: 1, format: 'd', values: d.window.map(w => w.round)}},
          y: {field: 'value', type: 'quantitative', title: `IOPS (${d.label})`, scale: {zero: false}, axis: {format: ',.0f'}},
          color: {field: 'series', type: 'nominal', title: null, sort: domain, scale: {domain, range: ['#1f4e8c', '#222222', '#c0392b', '#c0392b', '#2e8b57']}, legend: LEGEND},
          strokeDash: {field: 'series', type: 'nominal', sort: domain, scale: {domain, range: [[1, 0], [6, 3], [2, 2], [2, 2], [8, 3, 2, 3]]}, title: null, legend: LEGEND},
        },
      },
      {
        transform: [{filter: {field: 'series', equal: SERIES[0]}}],
        mark: {type: 'point', filled: true, size: 60, color: '#1f4e8c'},
        encoding: {
          x: {field: 'round', type: 'quantitative'},
          y: {field: 'value', type: 'quantitative'},
        },
      },
    ],
  }
}
