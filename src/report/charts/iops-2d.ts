/** Plot: IOPS - all R/W mixes and block sizes, 2D (digest B §5.1 page 5): IOPS vs block size, one line per mix. Pure. */
import type {TopLevelSpec} from 'vega-lite'
import {blockSizeLabel, mixLabel} from '../../units.js'
import type {IopsData} from '../page-kit.js'
import {CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, SERIES_COLORS, SHAPES, VL_SCHEMA} from './common.js'

export function iops2dSpec(data: IopsData): TopLevelSpec {
  const sizes = data.blockSizesSmallFirst.map(blockSizeLabel)
  // Legend in the spec's loop order, read-heavy first (digest Part A 7).
  const mixes = [...data.mixesWriteFirst].reverse().map(mixLabel)
  return {
    $schema: VL_SCHEMA,
    width: CHART_WIDTH,
    height: CHART_HEIGHT + 120,
    config: CHART_CONFIG,
    data: {values: data.matrix.map(c => ({blockSize: c.blockSize, mix: c.mix, iops: c.iops}))},
    mark: {type: 'line', point: true},
    encoding: {
      x: {field: 'blockSize', type: 'ordinal', title: 'Block size', sort: sizes, scale: {domain: sizes}, axis: {labelAngle: 0}},
      y: {field: 'iops', type: 'quantitative', title: 'IOPS (window average, log scale)', scale: {type: 'log'}, axis: {format: ',.0f', tickCount: 6}},
      color: {field: 'mix', type: 'nominal', title: 'R/W mix %', sort: mixes, scale: {domain: mixes, range: SERIES_COLORS}},
      shape: {field: 'mix', type: 'nominal', title: 'R/W mix %', sort: mixes, scale: {domain: mixes, range: SHAPES}},
    },
  }
}
