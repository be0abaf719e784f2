/**
 * Program expansion: (program spec, options, target) -> every phase a run will do, with concrete
 * workloads, scaled durations, the points of each loop in the spec's order, the timeline with its
 * minimum and maximum duration, and the compliance verdict. Pure.
 */
import {PlanError} from '../errors.js'
import * as M from '../messages.js'
import {wipcSlices, type PurgePlan, type TargetInfo, type WipcSlice} from './target.js'
import {streamSlices, type StreamSlice} from './stream.js'
import {reviewSource, type ProfileId, type ProfileParams, type Revision} from '../model/tests.js'
import type {ProgramResults} from '../model/results.js'
import {blockSizeLabel, formatBytes, formatCapacity, formatDecimalVolume, formatDuration, mixLabel} from '../units.js'
import type {BlockSizeShare, LoopDimension, PhaseSpec, ProgramParameter, ProgramSpec, ProgramTracking, SteadyStateSpec, Workload, Zone} from '../model/definition.js'

export interface ProgramOptions {
  revision: Revision
  profile: ProfileId
  /** The run's TC/QD (profile defaults or operator); a workload with fixed TC/QD keeps its own. */
  threadCount: number
  queueDepth: number
  /** Loop point length (spec 60 s). */
  pointSeconds: number
  /** Round limit of every steady-state loop (spec 25). */
  maxRounds: number
  /** At the round limit without steady state: stop (window = the last rounds, NOT ACHIEVED) or continue up to roundCap rounds. */
  onNoSteadyState: 'stop' | 'continue'
  /** Operator cap on the rounds of a loop that continues past the round limit (onNoSteadyState continue). */
  roundCap: number
  /** WIPC volume as a multiple of the user capacity (written inside the PC ActiveRange); null = the test definition's (x the time scale). */
  wipcMultiple: number | null
  /** 0 < f <= 1: scales every fixed-duration phase, pre-write, histogram run and capacity multiple. */
  timeScale: number
  ioengine: string
  seed: number
  /** Key of spec.workloads (WSAT optional workloads, DIRTH access pattern); null = the spec's default. */
  workload: string | null
  /** DIRTH/CBW response-time ceiling for MaxIOPS, ms (operator choice; null = the spec's). */
  ceilingMs: number | null
  /** Operator limits of series phases (WSAT): seconds, bytes written; null = none. */
  maxSeconds: number | null
  maxWrittenBytes: number | null
  /** WSAT: stop a series early at steady state (optional in the spec). */
  steadyStateExit: boolean
  /**
   * fio's per-second IOPS, bandwidth and latency logs of every step but WIPC, stored and charted:
   * true (pts run --per-second, or a stored run that has them), false (a stored run without them:
   * resume keeps them off), absent: as the test definition says (perSecond 'always': on; else off).
   * The plan's options always say true or false.
   */
  perSecond?: boolean
}

/** The options a stored run was planned with, from its results.json parameters (pts resume, the live page's time left). */
export function storedRunOptions(r: Pick<ProgramResults, 'revision' | 'profile' | 'parameters'>): ProgramOptions {
  const p = r.parameters
  return {
    revision: r.revision as Revision, profile: r.profile as ProfileId, threadCount: p.threadCount, queueDepth: p.queueDepth,
    pointSeconds: p.pointSeconds, maxRounds: p.maxRounds, onNoSteadyState: p.onNoSteadyState ?? 'stop', roundCap: p.roundCap ?? p.maxRounds,
    wipcMultiple: p.wipcMultiple ?? null, timeScale: p.timeScale, ioengine: p.ioengine, seed: p.seed, workload: p.workload,
    ceilingMs: p.ceilingMs, maxSeconds: p.maxSeconds, maxWrittenBytes: p.maxWrittenBytes, steadyStateExit: p.steadyStateExit, perSecond: p.perSecond === true,
  }
}

/** A concrete workload: what one fio job does. */
export interface ResolvedWorkload {
  access: 'random' | 'sequential'
  readPct: number
  /** Single block size, or null with a bssplit. */
  blockSizeBytes: number | null
  bssplit: BlockSizeShare[] | null
  zones: Zone[] | null
  threadCount: number
  queueDepth: number
  /** "RND 4KiB W", "SEQ 1024KiB R/W 90/10", "CBW mix R/W 40/60". */
  label: string
  /** Review tests: the IO covers [0, rangeBytes) instead of the ActiveRange (a fill level, a span); absent: the ActiveRange. */
  rangeBytes?: number
  /** Review tests: fio buffer_compress_percentage; absent or 0: incompressible data. */
  compressPct?: number
}

export interface ProgramPoint extends ResolvedWorkload {
  index: number
  /** File-name-safe id, e.g. "rw65-bs8k", "tc32-qd16", "r07". */
  id: string
}

export type PlannedPhase =
  | {kind: 'purge'; id: string; title: string}
  | {kind: 'wipc'; id: string; title: string; blockSizeBytes: number
    /** What is written: capacityMultiple x the user capacity (aligned to the block size), inside the PC ActiveRange; requiredBytes: the spec's multiple of it. */
    totalBytes: number; requiredBytes: number; capacityMultiple: number
    /** The PC ActiveRange the writes stay in (aligned to the block size). */
    rangeBytes: number; slices: WipcSlice[]; threadCount: number; queueDepth: number}
  | {kind: 'loop'; id: string; title: string; points: ProgramPoint[]; pointSeconds: number; preRound: null | {workload: ResolvedWorkload; seconds: number}; steadyState: SteadyStateSpec; maxRounds: number
    /** The last round the runner may start: maxRounds, or the operator's cap when the loop continues past the limit without steady state. */
    roundCap: number; dimensions: LoopDimension[]
    /** Run the points as fio json+ and keep their total-latency bins (window percentiles over pooled IOs). */
    latencyBins: boolean}
  | {kind: 'series'; id: string; title: string; workload: ResolvedWorkload; sampleSeconds: number; maxSamples: number; durationSeconds: number
    /** Whether the duration is the spec's (x time scale) or the operator's --max-seconds (recorded as what ended the phase). */
    durationBy: 'spec' | 'operator'
    stopAtBytes: number | null; stopAtCapacityMultiple: number | null; steadyStateExit: null | {trackEvery: number; windowRounds: number; maxDataExcursionPct: number; maxSlopeExcursionPct: number}
    /** Sequential workloads: each thread's slice; every sample continues each thread's stream where the sample before ended (plan/stream.ts). null: random IO over the whole ActiveRange. */
    stream: null | {slices: StreamSlice[]}}
  /** Each burst is its own fio step of burstSeconds; the next is released idleSeconds after the previous one's IO ended (host idle). */
  | {kind: 'bursts'; id: string; title: string; workload: ResolvedWorkload; burstSeconds: number; idleSeconds: number; repeats: number; waitState: number}
  | {kind: 'operating-points'; id: string; title: string; fromPhase: string; ceilingMs: number
    /** samples: the pre-write as that many back-to-back steps of seconds / samples each (1: one step). */
    prewrite: {workload: ResolvedWorkload; seconds: number; samples: number}; measureSeconds: number}
  | {kind: 'histogram'; id: string; title: string; workload: ResolvedWorkload; seconds: number; optional: boolean}
  /** Review tests: each point once, one fio step of pointSeconds each, no steady state. */
  | {kind: 'sweep'; id: string; title: string; points: ProgramPoint[]; pointSeconds: number; latencyBins: boolean}
  /** Review test fill: SEQ writes of each piece in LBA order, one size-based fio step per piece, `passes` times. */
  | {kind: 'fill'; id: string; title: string; workload: ResolvedWorkload; passes: number; pieces: Array<{offsetBytes: number; sizeBytes: number}>}

export interface TimelineEntry {
  phase: string
  title: string
  /** The shortest this phase can take (a phase that may stop early: the shortest before its first possible stop). */
  minSec: number
  maxSec: number
  detail: string
  /** Why the minimum is not fixed, when it depends on the device (e.g. a series that stops once a volume is written). */
  minDependsOn?: string
}

export interface ProgramPlan {
  spec: ProgramSpec
  options: ProgramOptions
  profile: ProfileParams
  target: TargetInfo
  activeRangeBytes: number
  preconditionActiveRangeBytes: number
  purge: PurgePlan
  /** The workload --workload picked (label), or null when the spec has none. */
  selectedWorkload: null | {key: string; label: string}
  phases: PlannedPhase[]
  compliance: {compliant: boolean; reasons: string[]}
  deviations: string[]
  /** pts's choices where the spec is silent that depend on this target or plan (shown with the test's parameters). */
  choices: ProgramParameter[]
  timeline: TimelineEntry[]
  durations: {minSec: number; maxSec: number}
}

/** Smallest sample / burst length a time scale may produce (fio needs some IO in each). */
export const MIN_SCALED_SECONDS = 0.2

const alignDown = (n: number, a: number) => Math.floor(n / a) * a

/** The alignment pts gives a block-size mix's offsets (fio blockalign): 4 KiB where the target's logical block allows it, else the mix's smallest size. */
export const MIX_ALIGN_BYTES = 4096
export function mixAlignBytes(target: Pick<TargetInfo, 'kind' | 'logicalSectorBytes'>, bssplit: readonly BlockSizeShare[]): number {
  if (target.kind === 'file') return MIX_ALIGN_BYTES
  const lbs = target.logicalSectorBytes
  if (lbs <= MIX_ALIGN_BYTES && MIX_ALIGN_BYTES % lbs === 0) return MIX_ALIGN_BYTES
  return Math.min(...bssplit.map(b => b.blockSizeBytes))
}

/** "2X", "1.5X", "0.01X": a capacity multiple for the report and the plan. */
export function multipleLabel(x: number): string {
  const v = x >= 1 ? +x.toFixed(2) : +x.toPrecision(2)
  return `${v}X`
}

/** "2X user capacity (536.9 GB) in the 75 % ActiveRange": what a WIPC writes and where. */
export function wipcVolumeText(bytes: number, capacityBytes: number, preconditionActiveRangePct: number): string {
  return `${multipleLabel(bytes / Math.max(1, capacityBytes))} user capacity (${formatDecimalVolume(bytes)}) in the ${preconditionActiveRangePct} % ActiveRange`
}

export function workloadLabel(w: Omit<ResolvedWorkload, 'label'>): string {
  const acc = w.access === 'random' ? 'RND' : 'SEQ'
  const bs = w.bssplit ? 'CBW mix' : blockSizeLabel(w.blockSizeBytes!)
  const mix = w.readPct === 100 ? 'R' : w.readPct === 0 ? 'W' : `R/W ${mixLabel(w.readPct)}`
  return `${acc} ${bs} ${mix}`
}

function resolveWorkload(w: Workload, selected: Workload | null, opts: ProgramOptions, where: string): ResolvedWorkload {
  const base: Workload = w.base === 'selected' ? {...(selected ?? {}), ...w} : w
  if (w.base === 'selected' && !selected) throw new PlanError(M.plan.noSelectedWorkload(where))
  const access = base.access
  const readPct = base.readPct
  if (access === undefined || readPct === undefined) throw new PlanError(M.plan.noAccess(where))
  const bssplit = base.bssplit ?? null
  const blockSizeBytes = bssplit ? null : base.blockSizeBytes ?? null
  if (!bssplit && blockSizeBytes === null) throw new PlanError(M.plan.noBlockSize(where))
  const r = {
    access, readPct, blockSizeBytes, bssplit,
    zones: base.zones ?? null,
    threadCount: base.threadCount ?? opts.threadCount,
    queueDepth: base.queueDepth ?? opts.queueDepth,
  }
  return {...r, label: workloadLabel(r), ...(base.compressPct !== undefined ? {compressPct: base.compressPct} : {})}
}

/**
 * A review workload's range and label: rangePct -> the first rangePct % of the target; spanBytes
 * -> that span, or the whole ActiveRange when the target is smaller (said in the label, so on the
 * plan, the step labels and the report); compressible data in the label. Returns the clamp text, if any.
 */
function placeWorkload(w: ResolvedWorkload, src: Workload, targetBytes: number, activeRangeBytes: number, align: number): string | null {
  let clamp: string | null = null
  if (src.rangePct !== undefined) {
    w.rangeBytes = Math.max(align, alignDown(targetBytes * src.rangePct / 100, align))
    w.label += `, ${src.rangePct} % of the capacity`
  } else if (src.spanBytes !== undefined) {
    const span = alignDown(src.spanBytes, align)
    if (span > 0 && span < activeRangeBytes) {
      w.rangeBytes = span
      w.label += `, ${formatBytes(span)} span`
    } else {
      w.rangeBytes = activeRangeBytes
      clamp = `${formatBytes(src.spanBytes)} span clamped to ${formatBytes(activeRangeBytes)} (the target is smaller)`
      w.label += `, ${clamp}`
    }
  }
  if (src.compressPct !== undefined) w.label += src.compressPct > 0 ? `, ${src.compressPct} % compressible data` : ', incompressible data'
  return clamp
}

const bsId = (bs: number) => (bs % 1024 === 0 ? `${bs / 1024}k` : `${bs}b`)

/** The points of one round of a loop phase, outer loop first, in the spec's value order. */
export function expandLoopPoints(base: ResolvedWorkload, loops: Array<{dimension: LoopDimension; values: number[]}>): ProgramPoint[] {
  let combos: Array<Partial<Record<LoopDimension, number>>> = [{}]
  for (const l of loops) combos = combos.flatMap(c => l.values.map(v => ({...c, [l.dimension]: v})))
  return combos.map((c, index) => {
    const w = {
      ...base,
      readPct: c.readPct ?? base.readPct,
      blockSizeBytes: c.blockSizeBytes ?? base.blockSizeBytes,
      bssplit: c.blockSizeBytes !== undefined ? null : base.bssplit,
      threadCount: c.threadCount ?? base.threadCount,
      queueDepth: c.queueDepth ?? base.queueDepth,
    }
    const parts: string[] = []
    for (const l of loops) {
      const v = c[l.dimension]!
      if (l.dimension === 'readPct') parts.push(`rw${v}`)
      if (l.dimension === 'blockSizeBytes') parts.push(`bs${bsId(v)}`)
      if (l.dimension === 'threadCount') parts.push(`tc${v}`)
      if (l.dimension === 'queueDepth') parts.push(`qd${v}`)
      if (l.dimension === 'repeat') parts.push(`r${String(v).padStart(2, '0')}`)
    }
    const label = workloadLabel(w) + (loops.some(l => l.dimension === 'threadCount' || l.dimension === 'queueDepth') ? ` TC ${w.threadCount}/QD ${w.queueDepth}` : '') +
      (c.repeat !== undefined ? ` #${c.repeat}` : '')
    return {...w, index, id: parts.join('-') || 'p', label}
  })
}

/** Does a point match a tracking variable's selection? */
export function selects(t: ProgramTracking, p: ProgramPoint): boolean {
  const s = t.select
  return (s.pointIndex === undefined || s.pointIndex === p.index) && (s.readPct === undefined || s.readPct === p.readPct) &&
    (s.blockSizeBytes === undefined || s.blockSizeBytes === p.blockSizeBytes) && (s.threadCount === undefined || s.threadCount === p.threadCount) &&
    (s.queueDepth === undefined || s.queueDepth === p.queueDepth)
}

function scaled(sec: number, f: number): number {
  return Math.max(MIN_SCALED_SECONDS, sec * f)
}

export function expandProgram(spec: ProgramSpec, options: ProgramOptions, target: TargetInfo): ProgramPlan {
  const profile = spec.profiles[options.profile]
  if (!profile) throw new PlanError(M.plan.noProfile(spec.revision, options.profile, spec.id, Object.keys(spec.profiles)))
  if (!(options.timeScale > 0 && options.timeScale <= 1)) throw new PlanError(M.plan.timeScaleRange(options.timeScale))
  const f = options.timeScale
  let selected: Workload | null = null
  let selectedWorkload: ProgramPlan['selectedWorkload'] = null
  if (spec.workloads) {
    const key = options.workload ?? spec.defaultWorkload!
    const w = spec.workloads[key]
    if (!w) throw new PlanError(M.plan.unknownWorkload(key, spec.id, spec.revision, Object.keys(spec.workloads)))
    selected = w.workload
    selectedWorkload = {key, label: w.label}
  } else if (options.workload !== null) {
    throw new PlanError(M.plan.noAlternativeWorkloads(spec.id))
  }

  // Every block size the program uses must fit the target's sector (digest B §2.4).
  const allBs: number[] = []
  const collect = (w: ResolvedWorkload) => { if (w.blockSizeBytes) allBs.push(w.blockSizeBytes); for (const s of w.bssplit ?? []) allBs.push(s.blockSizeBytes) }

  const phases: PlannedPhase[] = []
  const timeline: TimelineEntry[] = []
  const reasons: string[] = []
  const deviations: string[] = []
  const notCompliantIf = (cond: boolean, reason: string) => { if (cond && !reasons.includes(reason)) reasons.push(reason) }
  // The ActiveRange: aligned to the largest block size any phase uses (computed after resolving).
  const resolved: Array<{spec: PhaseSpec; ws: ResolvedWorkload[]; points?: ProgramPoint[]
    /** The definition's workload of each of ws (review tests: fill level, span, compressible data), when it has one. */
    srcs?: Workload[]}> = spec.phases.map(ph => {
    const where = `${spec.id} phase ${ph.id}`
    if (ph.kind === 'loop') {
      const base = resolveWorkload(ph.workload, selected, options, where)
      const points = expandLoopPoints(base, ph.loops)
      const ws = [...points, ...(ph.preRound ? [resolveWorkload(ph.preRound.workload, selected, options, `${where} pre-round write`)] : [])]
      return {spec: ph, ws, points}
    }
    if (ph.kind === 'series' || ph.kind === 'bursts' || ph.kind === 'histogram') return {spec: ph, ws: [resolveWorkload(ph.workload, selected, options, where)], srcs: [ph.workload]}
    if (ph.kind === 'sweep') {
      if (ph.points) {
        const srcs = ph.points.map(q => ({...ph.workload, ...q.workload}))
        const points = srcs.map((w, index) => ({...resolveWorkload(w, selected, options, `${where} point ${ph.points![index].id}`), index, id: ph.points![index].id}))
        return {spec: ph, ws: points, points, srcs}
      }
      const points = expandLoopPoints(resolveWorkload(ph.workload, selected, options, where), ph.loops ?? [])
      return {spec: ph, ws: points, points, srcs: points.map(() => ph.workload)}
    }
    if (ph.kind === 'fill') {
      const w: Workload = {access: 'sequential', readPct: 0, blockSizeBytes: ph.blockSizeBytes, threadCount: 1, queueDepth: ph.queueDepth}
      return {spec: ph, ws: [resolveWorkload(w, null, options, where)], srcs: [w]}
    }
    if (ph.kind === 'operating-points') return {spec: ph, ws: [resolveWorkload(ph.prewrite.workload, selected, options, `${where} pre-write`)]}
    return {spec: ph, ws: []}
  })
  for (const r of resolved) for (const w of r.ws) collect(w)
  const wipcBsAll = spec.phases.filter(p => p.kind === 'wipc').map(p => (p as {blockSizeBytes: number}).blockSizeBytes)
  const maxBs = Math.max(...allBs, ...wipcBsAll)
  for (const bs of [...allBs, ...wipcBsAll]) {
    if (bs % target.logicalSectorBytes !== 0) throw new PlanError(M.plan.sectorMismatch(target.logicalSectorBytes, blockSizeLabel(bs)))
  }
  const activeRangeBytes = alignDown(target.sizeBytes * profile.activeRangePct / 100, maxBs)
  const preconditionActiveRangeBytes = alignDown(target.sizeBytes * profile.preconditionActiveRangePct / 100, maxBs)
  const maxTc = Math.max(1, ...resolved.flatMap(r => r.ws.map(w => w.threadCount)))
  if (activeRangeBytes < maxBs * maxTc) throw new PlanError(M.plan.targetTooSmall(activeRangeBytes, blockSizeLabel(maxBs), maxTc))
  const clamps: string[] = []
  for (const r of resolved) r.ws.forEach((w, k) => {
    const src = r.srcs?.[k]
    const clamp = src ? placeWorkload(w, src, target.sizeBytes, activeRangeBytes, maxBs) : null
    if (clamp && !clamps.includes(clamp)) clamps.push(clamp)
  })

  for (const r of resolved) {
    const ph = r.spec
    if (ph.kind === 'purge') {
      phases.push({kind: 'purge', id: ph.id, title: ph.title})
      timeline.push({phase: ph.id, title: ph.title, minSec: 0, maxSec: 0, detail: `${target.purge.method}${target.purge.deviation ? ' (deviation)' : ''}; its duration depends on the device`})
    } else if (ph.kind === 'wipc') {
      // PTS: "2X User Capacity with 128KiB SEQ writes, writing to the entire ActiveRange": the
      // volume is a multiple of the user capacity, every write inside the PC ActiveRange.
      const multiple = options.wipcMultiple ?? ph.capacityMultiple * f
      const tc = options.threadCount
      // review tests (fill level): the first rangePct % of the target, capacityMultiple x that range
      const range = ph.rangePct !== undefined ? Math.max(ph.blockSizeBytes * tc, alignDown(target.sizeBytes * ph.rangePct / 100, ph.blockSizeBytes)) : alignDown(preconditionActiveRangeBytes, ph.blockSizeBytes)
      const basis = ph.rangePct !== undefined ? range : target.sizeBytes
      const {totalBytes, slices} = wipcSlices(range, tc, ph.blockSizeBytes, basis * multiple)
      const requiredBytes = alignDown(basis * ph.capacityMultiple, ph.blockSizeBytes)
      phases.push({kind: 'wipc', id: ph.id, title: ph.title, blockSizeBytes: ph.blockSizeBytes, totalBytes, requiredBytes, capacityMultiple: multiple, rangeBytes: range, slices, threadCount: tc, queueDepth: options.queueDepth})
      // the reason states the volume the job writes: whole blocks, at least one (wipcSlices), so a tiny
      // multiple is rounded up; then the multiple asked for is named too
      const written = totalBytes / basis
      const rounded = Math.abs(written / multiple - 1) > 0.01
      const why = [...(options.wipcMultiple === null ? [`time scale ${f}`] : []), ...(rounded ? [`${+(multiple.toPrecision(4))}x asked for, rounded to whole ${blockSizeLabel(ph.blockSizeBytes)} writes`] : [])]
      notCompliantIf(multiple < ph.capacityMultiple, `WIPC of ${+((rounded ? written : multiple).toPrecision(4))}x instead of ${ph.capacityMultiple}x the user capacity${why.length ? ` (${why.join('; ')})` : ''}`)
      timeline.push({phase: ph.id, title: ph.title, minSec: 0, maxSec: 0, detail: `SEQ ${blockSizeLabel(ph.blockSizeBytes)} writes, ${totalBytes} bytes: ${ph.rangePct !== undefined ? `${formatDecimalVolume(totalBytes)} in the first ${ph.rangePct} % of the capacity` : wipcVolumeText(totalBytes, target.sizeBytes, profile.preconditionActiveRangePct)} (${formatBytes(range)}, written ${+(totalBytes / range).toFixed(2)} times); its duration depends on the device`})
    } else if (ph.kind === 'loop') {
      const pointSeconds = ph.pointSeconds === null ? options.pointSeconds : ph.pointSeconds * f
      const preRound = ph.preRound ? {workload: r.ws.at(-1)!, seconds: scaled(ph.preRound.seconds, f)} : null
      const maxRounds = options.maxRounds
      const roundCap = options.onNoSteadyState === 'continue' ? Math.max(maxRounds, options.roundCap) : maxRounds
      for (const t of ph.steadyState.tracking) {
        if (!r.points!.some(p => selects(t, p))) throw new PlanError(M.plan.trackingSelectsNothing(spec.id, ph.id, t.id))
      }
      phases.push({kind: 'loop', id: ph.id, title: ph.title, points: r.points!, pointSeconds, preRound, steadyState: ph.steadyState, maxRounds, roundCap, dimensions: ph.loops.map(l => l.dimension), latencyBins: ph.latencyBins === true})
      const roundSec = r.points!.length * pointSeconds + (preRound?.seconds ?? 0)
      const minRounds = Math.min(ph.steadyState.windowRounds, maxRounds)
      timeline.push({phase: ph.id, title: ph.title, minSec: minRounds * roundSec, maxSec: roundCap * roundSec,
        detail: `rounds of ${r.points!.length} points x ${formatDuration(pointSeconds)}${preRound ? ` after a ${formatDuration(preRound.seconds)} pre-write` : ''} until steady state (${minRounds}-${maxRounds} rounds${roundCap > maxRounds ? `, continuing without steady state up to ${roundCap}` : ''})`})
      notCompliantIf(ph.pointSeconds === null && options.pointSeconds < 60, `test points of ${options.pointSeconds} s instead of 60 s`)
      notCompliantIf(maxRounds < ph.steadyState.maxRounds, `round limit ${maxRounds} instead of ${ph.steadyState.maxRounds}`)
    } else if (ph.kind === 'series') {
      const w = r.ws[0]
      const sampleSeconds = scaled(ph.sampleSeconds, f)
      let durationSeconds = ph.durationSeconds * f
      const durationBy = options.maxSeconds !== null && options.maxSeconds < durationSeconds ? 'operator' : 'spec'
      if (durationBy === 'operator') durationSeconds = options.maxSeconds!
      const maxSamples = Math.max(1, Math.round(durationSeconds / sampleSeconds))
      const capBytes = ph.stopAtCapacityMultiple === null ? null : Math.round(target.sizeBytes * ph.stopAtCapacityMultiple * f)
      const stopAtBytes = [capBytes, options.maxWrittenBytes].filter((x): x is number => x !== null).reduce<number | null>((a, b) => (a === null ? b : Math.min(a, b)), null)
      const sse = options.steadyStateExit ? ph.steadyStateExit : null
      if (options.steadyStateExit && !ph.steadyStateExit) throw new PlanError(M.plan.noSteadyStateExit(spec.id, ph.id))
      const stream = w.access === 'sequential' ? {slices: streamSlices(activeRangeBytes, w.threadCount, w.bssplit ? Math.max(...w.bssplit.map(b => b.blockSizeBytes)) : w.blockSizeBytes!)} : null
      phases.push({kind: 'series', id: ph.id, title: ph.title, workload: w, sampleSeconds, maxSamples, durationSeconds: maxSamples * sampleSeconds, durationBy, stopAtBytes, stopAtCapacityMultiple: ph.stopAtCapacityMultiple === null ? null : ph.stopAtCapacityMultiple * f, steadyStateExit: sse, stream})
      // A stop is checked after each sample: the capacity stop can come after the first one, the
      // steady-state exit once its window of tracking samples exists.
      const firstStop = Math.min(maxSamples, stopAtBytes !== null ? 1 : sse ? sse.trackEvery * sse.windowRounds : maxSamples)
      const why = [stopAtBytes !== null ? `the phase ends once ${formatCapacity(stopAtBytes)} is written, which takes as long as the device needs to write it` : '',
        sse ? `it ends at steady state, at the earliest after ${sse.trackEvery * sse.windowRounds} samples` : ''].filter(Boolean).join('; ')
      timeline.push({phase: ph.id, title: ph.title, minSec: firstStop * sampleSeconds, maxSec: maxSamples * sampleSeconds,
        detail: `${w.label} TC ${w.threadCount}/QD ${w.queueDepth}, ${maxSamples} samples of ${formatDuration(sampleSeconds)}${stream ? ' (each thread continuing its stream where the sample before ended)' : ''}${stopAtBytes !== null ? `, or until ${stopAtBytes} bytes are written` : ''}${sse ? ', or steady state' : ''}`,
        ...(why ? {minDependsOn: why} : {})})
      notCompliantIf(f < 1, `fixed-duration phases scaled by ${f}`)
      notCompliantIf(options.maxSeconds !== null || options.maxWrittenBytes !== null, 'series phases shortened by an operator limit')
    } else if (ph.kind === 'bursts') {
      const w = r.ws[0]
      const burstSeconds = ph.burstSeconds * f
      const idleSeconds = ph.idleSeconds * f
      // A shortened run (time scale f < 1) also runs fewer bursts: each burst is one fio step, and
      // 360 of them per wait state at a tiny scale would be some 1,800 fio starts for a quick look.
      const repeats = scaledBurstRepeats(ph.repeats, f)
      const total = repeats * (burstSeconds + idleSeconds)
      phases.push({kind: 'bursts', id: ph.id, title: ph.title, workload: w, burstSeconds, idleSeconds, repeats, waitState: ph.waitState})
      timeline.push({phase: ph.id, title: ph.title, minSec: total, maxSec: total, detail: `${repeats} x (${formatDuration(burstSeconds)} ${w.label} as one fio step, then ${formatDuration(idleSeconds)} host idle)${repeats !== ph.repeats ? ` (${ph.repeats} at full length; fewer with --time-scale ${f})` : ''}`})
      notCompliantIf(repeats !== ph.repeats, `HIR: ${repeats} of ${ph.repeats} bursts per wait state`)
      notCompliantIf(f < 1, `fixed-duration phases scaled by ${f}`)
    } else if (ph.kind === 'sweep') {
      const pointSeconds = scaled(ph.pointSeconds, f)
      const points = r.points!
      phases.push({kind: 'sweep', id: ph.id, title: ph.title, points, pointSeconds, latencyBins: ph.latencyBins === true})
      timeline.push({phase: ph.id, title: ph.title, minSec: points.length * pointSeconds, maxSec: points.length * pointSeconds,
        detail: `${points.length} point${points.length === 1 ? '' : 's'} of ${formatDuration(pointSeconds)}, each once (no steady state): ${points.map(p => p.label).join('; ')}`})
      notCompliantIf(f < 1, `fixed-duration phases scaled by ${f}`)
    } else if (ph.kind === 'fill') {
      const w = r.ws[0]
      const range = alignDown(activeRangeBytes, ph.blockSizeBytes)
      // piece k: [k/steps, (k+1)/steps) of the range, each boundary aligned to the block size (equal pieces up to one block)
      const edge = (k: number) => alignDown(range * k / ph.steps, ph.blockSizeBytes)
      const pieces = Array.from({length: ph.steps}, (_, k) => ({offsetBytes: edge(k), sizeBytes: edge(k + 1) - edge(k)})).filter(x => x.sizeBytes > 0)
      const piece = pieces[0]?.sizeBytes ?? 0
      phases.push({kind: 'fill', id: ph.id, title: ph.title, workload: w, passes: ph.passes, pieces})
      timeline.push({phase: ph.id, title: ph.title, minSec: 0, maxSec: 0,
        detail: `${ph.passes} pass${ph.passes === 1 ? '' : 'es'} of ${w.label} QD ${w.queueDepth} over ${formatBytes(range)} in ${pieces.length} pieces of ${formatBytes(piece)} (one fio step each, in LBA order); its duration depends on the device`})
    } else if (ph.kind === 'histogram') {
      const w = r.ws[0]
      const seconds = scaled(ph.seconds, f)
      phases.push({kind: 'histogram', id: ph.id, title: ph.title, workload: w, seconds, optional: ph.optional})
      timeline.push({phase: ph.id, title: ph.title, minSec: seconds, maxSec: seconds, detail: `${w.label} TC ${w.threadCount}/QD ${w.queueDepth} for ${formatDuration(seconds)}, every IO's response time into fio's histogram${ph.optional ? ' (optional in the spec)' : ''}`})
      notCompliantIf(f < 1, `fixed-duration phases scaled by ${f}`)
    } else {
      const ceilingMs = options.ceilingMs ?? ph.ceilingMs
      const preSeconds = scaled(ph.prewrite.seconds, f)
      // e.g. 60 x 1 min: the count is the definition's, each sample scaled with the pre-write; a time scale that would make
      // samples shorter than MIN_SCALED_SECONDS runs fewer, longer samples over the same pre-write time
      const want = ph.prewrite.sampleSeconds ? Math.max(1, Math.round(ph.prewrite.seconds / ph.prewrite.sampleSeconds)) : 1
      const samples = Math.max(1, Math.min(want, Math.floor(preSeconds / MIN_SCALED_SECONDS)))
      const prewrite = {workload: r.ws[0], seconds: preSeconds, samples}
      const measureSeconds = scaled(ph.measureSeconds, f)
      phases.push({kind: 'operating-points', id: ph.id, title: ph.title, fromPhase: ph.fromPhase, ceilingMs, prewrite, measureSeconds})
      const t = 3 * (prewrite.seconds + measureSeconds)
      timeline.push({phase: ph.id, title: ph.title, minSec: t, maxSec: t, detail: `Max/Mid/Min IOPS points (ceiling ${ceilingMs} ms): each ${formatDuration(prewrite.seconds)} pre-write${prewrite.samples > 1 ? ` (${prewrite.samples} samples of ${formatDuration(prewrite.seconds / prewrite.samples)})` : ''}, then ${formatDuration(measureSeconds)} measured with a response-time histogram`})
      notCompliantIf(f < 1, `fixed-duration phases scaled by ${f}`)
    }
  }

  if (target.kind === 'file') reasons.unshift('target is a regular file, not a whole block device')
  const review = reviewSource(spec.id)
  if (review !== null) reasons.unshift(`a review test (from ${review}), not part of the SNIA PTS`)
  if (target.purge.deviation) {
    deviations.push(target.purge.deviation)
    reasons.push(target.purge.method === 'none' ? 'no purge' : `purge by ${target.purge.method}, not a PTS purge method`)
  }
  reasons.push(...(target.nonCompliant ?? []))
  const choices = planChoices(target, phases, resolved.flatMap(r => r.ws))
  const perSecondOn = options.perSecond ?? spec.perSecond === 'always'
  const perSecond = perSecondChoice(spec, perSecondOn)
  if (perSecond) choices.push(perSecond)
  for (const c of clamps) choices.push({name: 'Span', value: c, source: 'pts', note: 'the definition\'s span is larger than the target; the whole ActiveRange is used instead'})
  // seconds to the ms, so that products such as 56 x 0.2 s carry no float noise into pts plan --json
  const ms = (x: number) => Math.round(x * 1000) / 1000
  for (const t of timeline) { t.minSec = ms(t.minSec); t.maxSec = ms(t.maxSec) }
  return {
    spec, options: {...options, perSecond: perSecondOn}, profile, target, activeRangeBytes, preconditionActiveRangeBytes, purge: target.purge, selectedWorkload,
    phases, compliance: {compliant: reasons.length === 0, reasons}, deviations, choices, timeline,
    durations: {minSec: ms(timeline.reduce((a, t) => a + t.minSec, 0)), maxSec: ms(timeline.reduce((a, t) => a + t.maxSec, 0))},
  }
}

/**
 * Bursts per HIR wait state at time scale f: the definition's count at full length, else the
 * count scaled by f, at least 3 (so that a shortened run still shows a burst-to-burst trend).
 */
export function scaledBurstRepeats(repeats: number, f: number): number {
  return f >= 1 ? repeats : Math.min(repeats, Math.max(3, Math.ceil(repeats * f)))
}

/**
 * The per-second traces as a parameter of the run (pts plan, the report's parameters page): on
 * because the test definition always has them (the review tests), or because of --per-second;
 * null when off. Pure.
 */
export function perSecondChoice(spec: Pick<ProgramSpec, 'perSecond'>, on: boolean): ProgramParameter | null {
  if (!on) return null
  const what = 'fio logs IOPS, bandwidth and response time of every second of every step but WIPC (write_iops_log, write_bw_log, write_lat_log, write_hist_log, 1 s windows); the logs are stored under raw/, charted per test point and recomputed by pts audit'
  if (spec.perSecond === 'always') {
    return {name: 'Per-second traces', value: `on in every run of this test, with or without --per-second: ${what}`, source: 'pts',
      note: 'the reviews judge a drive by how it behaves second by second, so their tests always keep the per-second logs'}
  }
  return {name: 'Per-second traces', value: `on (pts run --per-second): ${what}`, source: 'pts'}
}

/** pts's choices that depend on the target or the phases (shown on the parameters page with their reason). Pure. */
function planChoices(target: TargetInfo, phases: readonly PlannedPhase[], workloads: readonly ResolvedWorkload[]): ProgramParameter[] {
  const out: ProgramParameter[] = []
  const mix = workloads.find(w => w.bssplit)
  if (mix) {
    const a = mixAlignBytes(target, mix.bssplit!)
    const why = target.kind === 'file' ? 'the target is a file' : `the target's logical block is ${target.logicalSectorBytes} B`
    out.push({name: 'Block-size mix alignment', value: `every IO of the mix starts on a ${blockSizeLabel(a)} boundary (fio blockalign=${a}); ${why}`, source: 'pts',
      note: a === MIX_ALIGN_BYTES
        ? 'pts aligns the mix to 4 KiB because about 90 % of its IOs are 4-64 KiB: placed on 512 B boundaries, 7 in 8 of them would straddle a 4 KiB flash page and cost the drive a read-modify-write, which measures the alignment rather than the drive. The spec gives no alignment; 4 KiB is used wherever the logical block size is at most 4 KiB and divides it'
        : `pts aligns the mix to its smallest block size (${blockSizeLabel(a)}) because the target's logical block (${target.logicalSectorBytes} B) does not divide 4 KiB, so 4 KiB boundaries are not block boundaries of this device`})
  }
  if (phases.some(p => p.kind === 'series' && p.stream)) {
    out.push({name: 'Sequential streams across samples', value: 'each thread writes (or reads) its own slice of the ActiveRange as one stream: every one-minute sample starts each thread where its stream ended in the sample before (the start offsets are stored with each sample and checked by pts audit)', source: 'pts',
      note: 'one fio job section per thread with its own offset, reported per job (group_reporting=0) so that each thread\'s bytes are known; in a mixed R/W sample the leading direction is continued (fio keeps a position per direction); a thread that reaches the end of its slice within a sample wraps to that sample\'s start (fio cannot wrap to the slice start) and the next sample starts at the slice start. Each sample\'s fio job is started when the sample before has ended (its offsets depend on it), so these samples are separated by fio\'s start-up time (a few hundred ms) where other steps have none'})
  }
  return out
}
