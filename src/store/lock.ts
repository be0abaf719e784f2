/**
 * Locks (I/O): a run holds its run directory (lock.json inside it) and its device (a lock file
 * under /run/lock/pts, or the temp folder). A lock whose process is gone is stale and can be
 * taken over; lock.json also records the fio and gate processes of the run, so `pts resume` can
 * end fio processes that outlived a killed pts before anything else touches the device.
 */
import {existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync, openSync, closeSync, unlinkSync, accessSync, constants} from 'node:fs'
import {hostname, tmpdir} from 'node:os'
import {join} from 'node:path'
import {EXIT, PtsError} from '../errors.js'
import * as M from '../messages.js'
import {writeJsonAtomic} from './atomic.js'
import {findProcesses, killFio} from '../proc.js'

export interface LockInfo {
  pid: number
  host: string
  runDir: string
  device: string
  startedAt: string
  gateDir: string | null
  fio: number[]
  holders: number[]
}

/** Is `pid` a live process whose command line contains `match`? */
export function processAlive(pid: number, match?: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  if (!match) return true
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(match)
  } catch { return false }
}

function lockDir(): string {
  for (const d of ['/run/lock/pts', join(tmpdir(), 'pts-locks')]) {
    try {
      mkdirSync(d, {recursive: true})
      accessSync(d, constants.W_OK)
      return d
    } catch { /* next */ }
  }
  return tmpdir()
}

export function deviceLockPath(deviceKey: string): string {
  return join(lockDir(), `${deviceKey.replace(/[^A-Za-z0-9._-]/g, '_')}.lock`)
}

export function readLock(path: string): LockInfo | null {
  try { return JSON.parse(readFileSync(path, 'utf8')) as LockInfo } catch { return null }
}

/**
 * Is the pts process of a run whose files say "running" still alive? The manifest's pid and the
 * run lock's pid, checked on this host; null when the run was made on another host (cannot tell).
 */
export function runProcessAlive(runDir: string, manifest: {pid: number; host: {hostname: string}}): boolean | null {
  if (manifest.host.hostname !== hostname()) return null
  const lock = readLock(join(runDir, 'lock.json'))
  const pids = [manifest.pid, ...(lock && lock.host === manifest.host.hostname ? [lock.pid] : [])]
  return pids.some(pid => processAlive(pid))
}

/** A lock file held by a live pts process on this host. */
export function liveHolder(path: string): LockInfo | null {
  const l = readLock(path)
  return l && l.host === hostname() && l.pid !== process.pid && processAlive(l.pid) ? l : null
}

function createExclusive(path: string, info: LockInfo): boolean {
  try {
    const fd = openSync(path, 'wx')
    writeFileSync(fd, JSON.stringify(info, null, 2))
    closeSync(fd)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

export class RunLock {
  private constructor(readonly runLockPath: string, readonly deviceLockPath: string, private info: LockInfo) {}

  static acquire(runDir: string, device: string, deviceKey: string): RunLock {
    const info: LockInfo = {pid: process.pid, host: hostname(), runDir, device, startedAt: new Date().toISOString(), gateDir: null, fio: [], holders: []}
    const devPath = deviceLockPath(deviceKey)
    for (let attempt = 0; attempt < 2; attempt++) {
      if (createExclusive(devPath, info)) break
      const holder = liveHolder(devPath)
      if (holder) {
        throw new PtsError(M.target.inUse(device, holder.pid, holder.runDir), EXIT.unsafeTarget)
      }
      try { unlinkSync(devPath) } catch { /* raced */ } // stale: its process is gone
      if (attempt === 1) throw new PtsError(M.target.cannotLock(devPath), EXIT.unsafeTarget)
    }
    const runPath = join(runDir, 'lock.json')
    const runHolder = existsSync(runPath) ? liveHolder(runPath) : null
    if (runHolder) {
      try { unlinkSync(devPath) } catch { /* ignore */ }
      throw new PtsError(M.runDir.inUse(runDir, runHolder.pid), EXIT.runDir)
    }
    writeJsonAtomic(runPath, info)
    return new RunLock(runPath, devPath, info)
  }

  /** Record the processes of the run (called when fio and gate processes start or end). */
  update(p: Partial<Pick<LockInfo, 'gateDir' | 'fio' | 'holders'>>): void {
    this.info = {...this.info, ...p}
    try { writeJsonAtomic(this.runLockPath, this.info) } catch { /* best effort: the run goes on */ }
  }

  release(): void {
    for (const p of [this.runLockPath, this.deviceLockPath]) {
      const l = readLock(p)
      if (l && l.pid === process.pid) rmSync(p, {force: true})
    }
  }
}

/**
 * After a crash: end the fio and gate processes that a dead pts left behind (by their recorded
 * pids, checked against their command lines), and remove its gate folder. Returns what it did.
 */
/** The pids (other than this process) with a file under `dir` open, from /proc/<pid>/fd. */
export function openingFilesIn(dir: string): number[] {
  const out: number[] = []
  let procs: string[] = []
  try { procs = readdirSync('/proc').filter(n => /^\d+$/.test(n)) } catch { return out }
  for (const n of procs) {
    const pid = Number(n)
    if (pid === process.pid) continue
    let fds: string[] = []
    try { fds = readdirSync(`/proc/${n}/fd`) } catch { continue }
    for (const fd of fds) {
      let to = ''
      try { to = readlinkSync(`/proc/${n}/fd/${fd}`) } catch { continue }
      if (to.startsWith(`${dir}/`)) { out.push(pid); break }
    }
  }
  return out
}

export async function endLeftovers(runDir: string): Promise<string[]> {
  const l = readLock(join(runDir, 'lock.json'))
  const done: string[] = []
  // The recorded pids, and any fio process (main or job process, possibly orphaned) writing into
  // this run's raw/ folder: every fio of the run has its output path there on its command line.
  const recorded = (l?.fio ?? []).filter(pid => processAlive(pid, 'fio'))
  const byPath = findProcesses(['fio', join(runDir, 'raw')]).map(p => p.pid)
  const pids = [...new Set([...recorded, ...byPath])]
  if (pids.length > 0) done.push(`ended fio processes ${pids.join(', ')} left running by pts pid ${l?.pid ?? '?'}`)
  for (const pid of recorded) { try { process.kill(pid, 'SIGKILL') } catch { /* gone */ } }
  // holders go last: a released gate would let a waiting fio job start writing
  await killFio(join(runDir, 'raw'))
  for (const pid of l?.holders ?? []) {
    if (processAlive(pid, 'sleep')) { try { process.kill(pid, 'SIGKILL') } catch { /* gone */ } }
  }
  // a gate holder that pts started just before it died can be missing from lock.json (killed
  // between the holder's start and the lock's update): end every process with a file of the gate folder open
  if (l?.gateDir && l.gateDir.includes('pts-gate-')) for (const pid of openingFilesIn(l.gateDir)) { try { process.kill(pid, 'SIGKILL') } catch { /* gone */ } }
  if (findProcesses(['fio', join(runDir, 'raw')]).length > 0) throw new PtsError(M.runDir.fioLeftOver(pids), EXIT.runDir)
  if (l?.gateDir && l.gateDir.includes('pts-gate-')) rmSync(l.gateDir, {recursive: true, force: true})
  return done
}
