/**
 * What a run stores besides results.json (model/results.ts, schemas/program-result.schema.json):
 * manifest.json, validated by schemas/run-manifest.schema.json. Reports, audits and comparisons are built from these files
 * and raw/, never from the memory of a live run.
 */
import type {ProfileId, Revision, TestId} from './tests.js'

export type RunStatus = 'running' | 'complete' | 'failed' | 'interrupted'

export interface DeviceIdentity {
  vendor: string | null
  model: string | null
  serial: string | null
  firmware: string | null
  /** @integer */
  capacityBytes: number
  interface: string
  /** @integer */
  logicalSectorBytes: number
  /** @integer */
  physicalSectorBytes: number
  rotational: boolean | null
  writeCache: string
  /**
   * PCIe link of the device's own controller (NVMe), as sysfs prints current_link_speed (e.g.
   * "8.0 GT/s PCIe"). Absent when the target has none (a file, a loop or virtio device; a SATA/SAS
   * drive: see hostAdapterPcieLink) and in runs of older versions.
   */
  pcieLinkSpeed?: string
  /** Lanes of that link (current_link_width). @integer @minimum 1 */
  pcieLinkWidth?: number
  /** What the link can do (max_link_speed), when sysfs says. */
  pcieMaxLinkSpeed?: string
  /** @integer @minimum 1 */
  pcieMaxLinkWidth?: number
  /** A drive behind a host adapter (SATA, SAS, USB): the adapter's PCIe link, e.g. "8.0 GT/s PCIe x8 (0000:00:17.0)". */
  hostAdapterPcieLink?: string
  /** NUMA node of the device (numa_node of its PCI function); absent when the platform reports none (-1). @integer @minimum 0 */
  numaNode?: number
  /** The active I/O scheduler of the device's queue (queue/scheduler, e.g. "none", "mq-deadline"). */
  ioScheduler?: string
}

/** What the operator tells the report (pts run --operator, --vendor, --notes). */
export interface RunMetadata {
  /** Who ran the test: the report's "Tested By". @minLength 1 */
  operator?: string
  /** Vendor of the device under test, for the report (the device often reports none). @minLength 1 */
  vendor?: string
  /** A short note for the report's Test Platform block. @minLength 1 */
  notes?: string
}

export interface RunManifest {
  schemaVersion: 1
  /** @minLength 1 */
  runId: string
  test: TestId
  revision: Revision
  profile: ProfileId
  argv: string[]
  cwd: string
  status: RunStatus
  /** @format date-time */
  createdAt: string
  /** @format date-time */
  finishedAt: string | null
  /** @integer */
  pid: number
  tool: {name: 'pts'; version: string}
  fio: {path: string; version: string}
  node: string
  host: {
    hostname: string
    cpu: string
    /** @integer */
    cores: number
    /** @integer */
    memoryBytes: number
    os: string
    kernel: string
    arch: string
  }
  target: {
    kind: 'file' | 'block'
    path: string
    /** @integer @minimum 0 */
    sizeBytes: number
    identity: DeviceIdentity
    /**
     * The device's write-cache state before pts first changed it, recorded (and saved) before the
     * change, so that a resume after pts was killed restores that state and not the one pts set.
     * Absent when pts did not read it (a file, a device whose cache cannot be read) and in runs of older versions.
     */
    writeCacheBefore?: {enabled: boolean; via: string; /** @format date-time */ at: string}
  }
  /** The operator's report metadata; absent when none was given and in runs of older versions. */
  metadata?: RunMetadata
  /** A lane of a multi-drive run (pts run with several --device): the drives tested at the same time and the host's CPU use; absent for a single-drive run. */
  concurrency?: RunConcurrency
  compliance: {compliant: boolean; reasons: string[]}
  deviations: string[]
  events: Array<{
    /** @format date-time */
    at: string
    event: string
    detail: string
  }>
  error: null | {
    message: string
    /** @integer */
    exit: number
  }
  /** SHA-256 of results.json and every raw file, written when the run ends (absent while it runs or after a crash). */
  integrity?: Integrity | null
}

// The seal (store/integrity.ts writes it, audit/checks.ts compares it).

export interface FileHash {
  /** @minLength 1 */
  path: string
  /** @integer @minimum 0 */
  bytes: number
  /** @pattern ^[0-9a-f]{64}$ */
  sha256: string
}

export interface Integrity {
  algorithm: 'sha256'
  /** @format date-time */
  sealedAt: string
  files: FileHash[]
}

export interface ManifestSignature {
  /** What was signed: the exact bytes of manifest.json. */
  signs: 'manifest.json'
  keyType: string
  /** SHA-256 of the public key (SPKI DER), hex: which key to verify with. */
  publicKeyFingerprint: string
  signedAt: string
  signatureBase64: string
}

/** The drives tested at the same time on this host (one lane each) and the host's CPU use while this lane ran. */
export interface RunConcurrency {
  /** The fleet directory that indexes the lanes (fleet.json). */
  fleet: string
  /** This lane's number in the fleet, from 1. @integer @minimum 1 */
  lane: number
  /** Every drive of the fleet (its --device), this one included, in lane order. */
  drives: string[]
  /** Host CPU use from /proc/stat, one entry per session of this lane (the run, then each resume). */
  hostCpu: HostCpuUse[]
}

/** CPU time of the whole host over an interval, in percent of all its CPUs' time. */
export interface HostCpuUse {
  /** @format date-time */
  from: string
  /** @format date-time */
  to: string
  /** @integer @minimum 1 */
  cpus: number
  /** @minimum 0 */
  userPct: number
  /** @minimum 0 */
  systemPct: number
  /** @minimum 0 */
  iowaitPct: number
  /** Everything but idle and iowait. @minimum 0 */
  busyPct: number
}

/** One /proc/stat "cpu" line's counters (clock ticks). */
export interface CpuTicks { user: number; nice: number; system: number; idle: number; iowait: number; irq: number; softirq: number; steal: number; cpus: number }

/** The "cpu" totals of a /proc/stat text (pure). */
export function parseProcStat(text: string): CpuTicks | null {
  const line = text.split('\n').find(l => /^cpu\s/.test(l))
  if (!line) return null
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
  if (![user, nice, system, idle].every(Number.isFinite)) return null
  const cpus = text.split('\n').filter(l => /^cpu\d+\s/.test(l)).length || 1
  return {user, nice, system, idle, iowait: iowait || 0, irq: irq || 0, softirq: softirq || 0, steal: steal || 0, cpus}
}

/** CPU use between two snapshots (pure); percentages rounded to 0.1. */
export function cpuUseBetween(a: CpuTicks, b: CpuTicks, from: string, to: string): HostCpuUse {
  const d = (k: keyof CpuTicks) => Math.max(0, b[k] - a[k])
  const total = (['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal'] as const).reduce((s, k) => s + d(k), 0)
  const pct = (v: number) => (total > 0 ? Math.round((1000 * v) / total) / 10 : 0)
  return {from, to, cpus: b.cpus, userPct: pct(d('user') + d('nice')), systemPct: pct(d('system') + d('irq') + d('softirq')), iowaitPct: pct(d('iowait')),
    busyPct: pct(total - d('idle') - d('iowait'))}
}
