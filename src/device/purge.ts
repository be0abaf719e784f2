/**
 * Purge (digest Part A 8, B §2.2): runs the choice device/purge-plan.ts made (pure), checking every exit status.
 * NVMe: sanitize (block / crypto erase, polled) or Format NVM with SES 1 or 2 (never SES 0).
 * ATA: SECURITY ERASE UNIT (temporary password; enhanced where supported) or SANITIZE.
 * SCSI: SANITIZE or FORMAT UNIT. Fallbacks discard / zero / none are deviations.
 */
import {runTool, runToolBytes, type ToolOutput} from '../proc.js'
import {closeSync, fsyncSync, openSync, readFileSync, writeSync} from 'node:fs'
import {randomBytes} from 'node:crypto'
import {parseNvmeSanitizeLog} from './parse-nvme.js'
import {COMPLIANT, zeroSampleBlocks, type PurgeChoice, type PurgeFacts, type PurgeMethod} from './purge-plan.js'


export type StepOutput = ToolOutput

export interface PurgeResult {
  method: PurgeMethod
  ok: boolean
  deviation: string | null
  detail: string
  outputs: StepOutput[]
  verification: null | {
    checked: number
    zeros: number
    reportedZeroing: boolean | null
    outcome: string
    /** A PTS purge: 4 KiB blocks pts wrote a random pattern to before the purge, and how many still held it after. */
    patternBlocks?: number
    patternLeft?: number
  }
}

export interface RunPurgeOptions {
  onProgress?: (msg: string, fraction: number | null) => void
  /** Give up polling after this long (default 24 h). */
  pollTimeoutMs?: number
  pollIntervalMs?: number
  /** Per-command timeout for non-polling steps (default 6 h: SCSI format / ATA erase of big disks). */
  stepTimeoutMs?: number
  /** Number of 4 KiB sample reads for discard verification (default 16). */
  samples?: number
  sizeBytes?: number
}

const run = runTool

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}


/** Sample 4 KiB O_DIRECT reads (zeroSampleBlocks); count how many are all zeros. */
export function sampleZeroReads(path: string, sizeBytes: number, samples: number, outputs?: StepOutput[], seed = 0x5eed): {checked: number; zeros: number} {
  let checked = 0, zeros = 0
  for (const blk of zeroSampleBlocks(Math.floor(sizeBytes / 4096), samples, seed)) {
    const argv = ['dd', `if=${path}`, 'bs=4096', 'count=1', `skip=${blk}`, 'iflag=direct', 'status=none']
    const r = runToolBytes(argv, 30_000)
    const out = r.stdout
    if (outputs) outputs.push({argv, code: r.code, stdout: `${out.length} bytes`, stderr: r.stderr, ms: r.ms})
    if (r.code !== 0 || out.length !== 4096) continue
    checked++
    if (out.every(b => b === 0)) zeros++
  }
  return {checked, zeros}
}

function discardZeroesReported(f: PurgeFacts): boolean | null {
  if (f.discardZeroes !== null) return f.discardZeroes
  try {
    const name = f.path.replace(/^\/dev\//, '')
    return readFileSync(`/sys/class/block/${name}/queue/discard_zeroes_data`, 'utf8').trim() === '1'
  } catch { return null }
}

/**
 * Before a PTS purge: a random pattern (each block its own) written to sampled 4 KiB blocks and
 * flushed, so that the read-back after the purge proves the data is gone. A tool's success is not
 * taken for erasure: SCSI FORMAT UNIT and ATA SECURITY ERASE can report success (hdparm exits 0
 * after the drive aborted) and leave the data; a crypto erase leaves random data, not zeros, so
 * what is checked is that no block still holds what was written.
 */
export function writeSamplePattern(path: string, blocks: number[], outputs?: StepOutput[]): Map<number, Buffer> {
  const written = new Map<number, Buffer>()
  const t0 = Date.now()
  const fd = openSync(path, 'r+')
  try {
    for (const b of blocks) {
      if (written.has(b)) continue
      const buf = randomBytes(4096)
      writeSync(fd, buf, 0, 4096, b * 4096)
      written.set(b, buf)
    }
    fsyncSync(fd)
  } finally { closeSync(fd) }
  outputs?.push({argv: ['(pts)', 'write-pattern', path, ...[...written.keys()].map(String)], code: 0, stdout: `${written.size} random 4 KiB blocks written and flushed before the purge`, stderr: '', ms: Date.now() - t0})
  return written
}

/** After the purge: read each patterned block back (O_DIRECT); count those still holding the pattern and those all zeros. */
export function readBackPattern(path: string, written: Map<number, Buffer>, outputs?: StepOutput[]): {checked: number; zeros: number; left: number} {
  let checked = 0, zeros = 0, left = 0
  for (const [blk, pattern] of written) {
    const argv = ['dd', `if=${path}`, 'bs=4096', 'count=1', `skip=${blk}`, 'iflag=direct', 'status=none']
    const r = runToolBytes(argv, 30_000)
    if (outputs) outputs.push({argv, code: r.code, stdout: `${r.stdout.length} bytes`, stderr: r.stderr, ms: r.ms})
    if (r.code !== 0 || r.stdout.length !== 4096) continue
    checked++
    if (r.stdout.equals(pattern)) left++
    else if (r.stdout.every(b => b === 0)) zeros++
  }
  return {checked, zeros, left}
}

/** Run a chosen purge. Every exit status is checked; a failure returns ok:false (stop before any write). */
export function runPurge(f: PurgeFacts, choice: PurgeChoice, opts: RunPurgeOptions = {}): PurgeResult {
  const outputs: StepOutput[] = []
  const res = (ok: boolean, detail: string, verification: PurgeResult['verification'] = null): PurgeResult =>
    ({method: choice.method, ok, deviation: choice.deviation, detail, outputs, verification})
  if (choice.refused) return res(false, choice.refused)
  const progress = opts.onProgress ?? (() => {})
  const proof = COMPLIANT.has(choice.method) && (opts.sizeBytes ?? 0) >= 4096
  let pattern: Map<number, Buffer> | null = null
  if (proof) {
    try {
      pattern = writeSamplePattern(f.path, zeroSampleBlocks(Math.floor(opts.sizeBytes! / 4096), opts.samples ?? 16, 0x9a77e2), outputs)
    } catch (e) {
      return res(false, `the pattern that proves the purge could not be written to ${f.path}: ${(e as Error).message}`)
    }
  }
  const pollTimeout = opts.pollTimeoutMs ?? 24 * 3600_000
  const interval = opts.pollIntervalMs ?? 5000
  for (const step of choice.steps) {
    if (step.poll) {
      const t0 = Date.now()
      for (;;) {
        const o = run(step.argv, 60_000)
        outputs.push(o)
        if (o.code !== 0) return res(false, `${step.argv.join(' ')} exited ${o.code}: ${o.stderr.trim()}`)
        if (step.poll === 'nvme-sanitize-log') {
          let log
          try { log = parseNvmeSanitizeLog(o.stdout) } catch (e) { return res(false, `unreadable sanitize log: ${(e as Error).message}`) }
          if (log.state === 'failed') return res(false, `NVMe sanitize failed (SSTAT 0x${log.sstat.toString(16)})`)
          if (log.state === 'completed' || log.state === 'completed-no-deallocate') break
          progress(`sanitize ${log.progress === null ? '' : `${(log.progress * 100).toFixed(1)} %`}`.trim(), log.progress)
        } else {
          const txt = o.stdout + o.stderr
          if (/fail|abort/i.test(txt) && !/in progress/i.test(txt)) return res(false, `ATA sanitize failed: ${txt.trim()}`)
          if (!/in progress/i.test(txt)) break
          const m = /(\d+(?:\.\d+)?)\s*%/.exec(txt)
          progress('sanitize in progress', m ? Number(m[1]) / 100 : null)
        }
        if (Date.now() - t0 > pollTimeout) return res(false, `purge did not complete within ${Math.round(pollTimeout / 1000)} s`)
        sleep(interval)
      }
      continue
    }
    progress(step.why, null)
    const o = run(step.argv, opts.stepTimeoutMs ?? 6 * 3600_000)
    outputs.push(o)
    if (o.code !== 0 && !step.optional) {
      if (choice.method.startsWith('ata-secure') && step !== choice.steps[0]) {
        // the temporary password was set but the erase failed: clear it again
        const pw = choice.steps[0].argv[4]
        outputs.push(run(['hdparm', '--user-master', 'u', '--security-disable', pw, f.path], 60_000))
      }
      return res(false, `${step.argv.join(' ')} exited ${o.code === null ? '(not started or timed out)' : o.code}: ${o.stderr.trim()}`)
    }
  }
  if (choice.method === 'discard') {
    const reported = discardZeroesReported(f)
    if (reported !== true) return res(true, 'discard completed', {checked: 0, zeros: 0, reportedZeroing: reported, outcome: reported === false ? 'not checked: the device does not report that discarded blocks read back as zeros' : 'not reported: the device does not say whether discarded blocks read back as zeros'})
    const v = sampleZeroReads(f.path, opts.sizeBytes ?? 0, opts.samples ?? 16, outputs)
    const okV = v.checked > 0 && v.zeros === v.checked
    return res(okV, okV ? 'discard completed and verified' : 'discard completed but sampled blocks do not read back as zeros', {...v, reportedZeroing: true, outcome: okV ? `${v.zeros}/${v.checked} sampled 4 KiB blocks read back as zeros` : `only ${v.zeros}/${v.checked} sampled blocks read back as zeros`})
  }
  if (choice.method === 'zero') {
    const v = sampleZeroReads(f.path, opts.sizeBytes ?? 0, opts.samples ?? 16, outputs)
    const okV = v.checked > 0 && v.zeros === v.checked
    return res(okV, okV ? 'zero fill completed and verified' : 'zero fill completed but sampled blocks are not zero', {...v, reportedZeroing: null, outcome: `${v.zeros}/${v.checked} sampled 4 KiB blocks read back as zeros`})
  }
  if (pattern) {
    const v = readBackPattern(f.path, pattern, outputs)
    const base = {checked: v.checked, zeros: v.zeros, reportedZeroing: null, patternBlocks: pattern.size, patternLeft: v.left}
    if (v.checked < pattern.size) return res(false, `${choice.method} reported success, but only ${v.checked} of the ${pattern.size} sampled 4 KiB blocks could be read back, so the erasure is not proven`, {...base, outcome: `${v.checked}/${pattern.size} sampled blocks readable`})
    if (v.left > 0 && choice.method.startsWith('ata-secure')) {
      // hdparm exits 0 when the drive aborted the erase: the temporary password may still be set
      outputs.push(run(['hdparm', '--user-master', 'u', '--security-disable', choice.steps[0].argv[4], f.path], 60_000))
    }
    if (v.left > 0) return res(false, `${choice.method} reported success, but ${v.left} of the ${pattern.size} sampled 4 KiB blocks still hold the data pts wrote to them just before: the device did not erase them (it accepts the command without implementing it); choose another --purge method`, {...base, outcome: `${v.left}/${pattern.size} sampled blocks still hold the data written before the purge`})
    return res(true, `${choice.method} completed and verified`, {...base, outcome: `none of the ${pattern.size} sampled 4 KiB blocks holds the data written before the purge (${v.zeros} read back as zeros)`})
  }
  return res(true, `${choice.method} completed`)
}
