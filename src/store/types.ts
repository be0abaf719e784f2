/**
 * What a run stores besides results.json (program/results.ts, schemas/program-result.schema.json):
 * manifest.json, validated by schemas/run-manifest.schema.json. Reports, audits and comparisons are built from these files
 * and raw/, never from the memory of a live run.
 */
import type {Integrity} from './integrity.js'

export type RunStatus = 'running' | 'complete' | 'failed' | 'interrupted'

export interface DeviceIdentity {
  vendor: string | null
  model: string | null
  serial: string | null
  firmware: string | null
  capacityBytes: number
  interface: string
  logicalSectorBytes: number
  physicalSectorBytes: number
  rotational: boolean | null
  writeCache: string
}

export interface RunManifest {
  schemaVersion: 1
  runId: string
  test: string
  revision: string
  profile: string
  argv: string[]
  cwd: string
  status: RunStatus
  createdAt: string
  finishedAt: string | null
  pid: number
  tool: {name: 'pts'; version: string}
  fio: {path: string; version: string}
  node: string
  host: {hostname: string; cpu: string; cores: number; memoryBytes: number; os: string; kernel: string; arch: string}
  target: {kind: 'file' | 'block'; path: string; sizeBytes: number; identity: DeviceIdentity}
  compliance: {compliant: boolean; reasons: string[]}
  deviations: string[]
  events: Array<{at: string; event: string; detail: string}>
  error: null | {message: string; exit: number}
  /** SHA-256 of results.json and every raw file, written when the run ends (absent while it runs or after a crash). */
  integrity?: Integrity | null
}
