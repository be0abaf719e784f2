/** Pure parser for `smartctl -i -j` (smartmontools >= 7.0 JSON output). */

export interface SmartctlInfo {
  ok: boolean
  messages: string[]
  protocol: string | null
  deviceType: string | null
  model: string | null
  serial: string | null
  firmware: string | null
  capacityBytes: number | null
  logicalSectorBytes: number | null
  physicalSectorBytes: number | null
  rotational: boolean | null
  formFactor: string | null
  /** "Write cache is:" (smartctl -g wcache / -x); absent from plain -i. */
  writeCacheEnabled: boolean | null
}

export function parseSmartctlInfo(json: string): SmartctlInfo {
  const o = JSON.parse(json) as Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!o || !Array.isArray(o.json_format_version)) throw new Error('not smartctl JSON output (no json_format_version)')
  const exit = Number(o.smartctl?.exit_status ?? 0)
  const messages = Array.isArray(o.smartctl?.messages) ? o.smartctl.messages.map((m: {string: string}) => m.string) : []
  const s = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)
  const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
  const rr = o.rotation_rate
  return {
    // bits 0-1 of the exit status: command line / device open failed
    ok: (exit & 0x3) === 0 && !!o.device,
    messages,
    protocol: s(o.device?.protocol),
    deviceType: s(o.device?.type),
    model: s(o.model_name) ?? s([o.vendor, o.product].filter(Boolean).join(' ')),
    serial: s(o.serial_number),
    firmware: s(o.firmware_version) ?? s(o.revision),
    capacityBytes: n(o.user_capacity?.bytes) ?? n(o.nvme_total_capacity),
    logicalSectorBytes: n(o.logical_block_size),
    physicalSectorBytes: n(o.physical_block_size) ?? n(o.logical_block_size),
    rotational: typeof rr === 'number' ? rr > 0 : (o.device?.protocol === 'NVMe' ? false : null),
    formFactor: s(o.form_factor?.name),
    writeCacheEnabled: typeof o.write_cache?.enabled === 'boolean' ? o.write_cache.enabled : null,
  }
}
