/** All charts of a report, keyed by the chart id the model's pages refer to. Pure. */
import type {TopLevelSpec} from 'vega-lite'
import type {ReportModel} from '../model.js'
import {claimsSpec} from './claims.js'
import {convergenceSpec} from './convergence.js'
import {iops2dSpec} from './iops-2d.js'
import {iopsMatrixSpec} from './iops-matrix.js'
import {measurementWindowSpec} from './measurement-window.js'
import {windowCloseupSpec} from './window-closeup.js'

export function buildChartSpecs(model: ReportModel): Record<string, TopLevelSpec> {
  const specs: Record<string, TopLevelSpec> = {
    convergence: convergenceSpec(model),
    'measurement-window': measurementWindowSpec(model),
  }
  for (const d of model.data.determinations) specs[`window-${d.id}`] = windowCloseupSpec(d)
  specs['iops-2d'] = iops2dSpec(model)
  specs['iops-matrix'] = iopsMatrixSpec(model)
  // "Claims vs measured" pages (only when the run has a valid claims.json).
  for (const p of model.pages) if (p.kind === 'claims' && p.claims && p.chart) specs[p.chart] = claimsSpec(p.claims.bars)
  return specs
}
