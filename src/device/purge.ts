/**
 * Purge (digest Part A 8, B §2.2): runs the choice device/purge-plan.ts made (pure), checking every exit status.
 * NVMe: sanitize (block / crypto erase, polled) or Format NVM with SES 1 or 2 (never SES 0).
 * ATA: SECURITY ERASE UNIT (temporary password; enhanced where supported) or SANITIZE.
 * SCSI: SANITIZE or FORMAT UNIT. Fallbacks discard / zero / none are deviations.
 */
import {runTool, runToolBytes, type ToolOutput} from '../proc.js'
import {readFileSync} from 'node:fs'
import {parseNvmeSanitizeLog} from './parse-nvme.js'
import {zeroSampleBlocks, type PurgeChoice, type PurgeFacts, type PurgeMethod} from './purge-plan.js'


export type StepOutput = ToolOutput

export interface PurgeResult {
  method: PurgeMethod
  ok: boolean
  deviation: string | null
  detail: string
  outputs: StepOutput[]
  verification: null | {checked: number; zeros: number; reportedZeroing: boolean | null; outcome: string}
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

/** Run a chosen purge. Every exit status is checked; a failure returns ok:false (stop before any write). */
export function runPurge(f: PurgeFacts, choice: PurgeChoice, opts: RunPurgeOptions = {}): PurgeResult {
  const outputs: StepOutput[] = []
  const res = (ok: boolean, detail: string, verification: PurgeResult['verification'] = null): PurgeResult =>
    ({method: choice.method, ok, deviation: choice.deviation, detail, outputs, verification})
  if (choice.refused) return res(false, choice.refused)
  const progress = opts.onProgress ?? (() => {})
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
  return res(true, `${choice.method} completed`)
}
