/**
 * What every run does around its fio jobs, shared by the IOPS runner (run-test.ts) and the
 * test-program runner (program/run.ts): the device write cache set per profile and restored at the
 * end (digest B §2.6, Part A 6), and the seal of the run directory (SHA-256 list in the manifest,
 * optional signature) whatever the outcome.
 */
import type {KeyObject} from 'node:crypto'
import {EXIT} from '../errors.js'
import type {FioEngine, StartedJob} from '../engine/fio.js'
import type {ResolvedTarget} from '../device/target.js'
import {getWriteCache, setWriteCache, type CacheInterface, type CacheTarget, type WriteCacheState} from '../device/write-cache.js'
import type {WriteCacheRecord} from '../model/results.js'
import {computeSeal, writeSignature} from '../store/integrity.js'
import {existsSync, mkdirSync, readdirSync, renameSync, rmSync} from 'node:fs'
import {dirname} from 'node:path'
import {RunLock} from '../store/lock.js'
import {RunStore} from '../store/run-store.js'
import type {RunManifest} from '../model/manifest.js'

type Event = (name: string, detail: string) => void

/** What applyWriteCache returns: the restore function and the per-phase re-application. */
export interface WriteCacheControl {
  /** Put the cache back as it was before the run (a no-op when nothing was changed). */
  restore: () => void
  /** Set the cache again and read it back (after a purge phase); the record is stored with that phase. */
  reapply: (phaseId: string) => WriteCacheRecord
}

/** The facts write-cache control needs about a target: interface, kind, and whether the device has a volatile write cache at all (NVMe VWC bit; null: unknown). */
export function cacheTargetOf(target: Pick<ResolvedTarget, 'path' | 'kind' | 'identity' | 'device'>): CacheTarget {
  return {path: target.path, interface: target.identity.interface, kind: target.kind, volatileWriteCache: target.device?.nvme?.volatileWriteCache ?? null}
}

const NO_CACHE = 'the device has no volatile write cache (NVMe VWC bit 0 clear)'

/**
 * Set the device's volatile write cache as the profile requires and read it back. Returns the
 * restore function and `reapply`, which sets and reads the cache again after each purge phase
 * (a purge or a reset can change it) and returns the record stored with that phase.
 *
 * A device without a volatile write cache meets "write cache disabled" (enterprise): compliant,
 * with a note in the device's write-cache field and the events; for "enabled" (client) it is a
 * deviation. Where the cache cannot be set (a loop device, a file, a failed command), that is a
 * recorded deviation, and for a block device a compliance reason.
 */
export function applyWriteCache(target: Pick<ResolvedTarget, 'path' | 'kind' | 'identity' | 'device'>, required: 'enabled' | 'disabled', manifest: RunManifest, event: Event,
  io: {get: typeof getWriteCache; set: typeof setWriteCache} = {get: getWriteCache, set: setWriteCache}, save: () => void = () => {}): WriteCacheControl {
  const want = required === 'enabled'
  const cacheTarget = cacheTargetOf(target)
  const deviate = (why: string) => {
    const dev = `write cache not set to ${required} as the profile requires: ${why}`
    if (!manifest.deviations.includes(dev)) manifest.deviations.push(dev)
    const reason = `write cache not set to ${required}`
    if (target.kind === 'block' && !manifest.compliance.reasons.includes(reason)) { manifest.compliance.reasons.push(reason); manifest.compliance.compliant = false }
    return dev
  }
  const apply = (when: string): WriteCacheRecord => {
    const at = new Date().toISOString()
    if (cacheTarget.volatileWriteCache === false) {
      if (!want) {
        manifest.target.identity.writeCache = 'not present (no volatile write cache; meets "disabled")'
        event('write-cache', `${when}: ${NO_CACHE}: the profile's "write cache disabled" is met, nothing to set`)
        return {required, readBack: 'not present', meets: true, via: null, detail: `${NO_CACHE}: meets "disabled"`, at}
      }
      const dev = deviate(NO_CACHE)
      event('write-cache', `${when}: ${dev}`)
      return {required, readBack: 'not present', meets: false, via: null, detail: dev, at}
    }
    const set = io.set(cacheTarget, want)
    if (set.supported) {
      manifest.target.identity.writeCache = set.enabled ? 'enabled' : 'disabled'
      event('write-cache', `${when}: set to ${required}, read back ${set.enabled ? 'enabled' : 'disabled'} via ${set.via}`)
      return {required, readBack: set.enabled ? 'enabled' : 'disabled', meets: set.enabled === want, via: set.via, detail: `${set.argv.join(' ')}: ${set.output.trim().split('\n').at(-1) ?? ''}`, at}
    }
    const dev = deviate(set.reason)
    event('write-cache', `${when}: ${dev}`)
    return {required, readBack: 'not settable', meets: false, via: null, detail: dev, at}
  }
  // The state before pts changed it: read once and saved in the manifest before anything is set,
  // so a resume after pts was killed (SIGKILL: nothing could restore it) restores that state.
  const recorded = manifest.target.writeCacheBefore
  const before: WriteCacheState = recorded
    ? {supported: true, enabled: recorded.enabled, via: recorded.via as CacheInterface, argv: [], output: ''}
    : cacheTarget.volatileWriteCache === false ? {supported: false, reason: NO_CACHE} : io.get(cacheTarget)
  if (!recorded && before.supported) {
    manifest.target.writeCacheBefore = {enabled: before.enabled, via: before.via, at: new Date().toISOString()}
    save()
  }
  apply(`before the run (was ${before.supported ? (before.enabled ? 'enabled' : 'disabled') : 'unknown'}${recorded ? ', as recorded before pts first changed it' : ''})`)
  let restore: (WriteCacheState & {supported: true}) | null = before.supported && before.enabled !== want ? before : null
  return {
    reapply: (phaseId: string) => apply(`after ${phaseId}`),
    restore: () => {
      if (!restore) return
      const r = io.set(cacheTarget, restore.enabled)
      try { event('write-cache', r.supported ? `restored to ${restore.enabled ? 'enabled' : 'disabled'}` : `could not be restored: ${r.reason}`) } catch { /* disk full: keep going */ }
      restore = null
    },
  }
}

/**
 * The seal (issue 6): SHA-256 of results.json and every raw file, in the manifest, then the
 * optional signature of manifest.json. A failure here (e.g. a full disk) leaves the run unsealed,
 * which `pts audit` reports; it never hides the run's own error.
 */
export function sealRun(store: RunStore, manifest: RunManifest, runDir: string, signKey: KeyObject | undefined, note: (msg: string) => void): void {
  try {
    manifest.integrity = computeSeal(runDir)
    store.saveManifest(manifest)
    if (signKey) writeSignature(runDir, signKey)
  } catch (error) {
    note(`the run could not be sealed (${(error as Error).message}); pts audit will report it unsealed`)
  }
}

/**
 * Clean stop (issue 4 item 6): the first SIGINT/SIGTERM cancels the live fio jobs, so the runner
 * ends the step it is in, keeps everything complete and throws InterruptedError; a second signal
 * kills fio, restores the write cache and exits at once. `stopped()` is the signal received.
 */
export function stopOnSignals(engine: FioEngine, live: ReadonlySet<StartedJob>, restoreCache: () => void, note: (msg: string) => void, kept: string): {stopped: () => string | null; remove: () => void} {
  let signal: string | null = null
  const onSignal = (sig: NodeJS.Signals) => {
    if (signal) { engine.killAllSync(); restoreCache(); process.exit(EXIT.interrupted) }
    signal = sig
    note(`\n${sig}: stopping fio; completed ${kept} are kept (a second ${sig} stops at once)`)
    for (const j of live) void j.cancel()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return {stopped: () => signal, remove: () => { process.off('SIGINT', onSignal); process.off('SIGTERM', onSignal) }}
}

/** The run directory (new, or the stored one on resume) and its run + device lock; a new directory is removed again when the lock is refused. */
export function openRun(runDir: string, target: ResolvedTarget, resume: boolean): {store: RunStore; lock: RunLock} {
  const store = resume ? new RunStore(runDir) : RunStore.create(runDir)
  try {
    return {store, lock: RunLock.acquire(runDir, target.path, `${target.kind}-${target.path}`)}
  } catch (error) {
    if (!resume) rmSync(runDir, {recursive: true, force: true}) // just created, still empty
    throw error
  }
}

/**
 * Resume housekeeping shared by both runners: unfinished fio outputs (*.partial) and temp files of
 * the killed run are removed (never measurements); setAside(rel) moves a cut step's files under
 * raw/cut-<time>/ (kept for the audit trail).
 */
export function resumeHousekeeping(store: RunStore, now: Date): {cutDir: string; setAside: (rel: string) => void} {
  const drop = (dir: string) => {
    if (!existsSync(store.path(dir))) return
    for (const f of readdirSync(store.path(dir), {withFileTypes: true})) {
      if (f.isDirectory()) drop(`${dir}/${f.name}`)
      else if (f.name.endsWith('.partial') || f.name.endsWith('.tmp')) rmSync(store.path(`${dir}/${f.name}`), {force: true})
    }
  }
  drop('raw')
  for (const f of readdirSync(store.dir)) if (f.endsWith('.tmp')) rmSync(store.path(f), {force: true})
  const cutDir = `raw/cut-${now.toISOString().replace(/[:.]/g, '')}`
  const setAside = (rel: string) => {
    if (!existsSync(store.path(rel))) return
    const to = `${cutDir}/${rel.replace(/^raw\//, '')}`
    mkdirSync(store.path(dirname(to)), {recursive: true})
    renameSync(store.path(rel), store.path(to))
  }
  return {cutDir, setAside}
}

/** The interruption as a recorded deviation and compliance reason (digest Part A 7: idle time changes what the drive does). */
export function recordInterruption(manifest: RunManifest, interruption: {lastActivityAt: string; status: string}, now: Date, where: string, reason: string): void {
  const idleSec = Math.max(0, (now.getTime() - Date.parse(interruption.lastActivityAt)) / 1000)
  manifest.deviations.push(`run ${interruption.status === 'running' ? 'crashed or was killed' : interruption.status} after ${interruption.lastActivityAt}; resumed ${now.toISOString()} after ${Math.round(idleSec)} s idle; ${where}`)
  if (!manifest.compliance.reasons.includes(reason)) manifest.compliance.reasons.push(reason)
  manifest.compliance.compliant = false
}
