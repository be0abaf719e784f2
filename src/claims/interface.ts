/**
 * What a drive's host interface can carry, from its stored identity: the ceiling a measurement
 * must stay under to be a measurement of the drive (pts verify) and the fastest a run can write
 * (pts plan's WIPC time and bytes-written bounds). Pure.
 *
 * - SATA: 6 Gb/s line rate with 8b/10b coding = 600 MB/s, half duplex (reads and writes share
 *   the link). pts does not read the negotiated SATA speed, so it assumes the fastest (SATA 3).
 * - SAS: 12 Gb/s (SAS-3) line rate with 8b/10b coding = 1,200 MB/s per direction (full duplex).
 * - NVMe: the PCIe link stored with the run (sysfs current_link_speed, e.g. "8.0 GT/s PCIe", and
 *   current_link_width): per lane GT/s x coding efficiency / 8 (8b/10b up to 5 GT/s, 128b/130b
 *   for 8-32 GT/s, 242/256 FLIT for 64 GT/s), times the width, per direction. Without a stored
 *   link pts checks against PCIe 5.0 x4 (15,754 MB/s), the fastest link of a common NVMe drive,
 *   and says the link was unknown.
 * - A regular file, a loop device (file-backed) or zram (RAM) is not a drive: any figure measured
 *   there says nothing about a drive.
 * - Other interfaces (virtio, device mapper, md, USB bridges, ...): no limit known.
 * These are line-rate ceilings: a real drive stays below them (protocol overhead), so a
 * measurement above one is not of the drive (a cache, or a file target).
 */

/** What the limit is read from: the stored device identity (the PCIe fields are optional). */
export interface InterfaceFacts {
  kind: 'file' | 'block'
  identity: {
    interface: string
    /** As sysfs prints it, e.g. "8.0 GT/s PCIe"; absent in runs stored without it. */
    pcieLinkSpeed?: string | null
    /** Lanes, e.g. 4. */
    pcieLinkWidth?: number | null
  }
}

export interface InterfaceLimit {
  /** Bytes per second per direction (both directions together when halfDuplex); null when unknown or not a drive. */
  bytesPerSec: number | null
  /** Reads and writes share the link (SATA): a mixed workload's total must fit. */
  halfDuplex: boolean
  /** Set when the target is not a drive (file, loop device, zram): why. */
  notADrive: string | null
  /** Whether the limit comes from the device's own link (the stored PCIe speed and width). */
  linkKnown: boolean
  /** "SATA 6 Gb/s (SATA 3 assumed): 600 MB/s", "PCIe 8.0 GT/s x4: 3,938 MB/s". */
  basis: string
}

const MBps = (bytesPerSec: number): string => `${new Intl.NumberFormat('en-US', {maximumFractionDigits: 0}).format(bytesPerSec / 1e6)} MB/s`

/** PCIe coding efficiency of a lane at a transfer rate (GT/s). */
function pcieEfficiency(gts: number): number {
  if (gts <= 5) return 8 / 10
  if (gts <= 32) return 128 / 130
  return 242 / 256
}

/** "8.0 GT/s PCIe", "16 GT/s" -> 8, 16; null for "Unknown" or anything else. */
export function parsePcieSpeed(text: string | null | undefined): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*GT\/s/i.exec(text ?? '')
  const v = m ? Number(m[1]) : Number.NaN
  return Number.isFinite(v) && v > 0 ? v : null
}

/** Data rate of a PCIe link, bytes/s per direction. */
export function pcieBytesPerSec(gts: number, width: number): number {
  return (gts * 1e9 * pcieEfficiency(gts) / 8) * width
}

const UNKNOWN_NVME_GTS = 32
const UNKNOWN_NVME_WIDTH = 4

export function interfaceLimit(f: InterfaceFacts): InterfaceLimit {
  const iface = String(f.identity.interface ?? 'unknown').toLowerCase()
  const none = (basis: string, notADrive: string | null = null): InterfaceLimit => ({bytesPerSec: null, halfDuplex: false, notADrive, linkKnown: false, basis})
  if (f.kind === 'file' || iface === 'file') {
    return none('a regular file', 'a file target is not a drive: the file system and the storage under it (with any cache it has) were measured')
  }
  if (iface === 'loop') return none('a loop device', 'a loop device is not a drive: it is backed by a file, so the file system and the storage under it were measured')
  if (iface === 'zram') return none('zram', 'zram is not a drive: it is compressed RAM')
  if (iface === 'sata' || iface === 'ata') {
    return {bytesPerSec: 600e6, halfDuplex: true, notADrive: null, linkKnown: false, basis: 'SATA 6 Gb/s (SATA 3 assumed; pts does not read the negotiated speed): 600 MB/s, reads and writes together'}
  }
  if (iface === 'sas') {
    return {bytesPerSec: 1200e6, halfDuplex: false, notADrive: null, linkKnown: false, basis: 'SAS 12 Gb/s (SAS-3 assumed; a 24G SAS link carries about twice as much): 1,200 MB/s per direction'}
  }
  if (iface === 'nvme' || iface === 'pcie') {
    const gts = parsePcieSpeed(f.identity.pcieLinkSpeed)
    const width = f.identity.pcieLinkWidth ?? null
    if (gts !== null && width !== null && Number.isInteger(width) && width > 0) {
      const b = pcieBytesPerSec(gts, width)
      return {bytesPerSec: b, halfDuplex: false, notADrive: null, linkKnown: true, basis: `PCIe ${gts.toFixed(1)} GT/s x${width} (the link stored with the run): ${MBps(b)} per direction`}
    }
    const b = pcieBytesPerSec(UNKNOWN_NVME_GTS, UNKNOWN_NVME_WIDTH)
    return {bytesPerSec: b, halfDuplex: false, notADrive: null, linkKnown: false,
      basis: `PCIe link unknown (not stored with the run): checked against PCIe 5.0 x4, ${MBps(b)} per direction, the fastest link of a common NVMe drive`}
  }
  return none(`no limit known for interface "${f.identity.interface}" (a virtual, stacked or bridged device)`)
}

/** The bandwidth a measurement puts on the link: the busier direction, or both on a half-duplex link. */
export function linkLoad(limit: Pick<InterfaceLimit, 'halfDuplex'>, m: {readBwBytesPerSec: number; writeBwBytesPerSec: number}): number {
  return limit.halfDuplex ? m.readBwBytesPerSec + m.writeBwBytesPerSec : Math.max(m.readBwBytesPerSec, m.writeBwBytesPerSec)
}

export {MBps as formatMBps}
