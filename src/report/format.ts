/**
 * Number and date formatting for reports (digest Part A 5, B §6.3, §7 "Precision"). Pure and
 * locale-independent: IOPS as integers with thousands separators, MB/s (decimal, 10^6 B/s) to
 * 1 decimal, response times in ms to 3 decimals, capacity in decimal units to 0.1 with the
 * binary size (units.ts formatCapacity: "268.4 MB (256 MiB)").
 */
import {blockSizeLabel, mixLabel} from '../units.js'

const fmtCache = new Map<number, Intl.NumberFormat>()

/** Fixed decimals with "," thousands separators: fixed(12345.678, 1) = "12,345.7". */
export function fixed(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return 'n/a'
  let f = fmtCache.get(decimals)
  if (!f) {
    f = new Intl.NumberFormat('en-US', {minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: true})
    fmtCache.set(decimals, f)
  }
  const s = f.format(value)
  return s === '-0' || /^-0\.0*$/.test(s) ? s.slice(1) : s
}

/** IOPS: integer with thousands separators. */
export const fmtIops = (iops: number): string => fixed(iops, 0)

/** Bandwidth in decimal MB/s (10^6 B/s), 1 decimal. */
export const fmtMBps = (bytesPerSec: number): string => fixed(bytesPerSec / 1e6, 1)

/** Nanoseconds as milliseconds, 3 decimals. */
export const fmtMs = (ns: number): string => fixed(ns / 1e6, 3)

/** "RND 4KiB R/W 0/100". */
export function pointLabel(readPct: number, blockSizeBytes: number, access = 'RND'): string {
  return `${access} ${blockSizeLabel(blockSizeBytes)} R/W ${mixLabel(readPct)}`
}

/** ISO 8601 instant as "2026-12-01 01:31:09 UTC" (UTC, so reports do not depend on the host's zone). */
export function fmtInstant(iso: string | null): string {
  if (!iso) return 'n/a'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

/** Least-squares fit as the SNIA determination data prints it: "-6.400 * R + 11746.000". */
export function fitFormula(slope: number, intercept: number, decimals = 3): string {
  const sign = intercept < 0 ? '-' : '+'
  return `${slope.toFixed(decimals)} * R ${sign} ${Math.abs(intercept).toFixed(decimals)}`
}

/** Bytes as a human binary size: 1048576 -> "1 MiB" (for file sizes in the appendix). */
export function fmtFileBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`
}

/** A time axis is drawn in seconds when what it shows lasted under 5 minutes (a shortened run: 1.6 s read 0.000 ... 0.028 minutes), else in minutes. */
export const timeAxisInSeconds = (lastedSec: number): boolean => lastedSec < 300
