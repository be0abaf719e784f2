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
import {getWriteCache, setWriteCache, type WriteCacheState} from '../device/write-cache.js'
import {computeSeal, writeSignature} from '../store/integrity.js'
import {existsSync, mkdirSync, readdirSync, renameSync, rmSync} from 'node:fs'
import {dirname} from 'node:path'
import {RunLock} from '../store/lock.js'
import {RunStore} from '../store/run-store.js'
import type {RunManifest} from '../model/manifest.js'

type Event = (name: string, detail: string) => void

/**
 * Set the device's volatile write cache as the profile requires. Returns the restore function
 * (a no-op when nothing was changed). Where it cannot be set (a loop device, a file), that is a
 * recorded deviation, and for a block device a compliance reason.
 */
export function applyWriteCache(target: ResolvedTarget, required: 'enabled' | 'disabled', manifest: RunManifest, event: Event): () => void {
  const want = required === 'enabled'
  const cacheTarget = {path: target.path, interface: target.identity.interface, kind: target.kind}
  const before = getWriteCache(cacheTarget)
  const set = setWriteCache(cacheTarget, want)
  let restore: (WriteCacheState & {supported: true}) | null = null
  if (set.supported) {
    if (before.supported && before.enabled !== want) restore = before
    manifest.target.identity.writeCache = required
    event('write-cache', `set to ${required} (was ${before.supported ? (before.enabled ? 'enabled' : 'disabled') : 'unknown'}) via ${set.via}`)
  } else {
    const dev = `write cache not set to ${required} as the profile requires: ${set.reason}`
    if (!manifest.deviations.includes(dev)) manifest.deviations.push(dev)
    const reason = `write cache not set to ${required}`
    if (target.kind === 'block' && !manifest.compliance.reasons.includes(reason)) { manifest.compliance.reasons.push(reason); manifest.compliance.compliant = false }
    event('write-cache', dev)
  }
  return () => {
    if (!restore) return
    const r = setWriteCache(cacheTarget, restore.enabled)
    try { event('write-cache', r.supported ? `restored to ${restore.enabled ? 'enabled' : 'disabled'}` : `could not be restored: ${r.reason}`) } catch { /* disk full: keep going */ }
    restore = null
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
