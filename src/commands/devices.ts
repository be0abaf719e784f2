import {Flags} from '@oclif/core'
import {BaseCommand} from '../app/base-command.js'
import type {DeviceInfo} from '../device/discover.js'
import {pcieLinkText} from '../device/parse-sysfs.js'
import {formatCapacity} from '../units.js'

/** What `pts devices --json` prints: every block device found, with its safety verdict. */
export type DevicesJson = DeviceInfo[]

function yn(v: boolean | null): string { return v === null ? '?' : v ? 'yes' : 'no' }

function wcText(d: DeviceInfo): string {
  const dev = d.writeCache.enabled === null ? 'unknown' : d.writeCache.enabled ? 'enabled' : 'disabled'
  return `${dev}${d.writeCache.sysfs ? ` (kernel: ${d.writeCache.sysfs})` : ''}`
}

function platformText(d: DeviceInfo): string {
  const p = d.platform
  const link = p.pcie ? `${p.linkOf === 'host adapter' ? 'host adapter ' : ''}PCIe ${pcieLinkText(p.pcie)} (${p.pcie.pciAddress})` : 'PCIe link not available'
  return `${link}   NUMA node ${p.numaNode ?? 'not available'}   I/O scheduler ${p.ioScheduler ?? 'not available'}`
}

export function devicesText(devs: DeviceInfo[]): string {
  if (devs.length === 0) return 'No block devices found.'
  const lines: string[] = []
  for (const d of devs) {
    lines.push(`${d.path}  ${d.model ?? '?'}  serial ${d.serial ?? 'none'}  firmware ${d.firmware ?? '?'}`)
    lines.push(`  capacity   ${formatCapacity(d.capacityBytes)}, ${d.capacityBytes} bytes   interface ${d.interface}   sectors ${d.logicalSectorBytes ?? '?'}/${d.physicalSectorBytes ?? '?'} B (logical/physical)   rotational ${yn(d.rotational)}`)
    lines.push(`  write cache ${wcText(d)}${d.writeCache.note ? ` - ${d.writeCache.note}` : ''}`)
    lines.push(`  platform   ${platformText(d)}`)
    lines.push(`  purge      ${d.purgeMethods.join(', ')}`)
    if (d.children.length > 0) lines.push(`  children   ${d.children.map(c => `${c.path} (${c.type}${c.fstype ? `, ${c.fstype}` : ''}${c.mountpoints.length ? ` on ${c.mountpoints.join(',')}` : ''})`).join('; ')}`)
    lines.push(`  verdict    ${d.safety.proceed ? 'may be used (destruction still needs --yes-destroy-data <serial or path>)' : 'REFUSED'}`)
    for (const r of d.safety.refusals) lines.push(`    - ${r}`)
    for (const r of d.safety.nonCompliant) lines.push(`    ~ non-compliant: ${r}`)
    for (const n of d.notes) lines.push(`  note: ${n}`)
    lines.push('')
  }
  return lines.join('\n')
}

export default class Devices extends BaseCommand {
  static summary = 'List block devices: identity, purge methods, write cache and the safety verdict; touches nothing.'
  static description = 'Reads lsblk, sysfs and, where installed, nvme-cli, hdparm, sg3-utils/sdparm, smartctl and wipefs. A missing tool lowers what is known and is noted; nothing is written to any device.'
  static examples = ['<%= config.bin %> devices', '<%= config.bin %> devices --json']
  static flags = {
    'allow-partition': Flags.boolean({description: 'judge partitions as allowed (non-compliant) targets', default: false}),
  }

  async run(): Promise<DevicesJson> {
    const {flags} = await this.parse(Devices)
    const {discoverDevices} = await import('../device/discover.js')
    const devs = discoverDevices({allowPartition: flags['allow-partition']})
    if (!this.jsonEnabled()) this.log(devicesText(devs))
    return devs
  }
}
