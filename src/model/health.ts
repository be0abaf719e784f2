/**
 * Drive health and temperature of a run (results.json `health`; runner/health.ts records it,
 * device/parse-health.ts parses the tools' output, analysis/health.ts derives the deltas and
 * warnings, the report's "Drive Health and Temperature" page shows them). Types only.
 */

/** What the run reads of one health log. */
export interface HealthFacts {
  source: 'nvme-cli' | 'smartctl'
  protocol: 'NVMe' | 'ATA' | 'SCSI' | null
  /** Composite / current temperature, degrees Celsius. */
  temperatureC: number | null
  /** NVMe Critical Warning bit field (0: none); null on ATA/SCSI. */
  criticalWarning: number | null
  /** The drive's overall SMART verdict (smartctl smart_status.passed). */
  smartPassed: boolean | null
  /** Bytes the host wrote, by the drive's own count (NVMe Data Units Written x 512,000; SCSI write gigabytes processed; ATA device statistics). */
  hostBytesWritten: number | null
  /** The unit of that count in bytes (NVMe 512,000; SCSI 1,000,000: the log gives GB to 3 decimals). */
  hostBytesWrittenUnit: number | null
  /** ATA only: a host-writes SMART attribute whose unit the vendor defines (e.g. 241 Total_LBAs_Written: 32 MiB on Intel drives). */
  hostWritesAttribute: {id: number; name: string; raw: number} | null
  /** Media and data integrity errors (NVMe), uncorrected read + write errors (SCSI), Reported_Uncorrect or Offline_Uncorrectable (ATA). */
  mediaErrors: number | null
  /** NVMe Percentage Used / SCSI endurance indicator, percent of the rated life (may exceed 100). */
  percentageUsed: number | null
  availableSparePct: number | null
  powerOnHours: number | null
  powerCycles: number | null
  unsafeShutdowns: number | null
  errorLogEntries: number | null
  /** NVMe: minutes above the warning / critical composite temperature threshold. */
  warningTempMinutes: number | null
  criticalTempMinutes: number | null
  /** NVMe Thermal Management Temperature 1 + 2 transition counts (host-controlled thermal throttling); nvme-cli only (smartctl does not print them). */
  thermalTransitions: number | null
  /** NVMe total seconds in thermal management temperature 1 + 2. */
  thermalSeconds: number | null
}

/** One SMART / health log read: the tool's stdout is stored verbatim under raw/health/, sealed with the run. */
export interface HealthSnapshot {
  /** @format date-time */
  at: string
  /** The stored stdout (run-relative, under raw/health/). */
  raw: string
  argv: string[]
  /** The tool's exit code (null: it could not run or timed out). */
  exitCode: number | null
  /** What pts read of it; null when it could not be parsed (then `problem` says why). */
  facts: HealthFacts | null
  problem?: string
}

/** A temperature sample during the run (the same log, read while a fio step runs). */
export interface HealthSample {
  /** @format date-time */
  at: string
  raw: string
  temperatureC: number | null
  criticalWarning: number | null
  thermalTransitions: number | null
  warningTempMinutes: number | null
}

export interface DriveHealth {
  /** The health log could be read (before the test): false means "not available", with `reason`. */
  available: boolean
  /** Why there is no health log (a file or loop target, a missing tool, a device without one). */
  reason: string | null
  tool: 'nvme-cli' | 'smartctl' | null
  /** The device the log is read from (an NVMe namespace's controller log through the namespace). */
  device: string | null
  /** Seconds between temperature samples during the run (pts run --health-interval). @exclusiveMinimum 0 */
  intervalSec: number
  before: HealthSnapshot | null
  after: HealthSnapshot | null
  samples: HealthSample[]
  /** Samples that failed (the tool's error), kept short: at most the first 20. */
  problems: string[]
}

/** The NVMe Critical Warning bits (NVMe base spec, SMART / Health Information log, byte 0), in words. */
export function criticalWarningText(bits: number): string {
  const names = ['available spare below threshold', 'temperature above or below a threshold', 'NVM subsystem reliability degraded', 'media placed in read-only mode', 'volatile memory backup device failed', 'persistent memory region unreliable']
  const on = names.filter((_, i) => (bits >> i) & 1)
  return `0x${bits.toString(16).padStart(2, '0')}${on.length ? ` (${on.join('; ')})` : ''}`
}
