/**
 * The fleet report (pure): one row per drive and test (model, serial, firmware, test, verdict,
 * headline values) and, for the drives of one model, the sample variation of every headline value
 * (min, median, max, coefficient of variation). Input is what each run's own report shows (its
 * summary page's headline and verdict), so the fleet report never computes a number differently.
 */
import type {KV} from '../page-kit.js'

/** One run of one drive, as its own report's summary page shows it. */
export interface FleetRunInput {
  /** The run directory as the reader should find it (relative to the fleet directory when it is inside). */
  dir: string
  /** Lane number (null for a run given on its own). */
  lane: number | null
  device: string
  model: string
  serial: string
  firmware: string
  test: string
  /** complete, failed, interrupted, refused, ... */
  status: string
  compliant: boolean
  /** The verdict of the run's summary page ("Steady state criteria met", ...); the error for a run without results. */
  verdict: string
  headline: KV[]
  /** Concurrent drives during the run (a lane of a multi-drive run), 1 for a run alone. */
  concurrentDrives: number
  /** The host's CPU busy percent over the run, when recorded. */
  hostCpuBusyPct: number | null
}

export interface VariationRow {
  model: string
  test: string
  label: string
  unit: string
  /** How many drives have a value. */
  n: number
  min: number
  median: number
  max: number
  /** Sample standard deviation / mean, in percent (null when the mean is 0). */
  cvPct: number | null
  /** Decimals the runs' reports print this value with (IOPS 0, MB/s 1, ms 3): min, median and max are printed with as many. */
  decimals: number
}

export interface FleetReportModel {
  title: string
  generatedAt: string
  host: string
  rows: FleetRunInput[]
  variation: VariationRow[]
  /** Models with fewer than two drives with results (no variation to show). */
  single: string[]
  notes: string[]
}

/** "12,345 IOPS" -> {value: 12345, unit: 'IOPS'}; null for text without a leading number ("n/a"). */
export function headlineNumber(text: string): {value: number; unit: string} | null {
  const m = /^(-?[\d,]*\.?\d+)\s*([A-Za-z%][A-Za-z/%]*)?\s*(\(.*\))?$/.exec(text.trim())
  if (!m) return null
  const value = Number(m[1].replace(/,/g, ''))
  return Number.isFinite(value) ? {value, unit: (m[2] ?? '').trim()} : null
}

/** Digits after the decimal point of a headline value as its report prints it: "283.9 MB/s" -> 1, "6,559 IOPS" -> 0, "2.902 ms" -> 3. */
export function shownDecimals(text: string): number {
  return /^-?[\d,]*(?:\.(\d+))?/.exec(text.trim())?.[1]?.length ?? 0
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const h = Math.floor(s.length / 2)
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2
}

/** Coefficient of variation (sample standard deviation / mean) in percent; null when the mean is 0 or n < 2. */
export function cvPct(xs: readonly number[]): number | null {
  if (xs.length < 2) return null
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length
  if (mean === 0) return null
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1))
  return (100 * sd) / Math.abs(mean)
}

/** The variation per model, test and headline label over the drives (distinct serials) with a number for it. */
export function variationOf(rows: readonly FleetRunInput[]): {variation: VariationRow[]; single: string[]} {
  const groups = new Map<string, FleetRunInput[]>()
  for (const r of rows) {
    if (r.headline.length === 0) continue
    const k = `${r.model}\u0000${r.test}`
    groups.set(k, [...(groups.get(k) ?? []), r])
  }
  const variation: VariationRow[] = []
  const single = new Set<string>()
  for (const [k, rs] of groups) {
    const [model, test] = k.split('\u0000')
    if (new Set(rs.map(r => `${r.serial}|${r.device}`)).size < 2) { single.add(`${model} (${test})`); continue }
    const labels = [...new Set(rs.flatMap(r => r.headline.map(h => h.label)))]
    for (const label of labels) {
      const texts = rs.map(r => r.headline.find(h => h.label === label)?.value).filter((t): t is string => t !== undefined && headlineNumber(t) !== null)
      if (texts.length < 2) continue
      const vals = texts.map(t => headlineNumber(t)!)
      const xs = vals.map(v => v.value)
      variation.push({model, test, label, unit: vals[0].unit, n: xs.length, min: Math.min(...xs), median: median(xs), max: Math.max(...xs), cvPct: cvPct(xs), decimals: Math.max(...texts.map(shownDecimals))})
    }
  }
  return {variation, single: [...single]}
}

export function buildFleetReport(o: {title: string; generatedAt: string; host: string; rows: FleetRunInput[]}): FleetReportModel {
  const {variation, single} = variationOf(o.rows)
  const concurrent = Math.max(1, ...o.rows.map(r => r.concurrentDrives))
  const cpu = o.rows.map(r => r.hostCpuBusyPct).filter((v): v is number => v !== null)
  const notes = [
    'One row per drive and test, with the verdict and headline values of that run\'s own report (its summary page); every lane is a complete single-drive run in its own directory, with its own purge, steady-state decision, report, seal and audit trail.',
    'Sample variation: for the drives of one model, the minimum, median and maximum of each headline value and its coefficient of variation (sample standard deviation / mean), from the values as the reports show them (rounded), printed with the reports\' decimals (IOPS whole, MB/s to 0.1, ms to 0.001).',
    ...(concurrent > 1 ? [`Up to ${concurrent} drives were tested at the same time on this host, one fio process each; each run's report lists the drives and the host's CPU use as a test condition${cpu.length ? ` (host CPU busy ${Math.min(...cpu) === Math.max(...cpu) ? cpu[0] : `${Math.min(...cpu)}-${Math.max(...cpu)}`}% over the runs)` : ''}.`] : []),
  ]
  return {title: o.title, generatedAt: o.generatedAt, host: o.host, rows: o.rows, variation, single, notes}
}
