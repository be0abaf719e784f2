/**
 * Plan expansion: (test spec, run options, target) -> everything a run will do. Pure.
 * Loop order is the spec's: R/W mix outer, block size inner (digest Part A 7, B §5.1).
 */
import {blockSizeLabel, mixLabel} from '../units.js'
import type {ProfileId, ProfileParams, Revision, TestSpec} from './types.js'

export interface RunOptions {
  revision: Revision
  profile: ProfileId
  threadCount: number
  queueDepth: number
  pointSeconds: number
  maxRounds: number
  onNoSteadyState: 'stop' | 'continue'
  wipcMultiple: number
  ioengine: string
  /** Seed of the run; each point's fio randseed is derived from it (digest Part A 6). */
  seed: number
}

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

export interface TestPoint {
  /** 0-based position in the round. */
  index: number
  readPct: number
  blockSizeBytes: number
  /** Stable id, e.g. "rw65-bs64k" (used in file names). */
  id: string
  label: string
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

export interface Plan {
  spec: TestSpec
  options: RunOptions
  profile: ProfileParams
  target: TargetInfo
  /** Bytes of the test ActiveRange (from offset 0), aligned down to the largest block size. */
  activeRangeBytes: number
  /** Bytes of the preconditioning ActiveRange, aligned down to the WIPC block size. */
  preconditionActiveRangeBytes: number
  purge: PurgePlan
  wipc: {blockSizeBytes: number; totalBytes: number; requiredBytes: number; slices: WipcSlice[]}
  points: TestPoint[]
  compliance: {compliant: boolean; reasons: string[]}
  deviations: string[]
  durations: {roundSec: number; minSec: number; maxSec: number | null; minRounds: number; maxRounds: number | null}
}

export class PlanError extends Error {}

/** The points of one round, in the spec's loop order (outer: R/W mix, inner: block size). */
export function expandPoints(spec: TestSpec): TestPoint[] {
  const points: TestPoint[] = []
  for (const readPct of spec.stimulus.loops.rwMixReadPct) {
    for (const bs of spec.stimulus.loops.blockSizesBytes) {
      points.push({
        index: points.length,
        readPct,
        blockSizeBytes: bs,
        id: `rw${readPct}-bs${bs % 1024 === 0 ? `${bs / 1024}k` : `${bs}b`}`,
        label: `RND ${blockSizeLabel(bs)} R/W ${mixLabel(readPct)}`,
      })
    }
  }
  return points
}

/** Split `rangeBytes` into `jobs` contiguous slices aligned to `alignBytes`; the last one takes the rest. */
export function splitRange(rangeBytes: number, jobs: number, alignBytes: number): Array<{offsetBytes: number; sizeBytes: number}> {
  const units = Math.floor(rangeBytes / alignBytes)
  if (units < jobs) throw new PlanError(`the range of ${rangeBytes} bytes is too small for ${jobs} threads of ${alignBytes}-byte blocks`)
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
 * WIPC slices: exactly multiple x rangeBytes in total (aligned to the block size), one slice per
 * thread, each thread writing its own part of the range (io_size wraps within its slice). When
 * the volume is too small for every thread to write a block (a tiny --time-scale or multiple),
 * fewer threads write: fio reads io_size=0 as "the whole slice", so no slice may get 0.
 */
export function wipcSlices(rangeBytes: number, threads: number, bs: number, multiple: number): {totalBytes: number; slices: WipcSlice[]} {
  const totalBytes = Math.max(bs, alignDown(rangeBytes * multiple, bs))
  const n = Math.max(1, Math.min(threads, Math.floor(totalBytes / bs)))
  const split = splitRange(rangeBytes, n, bs)
  const slices: WipcSlice[] = split.map(s => ({...s, ioSizeBytes: Math.max(bs, alignDown(s.sizeBytes * multiple, bs))}))
  // The last thread takes what rounding left over, so the total is exact.
  slices[slices.length - 1].ioSizeBytes = totalBytes - slices.slice(0, -1).reduce((a, s) => a + s.ioSizeBytes, 0)
  return {totalBytes, slices}
}

function alignDown(n: number, align: number): number {
  return Math.floor(n / align) * align
}

export function expandPlan(spec: TestSpec, options: RunOptions, target: TargetInfo): Plan {
  const profile = spec.profiles[options.profile]
  if (!profile) throw new PlanError(`revision ${spec.revision} has no ${options.profile} profile (it has: ${Object.keys(spec.profiles).join(', ')})`)
  const maxBs = Math.max(...spec.stimulus.loops.blockSizesBytes)
  const minBs = Math.min(...spec.stimulus.loops.blockSizesBytes)
  const points = expandPoints(spec)
  if (minBs % target.logicalSectorBytes !== 0) {
    throw new PlanError(`the target's logical sector is ${target.logicalSectorBytes} bytes; the ${blockSizeLabel(minBs)} points cannot run on it (digest B §2.4)`)
  }
  const activeRangeBytes = alignDown(target.sizeBytes * profile.activeRangePct / 100, maxBs)
  if (activeRangeBytes < maxBs * options.threadCount) throw new PlanError(`the target is too small: the ActiveRange of ${activeRangeBytes} bytes must hold at least one ${blockSizeLabel(maxBs)} block per thread`)
  const wipcBs = spec.wipc.blockSizeBytes
  const preconditionActiveRangeBytes = alignDown(target.sizeBytes * profile.preconditionActiveRangePct / 100, wipcBs)
  // WIPC writes exactly wipcMultiple x the (PC) ActiveRange in total, whatever the thread count:
  // each thread owns one slice and writes wipcMultiple x its slice (digest Part A 9 and the
  // pitfall "size=100% in fio is per job").
  const {totalBytes, slices} = wipcSlices(preconditionActiveRangeBytes, options.threadCount, wipcBs, options.wipcMultiple)
  /** What the spec requires (capacityMultiple x PC ActiveRange); differs from totalBytes when --wipc-multiple is changed. */
  const requiredBytes = preconditionActiveRangeBytes * spec.wipc.capacityMultiple

  const reasons: string[] = []
  const deviations: string[] = []
  // Shortened or non-device runs are allowed but non-compliant (digest Part A 10).
  if (target.kind === 'file') reasons.push('target is a regular file, not a whole block device')
  if (options.pointSeconds < spec.stimulus.pointSeconds) reasons.push(`test points of ${options.pointSeconds} s instead of ${spec.stimulus.pointSeconds} s`)
  if (options.maxRounds < spec.steadyState.maxRounds) reasons.push(`round limit ${options.maxRounds} instead of ${spec.steadyState.maxRounds}`)
  if (options.wipcMultiple < spec.wipc.capacityMultiple) reasons.push(`WIPC of ${options.wipcMultiple}x instead of ${spec.wipc.capacityMultiple}x the ActiveRange`)
  // Purge (digest Part A 8): a fallback (discard, zero, none) is a disclosed deviation.
  const purge = target.purge
  if (purge.deviation) {
    deviations.push(purge.deviation)
    reasons.push(purge.method === 'none' ? 'no purge' : `purge by ${purge.method}, not a PTS purge method`)
  }
  reasons.push(...(target.nonCompliant ?? []))

  const roundSec = points.length * options.pointSeconds
  const w = spec.steadyState.windowRounds
  const minRounds = Math.min(w, options.maxRounds)
  const maxRounds = options.onNoSteadyState === 'continue' ? null : options.maxRounds
  return {
    spec,
    options,
    profile,
    target,
    activeRangeBytes,
    preconditionActiveRangeBytes,
    purge,
    wipc: {blockSizeBytes: wipcBs, totalBytes, requiredBytes, slices},
    points,
    compliance: {compliant: reasons.length === 0, reasons},
    deviations,
    durations: {roundSec, minSec: minRounds * roundSec, maxSec: maxRounds === null ? null : maxRounds * roundSec, minRounds, maxRounds},
  }
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
