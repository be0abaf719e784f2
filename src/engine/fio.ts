/**
 * The one module that spawns fio. Sequences test points with no idle gap between them:
 * point N+1's fio process is started while point N runs and waits, fully set up, in its
 * exec_prerun hook on a shared flock(1) gate; point N's exec_postrun releases it the moment its
 * I/O ends. The same hooks write wall-clock ns timestamps of each job's I/O start and end.
 * (Measured here: ~5 ms between points, against ~300 ms with fio's stonewall and ~370 ms with
 * one fio process started per point; see bench/.)
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, chmodSync} from 'node:fs'
import {getPriority, setPriority, tmpdir} from 'node:os'
import {join} from 'node:path'
import {FioFailedError, MissingToolError} from '../errors.js'
import * as M from '../messages.js'
import {killFio, killFioSync, whichPath} from '../proc.js'
import type {ExecHooks} from './jobfile.js'

export const GATE_SCRIPT = `#!/bin/sh
# pts fio gate. wait GATE TS: block until GATE is unlocked, then log the I/O start time.
# done TS PIDFILE N: log the I/O end time; when all N threads of the job are done, release the
# next point (kill its gate holder).
case "$1" in
wait) flock -s "$2" true; date +%s%N >> "$3" ;;
done) date +%s%N >> "$2"
  if [ -s "$3" ] && [ "$(wc -l < "$2")" -ge "$4" ]; then kill -9 "$(cat "$3")" 2>/dev/null; fi; true ;;
esac
`

/** Where a run stores how fio ran its jobs (the hooks the stored job files leave out). */
export const GATE_NOTE = 'raw/fio-gate.txt'

/**
 * raw/fio-gate.txt: the two hook lines pts adds to every job section when it starts fio, and the
 * gate script they call. The stored job files (raw/**.fio) are the workload without these lines;
 * each fio JSON output lists the exact hooks of its job under "job options".
 */
export function gateNote(): string {
  return [
    '# How pts ran the fio jobs of this run',
    '#',
    '# Each job file under raw/ (*.fio) is the workload exactly as fio ran it, without two lines',
    '# that pts added at the end of every job section (the job\'s [name] section) when it started fio:',
    '#',
    '#   exec_prerun=<gate>/gate.sh wait <gate>/gate-<N> <gate>/ts-<N>-start',
    '#   exec_postrun=<gate>/gate.sh done <gate>/ts-<N>-end <gate>/hold-<N+1>.pid|- <threads>',
    '#',
    '# <gate> is a temporary folder (pts-gate-*, removed when the run ends), <N> the job\'s place in',
    '# the run, <threads> its thread count (numjobs). The hooks do no I/O: the prerun hook waits',
    '# until the previous step has ended (so steps follow each other with no idle gap) and records',
    '# the wall-clock start of the job\'s I/O; the postrun hook records its end and releases the next',
    '# step. Those times are results.json startNs/endNs. The exact hook lines of each job are in its',
    '# JSON output (raw/**.json, "job options": exec_prerun, exec_postrun). fio ran each job with',
    '# --output-format=json (json+ for histogram steps) in the <gate> folder.',
    `# pts runs the steps, and starts fio, at nice ${FIO_NICE} (ahead of ordinary processes, so that a busy`,
    '# host delays the hand-over between steps less), or at its own nice value when pts itself was',
    '# started with a positive one (nice -n 19 pts ...). The nice value does not change the workload.',
    '#',
    '# To repeat a step: fio <job>.fio (it writes to the target named in filename=).',
    '# Job files written by pts versions before this file existed carry the two lines themselves;',
    '# delete them (or grep -v \'^exec_\') before running such a job with plain fio.',
    '#',
    '# gate.sh:',
    ...GATE_SCRIPT.trimEnd().split('\n').map(l => `#   ${l}`),
    '',
  ].join('\n')
}

/** The nice value fio starts at when pts runs at nice 0 (root; fio's own job option nice= is not used: the stored workload stays as written). */
export const FIO_NICE = -10

/**
 * The nice value to start fio at, given pts's own: FIO_NICE, or pts's own when that is already
 * lower; and pts's own when it is positive (the operator asked pts to yield to other work).
 */
export function fioNice(current: number): number {
  return current > 0 ? current : Math.min(current, FIO_NICE)
}

/**
 * Run `spawnNow` (a synchronous spawn) with this thread's nice value set to fioNice() of it, so
 * the child starts at that value from its first instruction (setting it after the spawn can come
 * after fio has forked its job processes, which keep the old value), then set it back. Without
 * the privilege to lower it (not root), the child inherits pts's value.
 */
export function spawnNiced<T>(spawnNow: () => T): T {
  const before = getPriority()
  const want = fioNice(before)
  let changed = false
  if (want !== before) {
    try { setPriority(want); changed = true } catch { /* no CAP_SYS_NICE: fio runs at pts's nice value */ }
  }
  try {
    return spawnNow()
  } finally {
    if (changed) try { setPriority(before) } catch { /* raising it back is always allowed */ }
  }
}

/** Set this thread's nice value to fioNice() of it for good (no privilege: left as it is). */
export function raiseToFioNice(): void {
  const now = getPriority()
  const want = fioNice(now)
  if (want !== now) try { setPriority(want) } catch { /* not root: unchanged */ }
}

/** The folder for gate folders: /dev/shm when it is a writable directory (the hooks' files never wait on a disk), else the temp dir. */
export function gateParent(): string {
  try {
    if (statSync('/dev/shm').isDirectory()) { accessSync('/dev/shm', constants.W_OK); return '/dev/shm' }
  } catch { /* no /dev/shm */ }
  return tmpdir()
}

export function findFio(): {path: string; version: string} {
  const path = process.env.PTS_FIO ?? whichPath('fio')
  if (!path || !existsSync(path)) throw new MissingToolError(M.tools.missing('fio', 'fio'))
  const r = spawnSync(path, ['--version'], {encoding: 'utf8'})
  if (r.status !== 0) throw new MissingToolError(M.tools.noAnswer('fio', path, 'fio'))
  return {path, version: r.stdout.trim()}
}

export interface FioExit {
  code: number | null
  signal: NodeJS.Signals | null
  stderr: string
}

export interface StartedJob {
  seq: number
  pid: number
  /** Where fio writes its JSON while running; renamed into place by finish(). */
  partialJsonPath: string
  jsonPath: string
  exited: Promise<FioExit>
  /** Let the job's I/O start (idempotent). */
  release(): void
  /** Kill the job and everything it started (idempotent). */
  cancel(): Promise<void>
  /** I/O start (earliest job) and end (latest job) in ns since the epoch, from the hook logs. */
  timestamps(): {startNs: bigint; endNs: bigint} | null
  /** Resolves once the job's I/O has started (its first thread passed the gate) or the job has exited. */
  ioStarted(): Promise<void>
  /** After a clean exit: move the JSON into place and return its text. */
  finish(): string
}

/** A fio engine on this host. A remote engine (fio --client) would implement the same surface. */
export class FioEngine {
  readonly gateDir: string
  private readonly live = new Set<StartedJob>()
  private readonly holders = new Set<ChildProcess>()

  /** Called with the live fio and gate-holder pids whenever they change (recorded in lock.json). */
  onProcesses: (p: {gateDir: string; fio: number[]; holders: number[]}) => void = () => {}

  private changed(): void {
    this.onProcesses({gateDir: this.gateDir, fio: [...this.live].map(j => j.pid), holders: [...this.holders].map(h => h.pid ?? -1)})
  }

  constructor(readonly fioPath: string) {
    // The process that starts each step ahead and hands over between steps runs at fio's nice
    // value too (on a busy host a late runner is a late next step); never raised above a
    // positive value the operator gave pts.
    raiseToFioNice()
    this.gateDir = mkdtempSync(join(gateParent(), 'pts-gate-'))
    const script = join(this.gateDir, 'gate.sh')
    writeFileSync(script, GATE_SCRIPT)
    chmodSync(script, 0o755)
  }

  private p(name: string): string {
    return join(this.gateDir, name)
  }

  /** A file a job wrote with a relative name (fio's working directory is the gate folder). */
  jobFile(name: string): string {
    return this.p(name)
  }

  /** The logs a job wrote under `prefix` (fio's <prefix>_iops.1.log, ...), read and removed from the working folder, by name. */
  takeLogs(prefix: string): Array<{name: string; text: string}> {
    const names = readdirSync(this.gateDir).filter(n => n.startsWith(`${prefix}_`) && n.endsWith('.log')).sort()
    return names.map(name => {
      const text = readFileSync(this.p(name), 'utf8')
      rmSync(this.p(name), {force: true})
      return {name, text}
    })
  }

  /** Hooks for job `seq`; `releaseNext` makes its end release job seq+1 directly. */
  hooks(seq: number, releaseNext: boolean, threads: number): ExecHooks {
    return {
      prerun: `${this.p('gate.sh')} wait ${this.p(`gate-${seq}`)} ${this.p(`ts-${seq}-start`)}`,
      postrun: `${this.p('gate.sh')} done ${this.p(`ts-${seq}-end`)} ${releaseNext ? this.p(`hold-${seq + 1}.pid`) : '-'} ${threads}`,
    }
  }

  /** Lock the gate of job `seq` (held by a sleeping process until released). */
  private async hold(seq: number): Promise<ChildProcess> {
    const gate = this.p(`gate-${seq}`)
    const holder = spawn('sh', ['-c', 'exec 9>"$1"; flock -x 9; echo locked; exec sleep 2147483647', 'sh', gate], {stdio: ['ignore', 'pipe', 'ignore']})
    this.holders.add(holder)
    holder.on('exit', () => this.holders.delete(holder))
    this.changed()
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.once('data', () => resolve())
      holder.once('error', reject)
      holder.once('exit', code => reject(new FioFailedError(M.fio.gateHolderExited(seq, code))))
    })
    const pidFile = this.p(`hold-${seq}.pid`)
    writeFileSync(`${pidFile}.tmp`, String(holder.pid))
    renameSync(`${pidFile}.tmp`, pidFile)
    return holder
  }

  /**
   * Start fio on `jobText` (the workload with this.hooks(seq, ...) in it). The text fio runs is
   * written into the gate folder (job-<seq>.fio), never into the run directory: the run stores the
   * workload without the hooks, so that plain fio can re-run it (digest Part A 11). With
   * gated=true the job sets up and then waits until release() or the previous job's postrun. fio
   * runs in the gate folder: a file the job writes with a relative name (an IOPS log) lands
   * there (jobFile(name) is its path).
   */
  async start(seq: number, jobText: string, jsonPath: string, gated: boolean, format: 'json' | 'json+' = 'json'): Promise<StartedJob> {
    const jobPath = this.p(`job-${seq}.fio`)
    writeFileSync(jobPath, jobText)
    const holder = gated ? await this.hold(seq) : null
    const partialJsonPath = `${jsonPath}.partial`
    rmSync(partialJsonPath, {force: true})
    // json+ adds the completion-latency histogram bins (response-time histograms, digest B §5.7-5.8)
    const child = spawnNiced(() => spawn(this.fioPath, [`--output-format=${format}`, `--output=${partialJsonPath}`, jobPath], {
      cwd: this.gateDir, // exec_prerun/postrun output files land here
      detached: true, // own process group: cancel() reaches fio's job processes and hooks
      stdio: ['ignore', 'pipe', 'pipe'],
    }))
    let stderr = ''
    child.stderr!.on('data', d => { stderr = (stderr + d).slice(-20_000) })
    child.stdout!.on('data', d => { stderr = (stderr + d).slice(-20_000) })
    const exited = new Promise<FioExit>(resolve => {
      child.once('error', error => resolve({code: null, signal: null, stderr: `cannot start fio: ${error.message}`}))
      child.once('exit', (code, signal) => {
        // Whatever happened, the next job must not wait for a hook that will never run.
        resolve({code, signal, stderr})
      })
    })
    const tsRead = (name: string) => {
      try {
        return readFileSync(this.p(name), 'utf8').split('\n').filter(Boolean).map(l => BigInt(l.trim()))
      } catch { return [] }
    }
    const release = () => {
      if (holder && holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL')
    }
    const job: StartedJob = {
      seq,
      pid: child.pid ?? -1,
      partialJsonPath,
      jsonPath,
      exited,
      release,
      cancel: async () => {
        // fio's job processes are session leaders of their own (fio calls setsid), so killing
        // the main process's group is not enough: kill every process of this job, and only then
        // open its gate, so that a cancelled job never starts I/O.
        await killFio(partialJsonPath)
        release()
        await exited
        rmSync(partialJsonPath, {force: true})
      },
      ioStarted: async () => {
        let done = false
        void exited.then(() => { done = true })
        while (!done && tsRead(`ts-${seq}-start`).length === 0) await new Promise(r => setTimeout(r, 5))
      },
      timestamps: () => {
        const s = tsRead(`ts-${seq}-start`)
        const e = tsRead(`ts-${seq}-end`)
        if (s.length === 0 || e.length === 0) return null
        return {startNs: s.reduce((a, b) => (b < a ? b : a)), endNs: e.reduce((a, b) => (b > a ? b : a))}
      },
      finish: () => {
        const text = readFileSync(partialJsonPath, 'utf8')
        renameSync(partialJsonPath, jsonPath)
        return text
      },
    }
    this.live.add(job)
    this.changed()
    void exited.then(() => { this.live.delete(job); this.changed() })
    return job
  }

  /** Stop everything this engine started and remove its gate directory. */
  async close(): Promise<void> {
    await Promise.all([...this.live].map(j => j.cancel()))
    for (const h of this.holders) h.kill('SIGKILL')
    // PTS_KEEP_GATE=1 keeps the hook logs (start/end timestamps) for debugging.
    if (!process.env.PTS_KEEP_GATE) rmSync(this.gateDir, {recursive: true, force: true})
  }

  /** Synchronous last-resort cleanup (process exit). */
  killAllSync(): void {
    for (const j of this.live) killFioSync(j.partialJsonPath)
    for (const h of this.holders) h.kill('SIGKILL')
    rmSync(this.gateDir, {recursive: true, force: true})
  }
}
