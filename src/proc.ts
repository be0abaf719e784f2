/** Finding and ending processes by their command line (I/O, /proc). */
import {spawn, spawnSync, type ChildProcessWithoutNullStreams} from 'node:child_process'
import {accessSync, constants, readdirSync, readFileSync} from 'node:fs'
import {delimiter, join} from 'node:path'

/** The path of an executable on PATH (plus /usr/sbin and /sbin, where device tools live), or null. */
export function whichPath(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter).concat(['/usr/sbin', '/sbin'])) {
    if (!dir) continue
    const p = join(dir, cmd)
    try {
      accessSync(p, constants.X_OK)
      return p
    } catch { /* next */ }
  }
  return null
}

/** One tool run to completion (device tools; never fio): exit code (null when it could not run or timed out) and output. */
export interface ToolOutput { argv: string[]; code: number | null; stdout: string; stderr: string; ms: number }

export function runTool(argv: string[], timeoutMs: number): ToolOutput {
  const t0 = Date.now()
  const r = spawnSync(argv[0], argv.slice(1), {encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: {...process.env, LC_ALL: 'C'}})
  return {argv, code: r.error ? null : r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '') + (r.error ? `\n${r.error.message}` : ''), ms: Date.now() - t0}
}

/**
 * runTool without blocking the event loop (a tool read while fio steps run, e.g. the drive's
 * health log): the same output; the process is killed (SIGKILL) at the timeout.
 */
export function runToolAsync(argv: string[], timeoutMs: number): Promise<ToolOutput> {
  const t0 = Date.now()
  return new Promise(resolve => {
    let stdout = ''
    let stderr = ''
    let done = false
    const end = (code: number | null, extra = '') => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve({argv, code, stdout, stderr: stderr + extra, ms: Date.now() - t0})
    }
    const child = spawn(argv[0], argv.slice(1), {stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, LC_ALL: 'C'}})
    const timer = setTimeout(() => { try { child.kill('SIGKILL') } catch { /* gone */ } end(null, `\ntimed out after ${timeoutMs} ms`) }, timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (d: string) => { if (stdout.length < 16 * 1024 * 1024) stdout += d })
    child.stderr.setEncoding('utf8').on('data', (d: string) => { if (stderr.length < 1024 * 1024) stderr += d })
    child.on('error', e => end(null, `\n${e.message}`))
    child.on('close', code => end(code))
  })
}

/** A tool run whose stdout is binary (dd reading a block): the bytes as read. */
export function runToolBytes(argv: string[], timeoutMs: number): Omit<ToolOutput, 'stdout'> & {stdout: Buffer} {
  const t0 = Date.now()
  const r = spawnSync(argv[0], argv.slice(1), {timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: {...process.env, LC_ALL: 'C'}})
  return {argv, code: r.error ? null : r.status, stdout: (r.stdout as Buffer | null) ?? Buffer.alloc(0), stderr: String(r.stderr ?? '') + (r.error ? `\n${r.error.message}` : ''), ms: Date.now() - t0}
}

/** Processes whose command line contains every one of `needles` (from /proc). */
export function findProcesses(needles: string[]): Array<{pid: number; pgid: number}> {
  const found: Array<{pid: number; pgid: number}> = []
  let entries: string[] = []
  try { entries = readdirSync('/proc') } catch { return found }
  for (const e of entries) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8').replace(/\0/g, ' ')
      if (!needles.every(n => cmd.includes(n))) continue
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8')
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
      found.push({pid: Number(e), pgid})
    } catch { /* exited meanwhile */ }
  }
  return found
}

/** SIGKILL every fio process (main and job processes, with their hook processes) whose command line contains `match`. */
export function killFioSync(match: string): number {
  const procs = findProcesses(['fio', match])
  for (const p of procs) {
    try { process.kill(-p.pgid, 'SIGKILL') } catch { /* gone */ }
    try { process.kill(p.pid, 'SIGKILL') } catch { /* gone */ }
  }
  return procs.length
}

/** killFioSync, then wait (up to 10 s) until they are gone. */
export async function killFio(match: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (killFioSync(match) > 0 && Date.now() < deadline) await new Promise(r => setTimeout(r, 20))
}

/**
 * This pts itself as a child process (a lane of a multi-drive run): the same node, the same entry
 * script (bin/run.js or bin/dev.js) and node options, with piped stdio, in a process group of its own.
 */
export function spawnPts(args: string[], env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  // its own process group: a Ctrl-C on the terminal reaches only this pts, which passes it on once
  // (a lane that got it twice would stop at once instead of cleanly)
  return spawn(process.execPath, [...process.execArgv, process.argv[1], ...args], {stdio: ['pipe', 'pipe', 'pipe'], env: {...process.env, ...env}, detached: true})
}
