/** Flags shared by `pts run` and `pts plan`, and their translation into run options (validated). */
import {Args, Flags} from '@oclif/core'
import {UsageError} from '../errors.js'
import * as M from '../messages.js'
import {PROFILES, REVIEW_TEST_IDS, REVISIONS, TEST_IDS, type ProfileParams, type ProfileId, type Revision} from '../model/tests.js'
import type {RunMetadata} from '../model/manifest.js'
import {parseSizeBytes} from '../units.js'

export const testArg = {
  test: Args.string({description: `test to run (${TEST_IDS.join(', ')}; ${REVIEW_TEST_IDS.join(', ')} are review tests, not part of the SNIA PTS, read from specs/reviews/ whatever --revision says), or all (the PTS suite)`, required: true}),
}

/** `pts run all` / `pts plan all`: which tests of the revision. */
export const suiteFlags = {
  tests: Flags.string({description: 'with "all": a comma-separated subset of the revision\'s tests, run in the spec\'s order (e.g. tp,lat,wsat)'}),
}

/** `pts run` and `pts resume`: sign manifest.json when the run ends. */
export const signKeyFlag = {
  'sign-key': Flags.string({description: 'PEM private key (ed25519, EC or RSA): sign manifest.json, which lists the SHA-256 of every raw file and results.json, into manifest.sig when the run ends; check with pts audit --verify-key'}),
}

/** `pts run` (and `run all`, `demo`): what the report says about who tested what (stored in manifest.json). */
export const metadataFlags = {
  operator: Flags.string({description: 'who ran the test (a person, team or lab), for the report\'s "Tested By" (default: pts and the host name)'}),
  vendor: Flags.string({description: 'vendor of the device under test, for the report\'s "Vendor" (default: what the device reports; NVMe drives often report none)'}),
  notes: Flags.string({description: 'a short note for the report\'s Test Platform block (at most 300 characters), e.g. "FW 1.2 RC2, slot 3, 35 C ambient"'}),
}

const METADATA_LIMITS = {operator: 100, vendor: 100, notes: 300} as const

/** --operator/--vendor/--notes -> the manifest's metadata (undefined when none is given), validated. */
export function runMetadata(f: {operator?: string; vendor?: string; notes?: string}): RunMetadata | undefined {
  const out: RunMetadata = {}
  for (const k of ['operator', 'vendor', 'notes'] as const) {
    const v = f[k]
    if (v === undefined) continue
    const t = v.trim().replace(/\s+/g, ' ')
    if (t === '') throw new UsageError(M.usage.metadataEmpty(k, k === 'notes' ? 'FW 1.2 RC2' : 'ACME Labs'))
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(v.replace(/[\t\n\r]/g, ' '))) throw new UsageError(M.usage.metadataControlCharacters(k))
    if (t.length > METADATA_LIMITS[k]) throw new UsageError(M.usage.metadataTooLong(k, t.length, METADATA_LIMITS[k]))
    out[k] = t
  }
  return Object.keys(out).length > 0 ? out : undefined
}

export const runFlags = {
  device: Flags.string({char: 'd', description: 'target: a block device path (/dev/nvme1n1) or file:<path> (always non-compliant)', required: true}),
  size: Flags.string({description: 'size of a file: target, e.g. 8GiB or 512MiB (a multiple of 512 B); the file is created sparse'}),
  profile: Flags.string({description: 'PTS profile (default: enterprise, or the revision\'s only profile)', options: [...PROFILES]}),
  revision: Flags.string({description: 'PTS revision', options: [...REVISIONS], default: '2.0.2'}),
  tc: Flags.string({description: 'thread count, fio numjobs (default from the profile: enterprise 4, client 2)'}),
  qd: Flags.string({description: 'queue depth per thread, fio iodepth (default from the profile: enterprise 32, client 16)'}),
  'point-seconds': Flags.string({description: 'seconds per test point (spec: 60; sub-second values such as 0.5 allowed, non-compliant below 60)', default: '60'}),
  'max-rounds': Flags.string({description: 'round limit (spec: 25)', default: '25'}),
  'on-no-steady-state': Flags.string({description: 'at the round limit without steady state: stop (window = last 5 rounds, NOT ACHIEVED) or continue until steady state or --round-cap (every test with a steady-state loop)', options: ['stop', 'continue'], default: 'stop'}),
  'round-cap': Flags.string({description: 'with --on-no-steady-state continue: the most rounds a loop may run (default 100)'}),
  'wipc-multiple': Flags.string({description: 'WIPC volume as a multiple of the user capacity, written inside the PC ActiveRange (spec: 2; default: the test definition\'s, times --time-scale); every test with a WIPC phase'}),
  ioengine: Flags.string({description: 'fio ioengine (recorded)', default: 'libaio'}),
  seed: Flags.string({description: 'run seed for fio randseed (default: random, recorded)'}),
  out: Flags.string({char: 'o', description: 'run directory (default: reports/<timestamp>-<test>-<device>)'}),
  'yes-destroy-data': Flags.string({description: 'confirm destroying all data on the target: its serial number or path'}),
  purge: Flags.string({description: 'purge method: auto (the first PTS purge the device supports), nvme-sanitize-block, nvme-sanitize-crypto, nvme-format-ses1, nvme-format-ses2, ata-secure-erase(-enhanced), ata-sanitize(-crypto), scsi-sanitize, scsi-format; or the recorded-deviation fallbacks discard, zero, none', default: 'auto'}),
  'allow-partition': Flags.boolean({description: 'allow a partition as target (never mounted/swap/root; the run is then non-compliant)', default: false}),
  'time-scale': Flags.string({description: 'scale every fixed-duration phase (WSAT/HIR/XSR phases, pre-writes, histogram runs) and capacity multiple (WIPC, WSAT 4x) by 0 < f <= 1, and HIR\'s 360 bursts per wait state (at least 3), for quick looks and tests; the run is then non-compliant', default: '1'}),
  workload: Flags.string({description: 'WSAT: the workload (rnd4k-w required; PTS 2.0 optional oltp, vod, meta, cbw); DIRTH: the access pattern (default oltp = RND 8KiB 65/35); see pts plan'}),
  'ceiling-ms': Flags.string({description: 'CBW/DIRTH: response-time ceiling for the MaxIOPS operating point, ms (operator choice; default 5)'}),
  'max-seconds': Flags.string({description: 'WSAT (and every series phase): operator limit in seconds (recorded as what ended the phase)'}),
  'max-written': Flags.string({description: 'WSAT (and every series phase): operator limit of bytes written, e.g. 2TB or 512GiB'}),
  'steady-state-exit': Flags.boolean({description: 'WSAT: stop early at steady state (optional in the spec)', default: false}),
  'health-interval': Flags.string({description: 'seconds between samples of the drive\'s temperature and health log during the run (default 60); the log itself is stored before and after the test'}),
  'per-second': Flags.boolean({description: 'per-second traces: fio logs IOPS, bandwidth and latency (mean, and maximum from its latency histogram) every second of every step but WIPC; stored under raw/, checked by pts audit, charted per point in the report (the review tests always have them, without this flag)', default: false}),
}


export interface FlagValues {
  device: string
  size?: string
  profile?: string
  revision: string
  tc?: string
  qd?: string
  'point-seconds': string
  'max-rounds': string
  'on-no-steady-state': string
  'round-cap'?: string
  'wipc-multiple'?: string
  ioengine: string
  seed?: string
  out?: string
  'yes-destroy-data'?: string
  purge?: string
  'allow-partition'?: boolean
}

/** Every flag of `pts run` / `pts plan` (FlagValues plus the phase-specific ones). */
export interface RunFlagValues extends FlagValues {
  'time-scale'?: string
  workload?: string
  'ceiling-ms'?: string
  'max-seconds'?: string
  'max-written'?: string
  'steady-state-exit'?: boolean
  'health-interval'?: string
  'per-second'?: boolean
  operator?: string
  vendor?: string
  notes?: string
}

export function parseSizeFlag(size: string | undefined): number | null {
  if (size === undefined) return null
  const bytes = parseSizeBytes(size)
  if (bytes === null || bytes <= 0) throw new UsageError(M.usage.notASize(size))
  if (bytes % 512 !== 0) throw new UsageError(M.usage.sizeNotSectorMultiple(size, bytes))
  return bytes
}

/** What every test's options share: profile, TC/QD, point length, round limit, ioengine and seed, validated. */
export function commonOptions(f: FlagValues, spec: {id: string; revision: string; profiles: Partial<Record<ProfileId, ProfileParams>>; defaultProfile: ProfileId}, randomSeed: number) {
  const available = Object.keys(spec.profiles) as ProfileId[]
  const profile = (f.profile ?? (available.length === 1 ? available[0] : spec.defaultProfile)) as ProfileId
  const p = spec.profiles[profile]
  if (!p) throw new UsageError(M.usage.profileNotDefined(profile, spec.id, spec.revision, available))
  const ioengine = f.ioengine.trim()
  if (!/^[a-z0-9_:.-]+$/i.test(ioengine)) throw new UsageError(M.usage.notAnIoengine(f.ioengine))
  return {
    revision: spec.revision as Revision,
    profile,
    threadCount: num('tc', f.tc, {integer: true, min: 1}) ?? p.threadCount,
    queueDepth: num('qd', f.qd, {integer: true, min: 1}) ?? p.queueDepth,
    pointSeconds: num('point-seconds', f['point-seconds'], {minExclusive: 0})!,
    maxRounds: num('max-rounds', f['max-rounds'], {integer: true, min: 1})!,
    ioengine,
    seed: num('seed', f.seed, {integer: true, min: 0}) ?? randomSeed,
  }
}

export function num(flag: string, text: string | undefined, opts: {integer?: boolean; min?: number; minExclusive?: number}): number | undefined {
  if (text === undefined) return undefined
  const v = Number(text)
  if (text.trim() === '' || !Number.isFinite(v) || (opts.integer && !Number.isInteger(v))) throw new UsageError(M.usage.notANumber(flag, text, opts.integer === true))
  if (opts.min !== undefined && v < opts.min) throw new UsageError(M.usage.atLeast(flag, text, opts.min))
  if (opts.minExclusive !== undefined && v <= opts.minExclusive) throw new UsageError(M.usage.greaterThan(flag, text, opts.minExclusive))
  return v
}

/** --time-scale: 0 < f <= 1 (issue 5). */
export function timeScaleOf(text: string | undefined): number {
  const f = num('time-scale', text ?? '1', {minExclusive: 0})!
  if (f > 1) throw new UsageError(M.usage.timeScaleRange(text))
  return f
}

/** reports/<timestamp>-<test>-<device> with a file-system-safe device part. */
export function defaultRunDir(now: Date, test: string, device: string): string {
  const stamp = now.toISOString().replace(/[:]/g, '').replace(/\..*$/, 'Z')
  const dev = device.startsWith('file:') ? `file-${device.split('/').pop()}` : device.replace(/^\/dev\//, '').replace(/\//g, '_')
  return `reports/${stamp}-${test}-${dev.replace(/[^A-Za-z0-9._-]/g, '_')}`
}
