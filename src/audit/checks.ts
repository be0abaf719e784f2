/**
 * `pts audit`: pure checks of a stored run (issue 6 part 2). Every reported number is recomputed
 * from the raw fio outputs alone (digest Part A 11) and compared with results.json and the report
 * model; the seal (manifest integrity) names any changed, missing or added file; the compliance
 * rules that the data shows (purge, WIPC volume, point durations, loop order, idle gaps, device
 * identity) are checked, and a departure passes only when the run itself disclosed it (marked
 * non-compliant with that reason, or recorded as a deviation).
 *
 * The I/O (reading files, hashing, checking a signature) is done by the caller (load.ts); here
 * everything is data in, verdicts out.
 */
import {FioOutputError, parseFioJson, type Measurement} from '../engine/parse.js'
import {fioEscapeFilename} from '../engine/jobfile.js'
import {compareSeal, type FileHash} from '../store/integrity.js'
import {conclude} from '../store/results.js'
import type {TestSpec} from '../spec/types.js'
import type {PointResult, RunManifest, RunResults} from '../store/types.js'
import {identityText} from '../run/identity.js'

export type CheckStatus = 'pass' | 'fail' | 'skip'

/** The checks of pts audit (IOPS runs and test programs). */
export type CheckId = 'integrity' | 'signature' | 'measurements' | 'steady-state' | 'report' | 'purge' | 'wipc' | 'durations' | 'loop-order' | 'idle-gaps' | 'identity' | 'job-parameters'

export interface AuditCheck {
  id: CheckId
  title: string
  status: CheckStatus
  /** One line: why it passed, failed or was skipped. */
  reason: string
  /** Each problem found, naming the file and the place (JSON pointer or raw path). */
  problems: string[]
}

export interface AuditInput {
  manifest: RunManifest
  results: RunResults
  /** Raw files named by results.json, by path relative to the run directory: text, or null when missing. */
  raw: ReadonlyMap<string, string | null>
  /** SHA-256 of the sealed files as they are now (results.json and everything under raw/). */
  sealNow: FileHash[]
  /** manifest.sig: absent, unreadable, or present with the outcome of checking it (null: no --verify-key). */
  signature: {present: false; keyGiven: boolean} | {present: true; unreadable: string | null; keyGiven: boolean; fingerprint: string | null; check: {ok: boolean; reason: string} | null}
  /** The report model rebuilt from given results (report/model.ts) and, when the run has one, report-model.json as stored. */
  buildModel: (results: RunResults) => unknown
  storedModel: {file: string; model: unknown} | null
  /** Idle gap between consecutive test points above which the audit fails (digest Part A 7: no idle gaps). */
  maxGapMs: number
}

export interface AuditResult {
  schemaVersion: 1
  runId: string
  test: string
  revision: string
  ok: boolean
  checks: AuditCheck[]
}

/** Measurement fields compared between results.json and the raw fio JSON (all of them). */
export const MEASUREMENT_KEYS: Array<keyof Measurement> = [
  'iops', 'readIops', 'writeIops', 'bwBytesPerSec', 'readBwBytesPerSec', 'writeBwBytesPerSec', 'readBytes', 'writeBytes',
  'ioCount', 'latMeanNs', 'latMaxNs', 'latP99999Ns', 'latPercentileSamples', 'runtimeSec',
]

/** The measurement of one raw fio output, or null with the problem named (missing file, not fio JSON). */
export function measureRaw(raw: ReadonlyMap<string, string | null>, rel: string, where: string, problems: string[]): Measurement | null {
  const text = raw.get(rel)
  if (text === undefined || text === null) { problems.push(`${where}: raw file ${rel} is missing`); return null }
  try {
    return parseFioJson(text).groups[0].measurement
  } catch (error) {
    if (error instanceof FioOutputError) { problems.push(`${where}: ${rel} is not valid fio output (${error.message})`); return null }
    throw error
  }
}

/** Differences between two JSON values as "pointer: a ≠ b" (at most `limit`). */
export function jsonDiff(a: unknown, b: unknown, pointer = '', limit = 10, out: string[] = []): string[] {
  if (out.length >= limit) return out
  if (Object.is(a, b)) return out
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${pointer || '/'}: ${a.length} items ≠ ${b.length} items`)
    for (let i = 0; i < Math.min(a.length, b.length); i++) jsonDiff(a[i], b[i], `${pointer}/${i}`, limit, out)
    return out
  }
  if (obj(a) && obj(b) && !Array.isArray(a) && !Array.isArray(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const p = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`
      if (!(k in a)) out.push(`${p}: absent ≠ ${JSON.stringify(b[k])}`)
      else if (!(k in b)) out.push(`${p}: ${JSON.stringify(a[k])} ≠ absent`)
      else jsonDiff(a[k], b[k], p, limit, out)
      if (out.length >= limit) break
    }
    return out
  }
  out.push(`${pointer || '/'}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`)
  return out
}

export const check = (id: CheckId, title: string, problems: string[], passReason: string, failReason?: string): AuditCheck => ({
  id, title, problems,
  status: problems.length === 0 ? 'pass' : 'fail',
  reason: problems.length === 0 ? passReason : (failReason ?? `${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems[0]}${problems.length > 1 ? ' …' : ''}`),
})


/** The seal: every raw file and results.json with its SHA-256 (shared by IOPS and program audits). */
export function integrityCheck(m: RunManifest, sealNow: FileHash[]): AuditCheck {
  if (!m.integrity) {
    return {id: 'integrity', title: 'Files match the SHA-256 listed in the manifest', status: 'fail', problems: ['manifest.json has no integrity list'],
      reason: 'manifest.json lists no SHA-256 (run written by an older pts, or the list was removed; a killed run is sealed when pts resume finishes it)'}
  }
  const d = compareSeal(m.integrity.files, sealNow)
  const problems = [...d.changed.map(x => `changed: ${x}`), ...d.missing.map(x => `missing: ${x}`), ...d.added.map(x => `added: ${x} (not in the manifest's list)`)]
  return check('integrity', 'Files match the SHA-256 listed in the manifest', problems,
    `${m.integrity.files.length} files (results.json and raw/) match the SHA-256 sealed at ${m.integrity.sealedAt}`)
}

/** manifest.sig, checked with --verify-key when given. */
export function signatureCheck(s: AuditInput['signature']): AuditCheck {
  if (!s.present) {
    return s.keyGiven
      ? {id: 'signature', title: 'Manifest signature', status: 'fail', problems: ['manifest.sig is missing'], reason: 'a --verify-key was given but the run has no manifest.sig (it was not signed, or the signature was removed)'}
      : {id: 'signature', title: 'Manifest signature', status: 'skip', problems: [], reason: 'the run is not signed (pts run --sign-key)'}
  }
  if (s.unreadable) return {id: 'signature', title: 'Manifest signature', status: 'fail', problems: [`manifest.sig: ${s.unreadable}`], reason: `manifest.sig cannot be read: ${s.unreadable}`}
  if (!s.check) return {id: 'signature', title: 'Manifest signature', status: 'skip', problems: [], reason: `signed with key ${s.fingerprint?.slice(0, 16)}…; pass --verify-key <public key> to check it`}
  return {id: 'signature', title: 'Manifest signature', status: s.check.ok ? 'pass' : 'fail', problems: s.check.ok ? [] : [s.check.reason], reason: s.check.reason}
}

/** Idle gaps between consecutive steps (digest Part A 7); a gap across a recorded resume is excused. */
export function idleGaps(steps: Array<{from: string; to: string; endNs: bigint; startNs: bigint}>, events: RunManifest['events'], maxGapMs: number): {problems: string[]; gaps: number[]; excused: number} {
  const resumes = events.filter(e => e.event === 'resume').map(e => Date.parse(e.at) * 1e6)
  const problems: string[] = []
  const gaps: number[] = []
  let excused = 0
  for (const st of steps) {
    const gapMs = Number(st.startNs - st.endNs) / 1e6
    if (resumes.some(t => t >= Number(st.endNs) && t <= Number(st.startNs))) { excused++; continue }
    gaps.push(gapMs)
    if (gapMs > maxGapMs) problems.push(`${gapMs.toFixed(0)} ms idle between ${st.from} and ${st.to} (limit ${maxGapMs} ms)`)
  }
  return {problems, gaps, excused}
}

export function gapReason(g: {gaps: number[]; excused: number}, maxGapMs: number): string {
  const sorted = [...g.gaps].sort((a, b) => a - b)
  const med = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0
  return `${g.gaps.length} gaps: median ${med.toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms (limit ${maxGapMs} ms)${g.excused ? `; ${g.excused} across a recorded interruption (a deviation in the manifest)` : ''}`
}

/** Every identity record of the run and every fio job names the same device. */
export function identityCheck(m: RunManifest, jobs: string[], raw: ReadonlyMap<string, string | null>): AuditCheck {
  const problems: string[] = []
  const want = identityText(m.target)
  const ids = m.events.filter(e => e.event === 'identity')
  for (const e of ids) if (e.detail !== want) problems.push(`manifest.json event "identity" at ${e.at}: ${e.detail}; the run's target is ${want}`)
  let checked = 0
  for (const rel of jobs) {
    const text = raw.get(rel)
    if (text === undefined || text === null) { problems.push(`raw job file ${rel} is missing`); continue }
    const f = jobValue(parseJobFile(text), 'filename')
    checked++
    if (f !== fioEscapeFilename(m.target.path)) problems.push(`${rel}: filename=${f ?? '(none)'}, the run's target is ${m.target.path}`)
  }
  return check('identity', 'Device identity unchanged across rounds', problems,
    `${ids.length} identity record${ids.length === 1 ? '' : 's'} (start and resumes) show ${want}; all ${checked} fio jobs target ${m.target.path}`)
}

const pointLabel = (round: number, p: PointResult) => `round ${round} point ${p.index + 1} (${p.id})`

/** The steady-state criteria and tracking variables as the run recorded them (not today's spec files). */
export function specFromResults(r: RunResults): TestSpec {
  return {
    steadyState: {
      windowRounds: r.parameters.windowRounds,
      maxDataExcursionPct: r.parameters.maxDataExcursionPct,
      maxSlopeExcursionPct: r.parameters.maxSlopeExcursionPct,
      maxRounds: r.parameters.maxRounds,
      tracking: r.tracking.map(t => ({id: t.id, label: t.label, readPct: t.readPct, blockSizeBytes: t.blockSizeBytes, metric: t.metric})),
    },
  } as unknown as TestSpec
}

/** Recompute each measurement from its raw fio JSON; returns the recomputed results and the problems. */
export function recompute(inp: AuditInput): {results: RunResults; problems: string[]} {
  const problems: string[] = []
  const r = structuredClone(inp.results)
  const measure = (rel: string, where: string) => measureRaw(inp.raw, rel, where, problems)
  r.rounds.forEach((round, ri) => round.points.forEach((p, pi) => {
    const m = measure(p.raw.json, pointLabel(round.round, p))
    if (!m) return
    for (const k of MEASUREMENT_KEYS) {
      if (!Object.is(p[k], m[k])) problems.push(`results.json /rounds/${ri}/points/${pi}/${k} (${pointLabel(round.round, p)}): stored ${JSON.stringify(p[k])}, raw ${p.raw.json} gives ${JSON.stringify(m[k])}`)
    }
    Object.assign(r.rounds[ri].points[pi], m)
  }))
  if (r.wipc) {
    const m = measure(r.wipc.raw.json, 'WIPC')
    if (m) {
      const pairs: Array<[keyof NonNullable<RunResults['wipc']>, number]> = [['writtenBytes', m.writeBytes], ['bwBytesPerSec', m.writeBwBytesPerSec], ['runtimeSec', m.runtimeSec]]
      for (const [k, v] of pairs) {
        if (!Object.is(r.wipc[k], v)) problems.push(`results.json /wipc/${k}: stored ${JSON.stringify(r.wipc[k])}, raw ${r.wipc.raw.json} gives ${v}`)
      }
      Object.assign(r.wipc, {writtenBytes: m.writeBytes, bwBytesPerSec: m.writeBwBytesPerSec, runtimeSec: m.runtimeSec})
    }
  }
  const n = r.parameters.rwMixReadPct.length * r.parameters.blockSizesBytes.length
  Object.assign(r, conclude(r, specFromResults(r), n, r.status === 'complete'))
  return {results: r, problems}
}

/** `key=value` lines of an fio job file, by section ("global" and the job's name). */
export function parseJobFile(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>()
  let cur: Map<string, string> | null = null
  for (const line of text.split('\n')) {
    const t = line.trim()
    if (t === '' || t.startsWith(';') || t.startsWith('#')) continue
    const s = /^\[(.+)\]$/.exec(t)
    if (s) { cur = new Map(); sections.set(s[1], cur); continue }
    const eq = t.indexOf('=')
    if (cur) cur.set(eq < 0 ? t : t.slice(0, eq), eq < 0 ? '' : t.slice(eq + 1))
  }
  return sections
}

/** A job's effective value: its own section, else [global]. */
export function jobValue(sections: Map<string, Map<string, string>>, key: string): string | undefined {
  for (const [name, kv] of sections) if (name !== 'global' && kv.has(key)) return kv.get(key)
  return sections.get('global')?.get(key)
}

export const disclosed = (m: RunManifest, re: RegExp) => !m.compliance.compliant && m.compliance.reasons.some(x => re.test(x))

export function runAudit(inp: AuditInput): AuditResult {
  const {manifest: m, results} = inp
  const checks: AuditCheck[] = []
  const points = results.rounds.flatMap(round => round.points.map(p => ({round: round.round, p})))

  checks.push(integrityCheck(m, inp.sealNow), signatureCheck(inp.signature))

  // 3. Measurements and 4. steady state, recomputed from raw/ alone.
  const re = recompute(inp)
  checks.push(check('measurements', 'Every point recomputed from its raw fio JSON', re.problems,
    `${points.length} test points${results.wipc ? ' and WIPC' : ''}: every stored IOPS, bandwidth, byte count and latency equals the value recomputed from raw/`))
  const ssProblems: string[] = []
  for (const key of ['tracking', 'evaluations', 'steadyState', 'windowAverages'] as const) {
    for (const d of jsonDiff(results[key], re.results[key], `/${key}`)) ssProblems.push(`results.json ${d.replace(/: /, ': stored ').replace(' ≠ ', ', recomputed ')}`)
  }
  const ss = re.results.steadyState
  checks.push(check('steady-state', 'Steady-state determination and window averages recomputed', ssProblems,
    `verdict "${ss.verdict}"${ss.fromRound ? ` (window rounds ${ss.fromRound}-${ss.toRound})` : ''}, ${re.results.evaluations.length} round evaluations and ${re.results.windowAverages.length} window averages equal the recomputation (digest B §3)`))

  // 5. Report model: rebuilt from the recomputed results, compared with the stored one.
  const rebuilt = inp.buildModel(re.results) as Record<string, unknown>
  const reportProblems: string[] = []
  if (inp.storedModel) {
    const stored = inp.storedModel.model as Record<string, unknown>
    const cmp = {...stored, generatedAt: rebuilt.generatedAt, generatedBy: rebuilt.generatedBy}
    for (const d of jsonDiff(cmp, rebuilt)) reportProblems.push(`${inp.storedModel.file} ${d}`)
  } else {
    const fromStored = inp.buildModel(results) as Record<string, unknown>
    for (const d of jsonDiff(fromStored, rebuilt)) reportProblems.push(`report model from results.json ${d}`)
  }
  checks.push(check('report', 'Report model equals the one rebuilt from raw data', reportProblems,
    inp.storedModel ? `${inp.storedModel.file} equals the model rebuilt from the raw data` : 'the report model built from results.json equals the one rebuilt from the raw data (no report-model.json stored; pts report --format json writes one)'))

  // 6. Purge: method and outcome (digest Part A 8).
  {
    const p = results.purge
    const problems: string[] = []
    let reason: string
    if (p.status === 'failed' && (results.wipc || points.length > 0)) problems.push(`results.json /purge: the purge failed (${p.detail}) yet the device was written afterwards`)
    if (m.target.kind === 'file') {
      if (p.status !== 'skipped' || p.method !== 'none') problems.push(`results.json /purge: a file target is never purged, but the purge says ${p.method} ${p.status}`)
      if (!disclosed(m, /regular file/)) problems.push('manifest.json /compliance: a file target must be marked non-compliant')
      reason = 'file target: nothing to purge; the run is marked non-compliant for it'
    } else {
      const log = inp.raw.get('raw/purge.json')
      if (p.status === 'done') {
        if (log === undefined || log === null) problems.push('raw/purge.json (the purge tool output) is missing')
        else {
          try {
            const j = JSON.parse(log) as {ok?: boolean; method?: string}
            if (j.ok !== true) problems.push('raw/purge.json: the purge tool run did not succeed, but results.json says done')
            if (j.method !== p.method) problems.push(`raw/purge.json: method ${j.method}, results.json /purge/method ${p.method}`)
          } catch { problems.push('raw/purge.json is not valid JSON') }
        }
      } else if (!disclosed(m, /purge/)) problems.push(`results.json /purge: status ${p.status} without a purge, and the run is not marked non-compliant for it`)
      if (p.deviation && !m.deviations.includes(p.deviation) && !disclosed(m, /purge/)) problems.push(`the purge deviation "${p.deviation}" is not disclosed in manifest.json /deviations`)
      reason = p.deviation ? `purge by ${p.method} (${p.status}), a disclosed deviation: ${p.deviation}` : `purge by ${p.method}: ${p.status}, tool output in raw/purge.json`
    }
    checks.push(check('purge', 'Purge method and outcome', problems, reason))
  }

  // 7. WIPC volume from fio's byte count against the required multiple of the ActiveRange (digest Part A 9).
  {
    const problems: string[] = []
    let reason = 'no WIPC yet'
    const w = re.results.wipc
    if (w) {
      if (w.writtenBytes < w.requiredBytes) {
        if (!disclosed(m, /WIPC/)) problems.push(`raw ${w.raw.json}: WIPC wrote ${w.writtenBytes} bytes, the spec requires ${w.requiredBytes} (${results.parameters.wipcMultiple}x was used) and the run is not marked non-compliant for it`)
        reason = `WIPC wrote ${w.writtenBytes} bytes of the ${w.requiredBytes} required; disclosed: the run is non-compliant for it`
      } else reason = `WIPC wrote ${w.writtenBytes} bytes (fio io_bytes), at least the required ${w.requiredBytes} (${(w.writtenBytes / results.parameters.preconditionActiveRangeBytes).toFixed(2)}x the ActiveRange)`
      if (w.writtenBytes !== w.plannedBytes) problems.push(`raw ${w.raw.json}: WIPC wrote ${w.writtenBytes} bytes, the plan was ${w.plannedBytes}`)
    } else if (points.length > 0) problems.push('results.json /wipc is null but test points were measured: WDPC without WIPC')
    checks.push(check('wipc', 'WIPC volume written', problems, reason))
  }

  // 8. Point durations (fio's own runtime) and the declared point length.
  {
    // fio's runtime of a time_based job includes draining the IOs in flight at the end (at QD 32 of
    // 1 MiB on a slow device, tens of ms): 2 % of the point or 0.25 s, whichever is larger.
    const want = results.parameters.pointSeconds
    const tol = Math.max(0.25, want * 0.02)
    const problems: string[] = []
    let worst = 0
    for (const {round, p} of re.results.rounds.flatMap(rd => rd.points.map(p => ({round: rd.round, p})))) {
      const d = Math.abs(p.runtimeSec - want)
      worst = Math.max(worst, d)
      if (d > tol) problems.push(`${p.raw.json} (${pointLabel(round, p)}): fio ran ${p.runtimeSec} s, the point length is ${want} s`)
    }
    if (want < 60 && !disclosed(m, /test points of/)) problems.push(`points of ${want} s (spec 60 s) and the run is not marked non-compliant for it`)
    checks.push(check('durations', 'Test point durations', problems,
      `${points.length} points ran ${want} s each (largest difference ${(worst * 1000).toFixed(0)} ms, tolerance ${(tol * 1000).toFixed(0)} ms)${want < 60 ? '; shorter than the spec\'s 60 s, disclosed as non-compliant' : ''}`))
  }

  // 9. Loop order (digest Part A 7): spec order within each round, rounds consecutive, time strictly forward.
  {
    const problems: string[] = []
    const order = results.parameters.rwMixReadPct.flatMap(rw => results.parameters.blockSizesBytes.map(bs => ({rw, bs})))
    results.rounds.forEach((round, ri) => {
      if (round.round !== ri + 1) problems.push(`results.json /rounds/${ri}: round ${round.round}, expected ${ri + 1}`)
      round.points.forEach((p, pi) => {
        const o = order[pi]
        if (p.index !== pi || !o || p.readPct !== o.rw || p.blockSizeBytes !== o.bs) {
          problems.push(`results.json /rounds/${ri}/points/${pi}: R/W ${p.readPct} ${p.blockSizeBytes} B (index ${p.index}), the loop order puts ${o ? `R/W ${o.rw} ${o.bs} B` : 'nothing'} here`)
        }
      })
    })
    const seq = points.map(x => x.p)
    for (let i = 1; i < seq.length; i++) {
      if (BigInt(seq[i].startNs) < BigInt(seq[i - 1].endNs)) problems.push(`${seq[i].raw.json} started before ${seq[i - 1].raw.json} ended (timestamps)`)
    }
    checks.push(check('loop-order', 'Loop order from the timestamps', problems,
      `${results.rounds.length} rounds of ${order.length} points in the spec's order (R/W mix outer, block size inner), each point after the previous one`))
  }

  // 10. Idle gaps between consecutive points (digest Part A 7), except across a recorded interruption.
  {
    const seq = points.map(x => x.p)
    const steps: Array<{from: string; to: string; endNs: bigint; startNs: bigint}> = []
    if (results.wipc && seq[0]) steps.push({from: results.wipc.raw.json, to: seq[0].raw.json, endNs: BigInt(Date.parse(results.wipc.finishedAt)) * 1_000_000n, startNs: BigInt(seq[0].startNs)})
    for (let i = 1; i < seq.length; i++) steps.push({from: seq[i - 1].raw.json, to: seq[i].raw.json, endNs: BigInt(seq[i - 1].endNs), startNs: BigInt(seq[i].startNs)})
    const g = idleGaps(steps, m.events, inp.maxGapMs)
    checks.push(check('idle-gaps', 'Idle gaps between test points', g.problems, gapReason(g, inp.maxGapMs)))
  }

  // 11. Device identity: every identity record of the run and every fio job names the same device.
  checks.push(identityCheck(m, [...(results.wipc ? [results.wipc.raw.job] : []), ...points.map(x => x.p.raw.job)], inp.raw))

  // 12. Job parameters: each job file runs the point it claims (TC = numjobs, QD = iodepth; digest Part A 6).
  {
    const problems: string[] = []
    const par = results.parameters
    for (const {round, p} of points) {
      const text = inp.raw.get(p.raw.job)
      if (text === undefined || text === null) continue // named by the identity check
      const j = parseJobFile(text)
      const want: Record<string, string> = {bs: String(p.blockSizeBytes), numjobs: String(par.threadCount), iodepth: String(par.queueDepth), ioengine: par.ioengine, direct: '1'}
      for (const [k, v] of Object.entries(want)) {
        const got = jobValue(j, k)
        if (got !== v) problems.push(`${p.raw.job} (${pointLabel(round, p)}): ${k}=${got ?? '(none)'}, expected ${v}`)
      }
      const rw = jobValue(j, 'rw')
      const mix = jobValue(j, 'rwmixread')
      const readPct = rw === 'randread' || rw === 'read' ? 100 : rw === 'randwrite' || rw === 'write' ? 0 : Number(mix)
      if (readPct !== p.readPct) problems.push(`${p.raw.job} (${pointLabel(round, p)}): rw=${rw} rwmixread=${mix ?? '(none)'} is R/W ${readPct}, the point is ${p.readPct}`)
    }
    checks.push(check('job-parameters', 'fio job parameters match each point', problems,
      `${points.length} job files: block size, R/W mix, numjobs = TC ${par.threadCount}, iodepth = QD ${par.queueDepth}, ${par.ioengine}, direct=1`))
  }

  return {schemaVersion: 1, runId: m.runId, test: m.test, revision: m.revision, ok: checks.every(c => c.status !== 'fail'), checks}
}
