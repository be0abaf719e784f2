/**
 * Pure parsers of a drive's SMART / health log: `nvme smart-log <dev> -o json` (nvme-cli) and
 * `smartctl --json -a <dev>` (smartmontools >= 7.0; NVMe, ATA and SCSI). Every fact is null when
 * the log does not give it; nothing is guessed (an ATA drive's Total_LBAs_Written attribute has a
 * vendor-defined unit, so it is kept as a raw count with its name, never converted to bytes).
 */

import type {HealthFacts} from '../model/health.js'

export type {HealthFacts}
export {criticalWarningText} from '../model/health.js'

export type HealthParse = {ok: true; facts: HealthFacts} | {ok: false; reason: string}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>

const num = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v
  // nvme-cli prints 128-bit counters as numbers, newer versions sometimes as strings; smartctl's SCSI GB processed is a string
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v)
  return null
}
const sum = (...v: Array<number | null>): number | null => (v.every(x => x === null) ? null : v.reduce<number>((a, x) => a + (x ?? 0), 0))

function parseJson(stdout: string, tool: string): Obj | string {
  const text = stdout.trim()
  if (text === '') return `${tool} printed nothing`
  try {
    const o = JSON.parse(text) as unknown
    return o && typeof o === 'object' && !Array.isArray(o) ? o as Obj : `${tool} did not print a JSON object`
  } catch (error) {
    return `${tool} did not print JSON (${(error as Error).message})`
  }
}

const EMPTY = (source: HealthFacts['source'], protocol: HealthFacts['protocol']): HealthFacts => ({
  source, protocol, temperatureC: null, criticalWarning: null, smartPassed: null, hostBytesWritten: null, hostBytesWrittenUnit: null, hostWritesAttribute: null,
  mediaErrors: null, percentageUsed: null, availableSparePct: null, powerOnHours: null, powerCycles: null, unsafeShutdowns: null, errorLogEntries: null,
  warningTempMinutes: null, criticalTempMinutes: null, thermalTransitions: null, thermalSeconds: null,
})

/** NVMe Data Units are thousands of 512-byte units (NVMe base spec, SMART / Health Information log). */
export const NVME_DATA_UNIT_BYTES = 512_000

/** `nvme smart-log <dev> -o json` (nvme-cli 1.x/2.x: temperatures in kelvin; critical_warning a number or an object with `value`). */
export function parseNvmeSmartLog(stdout: string): HealthParse {
  const o = parseJson(stdout, 'nvme smart-log')
  if (typeof o === 'string') return {ok: false, reason: o}
  if (!('critical_warning' in o) && !('temperature' in o)) return {ok: false, reason: 'nvme smart-log printed no SMART / health fields'}
  const kelvin = num(o.temperature)
  const cw = typeof o.critical_warning === 'object' && o.critical_warning !== null ? num(o.critical_warning.value) : num(o.critical_warning)
  const duw = num(o.data_units_written)
  return {ok: true, facts: {
    ...EMPTY('nvme-cli', 'NVMe'),
    // kelvin in nvme-cli's JSON; 0 means the controller reports none
    temperatureC: kelvin === null || kelvin === 0 ? null : kelvin > 200 ? kelvin - 273 : kelvin,
    criticalWarning: cw,
    hostBytesWritten: duw === null ? null : duw * NVME_DATA_UNIT_BYTES,
    hostBytesWrittenUnit: duw === null ? null : NVME_DATA_UNIT_BYTES,
    mediaErrors: num(o.media_errors),
    percentageUsed: num(o.percent_used ?? o.percentage_used),
    availableSparePct: num(o.avail_spare ?? o.available_spare),
    powerOnHours: num(o.power_on_hours),
    powerCycles: num(o.power_cycles),
    unsafeShutdowns: num(o.unsafe_shutdowns),
    errorLogEntries: num(o.num_err_log_entries),
    warningTempMinutes: num(o.warning_temp_time),
    criticalTempMinutes: num(o.critical_comp_time),
    thermalTransitions: sum(num(o.thm_temp1_trans_count), num(o.thm_temp2_trans_count)),
    thermalSeconds: sum(num(o.thm_temp1_total_time), num(o.thm_temp2_total_time)),
  }}
}

/** `smartctl --json -a <dev>` of an NVMe, ATA or SCSI device. */
export function parseSmartctlHealth(stdout: string): HealthParse {
  const o = parseJson(stdout, 'smartctl')
  if (typeof o === 'string') return {ok: false, reason: o}
  if (!Array.isArray(o.json_format_version)) return {ok: false, reason: 'not smartctl JSON output (no json_format_version)'}
  const exit = Number(o.smartctl?.exit_status ?? 0)
  const messages: string[] = Array.isArray(o.smartctl?.messages) ? o.smartctl.messages.map((m: {string: string}) => m.string) : []
  // exit status bits 0-1: the command line was bad or the device could not be opened / identified
  if ((exit & 0x3) !== 0 || !o.device) return {ok: false, reason: `smartctl: ${messages[0] ?? `exit status ${exit}`}`}
  const proto = String(o.device.protocol ?? '')
  const protocol: HealthFacts['protocol'] = proto === 'NVMe' ? 'NVMe' : proto === 'ATA' ? 'ATA' : proto === 'SCSI' ? 'SCSI' : null
  const f = EMPTY('smartctl', protocol)
  f.temperatureC = num(o.temperature?.current)
  f.smartPassed = typeof o.smart_status?.passed === 'boolean' ? o.smart_status.passed : null
  f.powerOnHours = num(o.power_on_time?.hours)
  f.powerCycles = num(o.power_cycle_count)
  if (protocol === 'NVMe') {
    const h: Obj = o.nvme_smart_health_information_log ?? {}
    const duw = num(h.data_units_written)
    Object.assign(f, {
      temperatureC: num(h.temperature) ?? f.temperatureC,
      criticalWarning: num(h.critical_warning),
      hostBytesWritten: duw === null ? null : duw * NVME_DATA_UNIT_BYTES, hostBytesWrittenUnit: duw === null ? null : NVME_DATA_UNIT_BYTES,
      mediaErrors: num(h.media_errors), percentageUsed: num(h.percentage_used), availableSparePct: num(h.available_spare),
      powerOnHours: num(h.power_on_hours) ?? f.powerOnHours, powerCycles: num(h.power_cycles) ?? f.powerCycles, unsafeShutdowns: num(h.unsafe_shutdowns),
      errorLogEntries: num(h.num_err_log_entries), warningTempMinutes: num(h.warning_temp_time), criticalTempMinutes: num(h.critical_comp_time),
    })
  } else if (protocol === 'ATA') {
    const table: Obj[] = Array.isArray(o.ata_smart_attributes?.table) ? o.ata_smart_attributes.table : []
    const attr = (id: number) => table.find(a => a.id === id)
    const raw = (id: number) => num(attr(id)?.raw?.value)
    // the ATA Device Statistics log (smartctl -x / -l devstat): logical sectors written, in the drive's logical sector size
    const stats: Obj[] = Array.isArray(o.ata_device_statistics?.pages) ? o.ata_device_statistics.pages.flatMap((p: Obj) => (Array.isArray(p.table) ? p.table : [])) : []
    const stat = (name: string) => num(stats.find(s => s.name === name && s.valid !== false)?.value)
    const sectors = stat('Logical Sectors Written')
    const lbs = num(o.logical_block_size) ?? 512
    if (sectors !== null) { f.hostBytesWritten = sectors * lbs; f.hostBytesWrittenUnit = lbs }
    const w = [241, 246, 225].map(attr).find(a => a && num(a.raw?.value) !== null)
    if (w) f.hostWritesAttribute = {id: w.id, name: String(w.name), raw: num(w.raw.value)!}
    f.mediaErrors = raw(187) ?? raw(198)
    f.percentageUsed = stat('Percentage Used Endurance Indicator')
    f.unsafeShutdowns = raw(174) ?? raw(192)
    f.errorLogEntries = num(o.ata_smart_error_log?.summary?.count ?? o.ata_smart_error_log?.extended?.count)
  } else if (protocol === 'SCSI') {
    // a disk without SMART (smart_support.available false) that reports 0 as both temperature and trip temperature reports none (QEMU's scsi-hd)
    if (o.smart_support?.available === false && f.temperatureC === 0 && !num(o.scsi_temperature?.drive_trip ?? o.temperature?.drive_trip)) f.temperatureC = null
    const log: Obj = o.scsi_error_counter_log ?? {}
    const gb = num(log.write?.gigabytes_processed)
    if (gb !== null) { f.hostBytesWritten = Math.round(gb * 1e9); f.hostBytesWrittenUnit = 1e6 }
    f.mediaErrors = sum(num(log.read?.total_uncorrected_errors), num(log.write?.total_uncorrected_errors))
    f.percentageUsed = num(o.scsi_percentage_used_endurance_indicator)
  }
  const facts = Object.entries(f).filter(([k, v]) => k !== 'source' && k !== 'protocol' && v !== null)
  if (facts.length === 0) return {ok: false, reason: `smartctl: ${messages[0] ?? 'the device reports no SMART / health data'}`}
  return {ok: true, facts: f}
}

