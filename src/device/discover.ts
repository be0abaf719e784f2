/**
 * Device discovery (I/O): lsblk JSON + sysfs + /proc/swaps + the tools that are installed
 * (nvme-cli, hdparm, sg3-utils/sdparm, smartctl, wipefs/blkid). Never writes to a device.
 * A missing tool lowers what is known and adds a note; it never throws. Whole disks only:
 * partitions appear as children of their disk.
 */
import {runTool, whichPath, type ToolOutput} from '../proc.js'
import {existsSync, readdirSync, readFileSync, realpathSync} from 'node:fs'
import {dirname} from 'node:path'
import {parsePlatform, SYSFS_CHAIN_ATTRS, SYSFS_QUEUE_ATTRS, type PlatformFacts, type SysfsSnapshot} from './parse-sysfs.js'
import {descendants, parseLsblk, type LsblkNode} from './parse-lsblk.js'
import {parseNvmeIdCtrl, type NvmeIdCtrl} from './parse-nvme.js'
import {parseHdparmIdentify, type HdparmIdentify} from './parse-ata.js'
import {parseSgInq, type SgInquiry} from './parse-scsi.js'
import {parseSmartctlInfo, type SmartctlInfo} from './parse-smartctl.js'
import {parseBlkidExport, parseWipefsJson} from './parse-signatures.js'
import {safetyVerdict, type SafetyFacts, type SafetyOptions, type SafetyVerdict} from './safety.js'
import {ataPurgeNotes, purgeMethods, type PurgeFacts, type PurgeMethod} from './purge-plan.js'
import {cacheInterface, getWriteCache} from './write-cache.js'

export interface DeviceChild { path: string; type: string; fstype: string | null; mountpoints: string[]; sizeBytes: number }

export interface DeviceInfo {
  path: string
  name: string
  type: string
  model: string | null
  vendor: string | null
  serial: string | null
  firmware: string | null
  capacityBytes: number
  /** Decimal GB (10^9 bytes), rounded to 0.01 */
  capacityGB: number
  /** nvme, sata, sas, scsi, virtio, loop, usb, mmc, xen, zram, ... */
  interface: string
  logicalSectorBytes: number | null
  physicalSectorBytes: number | null
  rotational: boolean | null
  discard: boolean
  discardZeroes: boolean | null
  writeCache: {
    /** /sys/class/block/X/queue/write_cache: "write back" | "write through" | null */
    sysfs: string | null
    /** The device's own view through nvme-cli / hdparm / sdparm, or null when unknown. */
    enabled: boolean | null
    via: string | null
    settable: boolean
    note: string | null
  }
  /** PCIe link, NUMA node, I/O scheduler and sector sizes from sysfs (parse-sysfs.ts). */
  platform: PlatformFacts
  children: DeviceChild[]
  signatures: string[]
  nvme: NvmeIdCtrl | null
  ata: HdparmIdentify | null
  scsi: SgInquiry | null
  smart: SmartctlInfo | null
  purgeMethods: PurgeMethod[]
  /** What choosePurge / runPurge need (device/purge.ts). */
  purgeFacts: PurgeFacts
  safety: SafetyVerdict
  facts: SafetyFacts
  tools: Record<string, boolean>
  notes: string[]
}

const TOOLS = ['lsblk', 'nvme', 'hdparm', 'sg_inq', 'sdparm', 'sg_opcodes', 'sg_sanitize', 'sg_format', 'smartctl', 'wipefs', 'blkid', 'blkdiscard', 'dd'] as const
const PKG: Record<string, string> = {nvme: 'nvme-cli', hdparm: 'hdparm', sg_inq: 'sg3-utils', sg_opcodes: 'sg3-utils', sg_sanitize: 'sg3-utils', sg_format: 'sg3-utils', sdparm: 'sdparm', smartctl: 'smartmontools', wipefs: 'util-linux', blkid: 'util-linux'}

export function which(tool: string): boolean {
  return whichPath(tool) !== null
}

function toolMap(): Record<string, boolean> {
  return Object.fromEntries(TOOLS.map(t => [t, which(t)]))
}

function run(argv: string[], timeoutMs = 15_000): ToolOutput {
  return runTool(argv, timeoutMs)
}

function sysfs(name: string, rel: string): string | null {
  try { return readFileSync(`/sys/class/block/${name}/${rel}`, 'utf8').trim() } catch { return null }
}

/**
 * What sysfs says of a block device's place in the platform (I/O, read only): its queue's
 * scheduler and sector sizes (a partition: its disk's) and, for every node from its device up
 * to /sys/devices, the PCI attributes it has. parsePlatform (parse-sysfs.ts) reads the facts from it.
 */
export function readSysfsSnapshot(name: string): SysfsSnapshot {
  const read = (p: string): string | undefined => { try { return readFileSync(p, 'utf8') } catch { return undefined } }
  const blockPath = real(`/sys/class/block/${name}`)
  const disk = !existsSync(`${blockPath}/queue`) && existsSync(`${dirname(blockPath)}/queue`) ? dirname(blockPath) : blockPath
  const queue: Record<string, string> = {}
  for (const f of SYSFS_QUEUE_ATTRS) { const t = read(`${disk}/queue/${f}`); if (t !== undefined) queue[f] = t }
  const chain: SysfsSnapshot['chain'] = []
  let dev = existsSync(`${disk}/device`) ? real(`${disk}/device`) : null
  while (dev && dev.startsWith('/sys/devices/')) {
    const attrs: Record<string, string> = {}
    for (const a of SYSFS_CHAIN_ATTRS) { const t = read(`${dev}/${a}`); if (t !== undefined) attrs[a] = t }
    chain.push({path: dev, attrs})
    dev = dirname(dev)
  }
  return {name, blockPath, queue, chain}
}

function real(p: string): string {
  try { return realpathSync(p) } catch { return p }
}

function swaps(): string[] {
  try {
    return readFileSync('/proc/swaps', 'utf8').split('\n').slice(1).map(l => l.split(/\s+/)[0]).filter(Boolean).map(real)
  } catch { return [] }
}

/** Mount points from /proc/self/mounts by source device (lsblk misses some without udev). */
function procMounts(): Map<string, string[]> {
  const m = new Map<string, string[]>()
  try {
    for (const line of readFileSync('/proc/self/mounts', 'utf8').split('\n')) {
      const [src, mp] = line.split(' ')
      if (!src?.startsWith('/dev/')) continue
      const k = real(src)
      m.set(k, [...(m.get(k) ?? []), mp.replace(/\\040/g, ' ')])
    }
  } catch { /* none */ }
  return m
}

export function interfaceOf(n: LsblkNode): string {
  if (n.type === 'loop' || n.name.startsWith('loop')) return 'loop'
  const tran = n.tran?.toLowerCase() ?? null
  if (tran) return tran === 'ata' ? 'ata' : tran
  if (n.name.startsWith('nvme')) return 'nvme'
  if (n.name.startsWith('vd')) return 'virtio'
  if (n.name.startsWith('xvd')) return 'xen'
  if (n.name.startsWith('mmcblk')) return 'mmc'
  if (n.name.startsWith('zram')) return 'zram'
  if (n.name.startsWith('nbd')) return 'nbd'
  if (n.name.startsWith('md')) return 'md'
  if (n.name.startsWith('dm-')) return 'dm'
  if (n.name.startsWith('sd')) return 'scsi'
  return 'unknown'
}

/**
 * Whether a SCSI drive reports SANITIZE (BLOCK ERASE) from `sg_opcodes --opcode=0x48,2` (REPORT
 * SUPPORTED OPERATION CODES for one command). Exit 9 (invalid opcode: the drive has no such
 * report) and 5 (illegal request) mean the drive does not report it; any other failure leaves it
 * unknown, with the reason.
 */
export function scsiSanitizeSupport(r: Pick<ToolOutput, 'code' | 'stdout' | 'stderr'>): {supported: boolean | null; detail: string} {
  const why = (r.stderr.trim() || r.stdout.trim()).split('\n').at(-1) ?? ''
  if (r.code === 9 || r.code === 5) return {supported: false, detail: `SCSI SANITIZE is not supported: the drive does not report it (sg_opcodes exit ${r.code}: ${why})`}
  if (r.code !== 0) return {supported: null, detail: `whether the drive supports SCSI SANITIZE is unknown: sg_opcodes ${r.code === null ? 'could not run or timed out' : `exited ${r.code}`}${why ? ` (${why})` : ''}`}
  if (/not supported/i.test(r.stdout)) return {supported: false, detail: 'SCSI SANITIZE (block erase) is not supported: the drive reports it as not supported'}
  if (/supported/i.test(r.stdout)) return {supported: true, detail: 'the drive reports SCSI SANITIZE (block erase) as supported'}
  return {supported: null, detail: `whether the drive supports SCSI SANITIZE is unknown: sg_opcodes printed no support line (${r.stdout.trim().slice(0, 120)})`}
}

function nvmeController(name: string): string {
  const m = /^(nvme\d+)/.exec(name)
  return m ? `/dev/${m[1]}` : `/dev/${name}`
}

/** Build SafetyFacts from lsblk + /proc + sysfs + signatures (exported for tests). */
export function safetyFactsOf(n: LsblkNode, ctx: {swaps: string[]; mounts: Map<string, string[]>; holders: string[]; signatures: string[]}): SafetyFacts {
  const mountsOf = (x: LsblkNode): string[] => [...new Set([...x.mountpoints, ...(ctx.mounts.get(real(x.path)) ?? [])])]
  const desc = descendants(n)
  const own = mountsOf(n)
  const descMounts = desc.flatMap(c => mountsOf(c).filter(m => m !== '[SWAP]').map(m => `${c.path} on ${m}`))
  const allMountPoints = [...own, ...desc.flatMap(mountsOf)]
  const rootOrBoot = [...new Set(allMountPoints.filter(m => m === '/' || m === '/boot' || m === '/boot/efi' || m === '/efi'))]
  const descSwap = desc.filter(c => mountsOf(c).includes('[SWAP]') || ctx.swaps.includes(real(c.path))).map(c => c.path)
  return {
    path: n.path,
    name: n.name,
    type: n.type,
    serial: n.serial,
    readOnly: n.readOnly,
    mountpoints: own,
    swap: ctx.swaps.includes(real(n.path)) || own.includes('[SWAP]'),
    partitions: n.children.filter(c => c.type === 'part').map(c => c.path),
    holders: ctx.holders,
    childrenMounted: n.children.flatMap(c => mountsOf(c).filter(m => m !== '[SWAP]').map(m => `${c.path} on ${m}`)),
    fstype: n.fstype,
    descendantMounts: descMounts,
    descendantSwap: descSwap,
    rootOrBoot,
    stackedChildren: desc.filter(c => /^(lvm|crypt|raid\d*|dm|mpath|linear|stripe)$/.test(c.type)).map(c => `${c.name} (${c.type})`),
    signatures: ctx.signatures,
  }
}

function describe(n: LsblkNode, tools: Record<string, boolean>, opts: SafetyOptions, ctx: {swaps: string[]; mounts: Map<string, string[]>}): DeviceInfo {
  const notes: string[] = []
  const iface = interfaceOf(n)
  const name = n.kname
  let holders: string[] = []
  try { holders = readdirSync(`/sys/class/block/${name}/holders`) } catch { /* none */ }

  // signatures: wipefs -n (preferred), else blkid -p
  let signatures: string[] = []
  if (tools.wipefs) {
    const r = run(['wipefs', '-n', '-J', n.path])
    if (r.code === 0) { try { signatures = parseWipefsJson(r.stdout).map(s => s.type) } catch (e) { notes.push(`wipefs output unreadable: ${(e as Error).message}`) } }
    else notes.push(`wipefs -n failed (exit ${r.code}): ${r.stderr.trim()}; signatures unknown`)
  } else if (tools.blkid) {
    const r = run(['blkid', '-p', '-o', 'export', n.path])
    if (r.code === 0) signatures = parseBlkidExport(r.stdout).map(s => s.type)
    else if (r.code !== 2) notes.push(`blkid -p failed (exit ${r.code}); signatures unknown`)
  } else {
    notes.push('neither wipefs nor blkid is installed (util-linux): filesystem/RAID signatures unknown')
  }

  let nvme: NvmeIdCtrl | null = null
  let ata: HdparmIdentify | null = null
  let scsi: SgInquiry | null = null
  let smart: SmartctlInfo | null = null

  if (iface === 'nvme') {
    if (!tools.nvme) notes.push('nvme-cli not installed: NVMe purge methods and write-cache state unknown (apt-get install -y nvme-cli)')
    else {
      const r = run(['nvme', 'id-ctrl', nvmeController(name), '-o', 'json'])
      if (r.code === 0) { try { nvme = parseNvmeIdCtrl(r.stdout) } catch (e) { notes.push(`nvme id-ctrl output unreadable: ${(e as Error).message}`) } }
      else notes.push(`nvme id-ctrl failed (exit ${r.code}): ${r.stderr.trim()}`)
    }
  }
  if (iface === 'sata' || iface === 'ata' || (iface === 'usb' && tools.hdparm)) {
    if (!tools.hdparm) notes.push('hdparm not installed: ATA security/sanitize support and write-cache state unknown (apt-get install -y hdparm)')
    else {
      const r = run(['hdparm', '-I', n.path])
      if (r.code === 0) { try { ata = parseHdparmIdentify(r.stdout) } catch (e) { if (iface !== 'usb') notes.push(`hdparm -I output unreadable: ${(e as Error).message}`) } }
      else if (iface !== 'usb') notes.push(`hdparm -I failed (exit ${r.code}): ${r.stderr.trim()}`)
      if (iface !== 'usb') notes.push(...ataPurgeNotes(ata))
    }
  }
  if (iface === 'sas' || iface === 'scsi' || iface === 'sata' || iface === 'fc' || iface === 'iscsi') {
    if (!tools.sg_inq) notes.push('sg3-utils not installed: SCSI identity and sanitize/format support unknown (apt-get install -y sg3-utils)')
    else {
      const r = run(['sg_inq', n.path])
      if (r.code === 0) { try { scsi = parseSgInq(r.stdout) } catch { /* not decodable */ } }
    }
    if (!tools.sdparm && iface !== 'sata') notes.push('sdparm not installed: SCSI write-cache (WCE) state unknown (apt-get install -y sdparm)')
  }
  let scsiSanitize: PurgeFacts['scsiSanitize']
  if (iface === 'sas' || iface === 'scsi' || iface === 'fc' || iface === 'iscsi') {
    scsiSanitize = tools.sg_opcodes ? scsiSanitizeSupport(run(['sg_opcodes', '--opcode=0x48,2', n.path])) : {supported: null, detail: 'sg_opcodes is not installed (sg3-utils): whether the drive supports SANITIZE is unknown'}
    if (scsiSanitize.supported !== true) notes.push(scsiSanitize.detail)
  }
  if (!['loop', 'zram', 'md', 'dm', 'nbd'].includes(iface)) {
    if (!tools.smartctl) notes.push('smartctl not installed (smartmontools): no cross-check of identity')
    else {
      const r = run(['smartctl', '-i', '-j', n.path])
      try {
        smart = parseSmartctlInfo(r.stdout)
        if (!smart.ok) notes.push(`smartctl: ${smart.messages.join('; ') || 'device not identified'}`)
      } catch { notes.push(`smartctl -i -j gave no JSON (exit ${r.code})`) }
    }
  }

  const s = smart?.ok ? smart : null
  const model = nvme?.model ?? ata?.model ?? s?.model ?? n.model ?? (scsi?.product ?? null) ?? (iface === 'loop' ? 'loop device' : null)
  const serial = nvme?.serial ?? ata?.serial ?? s?.serial ?? n.serial ?? scsi?.serial ?? null
  const firmware = nvme?.firmware ?? ata?.firmware ?? s?.firmware ?? n.rev ?? scsi?.revision ?? null
  const capacityBytes = n.sizeBytes
  const discardMax = Number(sysfs(name, 'queue/discard_max_bytes') ?? '0')
  const discard = (n.discardGranularityBytes ?? 0) > 0 || discardMax > 0
  const dz = sysfs(name, 'queue/discard_zeroes_data')
  // Since Linux 4.12 discard_zeroes_data always reads 0 (deprecated): 0 is "not reported", not "no".
  const discardZeroes = dz === '1' || n.discardZeroes === true ? true : null

  const platform = parsePlatform(readSysfsSnapshot(name))
  // The serial the gate accepts is the one printed: lsblk knows none for sd* without udev, the drive's own tools do
  const facts = {...safetyFactsOf(n, {swaps: ctx.swaps, mounts: ctx.mounts, holders, signatures}), serial}
  const safety = safetyVerdict(facts, opts)

  // write cache: sysfs view always; the device's own view via its tool
  const sysWc = sysfs(name, 'queue/write_cache')
  let wc: DeviceInfo['writeCache'] = {sysfs: sysWc, enabled: null, via: null, settable: false, note: null}
  const ci = cacheInterface(iface)
  if (iface === 'loop') wc.note = 'loop device: no device write cache (the kernel value is the backing file\'s)'
  else if (!ci) wc.note = `write cache cannot be set on a ${iface} device`
  else if (iface === 'nvme' && nvme && !nvme.volatileWriteCache) wc = {...wc, enabled: false, note: 'no volatile write cache present (VWC bit 0 clear)'}
  else if ((ci === 'nvme' && !tools.nvme) || (ci === 'ata' && !tools.hdparm) || (ci === 'scsi' && !tools.sdparm)) wc.note = `${ci === 'nvme' ? 'nvme-cli' : ci === 'ata' ? 'hdparm' : 'sdparm'} not installed: device write-cache state unknown`
  else {
    const g = getWriteCache({path: n.path, interface: iface, volatileWriteCache: nvme?.volatileWriteCache ?? null})
    if (g.supported) wc = {...wc, enabled: g.enabled, via: g.via, settable: true}
    else wc.note = g.reason
  }
  if (ata && wc.enabled === null && ata.writeCacheEnabled !== null) wc.enabled = ata.writeCacheEnabled

  const purgeFacts: PurgeFacts = {
    path: n.path, interface: iface, nvme, ata,
    scsi: (iface === 'sas' || iface === 'scsi' || iface === 'fc' || iface === 'iscsi') && tools.sg_sanitize,
    ...(scsiSanitize ? {scsiSanitize} : {}),
    discard, discardZeroes, tools,
  }
  const methods = purgeMethods(purgeFacts)
  if (iface === 'nvme' && !nvme) notes.push('NVMe purge methods unknown')
  for (const [t, ok] of Object.entries(tools)) if (!ok && PKG[t] && t === 'blkdiscard') notes.push(`${t} not installed (${PKG[t]})`)

  return {
    path: n.path, name: n.name, type: n.type, model, vendor: n.vendor, serial, firmware,
    capacityBytes, capacityGB: Math.round(capacityBytes / 1e7) / 100,
    interface: iface,
    logicalSectorBytes: n.logicalSectorBytes ?? platform.logicalSectorBytes ?? ata?.logicalSectorBytes ?? null,
    physicalSectorBytes: n.physicalSectorBytes ?? platform.physicalSectorBytes ?? ata?.physicalSectorBytes ?? null,
    rotational: ata?.rotational ?? s?.rotational ?? n.rotational,
    discard, discardZeroes,
    writeCache: wc,
    platform,
    children: descendants(n).map(c => ({path: c.path, type: c.type, fstype: c.fstype, mountpoints: c.mountpoints, sizeBytes: c.sizeBytes})),
    signatures,
    nvme, ata, scsi, smart,
    purgeMethods: methods,
    purgeFacts,
    safety, facts, tools, notes,
  }
}

function lsblkAll(args: string[]): LsblkNode[] {
  const r = run(['lsblk', '-J', '-b', '-O', ...args])
  if (r.code === null) throw new Error('lsblk could not be run (util-linux not installed?)')
  if (r.code !== 0) throw new Error(`lsblk ${args.join(' ')} failed: ${r.stderr.trim()}`)
  return parseLsblk(r.stdout)
}

/** Every whole block device (disks, loop devices with a backing file, NVMe namespaces, ...). */
export function discoverDevices(opts: SafetyOptions = {}): DeviceInfo[] {
  const tools = toolMap()
  if (!tools.lsblk) return []
  const nodes = lsblkAll([]).filter(n => n.type !== 'rom' && !(n.type === 'loop' && n.sizeBytes === 0) && !(n.name.startsWith('zram') && n.sizeBytes === 0))
  const ctx = {swaps: swaps(), mounts: procMounts()}
  return nodes.map(n => describe(n, tools, opts, ctx))
}

/** One device by path (a partition is described too, and judged by the safety rules). */
export function discoverDevice(path: string, opts: SafetyOptions = {}): DeviceInfo {
  const tools = toolMap()
  if (!tools.lsblk) throw new Error('lsblk is not installed (util-linux): cannot identify block devices')
  const n = lsblkAll([path])[0]
  if (!n) throw new Error(`lsblk reports nothing for ${path}`)
  // lsblk <partition> has no parent information: find mounts of the partition's own descendants only
  return describe(n, tools, opts, {swaps: swaps(), mounts: procMounts()})
}
