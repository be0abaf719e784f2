/**
 * Datasheet claims vs stored runs: each claim is matched to the measurement of the same access,
 * block size and R/W mix (exact match) among the runs given, converted to the claim's unit, and
 * judged with a tolerance. Pure and deterministic: the same claims, results and options give the
 * same outcome.
 *
 * - Where a claim is measured (measuringTests): random IOPS and MB/s claims by the IOPS run's
 *   window averages; sequential ones by the TP run's loop window averages (loop-128k / loop-1024k,
 *   R/W 100/0 and 0/100, at the run's TC/QD); response-time claims by the LAT run's loop window
 *   averages (TC 1/QD 1), else by the IOPS run's point. A run is an IOPS run or one loop phase
 *   of a TP / LAT / DIRTH / CBW / ECW run (a MeasurementSource); the steady-state note uses that
 *   loop's verdict.
 * - Like for like: a claim's load is its TC x QD (outstanding IOs; a QD without a TC is TC 1).
 *   A measurement at that exact TC and QD is taken first, from any run given (the LAT run's
 *   TC 1/QD 1 points, a DIRTH run's TC x QD grid); else one of the test that measures the claim
 *   at the same outstanding IOs; else that test's point at its own load, flagged as not like for
 *   like in the notes, the verdict reasons and `load`.
 * - Plausibility (interface.ts): a measurement above what the drive's interface can carry is
 *   flagged implausible (a cache, or not the drive); a file target is flagged "not a drive".
 * - QoS claims (p99, p99.9, p99.99, p99.999 response time) take the window average of the
 *   per-round percentiles (p99.999 from results.json; the others from the raw fio output, given
 *   as SourcePoint.percentiles); endurance claims (TBW, DWPD) are not measurable by any PTS test.
 *
 * - Measured values are the window averages of results.json (digest Part A 4): iops from
 *   `iops` (read + write), MB/s from `bwBytesPerSec` / 10^6 (decimal, Part A 5), latency from
 *   `latMeanNs`; a 99.999th-percentile claim from the per-round `latP99999Ns` of the same
 *   point, averaged over the window rounds (the window average, Part A 4).
 * - Verdicts: `meets` when measured >= claimed x (1 - tolerance), for latency (lower is better)
 *   when measured <= claimed x (1 + tolerance), both inclusive; otherwise `below`. A claim the
 *   run has no measurement for is `not-measured`, naming the PTS test that measures it.
 * - A claim's queue depth or thread count that differs from the run's is noted (a queue depth
 *   without a thread count is taken as TC 1, the datasheet convention "QD32" = T1/Q32), and so is
 *   a claim for a fresh-out-of-box (or unstated) drive state measured at or near steady state.
 */
import {UsageError} from '../errors.js'
import * as M from '../messages.js'
import type {PhaseResult, ProgramResults} from '../model/results.js'
import type {RunManifest} from '../model/manifest.js'
import {CLAIM_TESTS, isTestId, LOAD_SWEEP_TESTS, testTitle, TESTS} from '../model/tests.js'
import {parseSizeBytes} from '../units.js'
import {formatMBps, interfaceLimit, linkLoad, type InterfaceFacts} from './interface.js'
import type {
  Claim, ClaimAccess, ClaimOutcome, ClaimsFile, ClaimUnit, LatencyStatistic, LoadComparison, MeasuredCondition, MeasurementOrigin, Plausibility,
  VerifiedRun, Verdict, VerifyResult,
} from './types.js'

/** A performance claim: the fields the schema requires of iops, mbps and latency claims. */
type PerfClaim = Claim & {access: ClaimAccess; blockSize: string; readPct: number}


/** The test that measures sequential MB/s and IOPS claims (PTS 2.0.2 Throughput test). */
export const TP_TEST = 'Throughput (tp) test, SEQ 128 KiB / 1024 KiB'
/** The test that measures response-time claims (PTS 2.0.2 Latency test). */
export const LAT_TEST = 'Latency (lat) test'

/** "--tolerance 10" or "10%" -> 10 (percent, 0..100 inclusive). */
export function parseTolerance(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text)
  const v = m ? Number(m[1]) : Number.NaN
  if (!Number.isFinite(v)) throw new UsageError(M.claims.toleranceNotPercent(text))
  if (v > 100) throw new UsageError(M.claims.toleranceRange(text))
  return v
}

/** "4KiB" -> 4096, "0.5KiB" -> 512, "1MiB" -> 1048576 (binary units only, as the schema enforces). */
export function blockSizeBytesOf(text: string): number {
  const bytes = /^(0\.5|[1-9][0-9]*)(KiB|MiB)$/.test(text) ? parseSizeBytes(text) : null
  if (bytes === null) throw new Error(`not a binary block size: ${text}`)
  return bytes
}

/** 4096 -> "4 KiB", 512 -> "0.5 KiB", 1048576 -> "1024 KiB" (the PTS names block sizes in KiB). */
export function kib(bytes: number): string {
  return `${bytes / 1024} KiB`
}

const group = (v: number, maxDecimals: number, minDecimals = 0): string =>
  new Intl.NumberFormat('en-US', {minimumFractionDigits: minDecimals, maximumFractionDigits: maxDecimals, useGrouping: true}).format(v)

/** A claimed value as the datasheet gives it: "85,000 IOPS", "550 MB/s", "0.08 ms". */
export function formatClaimed(value: number, unit: ClaimUnit): string {
  return `${group(value, 3)} ${unit}`
}

/** A measured value: IOPS as integers, MB/s to 1 decimal, ms to 3, us to 1. */
export function formatMeasured(value: number, unit: ClaimUnit): string {
  const decimals = unit === 'IOPS' ? 0 : unit === 'MB/s' ? 1 : unit === 'ms' ? 3 : 1
  return `${group(value, decimals, decimals)} ${unit}`
}

/** Ratio as "0.06x" (2 decimals; 2 significant digits below 0.01). */
export function formatRatio(ratio: number | null): string {
  if (ratio === null) return 'n/a'
  if (ratio > 0 && ratio < 0.01) return `${Number(ratio.toPrecision(2))}x`
  return `${ratio.toFixed(2)}x`
}

function mixWord(readPct: number): string {
  return readPct === 100 ? 'read' : readPct === 0 ? 'write' : `R/W ${readPct}/${100 - readPct}`
}

/** "4 KiB random read", "128 KiB sequential write", "4 KiB random R/W 70/30 latency (mean)". */
export function claimLabel(c: Claim): string {
  if (c.metric === 'endurance') return `endurance (${c.unit}${c.periodYears ? ` over ${c.periodYears} years` : ''})`
  const p = c as PerfClaim
  const base = `${kib(blockSizeBytesOf(p.blockSize))} ${p.access} ${mixWord(p.readPct)}`
  if (c.metric !== 'latency') return base
  const stat = c.statistic ?? 'mean'
  return `${base} latency (${stat === 'mean' ? 'mean' : `${statName(stat)} percentile`})`
}

/** "p99.99" -> "99.99th". */
export function statName(stat: Exclude<LatencyStatistic, 'mean'>): string {
  return `${stat.slice(1)}th`
}

const CONDITION_LABEL: Record<Claim['condition'], string> = {fob: 'FOB', 'steady-state': 'steady state', unspecified: 'condition unspecified'}

function conditionOf(verdict: SteadyVerdict): MeasuredCondition {
  return verdict === 'steady' ? 'steady-state' : verdict === 'not-achieved' ? 'after-preconditioning' : 'incomplete'
}

const MEASURED_PHRASE: Record<MeasuredCondition, string> = {
  fob: 'fresh out of box',
  'steady-state': 'at steady state',
  'after-preconditioning': 'after preconditioning, steady state not achieved',
  incomplete: 'in an incomplete run (steady state not determined)',
}

/** Notes on the drive state of claim vs measurement (null when they agree). */
function conditionNote(claim: Claim['condition'], measured: MeasuredCondition): {short: string; tail: string} | null {
  const where = measured === 'steady-state' ? 'measured at steady state' : measured === 'after-preconditioning' ? 'measured after preconditioning, steady state not achieved' : 'measured in an incomplete run'
  if (claim === 'fob') {
    return {short: `FOB claim, ${where}`, tail: 'the claim is a fresh-out-of-box figure'}
  }
  if (claim === 'unspecified') {
    return {short: `claim condition unspecified (usually FOB), ${where}`, tail: 'the datasheet does not state the drive condition (vendors usually measure fresh out of box)'}
  }
  if (measured !== 'steady-state') {
    return {short: `steady-state claim, ${where}`, tail: 'the claim is a steady-state figure and this run did not reach steady state'}
  }
  return null
}

/** The claim's load: TC x QD, a QD without a TC being TC 1 (null when the claim states no QD or TC). */
export function claimedLoad(c: Pick<Claim, 'queueDepth' | 'threadCount'>): LoadComparison['claimed'] {
  const tc = c.threadCount ?? (c.queueDepth !== undefined ? 1 : null)
  const qd = c.queueDepth ?? null
  return {threadCount: c.threadCount ?? null, queueDepth: qd, outstandingIos: tc !== null && qd !== null ? tc * qd : null}
}

/** The claim's load against a measurement's; likeForLike null when the claim states none. */
export function compareLoad(c: Pick<Claim, 'queueDepth' | 'threadCount'>, tc: number, qd: number): LoadComparison {
  const claimed = claimedLoad(c)
  const measured = {threadCount: tc, queueDepth: qd, outstandingIos: tc * qd}
  if (c.queueDepth === undefined && c.threadCount === undefined) return {claimed, measured, likeForLike: null}
  const claimTc = c.threadCount ?? 1
  return {claimed, measured, likeForLike: claimTc === tc && (c.queueDepth === undefined || c.queueDepth === qd)}
}

/** "not like for like: the claim is at 32 outstanding IOs (TC 1 x QD 32), the measurement at 128 (TC 4 x QD 32)". */
export function loadFlag(l: LoadComparison): string | null {
  if (l.likeForLike !== false) return null
  const cTc = l.claimed.threadCount ?? 1
  const claimed = l.claimed.outstandingIos !== null ? `${l.claimed.outstandingIos} outstanding IOs (TC ${cTc} x QD ${l.claimed.queueDepth})` : `TC ${cTc}`
  const same = l.claimed.outstandingIos === l.measured.outstandingIos
  return `not like for like: the claim is at ${claimed}, the measurement at ${same ? 'the same number split differently' : l.measured.outstandingIos} (TC ${l.measured.threadCount} x QD ${l.measured.queueDepth})`
}

/** Note when the claim's TC/QD differs from the run's ("claim at QD32, measured TC 1 / QD 4"). */
export function loadNote(c: Pick<Claim, 'queueDepth' | 'threadCount'>, tc: number, qd: number): string | null {
  const measured = `TC ${tc} / QD ${qd}`
  if (c.queueDepth === undefined && c.threadCount === undefined) return `claim states no QD; measured ${measured}`
  const claimTc = c.threadCount ?? 1
  const tcDiffers = claimTc !== tc
  const qdDiffers = c.queueDepth !== undefined && c.queueDepth !== qd
  if (!tcDiffers && !qdDiffers) return null
  const parts: string[] = []
  if (c.threadCount !== undefined) parts.push(`TC ${c.threadCount}`)
  if (c.queueDepth !== undefined) parts.push(`QD${c.queueDepth}`)
  return `claim at ${parts.join(' / ')}, measured ${measured}`
}


// ---------------------------------------------------------------------------------------------
// Measurement sources: the window averages of an IOPS run, or of one loop phase of a TP or LAT run

export type SteadyVerdict = 'steady' | 'not-achieved' | 'pending'

/** One window-average point of a source, with what matching reads of it. */
export interface SourcePoint {
  readPct: number
  blockSizeBytes: number
  threadCount: number
  queueDepth: number
  iops: number
  bwBytesPerSec: number
  /** Optional: sources built before the plausibility check lack them (then bwBytesPerSec is split by readPct). */
  readBwBytesPerSec?: number
  writeBwBytesPerSec?: number
  latMeanNs: number
  /** The window average of the per-round 99.999th percentiles and how it was derived, or why there is none. */
  p99999: {ns: number; source: string} | {missing: string}
  /** Other QoS percentiles (window average of the per-round ones from the raw fio output), when read. */
  percentiles?: Partial<Record<QosStatistic, {ns: number; source: string} | {missing: string}>>
}

/** The QoS percentiles besides the 99.999th that a claim may state. */
export type QosStatistic = 'p99' | 'p99.9' | 'p99.99'
export const QOS_STATISTICS: readonly QosStatistic[] = ['p99', 'p99.9', 'p99.99']

/** Window averages a claim can be matched against: an IOPS run, or one loop phase of a TP / LAT run. Pure data. */
export interface MeasurementSource extends MeasurementOrigin {
  access: ClaimAccess
  /** The verdict and window of the run (IOPS) or of the loop phase (test programs). */
  steadyState: {verdict: SteadyVerdict; fromRound: number | null; toRound: number | null}
  points: SourcePoint[]
  /** The run's target (for the interface check); absent: not checked. */
  target?: InterfaceFacts
}


const testName = (t: string): string => testTitle(t)

/**
 * The tests whose loops can hold a claim's measurement: the registry's (IOPS and LAT random, TP
 * sequential), and the random TC x QD loops of DIRTH, CBW and ECW, used only when they hold the
 * claim's exact load (a DIRTH run's TC 1 / QD 32 point for a "QD32" claim).
 */
const LOAD_TESTS: readonly string[] = LOAD_SWEEP_TESTS
export const VERIFY_TESTS: readonly string[] = [...CLAIM_TESTS, ...LOAD_TESTS, 'fob-ss']

const accessOf = (test: string): ClaimAccess | null => (LOAD_TESTS.includes(test) ? 'random' : isTestId(test) ? TESTS[test].claimAccess : null)

/** The block sizes and R/W mixes of the TP test (digest B 5.2): a sequential claim elsewhere has no PTS measurement. */
const TP_BLOCK_SIZES = [131072, 1048576]
const TP_MIXES = [100, 0]

type LoopPhase = Extract<PhaseResult, {kind: 'loop'}>
const loopsOf = (r: ProgramResults): LoopPhase[] => r.phases.filter((ph): ph is LoopPhase => ph.kind === 'loop')

/**
 * The loop phases of a TP run (loop-128k, loop-1024k: SEQ, R/W 100/0 and 0/100) or a LAT run
 * (loop: RND, TC 1/QD 1), one source each, with the phase's own steady-state verdict and window;
 * other test programs give none.
 */
export function programSources(r: Pick<ProgramResults, 'test' | 'runId' | 'phases'>, dir: string | null = null,
  extra: {target?: InterfaceFacts; percentiles?: WindowPercentiles} = {}): MeasurementSource[] {
  const access = accessOf(r.test)
  if (!access) return []
  return loopsOf(r as ProgramResults).map(ph => ({
    test: r.test, runId: r.runId, dir, phase: ph.id, access,
    steadyState: {verdict: ph.steadyState.verdict, fromRound: ph.steadyState.fromRound, toRound: ph.steadyState.toRound},
    ...(extra.target ? {target: extra.target} : {}),
    points: ph.windowAverages.filter((w): w is typeof w & {blockSizeBytes: number} => w.blockSizeBytes !== null).map(w => {
      const pct = extra.percentiles?.[ph.id]?.[w.index]
      return {
        readPct: w.readPct, blockSizeBytes: w.blockSizeBytes, threadCount: w.threadCount, queueDepth: w.queueDepth,
        iops: w.iops, bwBytesPerSec: w.bwBytesPerSec, readBwBytesPerSec: w.readBwBytesPerSec, writeBwBytesPerSec: w.writeBwBytesPerSec, latMeanNs: w.latMeanNs,
        p99999: w.latP99999Ns === null
          ? {missing: `the ${testName(r.test)} run has no 99.999th percentile for this point (too few IOs in a window round)`}
          : {ns: w.latP99999Ns, source: `phases[${ph.id}].windowAverages.latP99999Ns (window average of the per-round 99.999th percentiles)`},
        ...(pct ? {percentiles: Object.fromEntries(QOS_STATISTICS.map(st => {
          const ns = pct[st]
          return [st, ns === null
            ? {missing: `the raw fio output of this ${testName(r.test)} point has no ${statName(st)} percentile in every window round`}
            : {ns, source: `raw fio output of ${ph.id}, rounds ${ph.steadyState.fromRound ?? '?'}-${ph.steadyState.toRound ?? '?'} (window average of the per-round ${statName(st)} percentiles of all IOs)`}]
        }))} : {}),
      }
    }),
  }))
}

/** Per loop phase id, per window-average point index: the window average of each QoS percentile (ns), null when a round lacked it. */
export type WindowPercentiles = Record<string, Record<number, Record<QosStatistic, number | null>>>

/**
 * The QoS percentiles of fio's JSON for one test point: the mixed (read and write together)
 * total-latency percentiles that pts's job files ask for (percentile_list=99:99.9:99.99:99.999).
 * Null for a percentile fio did not print. Pure.
 */
export function fioQosPercentiles(fioJson: unknown): Record<QosStatistic, number | null> {
  const job = (fioJson as {jobs?: Array<{mixed?: {lat_ns?: {percentile?: Record<string, unknown>}}}>} | null)?.jobs?.[0]
  const p = job?.mixed?.lat_ns?.percentile ?? {}
  const at = (k: string): number | null => (typeof p[k] === 'number' && (p[k] as number) > 0 ? p[k] as number : null)
  return {p99: at('99.000000'), 'p99.9': at('99.900000'), 'p99.99': at('99.990000')}
}

/** The window average of per-round values (null when any round lacks one). Pure. */
export function windowAverage(values: ReadonlyArray<number | null>): number | null {
  if (values.length === 0 || values.some(v => v === null)) return null
  return (values as number[]).reduce((a, b) => a + b, 0) / values.length
}

/**
 * The tests that measure a claim, best first: random IOPS / MB/s the IOPS test, sequential ones
 * the TP test; random response time the LAT test (TC 1/QD 1), then an IOPS point; sequential
 * response time (rarely claimed) the TP loop's point.
 */
export function measuringTests(c: Pick<Claim, 'metric' | 'access'>): string[] {
  if (c.metric === 'latency') return c.access === 'random' ? ['lat', 'iops'] : ['tp']
  return c.access === 'sequential' ? ['tp'] : ['iops']
}

/** Tests that measure a claim only at the claim's exact TC and QD (like for like), after measuringTests. */
export function loadTests(c: Pick<Claim, 'metric' | 'access'>): string[] {
  if (c.access !== 'random') return []
  return c.metric === 'latency' ? LOAD_TESTS.slice() : ['lat', ...LOAD_TESTS]
}

function measuredValue(c: PerfClaim, pt: SourcePoint, s: MeasurementSource): {value: number; source: string} | {missing: string} {
  const at = s.phase === null ? '' : `phases[${s.phase}].`
  if (c.metric === 'iops') return {value: pt.iops, source: `${at}windowAverages.iops (read + write IOPS)`}
  if (c.metric === 'mbps') return {value: pt.bwBytesPerSec / 1e6, source: `${at}windowAverages.bwBytesPerSec / 10^6`}
  const perUnit = c.unit === 'us' ? 1e3 : 1e6
  const stat = c.statistic ?? 'mean'
  if (stat === 'mean') return {value: pt.latMeanNs / perUnit, source: `${at}windowAverages.latMeanNs (IO-weighted mean response time)`}
  if (stat === 'p99.999') {
    if ('missing' in pt.p99999) return pt.p99999
    return {value: pt.p99999.ns / perUnit, source: pt.p99999.source}
  }
  const q = pt.percentiles?.[stat]
  if (!q) return {missing: `the ${statName(stat)} percentile of this point was not read from the run's raw fio output`}
  if ('missing' in q) return q
  return {value: q.ns / perUnit, source: q.source}
}

const pointText = (c: PerfClaim, bs: number): string => `${c.access === 'random' ? 'RND' : 'SEQ'} ${kib(bs)} R/W ${c.readPct}/${100 - c.readPct}`
const listText = (xs: string[]): string => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`)
const claimKind = (c: PerfClaim): string => `${c.access} ${c.metric === 'iops' ? 'IOPS' : c.metric === 'mbps' ? 'MB/s' : 'response-time'}`

/** The sources of one run (an IOPS run, or the loop phases of a program run), in the order given. */
function byRun(sources: readonly MeasurementSource[]): MeasurementSource[][] {
  const runs = new Map<string, MeasurementSource[]>()
  for (const s of sources) {
    const k = `${s.test}\u0000${s.runId}\u0000${s.dir ?? ''}`
    runs.set(k, [...(runs.get(k) ?? []), s])
  }
  return [...runs.values()]
}

/** Why one run did not measure a claim; lacksPoint: the run has no point of the claim's access, block size and mix. */
function whyNot(c: PerfClaim, bs: number, run: MeasurementSource[], tests: readonly string[]): {reason: string; lacksPoint: boolean} {
  const s0 = run[0]
  const name = testName(s0.test)
  if (run.every(s => s.points.length === 0)) {
    return {reason: s0.phase === null ? 'the run has no measurement window (no window averages)' : `this ${name} run has no measurement window (no window averages)`, lacksPoint: false}
  }
  if (c.access !== s0.access) return {reason: `the ${name} test is ${s0.access} access only`, lacksPoint: true}
  if (loadTests(c).includes(s0.test)) {
    const l = claimedLoad(c)
    if (l.queueDepth === null && l.threadCount === null) return {reason: `the ${name} test is used for ${claimKind(c)} claims only at a claim's own TC and QD, and this claim states none`, lacksPoint: false}
    return {reason: `this ${name} run has no ${pointText(c, bs)} point at the claim's TC ${l.threadCount ?? 1}${l.queueDepth !== null ? ` x QD ${l.queueDepth}` : ''} (its points count for ${claimKind(c)} claims only at the claim's own TC and QD)`, lacksPoint: false}
  }
  if (!tests.includes(s0.test)) return {reason: `the ${name} test is not used for ${claimKind(c)} claims`, lacksPoint: false}
  for (const s of run) {
    const pt = s.points.find(q => q.readPct === c.readPct && q.blockSizeBytes === bs)
    if (!pt) continue
    const got = measuredValue(c, pt, s)
    if ('missing' in got) return {reason: got.missing, lacksPoint: false}
  }
  let reason = `this ${name} run has no ${pointText(c, bs)} point`
  if (s0.phase !== null) {
    const pts = run.flatMap(s => s.points)
    const sizes = [...new Set(pts.map(q => q.blockSizeBytes))].map(kib)
    const mixes = [...new Set(pts.map(q => q.readPct))].map(m => `${m}/${100 - m}`)
    reason += ` (it measures ${s0.access === 'random' ? 'RND' : 'SEQ'} ${listText(sizes)}, R/W ${listText(mixes)})`
  }
  return {reason, lacksPoint: true}
}

/** Which test measures a claim that the runs given did not (null: no PTS test measures it). */
function measuredByTest(c: PerfClaim, bs: number, lacking: ReadonlySet<string>, given: ReadonlySet<string>): string | null {
  const point = pointText(c, bs)
  const tpPoint = TP_BLOCK_SIZES.includes(bs) && TP_MIXES.includes(c.readPct)
  if (c.metric === 'latency') {
    if (c.access === 'random' && lacking.has('lat')) return given.has('iops') ? null : `IOPS (iops) test, ${point}`
    // Sequential response time: the TP loop's point (an IOPS run alone names the LAT test, as before).
    if (c.access === 'sequential' && (given.has('tp') || given.has('lat'))) return lacking.has('tp') && !tpPoint ? null : TP_TEST
    return LAT_TEST
  }
  if (c.access === 'sequential') return lacking.has('tp') && !tpPoint ? null : TP_TEST
  return `IOPS (iops) test, ${point}`
}

/** "from the TP run 02-tp, loop-128k". */
function originText(s: MeasurementOrigin): string {
  return `from the ${testName(s.test)} run${s.dir ? ` ${s.dir}` : ''}${s.phase ? `, ${s.phase}` : ''}`
}

/**
 * Where to look: one IOPS run (`results`, as before) or any set of sources (an IOPS run and the
 * loop phases of TP and LAT runs, e.g. a suite's). Each claim takes the best measurement there is:
 * the first source of the first of measuringTests() that has the claim's point and statistic.
 */
export type MatchContext = ({results: ProgramResults} | {sources: readonly MeasurementSource[]}) & {
  tolerancePct: number
  /** The FOB and steady-state sweeps of fob-ss review runs: FOB claims (and claims of unstated condition) are matched there first. */
  fob?: readonly FobSweeps[]
  /** The datasheet drive's capacity (endurance claims convert TBW and DWPD with it). */
  capacityBytes?: number
}

/** A measurement found for a claim: the source, its point and the value in the claim's unit. */
interface Found { s: MeasurementSource; pt: SourcePoint; got: {value: number; source: string} }

/**
 * The measurement of a claim among the sources: the claim's exact TC and QD first (any test of
 * measuringTests or loadTests), then the same outstanding IOs (measuringTests only), then the first
 * point of measuringTests at whatever load it ran (flagged not like for like). A claim without a
 * load takes the first point of measuringTests, as before.
 */
function findMeasurement(c: PerfClaim, bs: number, sources: readonly MeasurementSource[]): Found | null {
  const primary = measuringTests(c)
  const all: Array<Found & {primary: boolean}> = []
  for (const t of [...primary, ...loadTests(c)]) {
    for (const s of sources) {
      if (s.test !== t || s.access !== c.access) continue
      for (const pt of s.points) {
        if (pt.readPct !== c.readPct || pt.blockSizeBytes !== bs) continue
        const got = measuredValue(c, pt, s)
        if (!('missing' in got)) all.push({s, pt, got, primary: primary.includes(t)})
      }
    }
  }
  if (c.queueDepth !== undefined || c.threadCount !== undefined) {
    const exact = all.find(x => compareLoad(c, x.pt.threadCount, x.pt.queueDepth).likeForLike === true)
    if (exact) return exact
    const toio = claimedLoad(c).outstandingIos
    const same = all.find(x => x.primary && toio !== null && x.pt.threadCount * x.pt.queueDepth === toio)
    if (same) return same
  }
  return all.find(x => x.primary) ?? null
}

/** The measurement against the run's interface limit; null when the source carries no target. */
export function plausibilityOf(s: Pick<MeasurementSource, 'target'>, pt: Pick<SourcePoint, 'bwBytesPerSec' | 'readBwBytesPerSec' | 'writeBwBytesPerSec' | 'readPct'>): Plausibility | null {
  if (!s.target) return null
  const lim = interfaceLimit(s.target)
  const read = pt.readBwBytesPerSec ?? pt.bwBytesPerSec * pt.readPct / 100
  const write = pt.writeBwBytesPerSec ?? pt.bwBytesPerSec - read
  const measured = linkLoad(lim, {readBwBytesPerSec: read, writeBwBytesPerSec: write})
  const base = {measuredBytesPerSec: measured, limitBytesPerSec: lim.bytesPerSec, basis: lim.basis, linkKnown: lim.linkKnown}
  if (lim.notADrive) return {...base, status: 'not-a-drive', text: `not a drive: ${lim.notADrive}`}
  if (lim.bytesPerSec === null) return {...base, status: 'unchecked', text: `not checked against an interface limit: ${lim.basis}`}
  if (measured > lim.bytesPerSec) {
    return {...base, status: 'implausible',
      text: `implausible: ${formatMBps(measured)} is more than the interface carries (${lim.basis}); a cache, or something other than the drive, was measured`}
  }
  return {...base, status: 'plausible', text: `within the interface's limit (${formatMBps(measured)}; ${lim.basis})`}
}

/** A claim that no PTS test measures (endurance): verdict not-measurable, with the reason. */
function notMeasurable(c: Claim, base: Omit<ClaimOutcome, 'measured' | 'ratio' | 'verdict' | 'measuredBy' | 'notes' | 'text'>, claimedText: string, capacityBytes: number | null): ClaimOutcome {
  let reason = 'endurance is how much a drive may write over its warranty before it wears out; a PTS run measures performance and writes a few drive writes, so no PTS test measures TBW or DWPD (the drive\'s own wear indicators, such as NVMe Percentage Used or a SATA wear-levelling count, track it)'
  if (capacityBytes && c.periodYears) {
    const perDay = (tbw: number) => (tbw * 1e12) / (capacityBytes * 365 * c.periodYears!)
    reason += c.unit === 'TBW'
      ? `; ${formatClaimed(c.value, 'TBW')} over ${c.periodYears} years of the datasheet's ${(capacityBytes / 1e9).toFixed(0)} GB is ${perDay(c.value).toFixed(2)} drive writes per day`
      : `; ${c.value} DWPD over ${c.periodYears} years of the datasheet's ${(capacityBytes / 1e9).toFixed(0)} GB is ${group((c.value * capacityBytes * 365 * c.periodYears) / 1e12, 0)} TBW`
  }
  return {
    ...base, measured: null, ratio: null, verdict: 'not-measurable', measuredBy: null,
    notes: [`not measurable by pts: ${reason}`], verdictReasons: [`not measurable by pts: ${reason}`], load: null, plausibility: null,
    text: `${base.label}: claimed ${claimedText}, not measurable by pts — ${reason}`,
    source: null,
  }
}

/** One claim against the run(s). `index` is the claim's position in the file (for its default id). */
export function matchClaim(c: Claim, index: number, ctx: MatchContext): ClaimOutcome {
  const sources = 'sources' in ctx ? ctx.sources : programSources(ctx.results)
  const label = claimLabel(c)
  const lowerIsBetter = c.metric === 'latency'
  const tol = ctx.tolerancePct
  // Integer-friendly threshold (75,000 x 90 / 100 = 67,500 exactly); comparisons are inclusive.
  const threshold = lowerIsBetter ? (c.value * (100 + tol)) / 100 : (c.value * (100 - tol)) / 100
  const claimedText = `${formatClaimed(c.value, c.unit)} (${CONDITION_LABEL[c.condition]})`
  const common = {
    id: c.id ?? `claim-${index + 1}`,
    label,
    metric: c.metric,
    queueDepth: c.queueDepth ?? null,
    threadCount: c.threadCount ?? null,
    statistic: c.metric === 'latency' ? c.statistic ?? 'mean' : null,
    condition: c.condition,
    claimed: {value: c.value, unit: c.unit},
    threshold,
  }
  if (c.metric === 'endurance') {
    return notMeasurable(c, {...common, access: null, blockSizeBytes: null, readPct: null}, claimedText, ctx.capacityBytes ?? null)
  }
  const p = c as PerfClaim
  const bs = blockSizeBytesOf(p.blockSize)
  const base = {...common, access: p.access, blockSizeBytes: bs, readPct: p.readPct}
  const runs = byRun(sources)
  // Name the run a value came from when there is more than one run, or the run has several loops.
  const showOrigin = runs.length > 1 || runs.some(r => r.length > 1)
  const tests = measuringTests(c)

  const fobMatch = ctx.fob && (c.condition === 'fob' || c.condition === 'unspecified') ? findFob(p, bs, ctx.fob) : null
  if (fobMatch) return fobOutcome(p, fobMatch, {...base, claimedText: formatClaimed(c.value, c.unit), threshold, lowerIsBetter, tol, showOrigin: runs.length > 0 || ctx.fob!.length > 1})

  const found = findMeasurement(p, bs, sources)
  if (found) {
    const {s, pt, got} = found
    const cond = conditionOf(s.steadyState.verdict)
    const ratio = got.value / c.value
    // A tiny relative slack absorbs binary rounding of the threshold itself, not of the data.
    const eps = 1e-12 * Math.max(1, Math.abs(threshold))
    const meets = lowerIsBetter ? got.value <= threshold + eps : got.value >= threshold - eps
    const verdict: Verdict = meets ? 'meets' : 'below'
    const load = compareLoad(c, pt.threadCount, pt.queueDepth)
    const plaus = plausibilityOf(s, pt)
    const flags = [loadFlag(load), plaus && (plaus.status === 'implausible' || plaus.status === 'not-a-drive') ? plaus.text : null].filter((x): x is string => x !== null)
    const notes: string[] = [...flags]
    const ln = loadNote(c, pt.threadCount, pt.queueDepth)
    if (ln) notes.push(ln)
    const cn = conditionNote(c.condition, cond)
    if (cn) notes.push(cn.short)
    const stat = c.statistic ?? 'mean'
    if (stat !== 'mean' && c.metric === 'latency') notes.push(`window average of the per-round ${statName(stat)} percentiles`)
    const origin = showOrigin ? originText(s) : null
    if (origin) notes.push(origin)
    const verdictWord = verdict === 'meets' ? 'meets the claim' : lowerIsBetter ? 'worse than claimed' : 'below'
    const tail = [...flags, cn?.tail, ln, origin].filter((x): x is string => Boolean(x)).join('; ')
    const cmp = lowerIsBetter
      ? `${formatMeasured(got.value, c.unit)} is ${meets ? 'at most' : 'more than'} ${formatMeasured(threshold, c.unit)} (the claim plus ${tol}%)`
      : `${formatMeasured(got.value, c.unit)} is ${meets ? 'at least' : 'less than'} ${formatMeasured(threshold, c.unit)} (the claim less ${tol}%)`
    const reasons = [
      `${verdict === 'meets' ? 'meets' : lowerIsBetter ? 'worse' : 'below'}: ${cmp}`,
      ...flags,
      ...(load.likeForLike === null ? [`the claim states no load; measured at TC ${pt.threadCount} x QD ${pt.queueDepth}`] : load.likeForLike ? [`like for like: measured at the claim's TC ${pt.threadCount} x QD ${pt.queueDepth}`] : []),
      ...(cn ? [cn.tail] : []),
      ...(plaus && (plaus.status === 'plausible' || plaus.status === 'unchecked') ? [plaus.text] : []),
    ]
    return {
      ...base,
      measured: {
        value: got.value,
        unit: c.unit,
        readPct: pt.readPct,
        blockSizeBytes: pt.blockSizeBytes,
        threadCount: pt.threadCount,
        queueDepth: pt.queueDepth,
        condition: cond,
        fromRound: s.steadyState.fromRound,
        toRound: s.steadyState.toRound,
        source: got.source,
      },
      ratio,
      verdict,
      measuredBy: null,
      notes,
      verdictReasons: reasons,
      load,
      plausibility: plaus,
      text: `${label}: claimed ${claimedText}, measured ${formatMeasured(got.value, c.unit)} ${MEASURED_PHRASE[cond]} (${formatRatio(ratio)}) — ${verdictWord}${tail ? `; ${tail}` : ''}`,
      source: {test: s.test, runId: s.runId, dir: s.dir, phase: s.phase},
    }
  }

  // Not measured: why not, from the runs of the tests that measure this kind of claim (or, with
  // one run of another test, from that run), and which test would measure it.
  const relevant = runs.filter(r => tests.includes(r[0].test)).sort((x, y) => tests.indexOf(x[0].test) - tests.indexOf(y[0].test))
  const asked = relevant.length > 0 ? relevant : runs.length === 1 ? runs : []
  const why = asked.map(r => ({test: r[0].test, ...whyNot(p, bs, r, tests)}))
  const reasons = [...new Set(why.map(w => w.reason))]
  const given = new Set([...runs.map(r => r[0].test), ...(ctx.fob ?? []).map(f => f.test)])
  const reason = reasons.length > 0 ? reasons.join('; ')
    : `the runs given (${[...given].map(testName).join(', ')}) include no ${testName(tests[0])} run`
  const test = measuredByTest(p, bs, new Set(why.filter(w => w.lacksPoint).map(w => w.test)), given)
  const note = test ? `${reason}; measured by the ${test}` : `${reason}; no PTS test measures it`
  return {
    ...base,
    measured: null,
    ratio: null,
    verdict: 'not-measured',
    measuredBy: test,
    notes: [note],
    verdictReasons: [`not measured: ${note}`],
    load: null,
    plausibility: null,
    text: `${label}: claimed ${claimedText}, not measured — ${reason}; ${test ? `the ${test} measures it` : 'no PTS test measures it'}`,
    source: null,
  }
}

const norm = (s: string | null | undefined): string => (s ?? '').toLowerCase().replace(/[^a-z0-9]/g, '')

/** Warnings when the run's device is not the datasheet's drive (by model / part number and capacity). */
export function deviceWarnings(claims: ClaimsFile, manifest: Pick<RunManifest, 'target'>): string[] {
  const id = manifest.target.identity
  const drive = `${claims.vendor} ${claims.model}${claims.partNumber ? ` (${claims.partNumber})` : ''}`
  const runModel = norm(id.model)
  const names = [norm(claims.model), norm(claims.partNumber)].filter(s => s.length > 0)
  const same = runModel.length > 0 && names.some(n => runModel.includes(n) || n.includes(runModel))
  if (manifest.target.kind === 'file') {
    return [`the run measured a file (${manifest.target.path}), not the datasheet's drive ${drive}: the comparison only illustrates the method`]
  }
  if (!same) {
    return [`the run's device (model ${id.model ?? 'unknown'}) does not look like the datasheet's drive ${drive}`]
  }
  const capRatio = id.capacityBytes / claims.capacityBytes
  if (capRatio < 0.98 || capRatio > 1.02) {
    return [`the run's device has ${(id.capacityBytes / 1e9).toFixed(1)} GB, the datasheet's drive ${(claims.capacityBytes / 1e9).toFixed(1)} GB: figures usually depend on capacity`]
  }
  return []
}


/** One run to verify against: an IOPS run or a test-program run (TP, LAT), as stored. */
export interface VerifyRunInput {
  /** The run directory's name ("02-tp" in a suite), null when not known. */
  dir: string | null
  results: ProgramResults
  manifest: Pick<RunManifest, 'target'>
  /** SHA-256 of the results.json file `results` was read from. */
  resultsSha256: string
  /** QoS percentiles of the window points, read from the raw fio output (claims/load.ts); absent: p99-p99.99 claims are not measured. */
  percentiles?: WindowPercentiles
}

export interface VerifyInput {
  claims: ClaimsFile
  results: ProgramResults
  manifest: Pick<RunManifest, 'target'>
  tolerancePct: number
  generatedAt: string
  generatedBy: string
  claimsFile: {name: string; sha256: string}
  /** SHA-256 of the results.json file `results` was read from. */
  resultsSha256: string
}

export interface VerifyRunsInput {
  claims: ClaimsFile
  /** At least one; a suite's in suite order (the first is VerifyResult.run). */
  runs: VerifyRunInput[]
  /** Set for a suite: runId becomes the suite id and every run is listed in `runs`. */
  suite?: {suiteId: string}
  /** More warnings (e.g. a suite's tests that could not be used). */
  warnings?: string[]
  tolerancePct: number
  generatedAt: string
  generatedBy: string
  claimsFile: {name: string; sha256: string}
}

/** The measurement sources of a stored run: the loop phases of an IOPS, TP, LAT, DIRTH, CBW or ECW run. */
export function sourcesOf(run: Pick<VerifyRunInput, 'dir' | 'results'> & Partial<Pick<VerifyRunInput, 'manifest' | 'percentiles'>>): MeasurementSource[] {
  return programSources(run.results, run.dir, {
    ...(run.manifest ? {target: {kind: run.manifest.target.kind, identity: run.manifest.target.identity}} : {}),
    ...(run.percentiles ? {percentiles: run.percentiles} : {}),
  })
}

/** The worst verdict of several loops: pending, else not-achieved, else steady. */
export function combinedVerdict(verdicts: readonly SteadyVerdict[]): SteadyVerdict {
  if (verdicts.length === 0 || verdicts.includes('pending')) return 'pending'
  return verdicts.includes('not-achieved') ? 'not-achieved' : 'steady'
}

/** VerifyResult.run (and each of .runs): the run's test, access, TC/QD, verdict and window. */
export function runSummary(run: VerifyRunInput, withIds: boolean): VerifiedRun {
  const r = run.results
  const id = run.manifest.target.identity
  const device = {vendor: id.vendor, model: id.model, capacityBytes: id.capacityBytes, kind: run.manifest.target.kind}
  const loops = loopsOf(r)
  // The TC/QD the loops ran at (LAT: TC 1/QD 1), else the run's parameters.
  const loads = new Set(loops.flatMap(l => l.rounds.flatMap(x => x.points.map(q => `${q.threadCount}/${q.queueDepth}`))))
  const [tc, qd] = loads.size === 1 ? [...loads][0].split('/').map(Number) : [r.parameters.threadCount, r.parameters.queueDepth]
  return {
    test: r.test, revision: r.revision, profile: r.profile, access: accessOf(r.test) ?? 'random', threadCount: tc, queueDepth: qd,
    steadyState: combinedVerdict(loops.map(l => l.steadyState.verdict)),
    fromRound: loops.length === 1 ? loops[0].steadyState.fromRound : null,
    toRound: loops.length === 1 ? loops[0].steadyState.toRound : null,
    resultsSha256: run.resultsSha256, device,
    runId: r.runId, dir: run.dir,
    phases: loops.map(l => ({id: l.id, steadyState: l.steadyState.verdict, fromRound: l.steadyState.fromRound, toRound: l.steadyState.toRound})),
  }
}

/** Every claim of the file against one IOPS run, with the summary counts. */
export function verifyClaims(input: VerifyInput): VerifyResult {
  const {results, manifest, resultsSha256, ...rest} = input
  return verifyRuns({...rest, runs: [{dir: null, results, manifest, resultsSha256}]})
}

/**
 * Every claim of the file against one or more runs (an IOPS, TP or LAT run, or a suite's runs):
 * each claim takes the best measurement among them (matchClaim), with the summary counts.
 */
export function verifyRuns(input: VerifyRunsInput): VerifyResult {
  if (input.runs.length === 0) throw new Error('verifyRuns: no run')
  const sources = input.runs.flatMap(sourcesOf)
  const fob = input.runs.flatMap(fobSweepsOf)
  const ctx: MatchContext = {sources, tolerancePct: input.tolerancePct, capacityBytes: input.claims.capacityBytes, ...(fob.length ? {fob} : {})}
  const outcomes = input.claims.claims.map((c, i) => matchClaim(c, i, ctx))
  const count = (v: Verdict) => outcomes.filter(o => o.verdict === v).length
  const primary = input.runs[0]
  const warnings = [...new Set([...input.runs.flatMap(r => deviceWarnings(input.claims, r.manifest)), ...(input.warnings ?? [])])]
  return {
    schemaVersion: 1,
    generatedAt: input.generatedAt,
    generatedBy: input.generatedBy,
    runId: input.suite?.suiteId ?? primary.results.runId,
    tolerancePct: input.tolerancePct,
    claimsFile: input.claimsFile,
    datasheet: {
      vendor: input.claims.vendor,
      model: input.claims.model,
      partNumber: input.claims.partNumber ?? null,
      capacityBytes: input.claims.capacityBytes,
      source: input.claims.source,
      notes: input.claims.notes ?? null,
    },
    run: runSummary(primary, input.suite !== undefined),
    ...(input.suite ? {suite: {suiteId: input.suite.suiteId}, runs: input.runs.map(r => runSummary(r, true))} : {}),
    warnings,
    summary: {total: outcomes.length, meets: count('meets'), below: count('below'), notMeasured: count('not-measured'), notMeasurable: count('not-measurable'), flagged: outcomes.filter(isFlagged).length},
    claims: outcomes,
  }
}

/** A measured claim whose measurement is not like for like, above the interface's limit, or of a file target. */
export function isFlagged(o: Pick<ClaimOutcome, 'load' | 'plausibility'>): boolean {
  return o.load?.likeForLike === false || o.plausibility?.status === 'implausible' || o.plausibility?.status === 'not-a-drive'
}

/**
 * True when --fail-on-miss should fail: any claim below or not measured. A claim no PTS test
 * can measure (endurance) is reported, not a miss.
 */
export function anyMiss(result: Pick<VerifyResult, 'claims'>): boolean {
  return result.claims.some(c => c.verdict === 'below' || c.verdict === 'not-measured')
}


// ---------------------------------------------------------------------------------------------
// FOB claims against a fob-ss review run: its FOB sweep (the first sweep, before any
// preconditioning) and its steady-state sweep (after preconditioning), each point one fio step.

/** The FOB and steady-state sweeps of one fob-ss run (the phases "fob" and "ss"), as points a claim can be matched to. */
export interface FobSweeps extends MeasurementOrigin {
  fob: Array<SourcePoint & {index: number}>
  ss: Array<SourcePoint & {index: number}>
  target?: InterfaceFacts
}

type SweepPhase = Extract<PhaseResult, {kind: 'sweep'}>

/** The sweeps of a fob-ss run; none for any other run (or one without both sweeps). Pure. */
export function fobSweeps(r: Pick<ProgramResults, 'test' | 'runId' | 'phases'>, dir: string | null = null, target?: InterfaceFacts): FobSweeps[] {
  if (r.test !== 'fob-ss') return []
  const sweep = (id: string) => r.phases.find((ph): ph is SweepPhase => ph.kind === 'sweep' && ph.id === id)
  const fob = sweep('fob')
  if (!fob) return []
  const pts = (ph: SweepPhase | undefined) => (ph?.points ?? []).filter(q => q.blockSizeBytes !== null).map((q, index) => ({
    index, readPct: q.readPct, blockSizeBytes: q.blockSizeBytes!, threadCount: q.threadCount, queueDepth: q.queueDepth,
    iops: q.iops, bwBytesPerSec: q.bwBytesPerSec, readBwBytesPerSec: q.readBwBytesPerSec, writeBwBytesPerSec: q.writeBwBytesPerSec, latMeanNs: q.latMeanNs,
    p99999: q.latP99999Ns === null ? {missing: 'the fio step of this point has no 99.999th percentile (too few IOs)'} : {ns: q.latP99999Ns, source: 'latP99999Ns (fio\'s 99.999th percentile of the step)'},
  }))
  return [{test: r.test, runId: r.runId, dir, phase: 'fob', fob: pts(fob), ss: pts(sweep('ss')), ...(target ? {target} : {})}]
}

/** The FOB sweeps of a stored run (verify input). */
export function fobSweepsOf(run: Pick<VerifyRunInput, 'dir' | 'results'> & Partial<Pick<VerifyRunInput, 'manifest'>>): FobSweeps[] {
  return fobSweeps(run.results, run.dir, run.manifest ? {kind: run.manifest.target.kind, identity: run.manifest.target.identity} : undefined)
}

/** A sweep point's value in the claim's unit (IOPS, MB/s, mean or 99.999th-percentile response time); null for another statistic. */
function sweepValue(c: PerfClaim, pt: SourcePoint, phase: string, index: number): {value: number; source: string} | null {
  const at = `phases[${phase}].points[${index}]`
  if (c.metric === 'iops') return {value: pt.iops, source: `${at}.iops (read + write IOPS of the point's fio step)`}
  if (c.metric === 'mbps') return {value: pt.bwBytesPerSec / 1e6, source: `${at}.bwBytesPerSec / 10^6`}
  const perUnit = c.unit === 'us' ? 1e3 : 1e6
  const stat = c.statistic ?? 'mean'
  if (stat === 'mean') return {value: pt.latMeanNs / perUnit, source: `${at}.latMeanNs (IO-weighted mean response time)`}
  if (stat === 'p99.999' && !('missing' in pt.p99999)) return {value: pt.p99999.ns / perUnit, source: `${at}.${pt.p99999.source}`}
  return null
}

/** The FOB point a claim is matched to, with the steady-state point at the same workload and load. */
interface FobFound { run: FobSweeps; fob: SourcePoint & {index: number}; got: {value: number; source: string}; ss: {pt: SourcePoint & {index: number}; got: {value: number; source: string}} | null; pickedBest: boolean }

/**
 * The FOB sweep's point at the claim's access, block size, R/W mix and TC x QD (a QD without a TC
 * is TC 1); a claim that states no load takes the sweep's best point for it (highest IOPS or
 * MB/s, lowest response time), said in the outcome. Null: no fob-ss run has such a point, and the
 * claim is matched as any other.
 */
export function findFob(c: PerfClaim, bs: number, runs: readonly FobSweeps[]): FobFound | null {
  if (c.access !== 'random') return null
  const noLoad = c.queueDepth === undefined && c.threadCount === undefined
  for (const run of runs) {
    const same = (q: SourcePoint) => q.readPct === c.readPct && q.blockSizeBytes === bs
    const cands = run.fob.filter(q => same(q) && (noLoad || compareLoad(c, q.threadCount, q.queueDepth).likeForLike === true))
      .map(q => ({q, got: sweepValue(c, q, 'fob', q.index)})).filter((x): x is {q: typeof x.q; got: {value: number; source: string}} => x.got !== null)
    if (cands.length === 0) continue
    const lower = c.metric === 'latency'
    const pick = noLoad ? cands.reduce((a, b) => ((lower ? b.got.value < a.got.value : b.got.value > a.got.value) ? b : a)) : cands[0]
    const ssPt = run.ss.find(q => same(q) && q.threadCount === pick.q.threadCount && q.queueDepth === pick.q.queueDepth)
    const ssGot = ssPt ? sweepValue(c, ssPt, 'ss', ssPt.index) : null
    return {run, fob: pick.q, got: pick.got, ss: ssPt && ssGot ? {pt: ssPt, got: ssGot} : null, pickedBest: noLoad}
  }
  return null
}

/** A number in the claim's unit without the unit ("83,900", "512.3", "0.081"). */
const bare = (v: number, unit: ClaimUnit): string => formatMeasured(v, unit).replace(` ${unit}`, '')

/**
 * The outcome of a claim matched to a FOB point: the verdict from the FOB value, the steady-state
 * value beside it. "4 KiB random read: claimed 85,000 IOPS (FOB, QD 32); FOB 83,900 (0.99x,
 * meets); steady state 4,200 (0.05x)".
 */
function fobOutcome(c: PerfClaim, f: FobFound, b: Omit<ClaimOutcome, 'measured' | 'ratio' | 'verdict' | 'measuredBy' | 'notes' | 'text'> & {claimedText: string; threshold: number; lowerIsBetter: boolean; tol: number; showOrigin: boolean}): ClaimOutcome {
  const {claimedText, threshold, lowerIsBetter, tol, showOrigin, ...base} = b
  const v = f.got.value
  const ratio = v / c.value
  const eps = 1e-12 * Math.max(1, Math.abs(threshold))
  const meets = lowerIsBetter ? v <= threshold + eps : v >= threshold - eps
  const verdict: Verdict = meets ? 'meets' : 'below'
  const pt = f.fob
  const load = compareLoad(c, pt.threadCount, pt.queueDepth)
  const plaus = plausibilityOf(f.run, pt)
  const flags = [plaus && (plaus.status === 'implausible' || plaus.status === 'not-a-drive') ? plaus.text : null].filter((x): x is string => x !== null)
  const loadText = c.threadCount !== undefined ? `TC ${c.threadCount} / QD ${c.queueDepth ?? pt.queueDepth}` : c.queueDepth !== undefined ? `QD ${c.queueDepth}` : null
  const cond = c.condition === 'fob' ? 'FOB' : 'condition unspecified'
  const ss = f.ss ? {value: f.ss.got.value, ratio: f.ss.got.value / c.value, ofFob: v > 0 ? f.ss.got.value / v : null, source: f.ss.got.source} : null
  const notes: string[] = [...flags]
  if (c.condition === 'unspecified') notes.push('claim condition unspecified (vendors usually measure fresh out of box): matched to the FOB measurement')
  if (f.pickedBest) notes.push(`the claim states no load: the FOB sweep's best point for it, TC ${pt.threadCount} / QD ${pt.queueDepth}`)
  if (!ss) notes.push('the steady-state sweep has no point at this workload and load')
  const origin = showOrigin ? originText(f.run) : null
  if (origin) notes.push(origin)
  const cmp = lowerIsBetter
    ? `FOB ${formatMeasured(v, c.unit)} is ${meets ? 'at most' : 'more than'} ${formatMeasured(threshold, c.unit)} (the claim plus ${tol}%)`
    : `FOB ${formatMeasured(v, c.unit)} is ${meets ? 'at least' : 'less than'} ${formatMeasured(threshold, c.unit)} (the claim less ${tol}%)`
  const reasons = [
    `${meets ? 'meets' : lowerIsBetter ? 'worse' : 'below'}: ${cmp}`,
    ...flags,
    load.likeForLike ? `like for like: the FOB sweep's point at the claim's TC ${pt.threadCount} x QD ${pt.queueDepth}, measured fresh out of box (the run's first sweep, before any preconditioning)` : `measured fresh out of box at TC ${pt.threadCount} x QD ${pt.queueDepth}`,
    ...(ss ? [`after preconditioning the same point gives ${formatMeasured(ss.value, c.unit)} (${formatRatio(ss.ratio)} of the claim${ss.ofFob !== null ? `, ${formatRatio(ss.ofFob)} of FOB` : ''})`] : []),
    ...(plaus && (plaus.status === 'plausible' || plaus.status === 'unchecked') ? [plaus.text] : []),
  ]
  const word = meets ? 'meets' : lowerIsBetter ? 'worse than claimed' : 'below'
  const tail = [...flags, f.pickedBest ? `no load claimed: TC ${pt.threadCount} / QD ${pt.queueDepth}, the best FOB point` : null, origin].filter((x): x is string => Boolean(x)).join('; ')
  return {
    ...base,
    measured: {value: v, unit: c.unit, readPct: pt.readPct, blockSizeBytes: pt.blockSizeBytes, threadCount: pt.threadCount, queueDepth: pt.queueDepth, condition: 'fob', fromRound: null, toRound: null, source: f.got.source},
    threshold, ratio, verdict, measuredBy: null, notes, verdictReasons: reasons, load, plausibility: plaus,
    steadyState: ss,
    text: `${base.label}: claimed ${claimedText} (${cond}${loadText ? `, ${loadText}` : ''}); FOB ${bare(v, c.unit)} (${formatRatio(ratio)}, ${word}); ${ss ? `steady state ${bare(ss.value, c.unit)} (${formatRatio(ss.ratio)})` : 'steady state not measured at this point'}${tail ? `; ${tail}` : ''}`,
    source: {test: f.run.test, runId: f.run.runId, dir: f.run.dir, phase: 'fob'},
  }
}
