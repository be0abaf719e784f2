import {expect} from 'chai'
import {safetyVerdict, type SafetyFacts} from '../../src/device/safety.js'
import {choosePurge, purgeMethods, type PurgeFacts} from '../../src/device/purge-plan.js'
import {writeCacheCommands, cacheInterface} from '../../src/device/write-cache.js'
import {parseNvmeIdCtrl} from '../../src/device/parse-nvme.js'
import {parseHdparmIdentify} from '../../src/device/parse-ata.js'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

const FX = fileURLToPath(new URL('../fixtures/devices/', import.meta.url))
const clean: SafetyFacts = {
  path: '/dev/sdb', name: 'sdb', type: 'disk', serial: 'S1', readOnly: false, mountpoints: [], swap: false, partitions: [], holders: [], childrenMounted: [],
  fstype: null, descendantMounts: [], descendantSwap: [], rootOrBoot: [], stackedChildren: [], signatures: [],
}

describe('safety verdict (issue 4 item 2)', () => {
  const cases: Array<{name: string; facts: Partial<SafetyFacts>; match: RegExp | null; allowPartition?: boolean}> = [
    {name: 'clean disk passes', facts: {}, match: null},
    {name: 'mounted', facts: {mountpoints: ['/data']}, match: /mounted at \/data/},
    {name: 'mounted partition', facts: {partitions: ['/dev/sdb1'], childrenMounted: ['/dev/sdb1 on /srv']}, match: /partition or volume on \/dev\/sdb is mounted/},
    {name: 'mounted LVM volume below a partition', facts: {descendantMounts: ['/dev/mapper/vg-lv on /home']}, match: /vg-lv on \/home/},
    {name: 'swap', facts: {swap: true}, match: /in use as swap/},
    {name: 'swap partition', facts: {descendantSwap: ['/dev/sdb2']}, match: /sdb2 on \/dev\/sdb is in use as swap/},
    {name: 'backs root', facts: {rootOrBoot: ['/']}, match: /backs the root or boot filesystem \(\/\)/},
    {name: 'backs /boot', facts: {rootOrBoot: ['/boot']}, match: /root or boot/},
    {name: 'holder (dm)', facts: {holders: ['dm-0']}, match: /in use by dm-0/},
    {name: 'stacked lvm child', facts: {stackedChildren: ['vg-lv (lvm)']}, match: /stacked devices/},
    {name: 'LVM2_member', facts: {fstype: 'LVM2_member'}, match: /LVM physical volume/},
    {name: 'linux_raid_member', facts: {fstype: 'linux_raid_member'}, match: /md RAID member/},
    {name: 'zfs_member', facts: {fstype: 'zfs_member'}, match: /ZFS pool member/},
    {name: 'crypto_LUKS', facts: {fstype: 'crypto_LUKS'}, match: /LUKS/},
    {name: 'partitions', facts: {partitions: ['/dev/sdb1']}, match: /holds partitions/},
    {name: 'filesystem signature (wipefs)', facts: {signatures: ['ext4']}, match: /signature \(ext4\)/},
    {name: 'partition-table signature', facts: {signatures: ['gpt', 'PMBR']}, match: /signature \(gpt, PMBR\)/},
    {name: 'filesystem via fstype only', facts: {fstype: 'xfs'}, match: /xfs filesystem/},
    {name: 'read-only', facts: {readOnly: true}, match: /read-only/},
    {name: 'partition refused by default', facts: {type: 'part', path: '/dev/sdb1'}, match: /partition, not a whole disk/},
    {name: 'lvm volume is not a disk', facts: {type: 'lvm'}, match: /is a lvm, not a whole disk/},
  ]
  for (const c of cases) {
    it(c.name, () => {
      const v = safetyVerdict({...clean, ...c.facts}, {allowPartition: c.allowPartition})
      if (c.match === null) { expect(v.refusals).to.deep.equal([]); expect(v.proceed).to.equal(true) }
      else { expect(v.refusals.join('\n')).to.match(c.match); expect(v.proceed).to.equal(false) }
    })
  }
  it('a partition is allowed with the option, then marked non-compliant', () => {
    const v = safetyVerdict({...clean, type: 'part', path: '/dev/sdb1'}, {allowPartition: true})
    expect(v.proceed).to.equal(true)
    expect(v.nonCompliant.join()).to.match(/partition, not a whole device/)
  })
  it('allowPartition never bypasses mounted / swap / root', () => {
    for (const f of [{mountpoints: ['/x']}, {swap: true}, {rootOrBoot: ['/']}]) {
      expect(safetyVerdict({...clean, type: 'part', ...f}, {allowPartition: true}).proceed).to.equal(false)
    }
  })
})

const nvmeTForce = parseNvmeIdCtrl(readFileSync(FX + 'nvme-id-ctrl/t-force-tm8fpl500g.H.txt', 'utf8'))
const nvmeSolidigm = parseNvmeIdCtrl(readFileSync(FX + 'nvme-id-ctrl/solidigm-sbfpf2bu153t.json', 'utf8'))
const ataFrozen = parseHdparmIdentify(readFileSync(FX + 'hdparm-I/tesla-2tb-frozen.txt', 'utf8'))
const ataThawed = {...ataFrozen, security: {...ataFrozen.security!, frozen: false}}
const tools = {nvme: true, hdparm: true, sg_sanitize: true, sg_format: true, blkdiscard: true}
const base: PurgeFacts = {path: '/dev/x', interface: 'nvme', nvme: null, ata: null, scsi: false, discard: true, discardZeroes: null, tools}

describe('purge choice and commands (issue 4 item 3)', () => {
  it('supported methods by capability', () => {
    expect(purgeMethods({...base, nvme: nvmeTForce})).to.deep.equal(['nvme-sanitize-block', 'nvme-format-ses1', 'discard', 'zero', 'none'])
    expect(purgeMethods({...base, nvme: nvmeSolidigm})).to.deep.equal(['nvme-sanitize-block', 'nvme-sanitize-crypto', 'nvme-format-ses1', 'nvme-format-ses2', 'discard', 'zero', 'none'])
    expect(purgeMethods({...base, interface: 'sata', ata: ataFrozen})).to.include.members(['ata-secure-erase', 'ata-secure-erase-enhanced', 'ata-sanitize'])
    expect(purgeMethods({...base, interface: 'sas', scsi: true})).to.include.members(['scsi-sanitize', 'scsi-format'])
    expect(purgeMethods({...base, interface: 'loop', discard: false})).to.deep.equal(['zero', 'none'])
  })
  const cases: Array<{name: string; facts: Partial<PurgeFacts>; req: Parameters<typeof choosePurge>[1]; method: string; argv0?: string[]; refused?: RegExp; deviation: boolean}> = [
    {name: 'auto NVMe crypto sanitize when supported', facts: {path: '/dev/nvme0n1', nvme: nvmeSolidigm}, req: 'auto', method: 'nvme-sanitize-crypto', argv0: ['nvme', 'sanitize', '/dev/nvme0n1', '-a', '4'], deviation: false},
    {name: 'auto NVMe block sanitize', facts: {path: '/dev/nvme0n1', nvme: nvmeTForce}, req: 'auto', method: 'nvme-sanitize-block', argv0: ['nvme', 'sanitize', '/dev/nvme0n1', '-a', '2'], deviation: false},
    {name: 'format ses1', facts: {path: '/dev/nvme0n1', nvme: nvmeTForce}, req: 'nvme-format-ses1', method: 'nvme-format-ses1', argv0: ['nvme', 'format', '/dev/nvme0n1', '--ses=1', '--force'], deviation: false},
    {name: 'format ses2 needs FNA crypto', facts: {nvme: nvmeTForce}, req: 'nvme-format-ses2', method: 'nvme-format-ses2', refused: /does not support/, deviation: false},
    {name: 'format ses2', facts: {path: '/dev/nvme1n1', nvme: nvmeSolidigm}, req: 'nvme-format-ses2', method: 'nvme-format-ses2', argv0: ['nvme', 'format', '/dev/nvme1n1', '--ses=2', '--force'], deviation: false},
    {name: 'frozen ATA security erase refused with the way out', facts: {interface: 'sata', ata: ataFrozen}, req: 'ata-secure-erase-enhanced', method: 'ata-secure-erase-enhanced', refused: /frozen.*suspend\/resume.*hot-plug/, deviation: false},
    {name: 'locked ATA refused', facts: {interface: 'sata', ata: {...ataThawed, security: {...ataThawed.security, locked: true}}}, req: 'ata-secure-erase', method: 'ata-secure-erase', refused: /locked/, deviation: false},
    {name: 'password-enabled ATA refused', facts: {interface: 'sata', ata: {...ataThawed, security: {...ataThawed.security, enabled: true}}}, req: 'ata-secure-erase', method: 'ata-secure-erase', refused: /password is already enabled/, deviation: false},
    {name: 'thawed ATA enhanced erase', facts: {path: '/dev/sdb', interface: 'sata', ata: ataThawed}, req: 'ata-secure-erase-enhanced', method: 'ata-secure-erase-enhanced', argv0: ['hdparm', '--user-master', 'u', '--security-set-pass', 'pts-purge', '/dev/sdb'], deviation: false},
    {name: 'auto on frozen ATA falls to ATA sanitize', facts: {path: '/dev/sdb', interface: 'sata', ata: ataFrozen}, req: 'auto', method: 'ata-sanitize', argv0: ['hdparm', '--yes-i-know-what-i-am-doing', '--sanitize-block-erase', '/dev/sdb'], deviation: false},
    {name: 'SCSI sanitize', facts: {path: '/dev/sdc', interface: 'sas', scsi: true}, req: 'auto', method: 'scsi-sanitize', argv0: ['sg_sanitize', '--block', '--wait', '--quick', '/dev/sdc'], deviation: false},
    {name: 'SCSI format', facts: {path: '/dev/sdc', interface: 'sas', scsi: true}, req: 'scsi-format', method: 'scsi-format', argv0: ['sg_format', '--format', '--wait', '/dev/sdc'], deviation: false},
    {name: 'discard is a deviation', facts: {path: '/dev/loop3', interface: 'loop'}, req: 'discard', method: 'discard', argv0: ['blkdiscard', '-f', '/dev/loop3'], deviation: true},
    {name: 'zero is a deviation', facts: {path: '/dev/loop3', interface: 'loop'}, req: 'zero', method: 'zero', argv0: ['blkdiscard', '-z', '-f', '/dev/loop3'], deviation: true},
    {name: 'none is a deviation', facts: {interface: 'loop'}, req: 'none', method: 'none', deviation: true},
    {name: 'auto with no PTS method refuses (no silent fallback)', facts: {interface: 'loop'}, req: 'auto', method: 'none', refused: /no PTS purge method/, deviation: false},
    {name: 'missing tool refuses', facts: {nvme: nvmeTForce, tools: {...tools, nvme: false}}, req: 'nvme-sanitize-block', method: 'nvme-sanitize-block', refused: /nvme is not installed/, deviation: false},
  ]
  for (const c of cases) {
    it(c.name, () => {
      const ch = choosePurge({...base, ...c.facts}, c.req)
      expect(ch.method).to.equal(c.method)
      if (c.refused) expect(ch.refused ?? '').to.match(c.refused)
      else expect(ch.refused).to.equal(null)
      if (c.argv0) expect(ch.steps[0].argv).to.deep.equal(c.argv0)
      expect(ch.deviation !== null).to.equal(c.deviation)
    })
  }
  it('NVMe sanitize is polled through the sanitize log', () => {
    const ch = choosePurge({...base, path: '/dev/nvme0n1', nvme: nvmeTForce}, 'nvme-sanitize-block')
    expect(ch.steps[1]).to.include({poll: 'nvme-sanitize-log'})
    expect(ch.steps[1].argv).to.deep.equal(['nvme', 'sanitize-log', '/dev/nvme0n1', '-o', 'json'])
  })
  it('never SES 0', () => {
    for (const nv of [nvmeTForce, nvmeSolidigm]) for (const r of ['auto', 'nvme-format-ses1', 'nvme-format-ses2'] as const) {
      const argv = choosePurge({...base, nvme: nv}, r).steps.flatMap(s => s.argv)
      expect(argv.some(a => /^--ses=0$|^-s0$/.test(a))).to.equal(false)
    }
  })
  it('ATA security erase uses the same temporary password to set and erase', () => {
    const ch = choosePurge({...base, path: '/dev/sdb', interface: 'sata', ata: ataThawed}, 'ata-secure-erase', {password: 'tmp123'})
    expect(ch.steps.map(s => s.argv)).to.deep.equal([
      ['hdparm', '--user-master', 'u', '--security-set-pass', 'tmp123', '/dev/sdb'],
      ['hdparm', '--user-master', 'u', '--security-erase', 'tmp123', '/dev/sdb'],
    ])
  })
  it('a file target: none, as a deviation', () => {
    const ch = choosePurge({...base, interface: 'file', kind: 'file'}, 'auto')
    expect([ch.method, ch.refused, ch.steps.length]).to.deep.equal(['none', null, 0])
    expect(ch.deviation).to.match(/regular file/)
  })
})

describe('write-cache commands (issue 4 item 4)', () => {
  const cases = [
    // feature 0x06 is a controller feature: sent to the controller, never to the namespace
    {via: 'nvme' as const, get: ['nvme', 'get-feature', '/dev/nvme0', '-f', '6'], on: ['nvme', 'set-feature', '/dev/nvme0', '-f', '6', '-v', '1'], off: ['nvme', 'set-feature', '/dev/nvme0', '-f', '6', '-v', '0'], dev: '/dev/nvme0n1'},
    {via: 'nvme' as const, get: ['nvme', 'get-feature', '/dev/nvme12', '-f', '6'], on: ['nvme', 'set-feature', '/dev/nvme12', '-f', '6', '-v', '1'], off: ['nvme', 'set-feature', '/dev/nvme12', '-f', '6', '-v', '0'], dev: '/dev/nvme12'},
    {via: 'ata' as const, get: ['hdparm', '-W', '/dev/sda'], on: ['hdparm', '-W1', '/dev/sda'], off: ['hdparm', '-W0', '/dev/sda'], dev: '/dev/sda'},
    {via: 'scsi' as const, get: ['sdparm', '--get=WCE', '/dev/sdc'], on: ['sdparm', '--set=WCE', '/dev/sdc'], off: ['sdparm', '--clear=WCE', '/dev/sdc'], dev: '/dev/sdc'},
  ]
  for (const c of cases) {
    it(`${c.via} (${c.dev})`, () => {
      const w = writeCacheCommands(c.via, c.dev)
      expect([w.get, w.set(true), w.set(false)]).to.deep.equal([c.get, c.on, c.off])
    })
  }
  it('interfaces map to a command family or none', () => {
    expect(['nvme', 'sata', 'sas', 'loop', 'virtio', 'file'].map(cacheInterface)).to.deep.equal(['nvme', 'ata', 'scsi', null, null, null])
  })
})
