/**
 * Plot: IOPS steady-state measurement window (digest B §5.1 page 2): every tracking variable over
 * all rounds, one panel per variable (their scales differ by orders of magnitude), with the
 * measurement window shaded. Pure.
 */
import type {TopLevelSpec} from 'vega-lite'
import type {IopsData} from '../page-kit.js'
import {CHART_CONFIG, CHART_WIDTH, SERIES_COLORS, VL_SCHEMA} from './common.js'
import {downsampleMinMax} from './downsample.js'

export function measurementWindowSpec(data: IopsData): TopLevelSpec {
  const {windowFrom, windowTo, tracking} = data
  const maxRound = Math.max(1, ...data.rounds)
  const panelHeight = Math.max(110, Math.min(260, Math.floor(560 / Math.max(1, tracking.length)) - 50))
  const rounds = data.rounds
  // Every round gets a tick up to 30 rounds, then vega picks integer ticks.
  const roundAxis = rounds.length <= 30 ? {values: rounds, format: 'd'} : {tickMinStep: 1, format: 'd'}
  const hasWindow = windowFrom !== null && windowTo !== null
  return {
    $schema: VL_SCHEMA,
    config: CHART_CONFIG,
    spacing: 22,
    vconcat: tracking.map((t, i) => ({
      width: CHART_WIDTH,
      height: panelHeight,
      title: {text: t.label + ' IOPS', fontSize: 12},
      layer: [
        ...(hasWindow
          ? [{
              data: {values: [{from: windowFrom - 0.5, to: windowTo + 0.5, label: `window ${windowFrom}-${windowTo}`}]},
              mark: {type: 'rect' as const, color: '#f2c14e', opacity: 0.25},
              encoding: {
                x: {field: 'from', type: 'quantitative' as const},
                x2: {field: 'to'},
              },
            }]
          : []),
        {
          data: {values: downsampleMinMax(t.series, p => p.value).map(p => ({round: p.round, value: p.value}))},
          mark: {type: 'line' as const, point: true, color: SERIES_COLORS[i % SERIES_COLORS.length]},
          encoding: {
            x: {field: 'round', type: 'quantitative' as const, title: 'Round', scale: {domain: [0.5, maxRound + 0.5], nice: false}, axis: roundAxis},
            y: {field: 'value', type: 'quantitative' as const, title: 'IOPS', scale: {zero: false}, axis: {format: ',.0f', tickCount: 5}},
          },
        },
      ],
    })),
  } as TopLevelSpec
}
