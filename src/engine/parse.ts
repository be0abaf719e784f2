/**
 * fio JSON -> the project's measurement types. Pure. fio's units are converted here, once
 * (digest Part A 5): bandwidth bytes/s (fio bw_bytes), latency ns, runtime ms -> s.
 */

import {FioOutputError} from '../errors.js'
import * as M from '../messages.js'
import type {Measurement, PerSecondValue} from '../model/results.js'


/** The subset of one direction's fio statistics that pts reads. */
interface FioDir {
  io_bytes: number
  bw_bytes: number
  iops: number
  runtime: number
  total_ios: number
  lat_ns: {min: number; max: number; mean: number; N?: number; percentile?: Record<string, number>; bins?: Record<string, number>}
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
  /**
   * The step's measurement: the one (group-reported) job, or the jobs of an output reported per
   * job (group_reporting=0, continuous streams) added up as fio's group report does.
   */
  measurement: Measurement
  /** Each job of the output (one with group_reporting=1; one per job section without it). */
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
  const groups = json.jobs.map((j, i) => ({jobName: j.jobname, measurement: measurementOf(j, `jobs/${i}`), clatBins: clatBins(j), latBins: latBins(j)}))
  return {
    fioVersion: json['fio version'],
    timestampMs: json.timestamp_ms,
    preamble,
    measurement: groups.length === 1 ? groups[0].measurement : mergedMeasurement(json.jobs),
    groups,
  }
}

/**
 * Several jobs reported one by one, added up exactly as fio's group report adds them (stat.c
 * sum_thread_stats and add_ddir_status_json): per direction the bytes and IOs are summed and the
 * runtime is the longest, bw_bytes = 1000 x bytes / runtime (integer), IOPS = 1000 x IOs / runtime;
 * the mean latency is IO-weighted, the maximum the largest; the 99.999th percentile is taken over
 * the jobs' pooled "mixed" latency bins (json+ output) by fio's own rule (stat.c
 * calc_clat_percentiles), null without bins.
 */
export function mergedMeasurement(jobs: readonly FioJobJson[]): Measurement {
  const each = jobs.map((j, i) => ({j, m: measurementOf(j, `jobs/${i}`)}))
  const dirSum = (d: 'read' | 'write') => {
    const bytes = jobs.reduce((a, j) => a + j[d].io_bytes, 0)
    const ios = jobs.reduce((a, j) => a + j[d].total_ios, 0)
    const runt = Math.max(...jobs.map(j => j[d].runtime))
    return {bytes, ios, iops: runt ? (1000 * ios) / runt : 0, bw: runt ? Math.floor((1000 * bytes) / runt) : 0}
  }
  const r = dirSum('read')
  const w = dirSum('write')
  const ioCount = r.ios + w.ios
  const latSum = jobs.reduce((a, j) => a + j.read.lat_ns.mean * j.read.total_ios + j.write.lat_ns.mean * j.write.total_ios, 0)
  const bins = jobs.map(j => j.mixed?.lat_ns?.bins)
  const samples = each.reduce((a, x) => a + x.m.latPercentileSamples, 0)
  return {
    iops: r.iops + w.iops,
    readIops: r.iops,
    writeIops: w.iops,
    bwBytesPerSec: r.bw + w.bw,
    readBwBytesPerSec: r.bw,
    writeBwBytesPerSec: w.bw,
    readBytes: r.bytes,
    writeBytes: w.bytes,
    ioCount,
    latMeanNs: ioCount === 0 ? 0 : latSum / ioCount,
    latMaxNs: Math.max(...each.map(x => x.m.latMaxNs)),
    latP99999Ns: bins.every(b => b !== undefined) ? binPercentile(bins as Array<Record<string, number>>, 99.999) : null,
    latPercentileSamples: samples,
    runtimeSec: Math.max(...each.map(x => x.m.runtimeSec)),
  }
}

/**
 * A percentile of pooled fio latency bins ({"<ns>": count}, json+), as fio computes it: the value
 * of the first bin at which the running count reaches pct/100 of all samples; null without samples.
 */
export function binPercentile(binSets: ReadonlyArray<Record<string, number>>, pct: number): number | null {
  const pooled = new Map<number, number>()
  for (const b of binSets) for (const [k, v] of Object.entries(b)) pooled.set(Number(k), (pooled.get(Number(k)) ?? 0) + v)
  const sorted = [...pooled.entries()].sort((a, b) => a[0] - b[0])
  const total = sorted.reduce((a, [, v]) => a + v, 0)
  if (total === 0) return null
  let sum = 0
  for (const [k, v] of sorted) {
    sum += v
    if (sum >= (pct / 100) * total) return k
  }
  return sorted.at(-1)![0]
}

/** Each job's read and write bytes, by job name (the per-thread accounting of a stream sample). */
export function jobBytes(p: ParsedFio): Map<string, {readBytes: number; writeBytes: number}> {
  return new Map(p.groups.map(g => [g.jobName, {readBytes: g.measurement.readBytes, writeBytes: g.measurement.writeBytes}]))
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

/**
 * The top (upper bound) of fio's latency histogram bucket `idx`, ns: fio keeps latencies in
 * log-linear buckets of 64 per power of two (stat.h FIO_IO_U_PLAT_BITS 6, 29 groups: 1,856
 * buckets, the columns of a write_hist_log line); buckets below 128 hold one value each
 * (stat.c plat_idx_to_val), a bucket above covers 2^(group-1) values from its group's base.
 */
export function histBucketTopNs(idx: number): number {
  const BITS = 6
  const VAL = 1 << BITS
  if (idx < VAL * 2) return idx
  const errorBits = (idx >> BITS) - 1
  const base = 2 ** (errorBits + BITS)
  const k = idx % VAL
  return base + (k + 1) * 2 ** errorBits
}

/** A fio log line: "time ms, value, direction, block size, offset[, priority]". */
function logRows(text: string): Array<{s: number; v: number; dir: number}> {
  const out: Array<{s: number; v: number; dir: number}> = []
  for (const line of text.split('\n')) {
    const f = line.split(',')
    if (f.length < 3) continue
    const ms = Number(f[0])
    const v = Number(f[1])
    const dir = Number(f[2])
    if (!Number.isFinite(ms) || !Number.isFinite(v) || !Number.isFinite(dir)) continue
    out.push({s: Math.round(ms / 1000), v, dir})
  }
  return out
}

/** Which fio log a file is, from fio's name "<prefix>_<kind>.<job>.log". */
export function perSecondLogKind(name: string): {kind: 'iops' | 'bw' | 'lat' | 'clat' | 'slat' | 'clat_hist'; job: number} | null {
  const m = /_(iops|bw|lat|clat|slat|clat_hist)\.(\d+)\.log$/.exec(name)
  return m ? {kind: m[1] as 'iops', job: Number(m[2])} : null
}

/**
 * The per-second trace of one step from the logs fio wrote for it with write_iops_log,
 * write_bw_log, write_lat_log (log_avg_msec=1000) and write_hist_log (log_hist_msec=1000): one
 * value per second that fio's IOPS log has, every job and direction added up. fio averages each
 * log over 1-second windows and writes a window when it is full, so a step of N s has at most
 * N - 1 seconds traced (the last, partial, second is in no IOPS log; the latency log has it, and
 * is not used for it). Mean latency: the latency log's window mean of each job and direction,
 * weighted by that window's IOs; maximum: the top of the highest non-empty bucket of the
 * histogram log's windows of that second (completion latency; fio's histogram has no
 * submission part). Pure.
 */
export function perSecondTrace(files: ReadonlyArray<{name: string; text: string}>): PerSecondValue[] {
  /** Per second: "job/direction" -> the window's first logged value (fio repeats a window only in its final flush). */
  const bySec = (m: Map<number, Map<string, number>>, s: number, k: string, v: number) => {
    let e = m.get(s)
    if (!e) m.set(s, (e = new Map()))
    if (!e.has(k)) e.set(k, v)
  }
  const iops = new Map<number, Map<string, number>>()
  const lat = new Map<number, Map<string, number>>()
  const bw = new Map<number, Map<string, number>>()
  const max = new Map<number, number>()
  for (const f of files) {
    const kind = perSecondLogKind(f.name)
    if (!kind) continue
    if (kind.kind === 'clat_hist') {
      // "time ms, direction, block size, bucket 0, ..., bucket 1855": IOs completed in the window per bucket
      for (const line of f.text.split('\n')) {
        const cols = line.split(',')
        if (cols.length < 4) continue
        const s = Math.round(Number(cols[0]) / 1000)
        if (!Number.isFinite(s)) continue
        let top = -1
        for (let i = cols.length - 1; i >= 3; i--) if (Number(cols[i]) > 0) { top = i - 3; break }
        max.set(s, Math.max(max.get(s) ?? 0, top < 0 ? 0 : histBucketTopNs(top)))
      }
      continue
    }
    const into = kind.kind === 'iops' ? iops : kind.kind === 'lat' ? lat : kind.kind === 'bw' ? bw : null
    if (into) for (const r of logRows(f.text)) bySec(into, r.s, `${kind.job}/${r.dir}`, r.v)
  }
  return [...iops.keys()].sort((a, b) => a - b).map(s => {
    const io = iops.get(s)!
    let n = 0
    let latSum = 0
    let latN = 0
    for (const [k, v] of io) {
      n += v
      const l = lat.get(s)?.get(k)
      if (l !== undefined && v > 0) { latSum += l * v; latN += v }
    }
    const b = [...(bw.get(s)?.values() ?? [])].reduce((a, x) => a + x * 1024, 0)
    const mx = max.get(s) ?? 0
    return {s, iops: n, bwBytesPerSec: b, latMeanNs: latN > 0 ? latSum / latN : null, latMaxNs: mx > 0 ? mx : null}
  })
}
