/**
 * Platform facts of a block device from sysfs text (pure): the PCIe link (current and maximum
 * speed and width, as the kernel prints them), the NUMA node, the I/O scheduler and the sector
 * sizes. discover.ts reads the snapshot (readSysfsSnapshot); this module only parses it, so that
 * it can be tested on snapshots captured from real machines (test/fixtures/devices/sysfs/).
 */

/** What discovery reads of one block device in sysfs, as text (each file's content as read). */
export interface SysfsSnapshot {
  /** The block device's kernel name (nvme0n1, sda, vda, loop0). */
  name: string
  /** realpath of /sys/class/block/<name> (where the device sits in the device tree). */
  blockPath: string
  /** queue/<file> of the disk (a partition: its disk's): scheduler, logical_block_size, physical_block_size. */
  queue: Record<string, string>
  /**
   * The device's ancestors in /sys/devices, nearest first (from realpath of <block>/device up to
   * /sys/devices), each with the PCI attributes it has (current_link_speed, current_link_width,
   * max_link_speed, max_link_width, numa_node, class).
   */
  chain: Array<{path: string; attrs: Record<string, string>}>
}

/** The attributes of a device-tree node discovery reads (the others are not needed). */
export const SYSFS_CHAIN_ATTRS = ['current_link_speed', 'current_link_width', 'max_link_speed', 'max_link_width', 'numa_node', 'class'] as const
export const SYSFS_QUEUE_ATTRS = ['scheduler', 'logical_block_size', 'physical_block_size'] as const

export interface PcieLink {
  /** The PCI function it belongs to (e.g. 0000:01:00.0). */
  pciAddress: string
  /** As sysfs prints it, e.g. "8.0 GT/s PCIe" (null when the kernel says "Unknown"). */
  speed: string | null
  width: number | null
  maxSpeed: string | null
  maxWidth: number | null
}

export interface PlatformFacts {
  /**
   * The nearest PCIe link above the block device: for NVMe the drive's own link; for SATA/SAS/USB
   * the host adapter's (see `linkOf`); null without a PCIe function with link attributes (virtio
   * on conventional PCI, loop, zram, a VM's emulated bus).
   */
  pcie: PcieLink | null
  /** 'device' when the link is the block device's own controller (NVMe), else 'host adapter'. */
  linkOf: 'device' | 'host adapter' | null
  /** NUMA node of the nearest node that reports one; null when none does or the kernel says -1 (no node). */
  numaNode: number | null
  /** The active I/O scheduler (the bracketed one: "none", "mq-deadline", ...); null without queue/scheduler. */
  ioScheduler: string | null
  logicalSectorBytes: number | null
  physicalSectorBytes: number | null
}

const PCI_ADDRESS = /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/i

/** "8.0 GT/s PCIe\n" -> "8.0 GT/s PCIe"; "Unknown" / empty -> null. */
export function parseLinkSpeed(text: string | undefined): string | null {
  const t = text?.trim() ?? ''
  return t === '' || /^unknown$/i.test(t) ? null : t
}

/** "4\n" -> 4; 0, garbage or missing -> null (the kernel prints 0 for a link that is down). */
export function parseLinkWidth(text: string | undefined): number | null {
  const t = text?.trim() ?? ''
  if (!/^\d+$/.test(t)) return null
  const n = Number(t)
  return n > 0 ? n : null
}

/** "none [mq-deadline] kyber bfq" -> "mq-deadline"; "none" (a single choice, no brackets) -> "none". */
export function parseScheduler(text: string | undefined): string | null {
  const t = text?.trim() ?? ''
  if (t === '') return null
  const m = /\[([^\]]+)\]/.exec(t)
  if (m) return m[1]
  const words = t.split(/\s+/)
  return words.length === 1 ? words[0] : null
}

function positiveInt(text: string | undefined): number | null {
  const t = text?.trim() ?? ''
  return /^\d+$/.test(t) && Number(t) > 0 ? Number(t) : null
}

/** Platform facts from a snapshot. Pure. */
export function parsePlatform(s: SysfsSnapshot): PlatformFacts {
  const linkNode = s.chain.find(n => n.attrs.current_link_speed !== undefined || n.attrs.current_link_width !== undefined)
  let pcie: PcieLink | null = null
  let linkOf: PlatformFacts['linkOf'] = null
  if (linkNode) {
    const base = linkNode.path.split('/').pop() ?? linkNode.path
    pcie = {
      pciAddress: PCI_ADDRESS.test(base) ? base.toLowerCase() : base,
      speed: parseLinkSpeed(linkNode.attrs.current_link_speed), width: parseLinkWidth(linkNode.attrs.current_link_width),
      maxSpeed: parseLinkSpeed(linkNode.attrs.max_link_speed), maxWidth: parseLinkWidth(linkNode.attrs.max_link_width),
    }
    if (pcie.speed === null && pcie.width === null) pcie = null
    // An NVMe namespace's device is its controller (.../<pci>/nvme/nvmeN): the link is the drive's own.
    // Mass-storage class 0x0108xx is NVMe; anything else (AHCI 0x0106, SAS 0x0107, USB) is a host adapter.
    else linkOf = /^nvme/.test(s.name) || /^0x0108/i.test(linkNode.attrs.class?.trim() ?? '') ? 'device' : 'host adapter'
  }
  const numaText = s.chain.find(n => n.attrs.numa_node !== undefined)?.attrs.numa_node?.trim()
  const numa = numaText !== undefined && /^-?\d+$/.test(numaText) ? Number(numaText) : null
  return {
    pcie,
    linkOf,
    numaNode: numa !== null && numa >= 0 ? numa : null,
    ioScheduler: parseScheduler(s.queue.scheduler),
    logicalSectorBytes: positiveInt(s.queue.logical_block_size),
    physicalSectorBytes: positiveInt(s.queue.physical_block_size),
  }
}

/** "8.0 GT/s PCIe x4" (and ", max 16.0 GT/s PCIe x4" when the link runs below what it can). Pure. */
export function pcieLinkText(l: {speed: string | null; width: number | null; maxSpeed?: string | null; maxWidth?: number | null}): string {
  const part = (speed: string | null | undefined, width: number | null | undefined) => [speed ?? 'speed unknown', width ? `x${width}` : null].filter(Boolean).join(' ')
  const cur = part(l.speed, l.width)
  const degraded = (l.maxSpeed && l.maxSpeed !== l.speed) || (l.maxWidth && l.maxWidth !== l.width)
  return degraded ? `${cur} (max ${part(l.maxSpeed ?? l.speed, l.maxWidth ?? l.width)})` : cur
}
