/**
 * What the report says of the drive's health (pure): the before/after deltas of its SMART /
 * health log, the drive's own count of host bytes written against what fio wrote, the temperature
 * trace, and the warnings (thermal throttling, a critical warning) for the summary page.
 */
import {criticalWarningText, type HealthFacts} from '../model/health.js'
import type {ProgramResults} from '../model/results.js'
import {formatBytes} from '../units.js'
import {stepsOf} from './steps.js'

export interface HealthRow { label: string; before: string; after: string; change: string }

export interface HealthView {
  /** not-recorded: a run stored before pts read health logs; not-available: the target or host has none (reason). */
  status: 'recorded' | 'not-available' | 'not-recorded'
  reason: string | null
  tool: string | null
  device: string | null
  intervalSec: number | null
  rows: HealthRow[]
  /** Bytes fio wrote in the run (every step and WIPC), from results.json. */
  fioWrittenBytes: number
  /** Temperature samples: minutes since the first one, degrees Celsius. */
  trace: Array<{minutes: number; temperatureC: number}>
  samples: number
  /** Throttling and critical warnings, one sentence each (the summary's warning line). */
  warnings: string[]
  /** Other facts worth a line on the page (sample failures, the unit of a count). */
  notes: string[]
  /** The summary page's one line. */
  summary: string
}

/** Bytes fio wrote in a run: every step's write bytes plus every WIPC phase's. */
export function fioWrittenBytes(r: ProgramResults): number {
  const steps = stepsOf(r).reduce((a, s) => a + s.step.writeBytes, 0)
  return steps + r.phases.reduce((a, p) => a + (p.kind === 'wipc' ? p.writtenBytes : 0), 0)
}

const int = (v: number) => Math.round(v).toLocaleString('en-US')
const show = (v: number | null, unit = '') => (v === null ? 'n/a' : `${int(v)}${unit}`)
const delta = (a: number | null, b: number | null, unit = '') => (a === null || b === null ? 'n/a' : `${b - a >= 0 ? '+' : ''}${int(b - a)}${unit}`)

export function healthView(r: ProgramResults): HealthView {
  const fio = fioWrittenBytes(r)
  const h = r.health
  const base = {rows: [], fioWrittenBytes: fio, trace: [], samples: 0, warnings: [], notes: []}
  if (!h) {
    return {...base, status: 'not-recorded', reason: 'this run was stored by an earlier version of pts, which did not read the drive\'s health log', tool: null, device: null, intervalSec: null,
      summary: 'not recorded (run stored by an earlier version of pts)'}
  }
  if (!h.available) {
    return {...base, status: 'not-available', reason: h.reason, tool: h.tool, device: h.device, intervalSec: h.intervalSec, summary: `not available: ${h.reason ?? 'no health log'}`}
  }
  const b: HealthFacts | null = h.before?.facts ?? null
  const a: HealthFacts | null = h.after?.facts ?? null
  const rows: HealthRow[] = []
  const row = (label: string, get: (f: HealthFacts) => number | null, unit = '') => {
    const x = b ? get(b) : null
    const y = a ? get(a) : null
    if (x === null && y === null) return
    rows.push({label, before: show(x, unit), after: show(y, unit), change: delta(x, y, unit)})
  }
  const temps = h.samples.filter(s => s.temperatureC !== null).map(s => s.temperatureC!)
  const [lo, hi] = [Math.min(...temps), Math.max(...temps)]
  const tempRange = temps.length ? `${lo === hi ? `${lo} °C` : `${lo} to ${hi} °C`} during the run (${temps.length} sample${temps.length === 1 ? '' : 's'})` : 'no samples'
  if (b?.temperatureC !== null || a?.temperatureC !== null) rows.push({label: 'Temperature', before: show(b?.temperatureC ?? null, ' °C'), after: show(a?.temperatureC ?? null, ' °C'), change: tempRange})
  const hbw = (f: HealthFacts) => f.hostBytesWritten
  const x = b ? hbw(b) : null
  const y = a ? hbw(a) : null
  const notes: string[] = []
  if (x !== null || y !== null) {
    const unit = a?.hostBytesWrittenUnit ?? b?.hostBytesWrittenUnit ?? null
    const d = x !== null && y !== null ? y - x : null
    rows.push({label: 'Host bytes written (drive\'s count)', before: x === null ? 'n/a' : formatBytes(x), after: y === null ? 'n/a' : formatBytes(y),
      change: d === null ? 'n/a' : `+${formatBytes(d)}${fio > 0 ? ` (${(d / fio).toFixed(3)} x what fio wrote)` : ''}`})
    if (unit !== null) notes.push(`The drive counts host writes in units of ${formatBytes(unit)} (${int(unit)} B), so its change is exact to one unit; fio wrote ${formatBytes(fio)} (${int(fio)} B) in this run, WIPC included.`)
  }
  const attrB = b?.hostWritesAttribute ?? null
  const attrA = a?.hostWritesAttribute ?? null
  if (attrB || attrA) {
    const name = (attrA ?? attrB)!
    rows.push({label: `SMART ${name.id} ${name.name} (raw, vendor unit)`, before: show(attrB?.raw ?? null), after: show(attrA?.raw ?? null), change: delta(attrB?.raw ?? null, attrA?.raw ?? null)})
    notes.push(`SMART attribute ${name.id} counts host writes in a unit the vendor defines (e.g. 32 MiB on Intel drives, 512 B sectors on others), so pts shows its raw change beside what fio wrote (${formatBytes(fio)}) and does not convert it.`)
  }
  rows.push({label: 'Bytes fio wrote (this run)', before: '', after: '', change: `${formatBytes(fio)} (${int(fio)} B)`})
  row('Media / uncorrectable errors', f => f.mediaErrors)
  row('Percentage used (rated life)', f => f.percentageUsed, ' %')
  row('Available spare', f => f.availableSparePct, ' %')
  row('Power-on hours', f => f.powerOnHours, ' h')
  row('Power cycles', f => f.powerCycles)
  row('Unsafe shutdowns', f => f.unsafeShutdowns)
  row('Error log entries', f => f.errorLogEntries)
  row('Time above warning temperature', f => f.warningTempMinutes, ' min')
  row('Time above critical temperature', f => f.criticalTempMinutes, ' min')
  row('Thermal management transitions', f => f.thermalTransitions)
  row('Time in thermal management', f => f.thermalSeconds, ' s')
  const cw = (f: HealthFacts | null) => (f?.criticalWarning ?? null)
  if (cw(b) !== null || cw(a) !== null) rows.push({label: 'Critical warning', before: cw(b) === null ? 'n/a' : criticalWarningText(cw(b)!), after: cw(a) === null ? 'n/a' : criticalWarningText(cw(a)!), change: ''})
  const passed = (f: HealthFacts | null) => (f?.smartPassed === null || f?.smartPassed === undefined ? 'n/a' : f.smartPassed ? 'PASSED' : 'FAILED')
  if (b?.smartPassed != null || a?.smartPassed != null) rows.push({label: 'SMART overall health', before: passed(b), after: passed(a), change: ''})

  // Warnings: throttling (thermal management transitions or time above the warning temperature grew) and critical warnings.
  const warnings: string[] = []
  const trans = [b?.thermalTransitions ?? null, ...h.samples.map(s => s.thermalTransitions), a?.thermalTransitions ?? null].filter((v): v is number => v !== null)
  if (trans.length >= 2 && trans.at(-1)! > trans[0]) warnings.push(`the drive throttled during the run: its thermal management transitions rose from ${int(trans[0])} to ${int(trans.at(-1)!)}`)
  const warm = [b?.warningTempMinutes ?? null, ...h.samples.map(s => s.warningTempMinutes), a?.warningTempMinutes ?? null].filter((v): v is number => v !== null)
  if (warm.length >= 2 && warm.at(-1)! > warm[0]) warnings.push(`the drive spent ${int(warm.at(-1)! - warm[0])} min above its warning temperature during the run`)
  const cws = [cw(b), ...h.samples.map(s => s.criticalWarning), cw(a)].filter((v): v is number => v !== null)
  const anyCw = cws.reduce((m, v) => m | v, 0)
  if (anyCw !== 0) warnings.push(`the drive raised a critical warning${cw(b) ? ' (already before the test)' : ''}: ${criticalWarningText(anyCw)}`)
  if (a?.smartPassed === false || b?.smartPassed === false) warnings.push('the drive\'s SMART overall health assessment is FAILED')
  if (!h.after) notes.push('The health log after the test is missing (the run was interrupted before its end, or it could not be read).')
  else if (!h.after.facts) notes.push(`The health log after the test could not be read: ${h.after.problem ?? 'unknown'}.`)
  if (h.problems.length) notes.push(`${h.problems.length} temperature sample${h.problems.length === 1 ? '' : 's'} failed, e.g. ${h.problems[0]}.`)

  const t0 = h.samples.length ? Date.parse(h.samples[0].at) : 0
  const trace = h.samples.filter(s => s.temperatureC !== null).map(s => ({minutes: Math.round((Date.parse(s.at) - t0) / 600) / 100, temperatureC: s.temperatureC!}))
  const summary = warnings.length ? `WARNING: ${warnings.join('; ')}`
    : `${temps.length ? tempRange : `temperature ${show(b?.temperatureC ?? null, ' °C')} before, ${show(a?.temperatureC ?? null, ' °C')} after the test`}; no throttling and no critical warning`
  return {status: 'recorded', reason: null, tool: h.tool, device: h.device, intervalSec: h.intervalSec, rows, fioWrittenBytes: fio, trace, samples: h.samples.length, warnings, notes, summary}
}
