import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {parseLinkSpeed, parseLinkWidth, parsePlatform, parseScheduler, pcieLinkText, type SysfsSnapshot} from '../../src/device/parse-sysfs.js'
import {platformIdentity} from '../../src/device/target.js'

const FX = fileURLToPath(new URL('../fixtures/devices/sysfs/', import.meta.url))
const snapshot = (name: string): SysfsSnapshot => JSON.parse(readFileSync(`${FX}${name}.json`, 'utf8')) as SysfsSnapshot

describe('sysfs platform facts (PCIe link, NUMA node, I/O scheduler, sector sizes)', () => {
  describe('on snapshots captured from this machine (test/fixtures/devices/sysfs/README.md)', () => {
    it('vda: virtio disk on conventional PCI: no PCIe link, no NUMA node (-1), mq-deadline, 512/4096', () => {
      const s = snapshot('vda')
      // the capture is what it says: the PCI function above the virtio device, with numa_node -1 and no link files
      expect(s.chain.map(n => n.path.split('/').pop())).to.include('0000:00:02.0')
      const p = parsePlatform(s)
      expect(p).to.deep.equal({pcie: null, linkOf: null, numaNode: null, ioScheduler: 'mq-deadline', logicalSectorBytes: 512, physicalSectorBytes: 4096})
      expect(platformIdentity(p)).to.deep.equal({ioScheduler: 'mq-deadline'})
    })
    it('loop0: a virtual device: no device chain, scheduler none', () => {
      const s = snapshot('loop0')
      expect(s.chain).to.deep.equal([])
      expect(parsePlatform(s)).to.deep.equal({pcie: null, linkOf: null, numaNode: null, ioScheduler: 'none', logicalSectorBytes: 512, physicalSectorBytes: 512})
    })
    it('zram0: no queue/scheduler file at all', () => {
      const p = parsePlatform(snapshot('zram0'))
      expect([p.ioScheduler, p.logicalSectorBytes, p.physicalSectorBytes, p.pcie]).to.deep.equal([null, 4096, 4096, null])
    })
  })

  describe('the kernel\'s text (drivers/pci/pci-sysfs.c, pci_speed_string in drivers/pci/probe.c)', () => {
    const speeds: Array<[string | undefined, string | null]> = [
      ['8.0 GT/s PCIe\n', '8.0 GT/s PCIe'], ['16.0 GT/s PCIe\n', '16.0 GT/s PCIe'], ['2.5 GT/s PCIe', '2.5 GT/s PCIe'],
      ['Unknown\n', null], ['\n', null], [undefined, null],
      ['8 GT/s\n', '8 GT/s'], // kernels before 4.17 printed no "PCIe" suffix: kept as printed
    ]
    for (const [text, want] of speeds) it(`current_link_speed ${JSON.stringify(text)} -> ${JSON.stringify(want)}`, () => expect(parseLinkSpeed(text)).to.equal(want))
    const widths: Array<[string | undefined, number | null]> = [['4\n', 4], ['16', 16], ['0\n', null], ['x4', null], [undefined, null]]
    for (const [text, want] of widths) it(`current_link_width ${JSON.stringify(text)} -> ${want}`, () => expect(parseLinkWidth(text)).to.equal(want))
    const schedulers: Array<[string | undefined, string | null]> = [
      ['[none] mq-deadline kyber bfq\n', 'none'], ['none [mq-deadline] kyber bfq \n', 'mq-deadline'], ['none\n', 'none'], ['mq-deadline kyber', null], [undefined, null],
    ]
    for (const [text, want] of schedulers) it(`queue/scheduler ${JSON.stringify(text)} -> ${want}`, () => expect(parseScheduler(text)).to.equal(want))
    it('link text: current, and the maximum when the link runs below it', () => {
      expect(pcieLinkText({speed: '8.0 GT/s PCIe', width: 4, maxSpeed: '8.0 GT/s PCIe', maxWidth: 4})).to.equal('8.0 GT/s PCIe x4')
      expect(pcieLinkText({speed: '2.5 GT/s PCIe', width: 1, maxSpeed: '8.0 GT/s PCIe', maxWidth: 4})).to.equal('2.5 GT/s PCIe x1 (max 8.0 GT/s PCIe x4)')
      expect(pcieLinkText({speed: null, width: 4})).to.equal('speed unknown x4')
    })
  })

  describe('whose link it is', () => {
    // The vda capture with one change: link files on its PCI function, as an NVMe endpoint or an
    // AHCI controller has them (no NVMe or SATA device on the capturing machine).
    const withLink = (name: string, cls: string): SysfsSnapshot => {
      const s = snapshot('vda')
      return {...s, name, chain: s.chain.map(n => (n.path.endsWith('/0000:00:02.0') ? {...n, attrs: {...n.attrs, class: `${cls}\n`, numa_node: '0\n', current_link_speed: '8.0 GT/s PCIe\n', current_link_width: '4\n', max_link_speed: '16.0 GT/s PCIe\n', max_link_width: '4\n'}} : n))}
    }
    it('an NVMe namespace: the drive\'s own link, stored as pcieLinkSpeed / pcieLinkWidth', () => {
      const p = parsePlatform(withLink('nvme0n1', '0x010802'))
      expect([p.linkOf, p.pcie?.pciAddress, p.numaNode]).to.deep.equal(['device', '0000:00:02.0', 0])
      expect(platformIdentity(p)).to.deep.equal({pcieLinkSpeed: '8.0 GT/s PCIe', pcieLinkWidth: 4, pcieMaxLinkSpeed: '16.0 GT/s PCIe', pcieMaxLinkWidth: 4, numaNode: 0, ioScheduler: 'mq-deadline'})
    })
    it('a SATA disk behind AHCI: the host adapter\'s link, never as the drive\'s', () => {
      const id = platformIdentity(parsePlatform(withLink('sda', '0x010601')))
      expect(id.pcieLinkSpeed).to.equal(undefined)
      expect(id.hostAdapterPcieLink).to.equal('8.0 GT/s PCIe x4 (max 16.0 GT/s PCIe x4) (0000:00:02.0)')
    })
  })
})
