/**
 * Datasheet claims vs a stored run: each claim is matched to the run's measurement of the same
 * access, block size and R/W mix (exact match), converted to the claim's unit, and judged with a
 * tolerance. Pure and deterministic: the same claims, results and options give the same outcome.
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
import type {RunManifest, RunResults, WindowAverage} from '../store/types.js'
import {parseSizeBytes} from '../units.js'
import type {
  Claim, ClaimOutcome, ClaimsFile, ClaimUnit, MeasuredCondition, Verdict, VerifyResult,
} from './types.js'

export const DEFAULT_TOLERANCE_PCT = 10

/** The test that measures sequential MB/s and IOPS claims (digest B §5.2). */
export const TP_TEST = 'Throughput (tp) test, SEQ 128 KiB / 1024 KiB'
/** The test that measures response-time claims (digest B §5.3). */
export const LAT_TEST = 'Latency (lat) test'

/** "--tolerance 10" or "10%" -> 10 (percent, 0..100 inclusive). */
export function parseTolerance(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text)
  const v = m ? Number(m[1]) : Number.NaN
  if (!Number.isFinite(v)) throw new UsageError(`--tolerance ${text}: expected a percentage such as 10 or 10%`, 'pass --tolerance 10% (a claim is met when the measurement is within 10% of it)')
  if (v > 100) throw new UsageError(`--tolerance ${text}: must be between 0 and 100 %`, 'pass --tolerance 10%')
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
  const base = `${kib(blockSizeBytesOf(c.blockSize))} ${c.access} ${mixWord(c.readPct)}`
  if (c.metric !== 'latency') return base
  const stat = c.statistic ?? 'mean'
  return `${base} latency (${stat === 'mean' ? 'mean' : `${stat.slice(1)}th percentile`})`
}

const CONDITION_LABEL: Record<Claim['condition'], string> = {fob: 'FOB', 'steady-state': 'steady state', unspecified: 'condition unspecified'}

function measuredCondition(r: RunResults): MeasuredCondition {
  return r.steadyState.verdict === 'steady' ? 'steady-state' : r.steadyState.verdict === 'not-achieved' ? 'after-preconditioning' : 'incomplete'
}

const MEASURED_PHRASE: Record<MeasuredCondition, string> = {
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

export interface MatchContext {
  results: RunResults
  tolerancePct: number
}

function measuredValue(c: Claim, w: WindowAverage, r: RunResults): {value: number; source: string} | {missing: string} {
  if (c.metric === 'iops') return {value: w.iops, source: 'windowAverages.iops (read + write IOPS)'}
  if (c.metric === 'mbps') return {value: w.bwBytesPerSec / 1e6, source: 'windowAverages.bwBytesPerSec / 10^6'}
  const perUnit = c.unit === 'us' ? 1e3 : 1e6
  const stat = c.statistic ?? 'mean'
  if (stat === 'mean') return {value: w.latMeanNs / perUnit, source: 'windowAverages.latMeanNs (IO-weighted mean response time)'}
  if (stat === 'p99.99') return {missing: 'pts stores the 99.999th percentile of each point, not the 99.99th'}
  const {fromRound, toRound} = r.steadyState
  if (fromRound === null || toRound === null) return {missing: 'no measurement window'}
  const values: number[] = []
  for (const round of r.rounds) {
    if (round.round < fromRound || round.round > toRound) continue
    const pt = round.points.find(p => p.readPct === w.readPct && p.blockSizeBytes === w.blockSizeBytes)
    if (!pt || pt.latP99999Ns === null) return {missing: `round ${round.round} has no 99.999th percentile for this point (too few IOs)`}
    values.push(pt.latP99999Ns)
  }
  if (values.length === 0) return {missing: 'no measurement window'}
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  return {value: mean / perUnit, source: `latP99999Ns of rounds ${fromRound}-${toRound}, averaged over the window`}
}

/** Where a claim the run did not measure would be measured. */
function notMeasuredBy(c: Claim, r: RunResults): {reason: string; test: string} {
  const p = r.parameters
  const test = r.test.toUpperCase()
  const point = `${c.access === 'random' ? 'RND' : 'SEQ'} ${kib(blockSizeBytesOf(c.blockSize))} R/W ${c.readPct}/${100 - c.readPct}`
  const accessReason = `the ${test} test is ${p.access} access only`
  const pointReason = `this ${test} run has no ${point} point`
  if (c.metric === 'latency') return {reason: c.access !== p.access ? accessReason : pointReason, test: LAT_TEST}
  if (c.access !== p.access) return {reason: accessReason, test: c.access === 'sequential' ? TP_TEST : `IOPS (iops) test, ${point}`}
  return {reason: pointReason, test: `IOPS (iops) test, ${point}`}
}

/** One claim against the run. `index` is the claim's position in the file (for its default id). */
export function matchClaim(c: Claim, index: number, ctx: MatchContext): ClaimOutcome {
  const r = ctx.results
  const p = r.parameters
  const bs = blockSizeBytesOf(c.blockSize)
  const label = claimLabel(c)
  const lowerIsBetter = c.metric === 'latency'
  const tol = ctx.tolerancePct
  // Integer-friendly threshold (75,000 x 90 / 100 = 67,500 exactly); comparisons are inclusive.
  const threshold = lowerIsBetter ? (c.value * (100 + tol)) / 100 : (c.value * (100 - tol)) / 100
  const claimedText = `${formatClaimed(c.value, c.unit)} (${CONDITION_LABEL[c.condition]})`
  const base = {
    id: c.id ?? `claim-${index + 1}`,
    label,
    metric: c.metric,
    access: c.access,
    blockSizeBytes: bs,
    readPct: c.readPct,
    queueDepth: c.queueDepth ?? null,
    threadCount: c.threadCount ?? null,
    statistic: c.metric === 'latency' ? c.statistic ?? 'mean' : null,
    condition: c.condition,
    claimed: {value: c.value, unit: c.unit},
    threshold,
  }

  const w = c.access === p.access ? r.windowAverages.find(x => x.readPct === c.readPct && x.blockSizeBytes === bs) : undefined
  const got = w ? measuredValue(c, w, r) : undefined
  if (!w || !got || 'missing' in got) {
    const nm = got && 'missing' in got ? {reason: got.missing, test: LAT_TEST} : notMeasuredBy(c, r)
    const reason = r.windowAverages.length === 0 ? 'the run has no measurement window (no window averages)' : nm.reason
    return {
      ...base,
      measured: null,
      ratio: null,
      verdict: 'not-measured',
      measuredBy: nm.test,
      notes: [`${reason}; measured by the ${nm.test}`],
      text: `${label}: claimed ${claimedText}, not measured — ${reason}; the ${nm.test} measures it`,
    }
  }

  const cond = measuredCondition(r)
  const ratio = got.value / c.value
  // A tiny relative slack absorbs binary rounding of the threshold itself, not of the data.
  const eps = 1e-12 * Math.max(1, Math.abs(threshold))
  const meets = lowerIsBetter ? got.value <= threshold + eps : got.value >= threshold - eps
  const verdict: Verdict = meets ? 'meets' : 'below'
  const notes: string[] = []
  const ln = loadNote(c, p.threadCount, p.queueDepth)
  if (ln) notes.push(ln)
  const cn = conditionNote(c.condition, cond)
  if (cn) notes.push(cn.short)
  if ((c.statistic ?? 'mean') === 'p99.999' && c.metric === 'latency') notes.push('window average of the per-round 99.999th percentiles')
  const verdictWord = verdict === 'meets' ? 'meets the claim' : lowerIsBetter ? 'worse than claimed' : 'below'
  const tail = [cn?.tail, ln].filter((s): s is string => Boolean(s)).join('; ')
  return {
    ...base,
    measured: {
      value: got.value,
      unit: c.unit,
      readPct: w.readPct,
      blockSizeBytes: w.blockSizeBytes,
      threadCount: p.threadCount,
      queueDepth: p.queueDepth,
      condition: cond,
      fromRound: r.steadyState.fromRound,
      toRound: r.steadyState.toRound,
      source: got.source,
    },
    ratio,
    verdict,
    measuredBy: null,
    notes,
    text: `${label}: claimed ${claimedText}, measured ${formatMeasured(got.value, c.unit)} ${MEASURED_PHRASE[cond]} (${formatRatio(ratio)}) — ${verdictWord}${tail ? `; ${tail}` : ''}`,
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

export interface VerifyInput {
  claims: ClaimsFile
  results: RunResults
  manifest: Pick<RunManifest, 'target'>
  tolerancePct: number
  generatedAt: string
  generatedBy: string
  claimsFile: {name: string; sha256: string}
  /** SHA-256 of the results.json file `results` was read from. */
  resultsSha256: string
}

/** Every claim of the file against the run, with the summary counts. */
export function verifyClaims(input: VerifyInput): VerifyResult {
  const r = input.results
  const p = r.parameters
  const ctx: MatchContext = {results: r, tolerancePct: input.tolerancePct}
  const outcomes = input.claims.claims.map((c, i) => matchClaim(c, i, ctx))
  const count = (v: Verdict) => outcomes.filter(o => o.verdict === v).length
  const id = input.manifest.target.identity
  return {
    schemaVersion: 1,
    generatedAt: input.generatedAt,
    generatedBy: input.generatedBy,
    runId: r.runId,
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
    run: {
      test: r.test,
      revision: r.revision,
      profile: r.profile,
      access: p.access,
      threadCount: p.threadCount,
      queueDepth: p.queueDepth,
      steadyState: r.steadyState.verdict,
      fromRound: r.steadyState.fromRound,
      toRound: r.steadyState.toRound,
      resultsSha256: input.resultsSha256,
      device: {vendor: id.vendor, model: id.model, capacityBytes: id.capacityBytes, kind: input.manifest.target.kind},
    },
    warnings: deviceWarnings(input.claims, input.manifest),
    summary: {total: outcomes.length, meets: count('meets'), below: count('below'), notMeasured: count('not-measured')},
    claims: outcomes,
  }
}

/** True when --fail-on-miss should fail: any claim below or not measured. */
export function anyMiss(result: Pick<VerifyResult, 'claims'>): boolean {
  return result.claims.some(c => c.verdict !== 'meets')
}
