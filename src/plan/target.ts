/**
 * What every plan needs from the target and the WIPC volume arithmetic (shared by the planner,
 * program/expand.ts). Pure.
 */

export interface TargetInfo {
  kind: 'file' | 'block'
  path: string
  sizeBytes: number
  logicalSectorBytes: number
  /** The purge chosen for this target (device layer); a non-null deviation makes the run non-compliant. */
  purge: PurgePlan
  /** Other reasons the target makes the run non-compliant (e.g. a partition allowed by the operator). */
  nonCompliant?: string[]
}

export interface WipcSlice {
  offsetBytes: number
  sizeBytes: number
  ioSizeBytes: number
}

export interface PurgePlan {
  /** nvme-sanitize-block, ata-secure-erase, ..., discard, zero or none (device/purge.ts). */
  method: string
  /** A purge that is not one the PTS accepts (digest Part A 8) is a deviation; null for a PTS purge. */
  deviation: string | null
}

import {PlanError} from '../errors.js'
import * as M from '../messages.js'

/** Split `rangeBytes` into `jobs` contiguous slices aligned to `alignBytes`; the last one takes the rest. */
export function splitRange(rangeBytes: number, jobs: number, alignBytes: number): Array<{offsetBytes: number; sizeBytes: number}> {
  const units = Math.floor(rangeBytes / alignBytes)
  if (units < jobs) throw new PlanError(M.plan.rangeTooSmall(rangeBytes, jobs, alignBytes))
  const per = Math.floor(units / jobs)
  const slices = []
  for (let j = 0; j < jobs; j++) {
    const first = j * per
    const count = j === jobs - 1 ? units - first : per
    slices.push({offsetBytes: first * alignBytes, sizeBytes: count * alignBytes})
  }
  return slices
}

/**
 * WIPC slices: exactly totalBytes in total (aligned to the block size), one slice of `rangeBytes`
 * (the PC ActiveRange) per thread, each thread writing its share of the total inside its own slice
 * (io_size larger than the slice wraps within it, so a total above the range writes the range more
 * than once). When the volume is too small for every thread to write a block (a tiny --time-scale
 * or multiple), fewer threads write: fio reads io_size=0 as "the whole slice", so no slice may get 0.
 */
export function wipcSlices(rangeBytes: number, threads: number, bs: number, totalBytes: number): {totalBytes: number; slices: WipcSlice[]} {
  const total = Math.max(bs, alignDown(totalBytes, bs))
  const n = Math.max(1, Math.min(threads, Math.floor(total / bs)))
  const split = splitRange(rangeBytes, n, bs)
  const slices: WipcSlice[] = split.map(s => ({...s, ioSizeBytes: Math.max(bs, alignDown(s.sizeBytes * (total / rangeBytes), bs))}))
  // The last thread takes what rounding left over, so the total is exact.
  slices[slices.length - 1].ioSizeBytes = total - slices.slice(0, -1).reduce((a, s) => a + s.ioSizeBytes, 0)
  return {totalBytes: total, slices}
}

function alignDown(n: number, align: number): number {
  return Math.floor(n / align) * align
}

/** Deterministic per-point seed derived from the run seed (recorded with every job). */
export function pointSeed(runSeed: number, round: number, pointIndex: number): number {
  // 32-bit FNV-1a over (seed, round, index): stable across platforms, never 0.
  let h = 0x811c9dc5
  for (const v of [runSeed >>> 0, round, pointIndex]) {
    for (let i = 0; i < 4; i++) {
      h ^= (v >>> (i * 8)) & 0xff
      h = Math.imul(h, 0x01000193) >>> 0
    }
  }
  return h === 0 ? 1 : h
}
