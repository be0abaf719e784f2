/**
 * Progress on stderr: phase, round n of max, current point, elapsed, ETA, last tracking values
 * and the steady-state status. One rewritten line on a terminal; plain lines otherwise.
 */
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

export class Progress {
  private readonly startMs = Date.now()
  private readonly tty: boolean
  private lastPlainMs = 0
  private lastLine = ''

  constructor(private readonly out: NodeJS.WriteStream = process.stderr, private readonly quiet = false, private readonly plainEverySec = 0) {
    this.tty = Boolean(out.isTTY)
  }

  line(s: ProgressState): string {
    const parts = [`[${formatDuration((Date.now() - this.startMs) / 1000)}]`, s.phase]
    if (s.round !== undefined) parts.push(`round ${s.round}/${s.maxRounds ?? '∞'}`)
    if (s.point) parts.push(`point ${s.point.index}/${s.point.of} ${s.point.label}`)
    if (s.etaSec) parts.push(`ETA ${formatDuration(s.etaSec.min)}${s.etaSec.max !== null && s.etaSec.max !== s.etaSec.min ? `..${formatDuration(s.etaSec.max)}` : ''}`)
    if (s.tracking) parts.push(s.tracking)
    if (s.steady) parts.push(s.steady)
    return parts.join(' | ')
  }

  update(s: ProgressState, important = false): void {
    if (this.quiet) return
    const text = this.line(s)
    if (this.tty) {
      const cols = this.out.columns || 120
      this.out.write(`\r\x1b[2K${text.slice(0, cols - 1)}`)
      if (important) this.out.write('\n')
      this.lastLine = text
      return
    }
    const now = Date.now()
    if (important || now - this.lastPlainMs >= this.plainEverySec * 1000) {
      this.out.write(`${text}\n`)
      this.lastPlainMs = now
    }
  }

  /** A message on its own line. */
  note(msg: string): void {
    if (this.quiet) return
    if (this.tty && this.lastLine) this.out.write('\r\x1b[2K')
    this.out.write(`${msg}\n`)
    this.lastLine = ''
  }

  done(): void {
    if (this.tty && this.lastLine && !this.quiet) this.out.write('\n')
    this.lastLine = ''
  }
}
