/** Unit parsing and formatting (digest Part A 5: binary block sizes, decimal MB/s and GB). Pure. */

const SIZE_UNITS: Record<string, number> = {
  '': 1, B: 1,
  KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3, TIB: 1024 ** 4,
  K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4,
  KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12,
}

/** Parse "8GiB", "512MiB", "1.5GiB", "4096" into bytes; null when not a size. */
export function parseSizeBytes(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text)
  if (!m) return null
  const unit = SIZE_UNITS[m[2].toUpperCase()]
  if (unit === undefined) return null
  const bytes = Number(m[1]) * unit
  return Number.isFinite(bytes) && Number.isInteger(bytes) ? bytes : null
}

/** Block size label in binary units: 512 -> "0.5KiB", 4096 -> "4KiB", 1048576 -> "1024KiB". */
export function blockSizeLabel(bytes: number): string {
  return `${bytes / 1024}KiB`
}

/** R/W mix label, read/write percent: 65 -> "65/35". */
export function mixLabel(readPct: number): string {
  return `${readPct}/${100 - readPct}`
}

/** Human byte count in binary units for sizes of targets and volumes. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes
  let i = 0
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++ }
  return `${Number.isInteger(v) ? v : v.toFixed(2)} ${units[i]}`
}

/**
 * A capacity as the report prints it: decimal units to 0.1 (the PTS's unit for capacity, digest
 * Part A 5), then the binary size: 268435456 -> "268.4 MB (256 MiB)", 1000204886016 ->
 * "1.0 TB (931.5 GiB)".
 */
export function formatCapacity(bytes: number): string {
  const dec: Array<[number, string]> = [[1e12, 'TB'], [1e9, 'GB'], [1e6, 'MB'], [1e3, 'kB']]
  const [div, unit] = dec.find(([d]) => bytes >= d) ?? [1, 'B']
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes
  let i = 0
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++ }
  const bin = `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`
  return div === 1 ? `${bytes} B` : `${(bytes / div).toFixed(1)} ${unit} (${bin})`
}

/** Decimal GB (10^9 B), as the PTS reports capacity (digest Part A 5). */
export function formatDecimalGB(bytes: number): string {
  return `${(bytes / 1e9).toFixed(1)} GB`
}

/** A volume in decimal units: "536.9 GB", "1.3 MB", "512 B" (GB from 10^9 B up, MB from 10^6 B). */
export function formatDecimalVolume(bytes: number): string {
  if (bytes >= 1e9) return formatDecimalGB(bytes)
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`
  return `${bytes} B`
}

/** Seconds as "1h 02m 03s" / "2m 05s" / "4.5s". */
export function formatDuration(sec: number): string {
  if (!Number.isFinite(sec)) return '?'
  if (sec < 60) return `${Math.round(sec * 10) / 10}s`
  const s = Math.round(sec)
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const r = s % 60
  const pad = (n: number) => String(n).padStart(2, '0')
  return h > 0 ? `${h}h ${pad(m)}m ${pad(r)}s` : `${m}m ${pad(r)}s`
}
