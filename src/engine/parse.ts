/**
 * fio JSON -> the project's measurement types. Pure. fio's units are converted here, once
 * (digest Part A 5): bandwidth bytes/s (fio bw_bytes), latency ns, runtime ms -> s.
 */

export class FioOutputError extends Error {}

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
export interface Measurement {
  /** Total IOPS = read IOPS + write IOPS (digest Part A 4, never mix-weighted). @minimum 0 */
  iops: number
  /** @minimum 0 */
  readIops: number
  /** @minimum 0 */
  writeIops: number
  /** @minimum 0 */
  bwBytesPerSec: number
  /** @minimum 0 */
  readBwBytesPerSec: number
  /** @minimum 0 */
  writeBwBytesPerSec: number
  /** @integer @minimum 0 */
  readBytes: number
  /** @integer @minimum 0 */
  writeBytes: number
  /** @integer @minimum 0 */
  ioCount: number
  /** IO-count weighted mean of read and write total latency (digest Part A 4). @minimum 0 */
  latMeanNs: number
  /** Maximum total latency of any IO of the point. @minimum 0 */
  latMaxNs: number
  /** 99.999th percentile total latency over all IOs, with the IO count it was taken over. */
  latP99999Ns: number | null
  /** @integer @minimum 0 */
  latPercentileSamples: number
  /** @minimum 0 */
  runtimeSec: number
}

export interface ParsedFio {
  fioVersion: string
  timestampMs: number
  /** Lines before the JSON (fio notes); kept, never silently dropped. */
  preamble: string[]
  groups: Array<{jobName: string; measurement: Measurement}>
}

function dir(d: FioDir | undefined, where: string): DirectionStats {
  if (!d || typeof d.iops !== 'number' || typeof d.bw_bytes !== 'number' || !d.lat_ns || typeof d.lat_ns.mean !== 'number') {
    throw new FioOutputError(`fio JSON ${where}: missing iops, bw_bytes or lat_ns`)
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
  if (job.error) throw new FioOutputError(`fio reports error ${job.error} for ${where} ${job.jobname}`)
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
  if (start < 0) throw new FioOutputError('not fio JSON: no JSON object in the output')
  const preamble = text.slice(0, start).split('\n').filter(l => l.trim() !== '')
  let json: FioJson
  try {
    json = JSON.parse(text.slice(start)) as FioJson
  } catch (error) {
    throw new FioOutputError(`not valid fio JSON: ${(error as Error).message}`)
  }
  if (typeof json !== 'object' || json === null || typeof json['fio version'] !== 'string' || !Array.isArray(json.jobs) || json.jobs.length === 0) {
    throw new FioOutputError('not fio JSON: "fio version" or "jobs" missing')
  }
  return {
    fioVersion: json['fio version'],
    timestampMs: json.timestamp_ms,
    preamble,
    groups: json.jobs.map((j, i) => ({jobName: j.jobname, measurement: measurementOf(j, `jobs/${i}`)})),
  }
}
