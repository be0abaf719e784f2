/** The ratio cells and tables every compare page uses (model.ts and phases.ts). Pure. */

/** value / base; null when either is not a finite number or the base is not positive. */
export function ratio(value: number | null | undefined, base: number | null | undefined): number | null {
  if (value === null || value === undefined || base === null || base === undefined) return null
  if (!Number.isFinite(value) || !Number.isFinite(base) || base <= 0) return null
  return value / base
}

export const RATIO_LOW = 0.9
export const RATIO_HIGH = 1.1

export interface FormattedRatio {
  text: string
  /** 'lo' below 0.90, 'hi' above 1.10 (on the printed value), '' otherwise. */
  flag: '' | 'lo' | 'hi'
}

export function formatRatio(r: number | null): FormattedRatio {
  if (r === null || !Number.isFinite(r)) return {text: 'n/a', flag: ''}
  const text = r.toFixed(2)
  const shown = Number(text)
  return {text, flag: shown < RATIO_LOW ? 'lo' : shown > RATIO_HIGH ? 'hi' : ''}
}

export interface Cell { text: string; flag: '' | 'lo' | 'hi' }

export interface CompareTable {
  heading: string
  /** Column headings, the first is the row label heading. */
  columns: string[]
  rows: Array<{label: string; cells: Cell[]}>
  ratio: boolean
}

/** The median (mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

export interface SampleStats {
  n: number
  min: number
  median: number
  max: number
  mean: number
  /** Sample standard deviation (n - 1); NaN for n < 2. */
  stddev: number
  /** stddev / mean in percent; NaN when undefined (n < 2 or mean 0). */
  cvPct: number
}

export function sampleStats(values: readonly number[]): SampleStats {
  const n = values.length
  if (n === 0) return {n, min: Number.NaN, median: Number.NaN, max: Number.NaN, mean: Number.NaN, stddev: Number.NaN, cvPct: Number.NaN}
  const mean = values.reduce((a, v) => a + v, 0) / n
  const stddev = n < 2 ? Number.NaN : Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1))
  return {
    n,
    min: Math.min(...values),
    median: median(values),
    max: Math.max(...values),
    mean,
    stddev,
    cvPct: n < 2 || mean === 0 ? Number.NaN : (stddev / mean) * 100,
  }
}
