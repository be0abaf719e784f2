/**
 * Plot: IOPS - all R/W mixes and block sizes, "3D columns" page (digest B §5.1 page 6). Vega-Lite
 * has no 3D, so the block size x R/W mix matrix is a heat map with every cell labelled, which
 * stays legible in print and in grey. Rows small -> large block size, columns write -> read
 * (digest B §6.3). Pure.
 */
import type {TopLevelSpec} from 'vega-lite'
import {blockSizeLabel, mixLabel} from '../../units.js'
import type {IopsData} from '../page-kit.js'
import {CHART_CONFIG, CHART_WIDTH, VL_SCHEMA} from './common.js'

export function iopsMatrixSpec(data: IopsData): TopLevelSpec {
  const sizes = data.blockSizesSmallFirst.map(blockSizeLabel)
  const mixes = data.mixesWriteFirst.map(mixLabel)
  const values = data.matrix.map(c => ({blockSize: c.blockSize, mix: c.mix, iops: c.iops}))
  const iops = values.map(v => v.iops).filter(v => v > 0)
  // Labels turn white on the darker half of the (logarithmic) colour ramp.
  const threshold = iops.length > 0 ? Math.sqrt(Math.min(...iops) * Math.max(...iops)) : 0
  const enc = {
    x: {field: 'mix', type: 'ordinal' as const, title: 'R/W mix % (read/write)', sort: mixes, scale: {domain: mixes}, axis: {labelAngle: 0, orient: 'top' as const}},
    y: {field: 'blockSize', type: 'ordinal' as const, title: 'Block size', sort: sizes, scale: {domain: sizes}},
  }
  return {
    $schema: VL_SCHEMA,
    width: CHART_WIDTH,
    height: 40 * sizes.length,
    config: CHART_CONFIG,
    data: {values},
    layer: [
      {
        mark: {type: 'rect', stroke: 'white', strokeWidth: 1.5},
        encoding: {
          ...enc,
          color: {field: 'iops', type: 'quantitative', title: 'IOPS', scale: {type: 'log', scheme: 'blues'}, legend: {format: ',.0f', orient: 'bottom', direction: 'horizontal', gradientLength: 360}},
        },
      },
      {
        mark: {type: 'text', fontSize: 12, fontWeight: 'bold'},
        encoding: {
          ...enc,
          text: {field: 'iops', type: 'quantitative', format: ',.0f'},
          color: {condition: {test: `datum.iops >= ${threshold}`, value: 'white'}, value: '#111111'},
        },
      },
    ],
  }
}
