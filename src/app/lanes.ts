/**
 * `pts run <test> --device A --device B ...`: one lane per drive, run concurrently. Each lane is a
 * child pts process running exactly the single-drive `pts run` (or `pts run all`) into its own
 * directory under the fleet directory, so every lane has its own fio processes, gate, device
 * lock, purge, write cache, verdict, report, seal and resume, and one lane's refusal or failure
 * never stops another. fleet.json indexes the lanes; the fleet report sums them up.
 */
import {appendFileSync, existsSync, mkdirSync, readFileSync} from 'node:fs'
import {hostname} from 'node:os'
import {join, resolve} from 'node:path'
import {EXIT, RunDirError, UsageError} from '../errors.js'
import * as M from '../messages.js'
import {fleetExit, fleetStatus, laneArgv, laneDirName, laneStatusOf, lanesToResume, sharedArgs, type FleetIndex, type FleetJson, type FleetLane} from '../fleet/model.js'
import {LANE_MARK, LaneBoard, type LaneView} from '../progress.js'
import {spawnPts} from '../proc.js'
import {writeJsonAtomic} from '../store/atomic.js'
import {liveHolder} from '../store/lock.js'
import {FLEET_FILE, readFleetFile} from '../store/fleet-index.js'
import {LANE_PEERS_ENV} from '../runner/concurrency.js'

export {FLEET_FILE}

const nowIso = () => new Date().toISOString()

/** The fleet.json of pts run with several --device in dir (null: none); a fleet across hosts (pts fleet collect) is refused: its lanes run on their hosts. */
export function readFleet(dir: string): FleetIndex | null {
  const f = readFleetFile(dir)
  if (f?.kind === 'hosts') throw new UsageError(M.lanes.hostsFleet(resolve(dir), f.index.inventory))
  return f?.index ?? null
}

function saveFleet(dir: string, f: FleetIndex): void {
  writeJsonAtomic(join(dir, FLEET_FILE), f)
}

/** A new fleet: one lane per device, run concurrently. */
export async function runFleet(o: {dir: string; test: string; devices: string[]; argv: string[]; json: boolean}): Promise<{fleet: FleetJson; exit: number}> {
  const dir = resolve(o.dir)
  if (new Set(o.devices).size !== o.devices.length) throw new UsageError(M.lanes.duplicateDevice(o.devices))
  if (existsSync(join(dir, FLEET_FILE))) throw new UsageError(M.lanes.fleetExists(dir))
  mkdirSync(dir, {recursive: true})
  const shared = sharedArgs(o.argv)
  const fleet: FleetIndex = {
    schemaVersion: 1, kind: 'fleet', fleetId: dir.split('/').pop()!, test: o.test, argv: ['pts', 'run', ...o.argv], hostname: hostname(), status: 'running',
    createdAt: nowIso(), finishedAt: null, report: [],
    lanes: o.devices.map((device, i) => {
      const laneDir = laneDirName(i + 1, device)
      return {index: i + 1, device, dir: laneDir, status: 'pending', exit: null, error: null, argv: laneArgv(o.test, device, join(dir, laneDir), shared), startedAt: null, finishedAt: null}
    }),
  }
  saveFleet(dir, fleet)
  return runLanes(dir, fleet, fleet.lanes, o.json)
}

/** `pts resume <fleet>`: every lane not complete (and not refused) continues; complete lanes are kept. */
export async function resumeFleet(dirArg: string, json: boolean, signArgs: string[]): Promise<{fleet: FleetJson; exit: number}> {
  const dir = resolve(dirArg)
  const fleet = readFleet(dir)
  if (!fleet) throw new RunDirError(M.lanes.notAFleet(dir))
  // a lane whose stored run completed after the index was last written (e.g. pts was killed) is complete
  for (const l of fleet.lanes) if (l.status !== 'complete' && storedStatus(join(dir, l.dir)) === 'complete') { l.status = 'complete'; l.exit = 0; l.error = null }
  const todo = lanesToResume(fleet)
  if (todo.length === 0) throw new UsageError(M.lanes.nothingToResume(dir))
  for (const l of todo) {
    const laneDir = join(dir, l.dir)
    // a lane that stored anything is resumed; one that never started runs as first planned
    l.argv = storedStatus(laneDir) === null ? l.argv.filter(a => a !== '--json').concat('--json') : ['resume', laneDir, ...signArgs, '--json']
    await waitForHolder(laneDir)
  }
  fleet.status = 'running'
  fleet.finishedAt = null
  saveFleet(dir, fleet)
  return runLanes(dir, fleet, todo, json)
}

/** The stored status of a lane's run (results.json) or suite (suite.json); null when it stored nothing. */
function storedStatus(laneDir: string): string | null {
  for (const f of ['suite.json', 'results.json']) {
    try { return (JSON.parse(readFileSync(join(laneDir, f), 'utf8')) as {status?: string}).status ?? null } catch { /* next */ }
  }
  return null
}

/** A lane whose pts was just orphaned stops on its own (its parent's pipe closed): wait for it (at most 60 s). */
async function waitForHolder(laneDir: string): Promise<void> {
  const lock = join(laneDir, 'lock.json')
  for (let i = 0; i < 600 && existsSync(lock) && liveHolder(lock); i++) await new Promise(r => setTimeout(r, 100))
}

async function runLanes(dir: string, fleet: FleetIndex, lanes: FleetLane[], json: boolean): Promise<{fleet: FleetJson; exit: number}> {
  const tty = Boolean(process.stderr.isTTY) && !json
  const board = tty ? new LaneBoard(process.stderr) : null
  const width = Math.max(...fleet.lanes.map(l => l.device.length))
  const name = (l: FleetLane) => `${l.index} ${l.device.padEnd(width)}`
  const say = (l: FleetLane, text: string) => {
    for (const line of text.split('\n')) if (line.trim()) board ? board.log(`[${name(l)}] ${line}`) : process.stderr.write(`${new Date().toISOString().slice(11, 19)}Z [lane ${name(l)}] ${line}\n`)
  }
  const children = new Set<ReturnType<typeof spawnPts>>()
  const forward = (sig: NodeJS.Signals) => { for (const c of children) c.kill(sig) }
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  const peers = JSON.stringify({fleet: dir, drives: fleet.lanes.map(l => l.device)})
  try {
    await Promise.all(lanes.map(l => new Promise<void>(done => {
      l.status = 'running'
      l.startedAt = nowIso()
      l.finishedAt = null
      l.exit = null
      l.error = null
      saveFleet(dir, fleet)
      const log = join(dir, `${l.dir}.log`)
      const child = spawnPts(l.argv, {[LANE_PEERS_ENV]: JSON.stringify({...JSON.parse(peers), lane: l.index}), PTS_LANE_PROGRESS: '1'})
      children.add(child)
      let stdout = ''
      let partial = ''
      let lastPlain = 0
      let lastView: LaneView | null = null
      child.stdout.on('data', d => { stdout += d })
      child.stderr.on('data', (d: Buffer) => {
        const text = partial + d.toString('utf8')
        const lines = text.split('\n')
        partial = lines.pop() ?? ''
        for (const line of lines) {
          if (line.startsWith(LANE_MARK)) {
            const p = JSON.parse(line.slice(LANE_MARK.length)) as {view: LaneView; line: string; important: boolean}
            lastView = p.view
            if (board) board.update(String(l.index), {...p.view, label: `[${name(l)}]`})
            else if (p.important || Date.now() - lastPlain >= 10_000) { lastPlain = Date.now(); say(l, p.line.replace(/^\d\d:\d\d:\d\dZ /, '')) }
            continue
          }
          appendFileSync(log, `${line}\n`)
          say(l, line)
        }
      })
      child.on('error', error => { l.error = error.message })
      child.on('close', code => {
        children.delete(child)
        const exit = code ?? EXIT.internal
        l.exit = exit
        l.status = laneStatusOf(exit)
        l.finishedAt = nowIso()
        if (exit !== 0) l.error = (laneError(stdout) ?? l.error ?? `pts exited with ${exit} (see ${log})`).replace(/\s*\n\s*/g, ' ')
        // the lane's line ends with its outcome
        board?.update(String(l.index), {label: `[${name(l)}]`, pct: l.status === 'complete' ? 100 : lastView?.pct ?? null, etaSec: null, nowMs: Date.now(), steady: l.status, detail: l.status === 'complete' ? '' : `exit ${exit}`})
        saveFleet(dir, fleet)
        done()
      })
    })))
  } finally {
    process.off('SIGINT', forward)
    process.off('SIGTERM', forward)
    board?.stop()
  }
  fleet.status = fleetStatus(fleet.lanes)
  fleet.finishedAt = nowIso()
  saveFleet(dir, fleet)
  const files: string[] = []
  if (!json) process.stderr.write('Rendering the fleet report (fleet.pdf, fleet.html)...\n')
  try {
    const {renderFleetReport} = await import('../report/fleet/index.js')
    files.push(...await renderFleetReport(dir, {formats: ['pdf', 'html']}))
    fleet.report = files.map(f => f.slice(dir.length + 1))
  } catch (error) {
    process.stderr.write(`${M.lanes.reportFailed((error as Error).message, dir).message}\n`)
  }
  saveFleet(dir, fleet)
  return {fleet: {...fleet, dir, files}, exit: fleetExit(fleet.lanes)}
}

/** The message of a lane's --json error output, if it printed one. */
function laneError(stdout: string): string | null {
  try {
    const v = JSON.parse(stdout) as {error?: {message?: string}; report?: {error?: string | null}}
    return v.error?.message ?? v.report?.error ?? null
  } catch { return null }
}

/**
 * In a lane (PTS_LANE_PEERS set): when the parent pts goes away (its pipe to this process's stdin
 * closes), stop cleanly as on SIGTERM, so that the lane is kept and `pts resume <fleet>` continues it.
 */
export function stopWhenParentGoes(): void {
  if (!process.env[LANE_PEERS_ENV] || process.stdin.isTTY) return
  process.stdin.on('end', () => process.kill(process.pid, 'SIGTERM'))
  process.stdin.on('error', () => process.kill(process.pid, 'SIGTERM'))
  process.stdin.resume()
  ;(process.stdin as unknown as {unref?: () => void}).unref?.()
}
