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
