/**
 * A lane of a multi-drive run: which drives run at the same time (from the parent pts, in
 * PTS_LANE_PEERS) and the host's CPU use sampled from /proc/stat over the lane's session.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {cpuUseBetween, parseProcStat, type CpuTicks, type HostCpuUse} from '../model/manifest.js'

/** What a lane's run records about the fleet it is part of. */
export interface RunConcurrencyInput { fleet: string; lane: number; drives: string[] }

/** The environment variable in which the parent pts tells a lane about its fleet (JSON). */
export const LANE_PEERS_ENV = 'PTS_LANE_PEERS'

/** This process's lane, or undefined when it is not a lane of a multi-drive run. */
export function lanePeers(): RunConcurrencyInput | undefined {
  const text = process.env[LANE_PEERS_ENV]
  if (!text) return undefined
  try {
    const v = JSON.parse(text) as RunConcurrencyInput
    return typeof v.fleet === 'string' && Number.isInteger(v.lane) && Array.isArray(v.drives) ? v : undefined
  } catch { return undefined }
}

function snapshot(): CpuTicks | null {
  try { return parseProcStat(readFileSync('/proc/stat', 'utf8')) } catch { return null }
}

/** Start sampling; the returned function gives the use since then (null where /proc/stat cannot be read). */
export function startCpuSampling(): () => HostCpuUse | null {
  const a = snapshot()
  const from = new Date().toISOString()
  return () => {
    const b = snapshot()
    return a && b ? cpuUseBetween(a, b, from, new Date().toISOString()) : null
  }
}

/**
 * The drives of the fleet that actually ran (not refused by their safety gate), from its
 * fleet.json as it is now; the given list when the index cannot be read.
 */
export function drivesThatRan(c: RunConcurrencyInput): string[] {
  try {
    const f = JSON.parse(readFileSync(join(c.fleet, 'fleet.json'), 'utf8')) as {lanes: Array<{device: string; status: string}>}
    const ran = f.lanes.filter(l => l.status !== 'refused' && l.status !== 'pending').map(l => l.device)
    return ran.length > 0 ? ran : c.drives
  } catch { return c.drives }
}
