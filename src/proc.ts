/** Finding and ending processes by their command line (I/O, /proc). */
import {readdirSync, readFileSync} from 'node:fs'

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
