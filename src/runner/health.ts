/**
 * The drive's health during a run (I/O): its SMART / health log read before the test and after it
 * (`nvme smart-log <dev> -o json` for NVMe, `smartctl --json -a <dev>` otherwise), each stdout
 * stored verbatim under raw/health/ (sealed with the other raw files), and its temperature
 * sampled during the run every `intervalSec` (`nvme smart-log`, `smartctl --json -A`).
 *
 * Sampling never disturbs the sequencing of the fio steps: the tool runs as its own process
 * (runToolAsync: the event loop is never blocked), and a sample that falls due is started only
 * while a fio step is running (the runner calls stepStarted / stepEnded), never in the hand-over
 * between a step's end and the next step's start. A target without a health log (a file, a loop
 * device, a missing tool, a device the tool cannot read) is "not available" with its reason,
 * in results.json, the run's events and the report; it never fails the run.
 */
import {parseNvmeSmartLog, parseSmartctlHealth, type HealthParse} from '../device/parse-health.js'
import type {DriveHealth, HealthSample, HealthSnapshot} from '../model/health.js'
import {runToolAsync, whichPath, type ToolOutput} from '../proc.js'
import type {RunStore} from '../store/run-store.js'

/** Seconds between temperature samples when pts run --health-interval is not given. */
export const DEFAULT_HEALTH_INTERVAL_SEC = 60
/** A health log read that takes longer is abandoned (a drive that hangs on SMART commands). */
const TOOL_TIMEOUT_MS = 30_000
/** At most this many sample failures are kept in results.json. */
const MAX_PROBLEMS = 20

export type HealthSource =
  | {tool: 'nvme-cli' | 'smartctl'; device: string; snapshot: string[]; sample: string[]}
  | {reason: string}

/** Which tool reads the target's health log, or why there is none (pure given `has`: is a tool installed). */
export function healthSource(t: {kind: 'file' | 'block'; path: string; interface: string}, has: (cmd: string) => boolean): HealthSource {
  if (t.kind === 'file') return {reason: 'the target is a regular file, which has no drive health log'}
  if (t.interface === 'loop') return {reason: 'a loop device has no drive health log: the drive under its backing file is not the device under test'}
  if (t.interface === 'nvme') {
    if (has('nvme')) return {tool: 'nvme-cli', device: t.path, snapshot: ['nvme', 'smart-log', t.path, '-o', 'json'], sample: ['nvme', 'smart-log', t.path, '-o', 'json']}
    if (has('smartctl')) return {tool: 'smartctl', device: t.path, snapshot: ['smartctl', '--json', '-a', t.path], sample: ['smartctl', '--json', '-A', t.path]}
    return {reason: 'neither nvme-cli (nvme) nor smartmontools (smartctl) is installed (apt-get install nvme-cli smartmontools)'}
  }
  if (has('smartctl')) return {tool: 'smartctl', device: t.path, snapshot: ['smartctl', '--json', '-a', t.path], sample: ['smartctl', '--json', '-A', t.path]}
  return {reason: 'smartmontools (smartctl) is not installed (apt-get install smartmontools)'}
}

/** healthSource with the tools installed on this host. */
export function healthSourceOf(t: {kind: 'file' | 'block'; path: string; identity: {interface: string}}): HealthSource {
  return healthSource({kind: t.kind, path: t.path, interface: t.identity.interface}, cmd => whichPath(cmd) !== null)
}

export function parseHealthOutput(tool: 'nvme-cli' | 'smartctl', out: Pick<ToolOutput, 'stdout' | 'stderr' | 'code'>): HealthParse {
  const r = tool === 'nvme-cli' ? parseNvmeSmartLog(out.stdout) : parseSmartctlHealth(out.stdout)
  if (r.ok || tool !== 'nvme-cli') return r
  // nvme-cli says what went wrong on stderr (e.g. "smart log: Invalid argument")
  const err = out.stderr.trim().split('\n').filter(Boolean).at(-1)
  return {ok: false, reason: err ? `nvme smart-log: ${err}${out.code !== null && out.code !== 0 ? ` (exit ${out.code})` : ''}` : r.reason}
}

export interface HealthMonitorOptions {
  store: RunStore
  /** The record in results.json (created by the monitor; on resume the stored one, continued). */
  health: DriveHealth
  source: HealthSource
  note: (msg: string) => void
  event: (name: string, detail: string) => void
  run?: (argv: string[], timeoutMs: number) => Promise<ToolOutput>
}

/** A new health record for a run (no snapshot yet). */
export function newHealthRecord(source: HealthSource, intervalSec: number): DriveHealth {
  return 'reason' in source
    ? {available: false, reason: source.reason, tool: null, device: null, intervalSec, before: null, after: null, samples: [], problems: []}
    : {available: true, reason: null, tool: source.tool, device: source.device, intervalSec, before: null, after: null, samples: [], problems: []}
}

export class HealthMonitor {
  private readonly run: (argv: string[], timeoutMs: number) => Promise<ToolOutput>
  private timer: NodeJS.Timeout | null = null
  private due = false
  private stepRunning = false
  private inFlight: Promise<void> | null = null
  private stopped = false

  constructor(private readonly o: HealthMonitorOptions) {
    this.run = o.run ?? runToolAsync
  }

  get record(): DriveHealth { return this.o.health }

  /** The log before the test (kept when a resumed run already has one), then sampling starts. */
  async start(): Promise<void> {
    const h = this.o.health
    const src = this.o.source
    if ('reason' in src) {
      this.o.event('health', `drive health and temperature: not available: ${src.reason}`)
      this.o.note(`drive health and temperature: not available (${src.reason})`)
      return
    }
    if (!h.before) {
      let snap: HealthSnapshot
      try {
        snap = await this.snapshot('before', src.tool, src.snapshot)
      } catch (error) {
        // e.g. the run directory's disk is full: the run itself reports that at its next write
        h.available = false
        h.reason = `the health log could not be stored (${(error as Error).message})`
        this.o.note(`drive health and temperature: not available (${h.reason})`)
        return
      }
      h.before = snap
      if (!snap.facts) {
        h.available = false
        h.reason = snap.problem ?? 'the health log could not be read'
        this.o.event('health', `drive health and temperature: not available: ${h.reason} (tool output: ${snap.raw})`)
        this.o.note(`drive health and temperature: not available (${h.reason})`)
        return
      }
      this.o.event('health', `before the test: ${src.tool} ${src.device}: ${snap.facts.temperatureC ?? '?'} °C (stored in ${snap.raw}); temperature sampled every ${h.intervalSec} s`)
    }
    if (!h.available) return
    this.timer = setInterval(() => { this.due = true; if (this.stepRunning) this.fire() }, h.intervalSec * 1000)
    this.timer.unref()
  }

  /** A fio step's I/O is running: a sample that fell due starts now. */
  stepStarted(): void {
    this.stepRunning = true
    if (this.due) this.fire()
  }

  /** A fio step ended: no sample starts until the next one runs. */
  stepEnded(): void {
    this.stepRunning = false
  }

  private fire(): void {
    const src = this.o.source
    if (this.inFlight || this.stopped || 'reason' in src) return
    this.due = false
    this.inFlight = this.sample(src.tool, src.sample).finally(() => { this.inFlight = null })
  }

  private async sample(tool: 'nvme-cli' | 'smartctl', argv: string[]): Promise<void> {
    const h = this.o.health
    const at = new Date().toISOString()
    const out = await this.run(argv, TOOL_TIMEOUT_MS)
    if (this.stopped) return
    const raw = `raw/health/sample-${String(h.samples.length + 1).padStart(5, '0')}.json`
    const r = parseHealthOutput(tool, out)
    if (!r.ok) {
      if (h.problems.length < MAX_PROBLEMS) h.problems.push(`${at}: ${r.reason}`)
      return
    }
    try {
      this.o.store.ensureDir('raw/health')
      // not fsynced: a sample is no measurement, and an fsync here could stall the disk the run's files are on
      this.o.store.writeRaw(raw, out.stdout, false)
    } catch (error) {
      if (h.problems.length < MAX_PROBLEMS) h.problems.push(`${at}: ${(error as Error).message}`)
      return
    }
    const f = r.facts
    const s: HealthSample = {at, raw, temperatureC: f.temperatureC, criticalWarning: f.criticalWarning, thermalTransitions: f.thermalTransitions, warningTempMinutes: f.warningTempMinutes}
    h.samples.push(s)
  }

  /** Stop sampling and read the log after the test (also after a failure or an interruption). */
  async finish(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    if (this.inFlight) await this.inFlight
    this.stopped = true
    const h = this.o.health
    const src = this.o.source
    if ('reason' in src || !h.available) return
    const snap = await this.snapshot('after', src.tool, src.snapshot)
    h.after = snap
    this.o.event('health', snap.facts
      ? `after the test: ${snap.facts.temperatureC ?? '?'} °C; ${h.samples.length} temperature samples (stored in ${snap.raw})`
      : `after the test: the health log could not be read: ${snap.problem} (tool output: ${snap.raw})`)
  }

  private async snapshot(when: 'before' | 'after', tool: 'nvme-cli' | 'smartctl', argv: string[]): Promise<HealthSnapshot> {
    const at = new Date().toISOString()
    const out = await this.run(argv, TOOL_TIMEOUT_MS)
    const r = parseHealthOutput(tool, out)
    // a resumed run reads its log after the test again, over the one its interrupted part stored
    const raw = `raw/health/${when}.json`
    this.o.store.ensureDir('raw/health')
    this.o.store.writeRaw(raw, out.stdout)
    return {at, raw, argv, exitCode: out.code, facts: r.ok ? r.facts : null, ...(r.ok ? {} : {problem: r.reason})}
  }

}
