/**
 * Lab tier: `pts devices` on real emulated NVMe, SCSI and SATA controllers (QEMU guest, the
 * host's own nvme-cli / sg3-utils / sdparm / hdparm / smartctl), and the serial it prints is the
 * one --yes-destroy-data accepts, with and without udev in the guest.
 */
import {expect} from 'chai'
import type {DeviceInfo} from '../../src/device/discover.js'
import {ROOT} from '../helpers/cli.js'
import {LAB_MODELS, LAB_SERIALS, type Lab} from '../helpers/lab.js'
import {DEV, sharedLab} from './shared.js'

describe('lab: pts devices on emulated NVMe, SCSI and SATA drives', function () {
  this.timeout(600_000) // the guest runs under TCG on a shared host: minutes per pts command when the host is loaded
  let lab: Lab
  let devs: DeviceInfo[]
  const by = (p: string) => devs.find(d => d.path === p)!

  before(async function () {
    lab = await sharedLab(this)
    const r = await lab.pts('devices --json')
    expect(r.code, r.stderr).to.equal(0)
    devs = JSON.parse(r.stdout) as DeviceInfo[]
  })

  it('identifies all three: model, serial, firmware, capacity, sector sizes, interface', () => {
    expect(devs.map(d => d.path)).to.include.members([DEV.nvme, DEV.scsi, DEV.sata])
    const n = by(DEV.nvme), s = by(DEV.scsi), a = by(DEV.sata)
    expect([n.model, n.serial, n.interface, n.capacityBytes, n.logicalSectorBytes]).to.deep.equal([LAB_MODELS.nvme, LAB_SERIALS.nvme, 'nvme', 1024 * 1024 * 1024, 512])
    expect(n.firmware).to.match(/^\d+\.\d+/) // QEMU's version, e.g. 7.2.22
    expect([s.model, s.serial, s.interface, s.capacityBytes, s.logicalSectorBytes, s.vendor]).to.deep.equal([LAB_MODELS.scsi, LAB_SERIALS.scsi, 'scsi', 256 * 1024 * 1024, 512, 'PTSLAB'])
    expect([a.model, a.serial, a.interface, a.capacityBytes, a.logicalSectorBytes, a.physicalSectorBytes]).to.deep.equal([LAB_MODELS.sata, LAB_SERIALS.sata, 'sata', 256 * 1024 * 1024, 512, 512])
    for (const d of [n, s, a]) expect(d.firmware, d.path).to.be.a('string').and.not.equal('')
  })

  it('reads the write-cache state of all three from the drive itself (sdparm exits 5 on the SCSI disk yet prints the value)', () => {
    for (const [p, via] of [[DEV.nvme, 'nvme'], [DEV.scsi, 'scsi'], [DEV.sata, 'ata']] as const) {
      expect(by(p).writeCache, p).to.include({enabled: true, via, settable: true})
    }
  })

  it('offers the purge methods each drive reports: Format NVM SES 1 only (SANICAP 0, FNA 0), no SCSI sanitize, no ATA security erase', () => {
    const n = by(DEV.nvme), s = by(DEV.scsi), a = by(DEV.sata)
    expect(n.nvme).to.include({sanicap: 0, fna: 0, formatNvm: true})
    expect(n.purgeMethods.filter(m => m.startsWith('nvme-'))).to.deep.equal(['nvme-format-ses1'])
    expect(s.purgeMethods).to.include('scsi-format').and.not.include('scsi-sanitize')
    expect(s.notes.join('\n')).to.match(/SANITIZE.*not supported/i)
    expect(a.ata?.security ?? null).to.equal(null)
    expect(a.purgeMethods.filter(m => m.startsWith('ata-'))).to.deep.equal([])
    expect(a.notes.join('\n')).to.include('ATA security erase is not available: the drive does not support the ATA Security feature set').and.include('ATA SANITIZE is not supported')
  })

  const SERIALS = [[DEV.nvme, LAB_SERIALS.nvme], [DEV.scsi, LAB_SERIALS.scsi], [DEV.sata, LAB_SERIALS.sata]] as const
  /** In the guest: resolve each target as pts run does and judge the printed serial and a wrong one. */
  const gateVerdicts = async () => {
    const r = await lab.node(`
      const t = await import(${JSON.stringify(`${ROOT}dist/device/target.js`)})
      const out = {}
      for (const [dev, serial] of ${JSON.stringify(SERIALS)}) {
        const r = t.resolveTarget(t.parseTarget(dev), null)
        out[dev] = {printed: r.identity.serial, withSerial: t.refusals(r, r.identity.serial), withWrong: t.refusals(r, 'NOT-' + serial)}
      }
      console.log(JSON.stringify(out))`)
    expect(r.code, r.stderr).to.equal(0)
    const out = JSON.parse(r.stdout) as Record<string, {printed: string; withSerial: string[]; withWrong: string[]}>
    for (const [dev, serial] of SERIALS) {
      expect(out[dev].printed, dev).to.equal(serial)
      expect(out[dev].withSerial, dev).to.deep.equal([])
      expect(out[dev].withWrong.join(' '), dev).to.match(/not confirmed/)
    }
  }

  it('accepts the printed serial of each drive as --yes-destroy-data, without udev in the guest', async () => {
    const lsblk = await lab.ok(`lsblk -dn -o NAME,SERIAL ${DEV.sata}`)
    expect(lsblk.trim(), 'without udev lsblk knows no SATA serial').to.equal('sdb')
    await gateVerdicts()
    const r = await lab.pts(`plan iops --device ${DEV.sata} --yes-destroy-data ${LAB_SERIALS.sata} --purge discard --json`)
    expect(r.code, r.stderr).to.be.oneOf([0, 12])
    expect((JSON.parse(r.stdout) as {safety: {refusals: string[]}}).safety.refusals).to.deep.equal([])
  })

  it('accepts the same serials with udev running in the guest', async () => {
    await lab.ok('/lib/systemd/systemd-udevd --daemon && udevadm trigger --action=add && udevadm settle --timeout=60', {timeoutMs: 90_000})
    const lsblk = await lab.ok(`lsblk -dn -o NAME,SERIAL ${DEV.sata}`)
    expect(lsblk, 'with udev lsblk has the SATA serial').to.include(LAB_SERIALS.sata)
    await gateVerdicts()
  })
})
