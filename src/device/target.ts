/**
 * Resolving a --device target into facts (I/O: stat, lsblk, sysfs). A target is a block device
 * path or file:<path>. Facts are then judged by the pure rules in safety.ts.
 */
import {closeSync, existsSync, ftruncateSync, mkdirSync, openSync, statSync} from 'node:fs'
import {dirname, resolve} from 'node:path'
import {UnsafeTargetError, UsageError, MissingToolError} from '../errors.js'
import * as M from '../messages.js'
import type {DeviceIdentity} from '../model/manifest.js'
import {confirms, type BlockFacts, type SafetyOptions} from './safety.js'
import {discoverDevice, which, type DeviceInfo} from './discover.js'
import {pcieLinkText, type PlatformFacts} from './parse-sysfs.js'

export interface ParsedTarget {
  kind: 'file' | 'block'
  path: string
}

export function parseTarget(device: string): ParsedTarget {
  if (device.startsWith('file:')) {
    const path = device.slice('file:'.length)
    if (!path) throw new UsageError(M.target.fileNeedsPath)
    // Absolute: fio runs in its own working directory, and the manifest must name the file exactly.
    return {kind: 'file', path: resolve(path)}
  }
  if (!device.startsWith('/')) throw new UsageError(M.target.notADevicePath(device))
  return {kind: 'block', path: device}
}

export interface ResolvedTarget {
  kind: 'file' | 'block'
  path: string
  sizeBytes: number
  identity: DeviceIdentity
  facts: BlockFacts | null
  /** Everything discovery learnt about a block device (null for a file). */
  device: DeviceInfo | null
  /** Reasons the run is non-compliant although it may proceed (e.g. a partition allowed by the operator). */
  nonCompliant: string[]
  /** Set when the file does not exist yet and will be created with this size. */
  createBytes: number | null
}

/** Gather what is known about the target, without writing anything. */
export function resolveTarget(t: ParsedTarget, sizeBytes: number | null, opts: SafetyOptions = {}): ResolvedTarget {
  if (t.kind === 'file') {
    let size = sizeBytes
    let createBytes: number | null = null
    if (existsSync(t.path)) {
      const st = statSync(t.path)
      if (!st.isFile()) throw new UsageError(M.target.notARegularFile(t.path))
      if (size === null) size = st.size
      else if (st.size !== size) createBytes = size
    } else {
      if (size === null) throw new UsageError(M.target.fileMissingNoSize(t.path))
      createBytes = size
    }
    return {
      kind: 'file', path: t.path, sizeBytes: size, facts: null, device: null, nonCompliant: [], createBytes,
      identity: {vendor: null, model: 'regular file', serial: null, firmware: null, capacityBytes: size, interface: 'file', logicalSectorBytes: 512, physicalSectorBytes: 4096, rotational: null, writeCache: 'not applicable (file)'},
    }
  }
  if (!existsSync(t.path)) throw new UsageError(M.target.deviceMissing(t.path))
  if (!statSync(t.path).isBlockDevice()) throw new UsageError(M.target.notABlockDevice(t.path))
  let info: DeviceInfo
  try {
    info = discoverDevice(t.path, opts)
  } catch (error) {
    if (!which('lsblk')) throw new MissingToolError(M.tools.missing('lsblk', 'util-linux'))
    throw new UsageError(M.target.cannotIdentify(t.path, (error as Error).message))
  }
  return {
    kind: 'block', path: t.path, sizeBytes: info.capacityBytes, facts: info.facts, device: info, nonCompliant: info.safety.nonCompliant, createBytes: null,
    identity: {
      vendor: info.vendor, model: info.model ?? (info.type === 'loop' ? 'loop device' : null), serial: info.serial, firmware: info.firmware,
      capacityBytes: info.capacityBytes, interface: info.interface,
      logicalSectorBytes: info.logicalSectorBytes ?? 512, physicalSectorBytes: info.physicalSectorBytes ?? info.logicalSectorBytes ?? 512,
      rotational: info.rotational,
      writeCache: info.writeCache.enabled === null ? (info.writeCache.sysfs ?? 'unknown') : info.writeCache.enabled ? 'enabled' : 'disabled',
      ...platformIdentity(info.platform),
    },
  }
}

/** The identity fields of the platform facts: only those the target has (absent = not available). */
export function platformIdentity(p: PlatformFacts): Partial<DeviceIdentity> {
  const out: Partial<DeviceIdentity> = {}
  if (p.pcie && p.linkOf === 'device') {
    if (p.pcie.speed !== null) out.pcieLinkSpeed = p.pcie.speed
    if (p.pcie.width !== null) out.pcieLinkWidth = p.pcie.width
    if (p.pcie.maxSpeed !== null) out.pcieMaxLinkSpeed = p.pcie.maxSpeed
    if (p.pcie.maxWidth !== null) out.pcieMaxLinkWidth = p.pcie.maxWidth
  }
  if (p.pcie && p.linkOf === 'host adapter') out.hostAdapterPcieLink = `${pcieLinkText(p.pcie)} (${p.pcie.pciAddress})`
  if (p.numaNode !== null) out.numaNode = p.numaNode
  if (p.ioScheduler !== null) out.ioScheduler = p.ioScheduler
  return out
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
  const reasons = [...t.device!.safety.refusals]
  if (reasons.length === 0 && !confirms(confirmation, t.facts!)) {
    reasons.push(`destroying the data on ${t.path} was not confirmed: pass --yes-destroy-data ${t.facts!.serial ?? t.path}`)
  }
  return reasons
}

/** Of several --yes-destroy-data values (one per drive of a multi-drive run), the one that names this target (else the first, whose refusal then says what to pass). */
export function pickConfirmation(t: ResolvedTarget, list: readonly string[]): string | undefined {
  const facts = t.kind === 'file' || !t.facts ? {path: t.path, name: t.path, serial: null} : t.facts
  return list.find(c => confirms(c, facts)) ?? list[0]
}

export function assertSafe(t: ResolvedTarget, confirmation: string | undefined): void {
  const reasons = refusals(t, confirmation)
  if (reasons.length > 0) throw new UnsafeTargetError(M.target.refused(t.kind === 'file' ? `file:${t.path}` : t.path, reasons))
}

/** Create or resize a file target as a sparse file (only after the safety gate). */
export function prepareFileTarget(t: ResolvedTarget): void {
  if (t.kind !== 'file' || t.createBytes === null) return
  mkdirSync(dirname(t.path), {recursive: true})
  const fd = openSync(t.path, 'a')
  try { ftruncateSync(fd, t.createBytes) } finally { closeSync(fd) }
}
