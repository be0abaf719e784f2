/** Plot: IOPS steady-state convergence, all block sizes (digest B §5.1 page 1). Pure. */
import type {TopLevelSpec} from 'vega-lite'
import {blockSizeLabel} from '../../units.js'
import type {IopsData} from '../page-kit.js'
import {CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, SERIES_COLORS, SHAPES, VL_SCHEMA} from './common.js'
import {downsampleGroups} from './downsample.js'

export function convergenceSpec(data: IopsData): TopLevelSpec {
  const rows = downsampleGroups(data.convergence, r => r.blockSize, r => r.iops)
  const sizes = data.blockSizesSmallFirst.map(blockSizeLabel)
  const maxRound = Math.max(1, ...data.rounds)
  return {
    $schema: VL_SCHEMA,
    width: CHART_WIDTH,
    height: CHART_HEIGHT + 120,
    config: CHART_CONFIG,
    data: {values: rows.map(r => ({round: r.round, blockSize: r.blockSize, iops: r.iops}))},
    mark: {type: 'line', point: true},
    encoding: {
      x: {field: 'round', type: 'quantitative', title: 'Round', scale: {domain: [1, maxRound], nice: false}, axis: data.rounds.length <= 30 ? {values: data.rounds, format: 'd'} : {tickMinStep: 1, format: 'd'}},
      y: {field: 'iops', type: 'quantitative', title: 'IOPS (R/W 0/100, log scale)', scale: {type: 'log'}, axis: {format: ',.0f', tickCount: 6}},
      color: {field: 'blockSize', type: 'nominal', title: 'Block size', sort: sizes, scale: {domain: sizes, range: SERIES_COLORS}},
      shape: {field: 'blockSize', type: 'nominal', title: 'Block size', sort: sizes, scale: {domain: sizes, range: SHAPES}},
    },
  }
}
