/**
 * The "Drive Health and Temperature" page(s) of every report (pure): the before/after table of
 * the drive's SMART / health log with what fio wrote, and the temperature trace when samples
 * were taken. Not a SNIA plot (no "Plot A.n"). A run without a health log says why; a run stored
 * before pts read health logs says "not recorded".
 */
import type {TopLevelSpec} from 'vega-lite'
import {healthView, type HealthView} from '../../analysis/health.js'
import {lineChart} from '../charts/generic.js'
import type {ProgramResults} from '../../model/results.js'
import type {TableData} from '../page-kit.js'

/** A page of this builder (the shape of report/model.ts's HealthPageSpec, without importing it: model.ts imports this file). */
export interface HealthPageSpec {
  kind: 'chart' | 'tables'
  title: string
  chart?: TopLevelSpec
  tables?: Array<TableData & {heading: string}>
  note?: string
}

export const HEALTH_TITLE = 'Drive Health and Temperature'

export function healthPages(r: ProgramResults): {view: HealthView; pages: HealthPageSpec[]} {
  const v = healthView(r)
  if (v.status !== 'recorded') {
    const what = v.status === 'not-recorded' ? 'not recorded' : 'not available'
    return {view: v, pages: [{kind: 'tables', title: HEALTH_TITLE, tables: [{heading: `Drive health log and temperature: ${what}`, columns: ['Item', 'Status'], rows: [
      {label: 'Health log (before / after the test)', cells: [`${what}: ${v.reason ?? 'no reason recorded'}`]},
      {label: 'Temperature during the run', cells: [what]},
      {label: 'Bytes fio wrote (this run)', cells: [`${v.fioWrittenBytes.toLocaleString('en-US')} B`]},
    ], note: ''}],
    note: v.status === 'not-recorded' ? 'pts reads the drive\'s SMART / health log before and after every test and samples its temperature during it; this run predates that.'
      : 'pts reads the drive\'s SMART / health log (nvme smart-log for NVMe, smartctl for SATA and SAS) before and after every test and samples its temperature during it; this target has none.'}]}
  }
  const heading = `SMART / health log before and after the test (${v.tool} ${v.device})`
  const pages: HealthPageSpec[] = [{kind: 'tables', title: HEALTH_TITLE, tables: [{heading, columns: ['Item', 'Before', 'After', 'Change'], rows: v.rows.map(x => ({label: x.label, cells: [x.before, x.after, x.change]})), note: ''}],
    note: [...v.warnings.map(w => `WARNING: ${w}.`), ...v.notes, `Raw logs: raw/health/ (sealed with the run; pts audit checks them).`].join(' ')}]
  if (v.trace.length > 0) {
    const chart: TopLevelSpec = lineChart(v.trace.map(p => ({x: p.minutes, y: p.temperatureC, series: 'Drive temperature'})), {xTitle: 'Minutes since the first sample', yTitle: 'Temperature (°C)', yFormat: ',.0f'})
    pages.push({kind: 'chart', title: `${HEALTH_TITLE} - Temperature Trace`, chart,
      note: `The drive's temperature, sampled every ${v.intervalSec} s while a fio step ran (${v.samples} samples; pts run --health-interval sets the interval).`})
  }
  return {view: v, pages}
}
