/**
 * fio JSON -> the project's measurement types. Pure. fio's units are converted here, once
 * (digest Part A 5): bandwidth bytes/s (fio bw_bytes), latency ns, runtime ms -> s.
 */

import {FioOutputError} from '../errors.js'
import * as M from '../messages.js'
import type {Measurement} from '../model/results.js'


/** The subset of one direction's fio statistics that pts reads. */
interface FioDir {
  io_bytes: number
  bw_bytes: number
  iops: number
  runtime: number
  total_ios: number
  lat_ns: {min: number; max: number; mean: number; N?: number; percentile?: Record<string, number>}
}

interface FioJobJson {
  jobname: string
  error: number
  read: FioDir
  write: FioDir
  mixed?: FioDir
  job_runtime?: number
  elapsed?: number
}

export interface FioJson {
  'fio version': string
  timestamp_ms: number
  jobs: FioJobJson[]
}

export interface DirectionStats {
  ioCount: number
  ioBytes: number
  iops: number
  bwBytesPerSec: number
  latMeanNs: number
  latMaxNs: number
}

/** One test point as measured: the group_reported job of one fio run. */

export interface ParsedFio {
  fioVersion: string
  timestampMs: number
  /** Lines before the JSON (fio notes); kept, never silently dropped. */
  preamble: string[]
  groups: Array<{jobName: string; measurement: Measurement
    /** json+ output only: the read and write completion-latency bins ({"<ns>": count}) summed; undefined for plain JSON. */
    clatBins: Record<string, number> | undefined
    /**
     * json+ output with lat_percentiles=1 only: the total-latency (submission + completion, fio lat_ns) bins of every IO
     * ({"<ns>": count}; fio's "mixed" direction when present, else read + write summed); undefined otherwise.
     */
    latBins: Record<string, number> | undefined}>
}

function dir(d: FioDir | undefined, where: string): DirectionStats {
  if (!d || typeof d.iops !== 'number' || typeof d.bw_bytes !== 'number' || !d.lat_ns || typeof d.lat_ns.mean !== 'number') {
    throw new FioOutputError(M.fio.noMeasurement(where))
  }
  return {
    ioCount: d.total_ios,
    ioBytes: d.io_bytes,
    iops: d.iops,
    bwBytesPerSec: d.bw_bytes,
    latMeanNs: d.lat_ns.mean,
    latMaxNs: d.lat_ns.max,
  }
}

export function measurementOf(job: FioJobJson, where = 'job'): Measurement {
  if (job.error) throw new FioOutputError(M.fio.jobError(job.error, where, job.jobname))
  const r = dir(job.read, `${where}/read`)
  const w = dir(job.write, `${where}/write`)
  const ioCount = r.ioCount + w.ioCount
  const latMeanNs = ioCount === 0 ? 0 : (r.latMeanNs * r.ioCount + w.latMeanNs * w.ioCount) / ioCount
  const mixedPct = job.mixed?.lat_ns?.percentile
  const p = mixedPct?.['99.999000']
  const runtimeMs = Math.max(job.read.runtime, job.write.runtime)
  return {
    iops: r.iops + w.iops,
    readIops: r.iops,
    writeIops: w.iops,
    bwBytesPerSec: r.bwBytesPerSec + w.bwBytesPerSec,
    readBwBytesPerSec: r.bwBytesPerSec,
    writeBwBytesPerSec: w.bwBytesPerSec,
    readBytes: r.ioBytes,
    writeBytes: w.ioBytes,
    ioCount,
    latMeanNs,
    latMaxNs: Math.max(r.ioCount ? r.latMaxNs : 0, w.ioCount ? w.latMaxNs : 0),
    latP99999Ns: typeof p === 'number' ? p : null,
    latPercentileSamples: job.mixed?.lat_ns?.N ?? ioCount,
    runtimeSec: runtimeMs / 1000,
  }
}

/** Parse fio's --output-format=json output. Throws FioOutputError on anything that is not fio JSON. */
export function parseFioJson(text: string): ParsedFio {
  const start = text.search(/^\{/m)
  if (start < 0) throw new FioOutputError(M.fio.noJsonObject)
  const preamble = text.slice(0, start).split('\n').filter(l => l.trim() !== '')
  let json: FioJson
  try {
    json = JSON.parse(text.slice(start)) as FioJson
  } catch (error) {
    throw new FioOutputError(M.fio.invalidJson((error as Error).message))
  }
  if (typeof json !== 'object' || json === null || typeof json['fio version'] !== 'string' || !Array.isArray(json.jobs) || json.jobs.length === 0) {
    throw new FioOutputError(M.fio.notFioJson)
  }
  return {
    fioVersion: json['fio version'],
    timestampMs: json.timestamp_ms,
    preamble,
    groups: json.jobs.map((j, i) => ({jobName: j.jobname, measurement: measurementOf(j, `jobs/${i}`), clatBins: clatBins(j), latBins: latBins(j)})),
  }
}

/** Sum of the read and write completion-latency bins of one job of a fio json+ output (undefined when it has none). */
function clatBins(job: FioJobJson): Record<string, number> | undefined {
  const out: Record<string, number> = {}
  let any = false
  for (const d of [job.read, job.write] as Array<{clat_ns?: {bins?: Record<string, number>}} | undefined>) {
    const b = d?.clat_ns?.bins
    if (!b) continue
    any = true
    for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v
  }
  return any ? out : undefined
}

/**
 * The total-latency bins of one job of a fio json+ output (fio writes lat_ns.bins when lat_percentiles=1, stat.c
 * add_ddir_lat_json): the "mixed" direction (unified_rw_reporting=both: every IO once) when present, else read + write
 * summed; undefined when the output has none (plain JSON, or a run without lat_percentiles).
 */
function latBins(job: FioJobJson): Record<string, number> | undefined {
  type D = {lat_ns?: {bins?: Record<string, number>}} | undefined
  const mixed = (job.mixed as D)?.lat_ns?.bins
  if (mixed) return {...mixed}
  const out: Record<string, number> = {}
  let any = false
  for (const d of [job.read, job.write] as D[]) {
    const b = d?.lat_ns?.bins
    if (!b) continue
    any = true
    for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v
  }
  return any ? out : undefined
}

/** fio's IOPS log (write_iops_log): "time ms, IOPS, direction, block size, offset" per line -> [{ms, iops}]. */
export function parseIopsLog(text: string): Array<{ms: number; iops: number}> {
  return text.split('\n').map(l => l.trim()).filter(Boolean).map(l => {
    const [ms, v] = l.split(',').map(x => Number(x.trim()))
    return {ms, iops: v}
  }).filter(e => Number.isFinite(e.ms) && Number.isFinite(e.iops))
}

/** `key=value` lines of an fio job file, by section ("global" and the job's name). */
export function parseJobFile(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>()
  let cur: Map<string, string> | null = null
  for (const line of text.split('\n')) {
    const t = line.trim()
    if (t === '' || t.startsWith(';') || t.startsWith('#')) continue
    const sec = /^\[(.+)\]$/.exec(t)
    if (sec) { cur = new Map(); sections.set(sec[1], cur); continue }
    const eq = t.indexOf('=')
    if (cur) cur.set(eq < 0 ? t : t.slice(0, eq), eq < 0 ? '' : t.slice(eq + 1))
  }
  return sections
}

/** The runtime of a time_based job in seconds ("runtime=200ms", "runtime=60"); null when the job is not time-based or has none. */
export function jobRuntimeSec(text: string): number | null {
  const j = parseJobFile(text)
  if (jobValue(j, 'time_based') === undefined) return null
  const rt = jobValue(j, 'runtime')
  if (rt === undefined) return null
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(rt.trim())
  if (!m) return null
  return m[2] === 'ms' ? Number(m[1]) / 1000 : Number(m[1])
}

/** A job's effective value: its own section, else [global]. */
export function jobValue(sections: Map<string, Map<string, string>>, key: string): string | undefined {
  for (const [name, kv] of sections) if (name !== 'global' && kv.has(key)) return kv.get(key)
  return sections.get('global')?.get(key)
}
