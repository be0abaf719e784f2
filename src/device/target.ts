/**
 * Resolving a --device target into facts (I/O: stat, lsblk, sysfs). A target is a block device
 * path or file:<path>. Facts are then judged by the pure rules in safety.ts.
 */
import {spawnSync} from 'node:child_process'
import {closeSync, existsSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, statSync} from 'node:fs'
import {dirname} from 'node:path'
import {UnsafeTargetError, UsageError, MissingToolError} from '../errors.js'
import type {DeviceIdentity} from '../store/types.js'
import {blockDeviceRefusals, confirms, type BlockFacts} from './safety.js'

export interface ParsedTarget {
  kind: 'file' | 'block'
  path: string
}

export function parseTarget(device: string): ParsedTarget {
  if (device.startsWith('file:')) {
    const path = device.slice('file:'.length)
    if (!path) throw new UsageError('--device file: needs a path, e.g. file:/scratch/pts.img')
    return {kind: 'file', path}
  }
  if (!device.startsWith('/')) throw new UsageError(`--device ${device}: expected a block device path such as /dev/nvme1n1, or file:<path>`)
  return {kind: 'block', path: device}
}

interface LsblkDev {
  name: string; path: string; type: string; size: number; model: string | null; serial: string | null
  vendor: string | null; rev: string | null; mountpoints: Array<string | null>; fstype: string | null
  ro: boolean; rota: boolean; 'log-sec': number; 'phy-sec': number; tran: string | null
  children?: LsblkDev[]
}

function lsblk(path: string): LsblkDev {
  const r = spawnSync('lsblk', ['-J', '-b', '-o', 'NAME,PATH,TYPE,SIZE,MODEL,SERIAL,VENDOR,REV,MOUNTPOINTS,FSTYPE,RO,ROTA,LOG-SEC,PHY-SEC,TRAN', path], {encoding: 'utf8'})
  if (r.error) throw new MissingToolError('lsblk', 'util-linux')
  if (r.status !== 0) throw new UsageError(`${path} is not a block device lsblk knows: ${r.stderr.trim()}`)
  const dev = (JSON.parse(r.stdout) as {blockdevices: LsblkDev[]}).blockdevices[0]
  if (!dev) throw new UsageError(`lsblk reports nothing for ${path}`)
  return dev
}

function swaps(): string[] {
  try {
    return readFileSync('/proc/swaps', 'utf8').split('\n').slice(1).map(l => l.split(/\s+/)[0]).filter(Boolean)
  } catch { return [] }
}

function realOrSame(p: string): string {
  try { return realpathSync(p) } catch { return p }
}

export interface ResolvedTarget {
  kind: 'file' | 'block'
  path: string
  sizeBytes: number
  identity: DeviceIdentity
  facts: BlockFacts | null
  /** Set when the file does not exist yet and will be created with this size. */
  createBytes: number | null
}

function trimOrNull(s: string | null | undefined): string | null {
  const t = (s ?? '').trim()
  return t === '' ? null : t
}

/** Gather what is known about the target, without writing anything. */
export function resolveTarget(t: ParsedTarget, sizeBytes: number | null): ResolvedTarget {
  if (t.kind === 'file') {
    let size = sizeBytes
    let createBytes: number | null = null
    if (existsSync(t.path)) {
      const st = statSync(t.path)
      if (!st.isFile()) throw new UsageError(`file:${t.path} is not a regular file`, 'use a block device path without file: for devices')
      if (size === null) size = st.size
      else if (st.size !== size) createBytes = size
    } else {
      if (size === null) throw new UsageError(`file:${t.path} does not exist and no --size was given`, 'add --size, e.g. --size 8GiB')
      createBytes = size
    }
    return {
      kind: 'file', path: t.path, sizeBytes: size, facts: null, createBytes,
      identity: {vendor: null, model: 'regular file', serial: null, firmware: null, capacityBytes: size, interface: 'file', logicalSectorBytes: 512, physicalSectorBytes: 4096, rotational: null, writeCache: 'not applicable (file)'},
    }
  }
  if (!existsSync(t.path)) throw new UsageError(`${t.path} does not exist`, 'list block devices with lsblk')
  if (!statSync(t.path).isBlockDevice()) throw new UsageError(`${t.path} is not a block device`, 'for a regular file use --device file:<path> --size <n>GiB')
  const dev = lsblk(t.path)
  const name = dev.name
  let holders: string[] = []
  try { holders = readdirSync(`/sys/class/block/${name}/holders`) } catch { /* none */ }
  const real = realOrSame(t.path)
  const swapList = swaps().map(realOrSame)
  const children = dev.children ?? []
  const facts: BlockFacts = {
    path: t.path,
    name,
    type: dev.type,
    serial: trimOrNull(dev.serial),
    readOnly: Boolean(dev.ro),
    mountpoints: (dev.mountpoints ?? []).filter((m): m is string => Boolean(m)),
    swap: swapList.includes(real),
    partitions: children.filter(c => c.type === 'part').map(c => c.path),
    holders,
    childrenMounted: children.flatMap(c => (c.mountpoints ?? []).filter((m): m is string => Boolean(m)).map(m => `${c.path} on ${m}`)),
  }
  const iface = dev.type === 'loop' ? 'loop' : (trimOrNull(dev.tran) ?? (name.startsWith('nvme') ? 'nvme' : name.startsWith('vd') ? 'virtio' : 'unknown'))
  let writeCache = 'unknown'
  try { writeCache = readFileSync(`/sys/class/block/${name}/queue/write_cache`, 'utf8').trim() } catch { /* unknown */ }
  return {
    kind: 'block', path: t.path, sizeBytes: dev.size, facts, createBytes: null,
    identity: {
      vendor: trimOrNull(dev.vendor), model: trimOrNull(dev.model) ?? (dev.type === 'loop' ? 'loop device' : null),
      serial: facts.serial, firmware: trimOrNull(dev.rev), capacityBytes: dev.size, interface: iface,
      logicalSectorBytes: dev['log-sec'], physicalSectorBytes: dev['phy-sec'], rotational: dev.rota, writeCache,
    },
  }
}

/** The safety verdict: reasons to refuse (empty = may proceed). Pure given the facts. */
export function refusals(t: ResolvedTarget, confirmation: string | undefined): string[] {
  if (t.kind === 'file') {
    // An existing non-empty file is only overwritten when the operator names it.
    if (t.createBytes === null || existsSync(t.path)) {
      const size = existsSync(t.path) ? statSync(t.path).size : 0
      if (size > 0 && !confirms(confirmation, {path: t.path, name: t.path, serial: null})) {
        return [`file ${t.path} exists and holds ${size} bytes; pts overwrites it (pass --yes-destroy-data ${t.path} to confirm)`]
      }
    }
    return []
  }
  const reasons = blockDeviceRefusals(t.facts!)
  if (reasons.length === 0 && !confirms(confirmation, t.facts!)) {
    reasons.push(`destroying the data on ${t.path} was not confirmed: pass --yes-destroy-data ${t.facts!.serial ?? t.path}`)
  }
  return reasons
}

export function assertSafe(t: ResolvedTarget, confirmation: string | undefined): void {
  const reasons = refusals(t, confirmation)
  if (reasons.length > 0) throw new UnsafeTargetError(t.kind === 'file' ? `file:${t.path}` : t.path, reasons, 'nothing was written')
}

/** Create or resize a file target as a sparse file (only after the safety gate). */
export function prepareFileTarget(t: ResolvedTarget): void {
  if (t.kind !== 'file' || t.createBytes === null) return
  mkdirSync(dirname(t.path), {recursive: true})
  const fd = openSync(t.path, 'a')
  try { ftruncateSync(fd, t.createBytes) } finally { closeSync(fd) }
}

/** Whole-device discard (the interim purge for block devices; a recorded deviation). */
export function discardDevice(path: string): {ok: boolean; detail: string} {
  const r = spawnSync('blkdiscard', ['-f', path], {encoding: 'utf8'})
  if (r.error) return {ok: false, detail: `blkdiscard could not be started: ${r.error.message}`}
  return {ok: r.status === 0, detail: `blkdiscard -f ${path}: exit ${r.status}${r.stderr.trim() ? `; ${r.stderr.trim()}` : ''}`}
}
