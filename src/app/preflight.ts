/**
 * `pts plan` preflight: what a run needs before it starts (fio, Chromium for the PDF, the purge
 * tool of the device's interface, free space for the run directory) and what it will cost (the
 * WIPC time, the bytes it writes and their drive writes, the size of its stored results). Pure:
 * the facts are probed by preflight-probe.ts; the estimates come from the plan expansion alone
 * (the WIPC volume is the plan's, never recomputed here).
 *
 * Bytes written: the WIPC volume (and a zero-fill purge) are known exactly. Every other phase
 * runs for a time, so what it writes depends on the drive's speed: pts sums each phase's
 * write time (its duration x its write share, e.g. 35% for a 65/35 mix) and multiplies by a write
 * rate: the operator's --assume-write-mbps, else the interface's limit (claims/interface.ts),
 * which gives the most a run can write and the shortest WIPC. A series that stops at a volume
 * (WSAT's 4x the capacity, --max-written) is capped there.
 */
import {EXIT} from '../errors.js'
import type {PlannedPhase, ProgramPlan, ResolvedWorkload} from '../plan/expand.js'
import {formatMBps, type InterfaceLimit} from '../claims/interface.js'
import {formatBytes, formatDecimalGB, formatDuration} from '../units.js'

/** What one test of the plan writes: exactly known bytes, write time, and caps. */
export interface PhaseWrites {
  phase: string
  kind: PlannedPhase['kind']
  /** Bytes written whatever the drive's speed (WIPC volume, a zero-fill purge). */
  fixedBytes: number
  /** Seconds of writing (duration x write share), shortest and longest run of the phase. */
  writeSec: {min: number; max: number}
  /** The phase stops at this many bytes written (series with a volume limit), else null. */
  capBytes: number | null
}

/** The bytes a run writes, exactly where known and at a write rate elsewhere. */
export interface WriteEstimate {
  /** Bytes known before the run (WIPC volume, a zero-fill purge). @minimum 0 */
  fixedBytes: number
  /** Seconds of writing in the time-based phases. */
  timedWriteSec: {
    /** @minimum 0 */
    min: number
    /** @minimum 0 */
    max: number
  }
  /** The write rate assumed for the time-based phases, bytes/s; null when none is known (then only fixedBytes is certain). @minimum 0 */
  rateBytesPerSec: number | null
  /** Where the rate comes from ("--assume-write-mbps 330", "the interface's limit: SATA ..."), or why there is none. @minLength 1 */
  rateBasis: string
  /** fixedBytes + the time-based phases at the rate (shortest and longest run); null without a rate. */
  totalBytes: {
    /** @minimum 0 */
    min: number
    /** @minimum 0 */
    max: number
  } | null
  /** totalBytes (or fixedBytes without a rate) / the target's capacity. */
  driveWrites: {
    /** @minimum 0 */
    min: number
    /** @minimum 0 */
    max: number
  }
  /** @integer @minimum 0 */
  capacityBytes: number
}

/** One preflight line: pass, fail (the run would fail or lose its report), info (an estimate) or n/a. */
export interface PreflightCheck {
  /** fio, chromium, purge-tool, free-space, target-space, wipc-time, bytes-written, stored-size. @minLength 1 */
  id: string
  status: 'pass' | 'fail' | 'info' | 'n/a'
  /** @minLength 1 */
  title: string
  /** @minLength 1 */
  detail: string
}

/** What the probe found on this host. */
export interface PreflightFacts {
  fio: {path: string | null; version: string | null; problem: string | null}
  chromium: {path: string; fromEnv: boolean; executable: boolean}
  /** The tools the device's purge needs (null: a file target, nothing to purge). */
  purgeTools: Array<{tool: string; pkg: string; found: boolean; why: string}> | null
  /** Why no purge tool applies (loop device, a fallback without tools), when purgeTools is empty. */
  purgeNote: string | null
  /** The run directory and the free bytes of the file system it will be on (null: unknown, with the reason). */
  runDir: {path: string; probedPath: string; freeBytes: number | null; device: string | null; problem: string | null}
  /** A file target that pts creates: its size and the free bytes of its file system. */
  targetFile: null | {path: string; createBytes: number; freeBytes: number | null; device: string | null}
}

/** `pts plan --json`.preflight: every check, the estimates, and whether all checks passed. */
export interface Preflight {
  /** No check failed. */
  ok: boolean
  checks: PreflightCheck[]
  writes: WriteEstimate
  /** WIPC: its volume and how long it takes at the rate (null without a rate). */
  wipc: {
    /** @integer @minimum 0 */
    bytes: number
    /** @minimum 0 */
    seconds: number | null
  }
  /** Estimated size of the run directory at the longest run (raw fio output, results, manifest, report). @integer @minimum 0 */
  storedBytes: number
}

const writeShare = (w: Pick<ResolvedWorkload, 'readPct'>): number => (100 - w.readPct) / 100

/** What each phase writes (pure; from the plan expansion). */
export function phaseWrites(plan: ProgramPlan): PhaseWrites[] {
  const loops = new Map(plan.phases.filter((p): p is Extract<PlannedPhase, {kind: 'loop'}> => p.kind === 'loop').map(p => [p.id, p]))
  return plan.phases.map(ph => {
    const none = {phase: ph.id, kind: ph.kind, fixedBytes: 0, writeSec: {min: 0, max: 0}, capBytes: null}
    switch (ph.kind) {
      case 'purge':
        // A zero-fill fallback writes the whole target; the PTS purges are the drive's own erase.
        return {...none, fixedBytes: plan.purge.method === 'zero' ? plan.target.sizeBytes : 0}
      case 'wipc':
        return {...none, fixedBytes: ph.totalBytes}
      case 'loop': {
        const perRound = ph.points.reduce((a, p) => a + ph.pointSeconds * writeShare(p), 0) + (ph.preRound ? ph.preRound.seconds * writeShare(ph.preRound.workload) : 0)
        const minRounds = Math.min(ph.steadyState.windowRounds, ph.maxRounds)
        return {...none, writeSec: {min: minRounds * perRound, max: ph.roundCap * perRound}}
      }
      case 'series': {
        const max = ph.durationSeconds * writeShare(ph.workload)
        const min = ph.stopAtBytes !== null || ph.steadyStateExit ? 0 : max
        return {...none, writeSec: {min, max}, capBytes: ph.stopAtBytes}
      }
      case 'bursts': {
        const t = ph.repeats * ph.burstSeconds * writeShare(ph.workload)
        return {...none, writeSec: {min: t, max: t}}
      }
      case 'histogram': {
        const t = ph.seconds * writeShare(ph.workload)
        return {...none, writeSec: {min: t, max: t}}
      }
      case 'sweep': {
        const t = ph.points.reduce((a, p) => a + ph.pointSeconds * writeShare(p), 0)
        return {...none, writeSec: {min: t, max: t}}
      }
      case 'fill':
        return {...none, fixedBytes: ph.passes * ph.pieces.reduce((a, x) => a + x.sizeBytes, 0)}
      case 'operating-points': {
        const from = loops.get(ph.fromPhase)?.points[0]
        const t = 3 * (ph.prewrite.seconds * writeShare(ph.prewrite.workload) + ph.measureSeconds * (from ? writeShare(from) : 1))
        return {...none, writeSec: {min: t, max: t}}
      }
    }
  })
}

/** The bytes a run writes at a write rate (bytes/s; null: unknown). Pure. */
export function writeEstimate(plan: ProgramPlan, rate: {bytesPerSec: number | null; basis: string}): WriteEstimate {
  const phases = phaseWrites(plan)
  const fixedBytes = phases.reduce((a, p) => a + p.fixedBytes, 0)
  const timedWriteSec = {min: phases.reduce((a, p) => a + p.writeSec.min, 0), max: phases.reduce((a, p) => a + p.writeSec.max, 0)}
  const at = (sec: number, cap: number | null) => (cap === null ? sec * rate.bytesPerSec! : Math.min(cap, sec * rate.bytesPerSec!))
  const totalBytes = rate.bytesPerSec === null ? null : {
    min: fixedBytes + phases.reduce((a, p) => a + at(p.writeSec.min, p.capBytes), 0),
    max: fixedBytes + phases.reduce((a, p) => a + at(p.writeSec.max, p.capBytes), 0),
  }
  const cap = plan.target.sizeBytes
  const dw = (b: number) => (cap > 0 ? b / cap : 0)
  return {
    fixedBytes, timedWriteSec, rateBytesPerSec: rate.bytesPerSec, rateBasis: rate.basis, totalBytes,
    driveWrites: totalBytes ? {min: dw(totalBytes.min), max: dw(totalBytes.max)} : {min: dw(fixedBytes), max: dw(fixedBytes)},
    capacityBytes: cap,
  }
}

/** The write rate the estimates use: the operator's, else the interface's limit, else none. */
export function writeRate(assumedMBps: number | null, limit: InterfaceLimit): {bytesPerSec: number | null; basis: string; bound: boolean} {
  if (assumedMBps !== null) return {bytesPerSec: assumedMBps * 1e6, basis: `--assume-write-mbps ${assumedMBps} (the operator's figure)`, bound: false}
  if (limit.bytesPerSec !== null) return {bytesPerSec: limit.bytesPerSec, basis: `the interface's limit, ${limit.basis}; a drive writes slower, so these are upper bounds (give --assume-write-mbps for an estimate)`, bound: true}
  return {bytesPerSec: null, basis: `no write rate known (${limit.notADrive ? 'not a drive' : limit.basis}); give --assume-write-mbps for an estimate`, bound: false}
}

/**
 * Stored bytes per fio step (job file, fio JSON output, its entries in results.json and
 * manifest.json): about 11 KB in the stored runs of test/fixtures/runs (IOPS 3.16 MB for 281
 * steps, XSR 4.2 MB for 396), taken as 16 KB for a margin.
 */
export const STEP_BYTES = 16 * 1024
/** A response-time histogram step (fio json+ latency bins): up to about 105 KB in the stored runs, taken as 256 KB. */
export const HISTOGRAM_BYTES = 256 * 1024
/** fio's IOPS log of a bursts phase: about 5 lines of about 32 B per burst. */
export const BURST_LOG_BYTES_PER_BURST = 5 * 32
/**
 * report.pdf and report.html, and the fixed files (manifest head, lock, purge output): an
 * allowance. The report of the stored IOPS run (5 rounds of 56 points) is 1.9 MB (PDF 1.5 MB,
 * HTML 0.4 MB); a 25-round run's hash pages make it a few times that.
 */
export const REPORT_BYTES = 64 * 1024 * 1024

/** The size of a run directory at the longest run of the plan (pure). */
export function storedBytes(plan: ProgramPlan): number {
  let steps = 0
  let extra = REPORT_BYTES
  for (const ph of plan.phases) {
    if (ph.kind === 'wipc' || ph.kind === 'purge') steps += 1
    else if (ph.kind === 'loop') steps += ph.roundCap * (ph.points.length + (ph.preRound ? 1 : 0))
    else if (ph.kind === 'series') steps += ph.maxSamples
    else if (ph.kind === 'bursts') { steps += 1; extra += ph.repeats * BURST_LOG_BYTES_PER_BURST }
    else if (ph.kind === 'histogram') extra += HISTOGRAM_BYTES
    else if (ph.kind === 'sweep') { steps += ph.points.length; if (ph.latencyBins) extra += ph.points.length * HISTOGRAM_BYTES }
    else if (ph.kind === 'fill') steps += ph.passes * ph.pieces.length
    else { steps += 3; extra += 3 * HISTOGRAM_BYTES }
  }
  return steps * STEP_BYTES + extra
}

const gb = (b: number): string => `${formatDecimalGB(b)} (${formatBytes(b)})`
const dwText = (x: number): string => (x >= 10 ? x.toFixed(0) : x >= 0.1 ? x.toFixed(2) : x.toPrecision(2))

export interface PreflightInput {
  facts: PreflightFacts
  writes: WriteEstimate
  /** Whether the rate is the interface's limit (the totals are upper bounds, the WIPC time a lower bound). */
  rateIsBound: boolean
  wipcBytes: number
  stored: number
}

/** The preflight lines and the verdict (pure). */
export function preflight(inp: PreflightInput): Preflight {
  const {facts: f, writes: w} = inp
  const checks: PreflightCheck[] = []
  checks.push(f.fio.path && f.fio.version
    ? {id: 'fio', status: 'pass', title: 'fio', detail: `${f.fio.version} at ${f.fio.path}`}
    : {id: 'fio', status: 'fail', title: 'fio', detail: `${f.fio.problem ?? 'not found'}: install it (apt-get install -y fio) or set PTS_FIO to the fio binary`})
  checks.push(f.chromium.executable
    ? {id: 'chromium', status: 'pass', title: 'Chromium (report.pdf)', detail: `${f.chromium.path}${f.chromium.fromEnv ? ' (CHROMIUM_PATH)' : ''}`}
    : {id: 'chromium', status: 'fail', title: 'Chromium (report.pdf)', detail: `${f.chromium.path}${f.chromium.fromEnv ? ' (CHROMIUM_PATH)' : ''} is not an executable: the run would end without report.pdf (exit 7); install it (apt-get install -y chromium fonts-dejavu-core) or set CHROMIUM_PATH`})
  if (f.purgeTools === null) {
    checks.push({id: 'purge-tool', status: 'n/a', title: 'purge tool', detail: 'a file target is not purged'})
  } else if (f.purgeTools.length === 0) {
    checks.push({id: 'purge-tool', status: 'n/a', title: 'purge tool', detail: f.purgeNote ?? 'the purge needs no tool'})
  } else {
    const missing = f.purgeTools.filter(t => !t.found)
    const list = f.purgeTools.map(t => `${t.tool} (${t.pkg}, ${t.why})`).join(', ')
    checks.push(missing.length === 0
      ? {id: 'purge-tool', status: 'pass', title: 'purge tool', detail: list}
      : {id: 'purge-tool', status: 'fail', title: 'purge tool', detail: `missing ${missing.map(t => `${t.tool}: apt-get install -y ${t.pkg}`).join('; ')} (needed: ${list})`})
  }
  const sameFs = f.targetFile !== null && f.targetFile.device !== null && f.targetFile.device === f.runDir.device
  const need = inp.stored + (sameFs ? f.targetFile!.createBytes : 0)
  if (f.runDir.freeBytes === null) {
    checks.push({id: 'free-space', status: 'fail', title: 'free space', detail: `cannot tell the free space for the run directory ${f.runDir.path}: ${f.runDir.problem ?? 'unknown'}`})
  } else {
    const ok = f.runDir.freeBytes >= need
    checks.push({id: 'free-space', status: ok ? 'pass' : 'fail', title: 'free space',
      detail: `${gb(f.runDir.freeBytes)} free on the file system of ${f.runDir.probedPath} for the run directory ${f.runDir.path}; the run stores up to ${gb(inp.stored)}${sameFs ? ` and the target file grows to ${gb(f.targetFile!.createBytes)} there` : ''}${ok ? '' : ': free space or choose another --out'}`})
  }
  if (f.targetFile && !sameFs) {
    const t = f.targetFile
    const ok = t.freeBytes !== null && t.freeBytes >= t.createBytes
    checks.push({id: 'target-space', status: ok ? 'pass' : 'fail', title: 'target file space',
      detail: `${t.path} is created sparse and filled by the run to ${gb(t.createBytes)}; ${t.freeBytes === null ? 'its file system\'s free space is unknown' : `${gb(t.freeBytes)} free there`}`})
  }
  const wipcSec = w.rateBytesPerSec === null || inp.wipcBytes === 0 ? null : inp.wipcBytes / w.rateBytesPerSec
  checks.push({id: 'wipc-time', status: inp.wipcBytes === 0 ? 'n/a' : 'info', title: 'WIPC time',
    detail: inp.wipcBytes === 0 ? 'this test has no WIPC'
      : `${gb(inp.wipcBytes)} of SEQ writes: ${wipcSec === null ? 'time unknown' : `${inp.rateIsBound ? 'at least ' : 'about '}${formatDuration(wipcSec)}`} (${w.rateBasis})`})
  const total = w.totalBytes
  checks.push({id: 'bytes-written', status: 'info', title: 'bytes written',
    detail: total
      ? `${inp.rateIsBound ? 'at most ' : ''}${span(total, gb)} (${span(w.driveWrites, dwText)} drive writes of ${formatDecimalGB(w.capacityBytes)}): ${gb(w.fixedBytes)} of WIPC and purge, plus ${span(w.timedWriteSec, formatDuration)} of writing at ${formatMBps(w.rateBytesPerSec!)}`
      : `${gb(w.fixedBytes)} of WIPC and purge (${dwText(w.driveWrites.min)} drive writes), plus ${formatDuration(w.timedWriteSec.min)} to ${formatDuration(w.timedWriteSec.max)} of writing whose volume depends on the target's speed (${w.rateBasis})`})
  return {ok: !checks.some(c => c.status === 'fail'), checks, writes: w, wipc: {bytes: inp.wipcBytes, seconds: wipcSec}, storedBytes: inp.stored}
}

/** "a to b", or one value when both ends are the same (a plan without a steady-state loop range). */
function span(r: {min: number; max: number}, fmt: (x: number) => string): string {
  const a = fmt(r.min), b = fmt(r.max)
  return a === b ? a : `${a} to ${b}`
}

/** Preflight lines as text: "  [PASS] fio: fio-3.33 at /usr/bin/fio". */
export function preflightText(p: Pick<Preflight, 'checks' | 'ok'>): string {
  const tag = {pass: 'PASS', fail: 'FAIL', info: 'INFO', 'n/a': 'N/A '}
  return ['Preflight:', ...p.checks.map(c => `  [${tag[c.status]}] ${c.title}: ${c.detail}`),
    p.ok ? '  All checks passed.' : `  ${p.checks.filter(c => c.status === 'fail').length} check(s) FAILED: pts plan exits ${PREFLIGHT_FAILED_EXIT}.`].join('\n')
}

/** pts plan's exit code when a preflight check fails (the plan is printed in full first). */
export const PREFLIGHT_FAILED_EXIT = EXIT.preflightFailed

/** The WIPC volume of a plan (from the expansion). */
export function wipcBytes(plan: ProgramPlan): number {
  return plan.phases.reduce((a, p) => a + (p.kind === 'wipc' ? p.totalBytes : 0), 0)
}

/** Suite totals: the per-test estimates added up (the rate and capacity are the suite's). */
export function sumWrites(parts: readonly WriteEstimate[]): WriteEstimate {
  const first = parts[0]
  const add = (f: (w: WriteEstimate) => number) => parts.reduce((a, w) => a + f(w), 0)
  const totals = parts.every(w => w.totalBytes !== null) ? {min: add(w => w.totalBytes!.min), max: add(w => w.totalBytes!.max)} : null
  const cap = first?.capacityBytes ?? 0
  const dw = (b: number) => (cap > 0 ? b / cap : 0)
  return {
    fixedBytes: add(w => w.fixedBytes), timedWriteSec: {min: add(w => w.timedWriteSec.min), max: add(w => w.timedWriteSec.max)},
    rateBytesPerSec: first?.rateBytesPerSec ?? null, rateBasis: first?.rateBasis ?? 'no test', totalBytes: totals,
    driveWrites: totals ? {min: dw(totals.min), max: dw(totals.max)} : {min: dw(add(w => w.fixedBytes)), max: dw(add(w => w.fixedBytes))},
    capacityBytes: cap,
  }
}

/** One line per test of a suite: WIPC volume, bytes written (drive writes), stored size. Pure. */
export function suiteWritesText(parts: ReadonlyArray<{test: string; wipcBytes: number; writes: WriteEstimate; storedBytes: number}>): string {
  return parts.map(p => {
    const t = p.writes.totalBytes
    const written = t
      ? `writes ${formatDecimalGB(t.min)} to ${formatDecimalGB(t.max)} (${dwText(p.writes.driveWrites.min)} to ${dwText(p.writes.driveWrites.max)} drive writes)`
      : `writes ${formatDecimalGB(p.writes.fixedBytes)} plus ${formatDuration(p.writes.timedWriteSec.min)} to ${formatDuration(p.writes.timedWriteSec.max)} of writing`
    return `  ${p.test.padEnd(6)} WIPC ${p.wipcBytes === 0 ? 'none' : formatDecimalGB(p.wipcBytes)}, ${written}, stores up to ${formatDecimalGB(p.storedBytes)}`
  }).join('\n')
}
