/**
 * `pts audit`: the checks every run shares (pure), used by audit/program.ts. Every reported number is recomputed
 * from the raw fio outputs alone (digest Part A 11) and compared with results.json and the report
 * model; the seal (manifest integrity) names any changed, missing or added file; the compliance
 * rules that the data shows (purge, WIPC volume, point durations, loop order, idle gaps, device
 * identity) are checked, and a departure passes only when the run itself disclosed it (marked
 * non-compliant with that reason, or recorded as a deviation).
 *
 * The I/O (reading files, hashing, checking a signature) is done by the caller (load.ts); here
 * everything is data in, verdicts out.
 */
import {FioOutputError} from '../errors.js'
import {jobValue, parseFioJson, parseJobFile, type ParsedFio} from '../engine/parse.js'
import {type Measurement} from '../model/results.js'
import {fioEscapeFilename} from '../engine/jobfile.js'
import type {FileHash} from '../model/manifest.js'
import type {RunManifest} from '../model/manifest.js'
import {identityText} from '../runner/identity.js'
import {parseNvmeSmartLog, parseSmartctlHealth} from '../device/parse-health.js'
import type {ProgramResults} from '../model/results.js'

export type CheckStatus = 'pass' | 'fail' | 'skip'

/** The checks of pts audit (IOPS runs and test programs). */
export type CheckId = 'integrity' | 'signature' | 'measurements' | 'steady-state' | 'report' | 'purge' | 'wipc' | 'durations' | 'loop-order' | 'idle-gaps' | 'identity' | 'job-parameters' | 'continuity' | 'health' | 'per-second'

export interface AuditCheck {
  id: CheckId
  title: string
  status: CheckStatus
  /** One line: why it passed, failed or was skipped. */
  reason: string
  /** Each problem found, naming the file and the place (JSON pointer or raw path). */
  problems: string[]
}

/** manifest.sig as found: absent, unreadable, or present with the outcome of checking it (null: no --verify-key). */
export type SignatureState = {present: false; keyGiven: boolean} | {present: true; unreadable: string | null; keyGiven: boolean; fingerprint: string | null; check: {ok: boolean; reason: string} | null}

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

/** Each raw fio output of an audit parsed once (parseRaw), whatever check reads it. */
export type ParsedRaw = Map<string, ParsedFio | FioOutputError>

/** One raw fio output, parsed (once per `cache`); the error when it is not fio JSON; null when missing. */
export function parseRaw(raw: ReadonlyMap<string, string | null>, rel: string, cache: ParsedRaw): ParsedFio | FioOutputError | null {
  const hit = cache.get(rel)
  if (hit) return hit
  const text = raw.get(rel)
  if (text === undefined || text === null) return null
  let out: ParsedFio | FioOutputError
  try {
    out = parseFioJson(text)
  } catch (error) {
    if (!(error instanceof FioOutputError)) throw error
    out = error
  }
  cache.set(rel, out)
  return out
}

/** The measurement of one raw fio output, or null with the problem named (missing file, not fio JSON). */
export function measureRaw(raw: ReadonlyMap<string, string | null>, rel: string, where: string, problems: string[], cache: ParsedRaw = new Map()): Measurement | null {
  const p = parseRaw(raw, rel, cache)
  if (p === null) { problems.push(`${where}: raw file ${rel} is missing`); return null }
  if (p instanceof FioOutputError) { problems.push(`${where}: ${rel} is not valid fio output (${p.message})`); return null }
  return p.measurement
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

/** Compare a seal with the files now on disk (pure): every changed, missing or added file, by path. */
export function compareSeal(sealed: readonly FileHash[], now: readonly FileHash[]): {changed: string[]; missing: string[]; added: string[]} {
  const cur = new Map(now.map(f => [f.path, f]))
  const was = new Set(sealed.map(f => f.path))
  const changed: string[] = []
  const missing: string[] = []
  for (const f of sealed) {
    const c = cur.get(f.path)
    if (!c) missing.push(f.path)
    else if (c.sha256 !== f.sha256 || c.bytes !== f.bytes) changed.push(`${f.path} (sealed ${f.bytes} B sha256 ${f.sha256.slice(0, 12)}…, now ${c.bytes} B sha256 ${c.sha256.slice(0, 12)}…)`)
  }
  const added = now.filter(f => !was.has(f.path)).map(f => f.path)
  return {changed, missing, added}
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
export function signatureCheck(s: SignatureState): AuditCheck {
  if (!s.present) {
    return s.keyGiven
      ? {id: 'signature', title: 'Manifest signature', status: 'fail', problems: ['manifest.sig is missing'], reason: 'a --verify-key was given but the run has no manifest.sig (it was not signed, or the signature was removed)'}
      : {id: 'signature', title: 'Manifest signature', status: 'skip', problems: [], reason: 'the run is not signed (pts run --sign-key)'}
  }
  if (s.unreadable) return {id: 'signature', title: 'Manifest signature', status: 'fail', problems: [`manifest.sig: ${s.unreadable}`], reason: `manifest.sig cannot be read: ${s.unreadable}`}
  if (!s.check) return {id: 'signature', title: 'Manifest signature', status: 'skip', problems: [], reason: `signed with key ${s.fingerprint?.slice(0, 16)}…; pass --verify-key <public key> to check it`}
  return {id: 'signature', title: 'Manifest signature', status: s.check.ok ? 'pass' : 'fail', problems: s.check.ok ? [] : [s.check.reason], reason: s.check.reason}
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

export const disclosed = (m: RunManifest, re: RegExp) => !m.compliance.compliant && m.compliance.reasons.some(x => re.test(x))

/**
 * The drive health record (results.json `health`) against its raw logs under raw/health/: every
 * stored log exists (the seal covers its bytes) and parses to the facts results.json holds, so the
 * report's health page is what the drive said. Skipped when the run has no health log (not
 * available, with its reason) or predates it.
 */
export function healthCheck(r: ProgramResults, raw: ReadonlyMap<string, string | null>): AuditCheck {
  const title = 'Drive health logs match results.json'
  const h = r.health
  if (!h) return {id: 'health', title, status: 'skip', problems: [], reason: 'not recorded (the run was stored by an earlier version of pts)'}
  if (!h.available && !h.before) return {id: 'health', title, status: 'skip', problems: [], reason: `not available: ${h.reason ?? 'no reason recorded'}`}
  const parse = h.tool === 'nvme-cli' ? parseNvmeSmartLog : parseSmartctlHealth
  const problems: string[] = []
  const snaps = [['before', h.before], ['after', h.after]] as const
  for (const [when, s] of snaps) {
    if (!s) continue
    const text = raw.get(s.raw)
    if (text === undefined || text === null) { problems.push(`results.json /health/${when}: raw file ${s.raw} is missing`); continue }
    const p = parse(text)
    for (const d of jsonDiff(s.facts, p.ok ? p.facts : null, `/health/${when}/facts`)) problems.push(`results.json ${d} (recomputed from ${s.raw})`)
  }
  h.samples.forEach((s, i) => {
    const text = raw.get(s.raw)
    if (text === undefined || text === null) { problems.push(`results.json /health/samples/${i}: raw file ${s.raw} is missing`); return }
    const p = parse(text)
    const want = p.ok ? {temperatureC: p.facts.temperatureC, criticalWarning: p.facts.criticalWarning, thermalTransitions: p.facts.thermalTransitions, warningTempMinutes: p.facts.warningTempMinutes} : null
    const got = {temperatureC: s.temperatureC, criticalWarning: s.criticalWarning, thermalTransitions: s.thermalTransitions, warningTempMinutes: s.warningTempMinutes}
    for (const d of jsonDiff(got, want, `/health/samples/${i}`)) problems.push(`results.json ${d} (recomputed from ${s.raw})`)
  })
  return check('health', title, problems,
    `${h.tool} logs before${h.after ? ' and after' : ''} the test and ${h.samples.length} temperature samples: every stored value equals the one recomputed from raw/health/`)
}
