/**
 * What a run stores besides results.json (program/results.ts, schemas/program-result.schema.json):
 * manifest.json, validated by schemas/run-manifest.schema.json. Reports, audits and comparisons are built from these files
 * and raw/, never from the memory of a live run.
 */

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

// The seal (store/integrity.ts writes it, audit/checks.ts compares it).

export interface FileHash { path: string; bytes: number; sha256: string }

export interface Integrity {
  algorithm: 'sha256'
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
