/**
 * Device volatile write cache (digest Part A 6, B §2.6): NVMe Set/Get Features FID 0x06,
 * ATA via hdparm -W, SCSI caching mode page WCE bit via sdparm. Pure command construction and
 * parsing, then I/O get/set. Loop devices, virtio disks and files cannot be set: {supported:false}.
 */
import {runTool} from '../proc.js'
import {parseNvmeVwcFeature} from './parse-nvme.js'
import {parseHdparmWriteCache} from './parse-ata.js'
import {parseSdparmWce} from './parse-scsi.js'

export type CacheInterface = 'nvme' | 'ata' | 'scsi'

export interface WriteCacheCommands {
  via: CacheInterface
  get: string[]
  set: (enable: boolean) => string[]
  parse: (stdout: string) => boolean
}

/** Map an interface name (DeviceInfo.interface) to the command family, or null when not settable. */
export function cacheInterface(iface: string): CacheInterface | null {
  if (iface === 'nvme') return 'nvme'
  if (iface === 'sata' || iface === 'ata' || iface === 'usb-sata') return 'ata'
  if (iface === 'sas' || iface === 'scsi' || iface === 'fc' || iface === 'iscsi') return 'scsi'
  return null
}

/**
 * The NVMe controller of a namespace (/dev/nvme0n1 -> /dev/nvme0; a controller path is kept).
 * The volatile write cache (feature 0x06) is a controller feature: sent to a namespace, a
 * controller answers "Feature Not Namespace Specific".
 */
export function nvmeControllerPath(path: string): string {
  const m = /^(\/dev\/nvme\d+)(?:n\d+(?:p\d+)?)?$/.exec(path)
  return m ? m[1] : path
}

/**
 * Tools whose exit status does not say whether the value was read: `sdparm --get=WCE` exits 5
 * when the device rejects the saved-values column (MODE SENSE PC=3) yet prints the current value
 * right, so its output decides, not its exit code.
 */
const OUTPUT_DECIDES: ReadonlySet<CacheInterface> = new Set(['scsi'])

export function writeCacheCommands(via: CacheInterface, path: string): WriteCacheCommands {
  switch (via) {
    case 'nvme': {
      const ctrl = nvmeControllerPath(path)
      return {
        via,
        get: ['nvme', 'get-feature', ctrl, '-f', '6'],
        set: e => ['nvme', 'set-feature', ctrl, '-f', '6', '-v', e ? '1' : '0'],
        parse: parseNvmeVwcFeature,
      }
    }
    case 'ata':
      return {via, get: ['hdparm', '-W', path], set: e => ['hdparm', e ? '-W1' : '-W0', path], parse: parseHdparmWriteCache}
    case 'scsi':
      return {via, get: ['sdparm', '--get=WCE', path], set: e => ['sdparm', e ? '--set=WCE' : '--clear=WCE', path], parse: parseSdparmWce}
  }
}

export type WriteCacheState =
  | {supported: true; enabled: boolean; via: CacheInterface; argv: string[]; output: string}
  | {supported: false; reason: string}

export interface CacheTarget { path: string; interface: string; kind?: 'block' | 'file'; volatileWriteCache?: boolean | null }

function unsupported(t: CacheTarget): string | null {
  if (t.kind === 'file' || t.interface === 'file') return 'target is a regular file: the device write cache cannot be set (recorded as a deviation)'
  if (t.interface === 'loop') return 'target is a loop device: it has no device write cache to set (recorded as a deviation)'
  if (t.volatileWriteCache === false) return 'the device has no volatile write cache (NVMe VWC bit 0 clear): nothing to set'
  if (!cacheInterface(t.interface)) return `write cache cannot be set on a ${t.interface} device (recorded as a deviation)`
  return null
}

const exec = (argv: string[]) => runTool(argv, 30_000)

export function getWriteCache(t: CacheTarget): WriteCacheState {
  const u = unsupported(t)
  if (u) return {supported: false, reason: u}
  const c = writeCacheCommands(cacheInterface(t.interface)!, t.path)
  const r = exec(c.get)
  const failed = `${c.get.join(' ')} failed (exit ${r.code}): ${r.stderr.trim()}`
  if (r.code === null || (r.code !== 0 && !OUTPUT_DECIDES.has(c.via))) return {supported: false, reason: failed}
  try {
    return {supported: true, enabled: c.parse(r.stdout), via: c.via, argv: c.get, output: r.stdout}
  } catch (e) {
    return {supported: false, reason: r.code !== 0 ? failed : (e as Error).message}
  }
}

/** Set the cache, then read it back; the read-back state is returned (it must equal `enable`). */
export function setWriteCache(t: CacheTarget, enable: boolean): WriteCacheState & {changed?: boolean} {
  const u = unsupported(t)
  if (u) return {supported: false, reason: u}
  const c = writeCacheCommands(cacheInterface(t.interface)!, t.path)
  const argv = c.set(enable)
  const r = exec(argv)
  if (r.code !== 0) return {supported: false, reason: `${argv.join(' ')} failed (exit ${r.code}): ${r.stderr.trim()}`}
  const after = getWriteCache(t)
  if (after.supported && after.enabled !== enable) return {supported: false, reason: `${argv.join(' ')} succeeded but the cache still reads ${after.enabled ? 'enabled' : 'disabled'}`}
  return after
}
