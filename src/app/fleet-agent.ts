/**
 * The host side of `pts fleet` (I/O): what `pts fleet agent <action>` does on each host, run there
 * by Ansible's command module over ssh with the host's part of the inventory on stdin. It answers
 * with one JSON document (AgentReply) on stdout.
 * - facts: pts and fio versions, the hostname, every drive's identity and safety verdict; writes nothing.
 * - start: one `pts run` per drive, each in a new session (setsid) with its output in
 *   <workDir>/<fleet>/<key>.log, so it outlives the ssh session and the controller; the run itself
 *   holds the device lock on this host and passes the safety gate again.
 * - status: each lane's state (running, complete, failed, interrupted, stopped = its pts is gone
 *   while the run says running) and pts's last progress line (phase, round, ETA).
 * - resume: for each lane that is not complete and not running: end the fio processes the dead pts
 *   left (recorded in its lock.json), then refuse while any process still has the drive open, check
 *   the serial, and start `pts resume` as `start` starts `pts run`.
 * - pack: a tar of <workDir>/<fleet> (every lane's run directory and log, bytes unchanged) for Ansible's fetch.
 */
import {spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, writeFileSync} from 'node:fs'
import {hostname} from 'node:os'
import {join} from 'node:path'
import {discoverDevice} from '../device/discover.js'
import {probeFio} from './preflight-probe.js'
import {toolVersion} from '../host.js'
import {runTool} from '../proc.js'
import {endLeftovers, liveHolder, processAlive} from '../store/lock.js'
import {writeJsonAtomic} from '../store/atomic.js'
import {laneKey, parseProgressLine, type AgentReply, type AgentSpec, type FleetDrive, type LaneReport, type LaneState} from '../fleet/hosts.js'

export type AgentAction = 'facts' | 'start' | 'status' | 'resume' | 'pack'

const fleetDir = (s: AgentSpec): string => join(s.workDir, s.fleet)
const runDirOf = (s: AgentSpec, d: FleetDrive): string => join(fleetDir(s), laneKey(d))
const logOf = (s: AgentSpec, d: FleetDrive): string => join(fleetDir(s), `${laneKey(d)}.log`)
const pidFileOf = (s: AgentSpec, d: FleetDrive): string => join(fleetDir(s), `${laneKey(d)}.pid`)

function readJson<T>(path: string): T | null {
  try { return JSON.parse(readFileSync(path, 'utf8')) as T } catch { return null }
}

/** The lane's pts process, when alive: the run's lock holder, or the process `start` spawned (before it took the lock). */
function livePid(s: AgentSpec, d: FleetDrive): number | null {
  const runDir = runDirOf(s, d)
  const holder = existsSync(join(runDir, 'lock.json')) ? liveHolder(join(runDir, 'lock.json')) : null
  if (holder) return holder.pid
  const spawned = Number(readJson<{pid: number}>(pidFileOf(s, d))?.pid)
  return processAlive(spawned, runDir) ? spawned : null
}

function stateOf(s: AgentSpec, d: FleetDrive, pid: number | null): LaneState {
  if (pid !== null) return 'running'
  const m = readJson<{status: string}>(join(runDirOf(s, d), 'manifest.json'))
  if (!m) return existsSync(runDirOf(s, d)) ? 'stopped' : 'not started'
  if (m.status === 'running') return 'stopped'
  return m.status as LaneState
}

function lane(s: AgentSpec, d: FleetDrive, withDevice: boolean): LaneReport {
  const pid = livePid(s, d)
  let log = ''
  try { log = readFileSync(logOf(s, d), 'utf8').slice(-20_000) } catch { /* not started */ }
  const r: LaneReport = {path: d.path, serial: d.serial, key: laneKey(d), runDir: runDirOf(s, d), device: null, serialMatches: false, safety: null,
    state: stateOf(s, d, pid), pid, ...parseProgressLine(log), action: null, openBy: []}
  if (!withDevice) return r
  let real: string
  try {
    real = realpathSync(d.path)
    if (!statSync(real).isBlockDevice()) return r
  } catch { return r }
  try {
    const info = discoverDevice(real)
    r.device = {realPath: real, model: info.model, serial: info.serial, firmware: info.firmware, capacityBytes: info.capacityBytes, interface: info.interface}
    r.serialMatches = d.serial === null ? info.serial === null || info.serial === '' : info.serial === d.serial
    r.safety = {proceed: info.safety.proceed, refusals: info.safety.refusals}
  } catch (error) {
    r.safety = {proceed: false, refusals: [(error as Error).message]}
  }
  return r
}

/** Every process (pid, command line) with `devPath` open, except this one. */
export function openersOf(devPath: string): Array<{pid: number; command: string}> {
  const out: Array<{pid: number; command: string}> = []
  for (const p of readdirSync('/proc').filter(n => /^\d+$/.test(n))) {
    const pid = Number(p)
    if (pid === process.pid) continue
    let fds: string[]
    try { fds = readdirSync(`/proc/${p}/fd`) } catch { continue }
    for (const fd of fds) {
      let target = ''
      try { target = readlinkSync(`/proc/${p}/fd/${fd}`) } catch { continue }
      if (target === devPath) {
        let command = '?'
        try { command = readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() } catch { /* gone */ }
        out.push({pid, command})
        break
      }
    }
  }
  return out
}

/** Start `pts <args>` for a lane in its own session, output appended to the lane's log; returns its pid. */
function spawnDetached(s: AgentSpec, d: FleetDrive, args: string[]): number {
  mkdirSync(fleetDir(s), {recursive: true})
  const fd = openSync(logOf(s, d), 'a')
  writeFileSync(fd, `${new Date().toISOString()} pts ${args.join(' ')}\n`)
  const child = spawn(process.execPath, [process.argv[1], ...args], {detached: true, stdio: ['ignore', fd, fd], cwd: fleetDir(s)})
  closeSync(fd)
  child.unref()
  writeJsonAtomic(pidFileOf(s, d), {pid: child.pid, args})
  return child.pid!
}

function confirmation(s: AgentSpec, d: FleetDrive): string { return d.serial ?? d.path }

async function act(action: AgentAction, s: AgentSpec, confirmed: readonly string[]): Promise<LaneReport[]> {
  if (action === 'facts') return s.drives.map(d => lane(s, d, true))
  if (action === 'status' || action === 'pack') return s.drives.map(d => lane(s, d, false))
  const out: LaneReport[] = []
  for (const d of s.drives) {
    const r = lane(s, d, true)
    out.push(r)
    const refuse = (why: string): void => { r.action = `refused: ${why}` }
    if (!confirmed.includes(`${s.host}:${confirmation(s, d)}`)) { refuse(`not confirmed as ${s.host}:${confirmation(s, d)}`); continue }
    if (!r.device) { refuse(`${d.path} is not a block device on ${hostname()}`); continue }
    if (!r.serialMatches) { refuse(`${d.path} reports serial ${r.device.serial ?? 'none'}, not ${d.serial ?? 'none'}`); continue }
    if (action === 'start') {
      if (r.state !== 'not started') { refuse(`its run directory ${r.runDir} exists (${r.state}); continue it with pts fleet resume`); continue }
      if (r.safety && !r.safety.proceed) { refuse(r.safety.refusals.join('; ')); continue }
      const pid = spawnDetached(s, d, ['run', s.test, '--device', d.path, '--yes-destroy-data', confirmation(s, d), '--out', r.runDir, ...s.runArgs])
      Object.assign(r, {action: `started pts run (pid ${pid})`, pid, state: 'running'})
      continue
    }
    // resume
    if (r.state === 'complete' || r.state === 'running' || r.state === 'not started') { r.action = `nothing to resume (${r.state})`; continue }
    try {
      const ended = await endLeftovers(r.runDir)
      if (ended.length > 0) r.action = ended.join('; ')
    } catch (error) { refuse((error as Error).message); continue }
    r.openBy = openersOf(r.device.realPath)
    if (r.openBy.length > 0) { refuse(`${d.path} (${r.device.realPath}) is still open: ${r.openBy.map(o => `pid ${o.pid} ${o.command}`).join('; ')}`); continue }
    const pid = spawnDetached(s, d, ['resume', r.runDir])
    Object.assign(r, {action: `${r.action ? `${r.action}; ` : ''}started pts resume (pid ${pid})`, pid, state: 'running'})
  }
  return out
}

function pack(s: AgentSpec): AgentReply['pack'] {
  const tar = join(s.workDir, `${s.fleet}.collect.tar`)
  const r = runTool(['tar', '-C', s.workDir, '-cf', tar, '--', s.fleet], 600_000)
  if (r.code !== 0) throw new Error(`tar of ${fleetDir(s)} failed: ${r.stderr.trim()}`)
  const bytes = readFileSync(tar)
  return {path: tar, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex')}
}

export async function runAgent(action: AgentAction, s: AgentSpec, confirmed: readonly string[]): Promise<AgentReply> {
  const lanes = await act(action, s, confirmed)
  return {hostname: hostname(), ptsVersion: toolVersion(), fioVersion: probeFio().version, lanes, pack: action === 'pack' ? pack(s) : null}
}
