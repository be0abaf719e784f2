/**
 * Pure parser for `lsblk -J -b -O` (util-linux >= 2.37 prints booleans and numbers as JSON values;
 * older releases print "0"/"1" strings, which are accepted too).
 */

export interface LsblkNode {
  name: string
  kname: string
  path: string
  type: string
  sizeBytes: number
  model: string | null
  vendor: string | null
  serial: string | null
  rev: string | null
  tran: string | null
  fstype: string | null
  pttype: string | null
  mountpoints: string[]
  readOnly: boolean
  rotational: boolean | null
  logicalSectorBytes: number | null
  physicalSectorBytes: number | null
  discardGranularityBytes: number | null
  discardZeroes: boolean | null
  hotplug: boolean | null
  subsystems: string | null
  children: LsblkNode[]
}

type Raw = Record<string, unknown>

function str(v: unknown): string | null {
  if (v === null || v === undefined) return null
  const s = String(v).trim()
  return s === '' ? null : s
}

function num(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null
  const n = typeof v === 'number' ? v : Number(v)
  return Number.isFinite(n) ? n : null
}

function bool(v: unknown): boolean | null {
  if (v === null || v === undefined) return null
  if (typeof v === 'boolean') return v
  if (v === '1' || v === 1) return true
  if (v === '0' || v === 0) return false
  return null
}

function node(r: Raw): LsblkNode {
  const mps = Array.isArray(r.mountpoints) ? r.mountpoints : [r.mountpoint]
  const name = str(r.name) ?? ''
  return {
    name,
    kname: str(r.kname) ?? name,
    path: str(r.path) ?? `/dev/${name}`,
    type: str(r.type) ?? 'unknown',
    sizeBytes: num(r.size) ?? 0,
    model: str(r.model),
    vendor: str(r.vendor),
    serial: str(r.serial),
    rev: str(r.rev),
    tran: str(r.tran),
    fstype: str(r.fstype),
    pttype: str(r.pttype),
    mountpoints: mps.map(str).filter((m): m is string => m !== null),
    readOnly: bool(r.ro) ?? false,
    rotational: bool(r.rota),
    logicalSectorBytes: num(r['log-sec']),
    physicalSectorBytes: num(r['phy-sec']),
    discardGranularityBytes: num(r['disc-gran']),
    discardZeroes: bool(r['disc-zero']),
    hotplug: bool(r.hotplug),
    subsystems: str(r.subsystems),
    children: Array.isArray(r.children) ? (r.children as Raw[]).map(node) : [],
  }
}

export function parseLsblk(json: string): LsblkNode[] {
  const data = JSON.parse(json) as {blockdevices?: Raw[]}
  if (!data || !Array.isArray(data.blockdevices)) throw new Error('lsblk JSON has no "blockdevices" array')
  return data.blockdevices.map(node)
}

/** Every node below `n` (children, grandchildren: partitions, LVM volumes, dm-crypt, md arrays). */
export function descendants(n: LsblkNode): LsblkNode[] {
  return n.children.flatMap(c => [c, ...descendants(c)])
}
