/**
 * Progress on stderr: phase, round n of max, current point, elapsed, ETA (with the wall-clock
 * finish time), last tracking values and the steady-state status.
 * - On a terminal: a progress bar (cli-progress) with percent, ETA and finish time, fitted to the
 *   terminal width; the steady-state status comes before the point detail, so only the detail is
 *   shortened when the line is too long. Several lanes (pts run --device A --device B): one line
 *   each (LaneBoard).
 * - Otherwise (a log): plain lines, each starting with the wall-clock time.
 * - In a lane of a multi-drive run (PTS_LANE_PROGRESS=1, set by the parent pts): one JSON line per
 *   update (LANE_MARK + JSON), which the parent draws on its lane's line.
 */
import cliProgress from 'cli-progress'
import {formatDuration} from './units.js'

export interface ProgressState {
  phase: string
  round?: number
  maxRounds?: number | null
  point?: {index: number; of: number; label: string}
  etaSec?: {min: number; max: number | null}
  tracking?: string
  steady?: string
}

/** What one progress line shows (pure input of progressLine). */
export interface LaneView {
  /** The lane's name (the drive) with several lanes; '' for a single run. */
  label: string
  /** 0..100, or null before anything is known. */
  pct: number | null
  etaSec: {min: number; max: number | null} | null
  /** Now, ms since the epoch (the finish time is now + ETA). */
  nowMs: number
  /** The steady-state status (kept whole whenever the width allows). */
  steady: string
  /** Phase, round, point, tracking values: shortened first. */
  detail: string
}

/** The prefix of a lane's JSON progress line on its stderr. */
export const LANE_MARK = '\u001epts-progress '

/** Percent done from the elapsed time and the minimum time left (the ETA's lower bound); below 100 until the run ends. */
export function percentDone(elapsedSec: number, eta: {min: number} | undefined | null): number | null {
  if (!eta) return null
  const total = elapsedSec + Math.max(0, eta.min)
  return total <= 0 ? 0 : Math.min(99.9, (100 * elapsedSec) / total)
}

/** HH:MM (UTC) of an instant, with the day when it is not today's. */
export function clockTime(ms: number, nowMs: number): string {
  const d = new Date(ms)
  const hm = d.toISOString().slice(11, 16)
  return new Date(nowMs).toISOString().slice(0, 10) === d.toISOString().slice(0, 10) ? `${hm}Z` : `${d.toISOString().slice(5, 10)} ${hm}Z`
}

export function etaText(eta: {min: number; max: number | null}, nowMs: number): string {
  const range = eta.max !== null && Math.round(eta.max) !== Math.round(eta.min)
  const dur = `${formatDuration(eta.min)}${range ? `..${formatDuration(eta.max!)}` : ''}`
  const at = `${clockTime(nowMs + eta.min * 1000, nowMs)}${range ? `..${clockTime(nowMs + eta.max! * 1000, nowMs)}` : ''}`
  return `ETA ${dur} (done ${at})`
}

/** 1h05m, 5m30s, 12s: the terminal line's short durations. */
export function shortDuration(sec: number): string {
  const s = Math.max(0, Math.round(sec))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}

/** The ETA from the longest to the shortest form (the last: none). */
function etaForms(eta: LaneView['etaSec'], nowMs: number): string[] {
  if (!eta) return ['']
  const range = eta.max !== null && Math.round(eta.max) !== Math.round(eta.min)
  const at = (sec: number) => clockTime(nowMs + sec * 1000, nowMs)
  return [
    etaText(eta, nowMs),
    ...(range ? [`ETA ${shortDuration(eta.min)}..${shortDuration(eta.max!)} (done ${at(eta.min)}..${at(eta.max!)})`] : []),
    `ETA ${shortDuration(eta.min)} (done ${at(eta.min)})`,
    `ETA ${shortDuration(eta.min)}`,
    '',
  ]
}

function cut(s: string, n: number): string {
  if (n <= 0) return ''
  return s.length <= n ? s : n === 1 ? '…' : `${s.slice(0, n - 1)}…`
}

/**
 * One progress line of at most `width` - 1 characters (pure): [label] bar pct | ETA (done at) |
 * steady-state status | detail. The detail is shortened first, then the bar, then the status.
 */
export function progressLine(width: number, v: LaneView): string {
  const max = Math.max(20, width) - 1
  const label = v.label ? `${v.label} ` : ''
  const pct = v.pct === null ? '  -% ' : `${String(Math.floor(v.pct)).padStart(3)}% `
  const head = `${label}${pct}`
  // the ETA in shorter forms until it fits beside the steady-state status
  const fixed = etaForms(v.etaSec, v.nowMs).map(e => [e, v.steady].filter(Boolean).join(' | ')).find(f => head.length + f.length + 2 <= max) ?? v.steady
  let room = max - head.length - (fixed ? fixed.length + 3 : 0)
  const barLen = Math.max(0, Math.min(30, room - 24 > 10 ? room - 24 : room >= 10 ? 10 : 0))
  room -= barLen ? barLen + 1 : 0
  const done = v.pct === null ? 0 : Math.round((barLen * v.pct) / 100)
  const bar = barLen ? `${'█'.repeat(done)}${'░'.repeat(barLen - done)} ` : ''
  const detail = v.detail && room > 4 ? ` | ${cut(v.detail, room - 3)}` : ''
  return cut(`${head}${bar}${fixed ? `| ${fixed}` : ''}${detail}`, max)
}

/** The detail part of a state: phase, round, point, tracking values. */
export function detailOf(s: ProgressState): string {
  const parts = [s.phase]
  if (s.round !== undefined) parts.push(`round ${s.round}/${s.maxRounds ?? '∞'}`)
  if (s.point) parts.push(`point ${s.point.index}/${s.point.of} ${s.point.label}`)
  if (s.tracking) parts.push(s.tracking)
  return parts.join(' | ')
}

/** The suite around a test (pts run all): which test, and the planned minimum/maximum of the tests after it. */
export interface SuitePosition { index: number; of: number; laterMinSec: number; laterMaxSec: number }

/** A state's ETA with the suite's later tests added. */
export function withSuite(eta: ProgressState['etaSec'], suite: SuitePosition | undefined): ProgressState['etaSec'] {
  if (!eta || !suite) return eta
  return {min: eta.min + suite.laterMinSec, max: eta.max === null ? null : eta.max + suite.laterMaxSec}
}

/** Terminal lines for one or more lanes, drawn by cli-progress (a MultiBar: one line per lane). */
export class LaneBoard {
  private readonly multi: cliProgress.MultiBar
  private readonly bars = new Map<string, cliProgress.SingleBar>()
  constructor(out: NodeJS.WriteStream) {
    this.multi = new cliProgress.MultiBar({
      stream: out, format: (_o, params, payload) => progressLine(params.maxWidth, payload as LaneView),
      hideCursor: false, gracefulExit: false, clearOnComplete: false, linewrap: false, fps: 4, autopadding: false,
    })
  }

  update(key: string, v: LaneView): void {
    let bar = this.bars.get(key)
    if (!bar) { bar = this.multi.create(1000, 0, v); this.bars.set(key, bar) }
    bar.update(Math.round((v.pct ?? 0) * 10), v)
  }

  /** A message above the lines. */
  log(msg: string): void { this.multi.log(msg.endsWith('\n') ? msg : `${msg}\n`) }

  stop(): void { this.multi.stop() }
}

export class Progress {
  private readonly startMs = Date.now()
  private readonly mode: 'tty' | 'plain' | 'lane'
  private lastPlainMs = 0
  private lastLaneMs = 0
  private board: LaneBoard | null = null
  private last: ProgressState | null = null

  constructor(private readonly out: NodeJS.WriteStream = process.stderr, private readonly quiet = false, private readonly plainEverySec = 0,
    private readonly suite?: SuitePosition) {
    this.mode = process.env.PTS_LANE_PROGRESS === '1' ? 'lane' : out.isTTY ? 'tty' : 'plain'
  }

  private elapsedSec(): number { return (Date.now() - this.startMs) / 1000 }

  private prefix(): string { return this.suite ? `test ${this.suite.index}/${this.suite.of} ` : '' }

  /** The plain (log) line: wall-clock time, elapsed, then the state. */
  line(s: ProgressState): string {
    const now = Date.now()
    const eta = withSuite(s.etaSec, this.suite)
    const parts = [`${new Date(now).toISOString().slice(11, 19)}Z [${formatDuration(this.elapsedSec())}] ${this.prefix()}${s.phase}`]
    if (s.round !== undefined) parts.push(`round ${s.round}/${s.maxRounds ?? '∞'}`)
    if (s.point) parts.push(`point ${s.point.index}/${s.point.of} ${s.point.label}`)
    if (eta) parts.push(`${etaText(eta, now)}${this.suite ? ' for the suite' : ''}`)
    if (s.tracking) parts.push(s.tracking)
    if (s.steady) parts.push(s.steady)
    return parts.join(' | ')
  }

  /** What the terminal line (or the parent's lane line) shows. */
  view(s: ProgressState): LaneView {
    const eta = withSuite(s.etaSec ?? this.last?.etaSec, this.suite)
    return {label: '', pct: percentDone(this.elapsedSec(), eta), etaSec: eta ?? null, nowMs: Date.now(), steady: s.steady ?? this.last?.steady ?? '',
      detail: `${this.prefix()}${detailOf(s)}`}
  }

  update(s: ProgressState, important = false): void {
    if (this.quiet) return
    const keep = {...s, steady: s.steady ?? this.last?.steady, etaSec: s.etaSec ?? this.last?.etaSec}
    this.last = keep
    const now = Date.now()
    if (this.mode === 'lane') {
      if (!important && now - this.lastLaneMs < 250) return
      this.lastLaneMs = now
      this.out.write(`${LANE_MARK}${JSON.stringify({view: this.view(keep), line: this.line(s), important})}\n`)
      return
    }
    if (this.mode === 'tty') {
      this.board ??= new LaneBoard(this.out)
      this.board.update('run', this.view(keep))
      return
    }
    if (important || now - this.lastPlainMs >= this.plainEverySec * 1000) {
      this.out.write(`${this.line(s)}\n`)
      this.lastPlainMs = now
    }
  }

  /** A message on its own line. */
  note(msg: string): void {
    if (this.quiet) return
    if (this.board) this.board.log(msg)
    else this.out.write(`${msg}\n`)
  }

  done(): void {
    this.board?.stop()
    this.board = null
  }
}
