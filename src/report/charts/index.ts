/** The charts of the IOPS pages, keyed by the chart ids the IOPS page builder uses. Pure. */
import type {TopLevelSpec} from 'vega-lite'
import type {IopsData} from '../page-kit.js'
import {convergenceSpec} from './convergence.js'
import {iops2dSpec} from './iops-2d.js'
import {iopsMatrixSpec} from './iops-matrix.js'
import {measurementWindowSpec} from './measurement-window.js'
import {windowCloseupSpec} from './window-closeup.js'

export function iopsChartSpecs(data: IopsData): Record<string, TopLevelSpec> {
  const specs: Record<string, TopLevelSpec> = {
    convergence: convergenceSpec(data),
    'measurement-window': measurementWindowSpec(data),
  }
  for (const d of data.determinations) specs[`window-${d.id}`] = windowCloseupSpec(d)
  specs['iops-2d'] = iops2dSpec(data)
  specs['iops-matrix'] = iopsMatrixSpec(data)
  return specs
}
