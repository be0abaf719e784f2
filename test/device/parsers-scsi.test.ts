import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {parseSdparmWce, parseSgInq} from '../../src/device/parse-scsi.js'

const FX = fileURLToPath(new URL('../fixtures/devices/', import.meta.url))
const fx = (p: string): string => readFileSync(FX + p, 'utf8')

describe('SCSI parsers on real captured outputs', () => {
  describe('sg_inq (standard INQUIRY decode)', () => {
    const cases = [
      // libata SAT: vendor "ATA", ATA serial right-aligned in its 20-char field
      {file: 'sg_inq/toshiba-mk1059gs-sata.txt', vendor: 'ATA', product: 'TOSHIBA MK1059GS', revision: '1U', serial: '91GCPH6RT'},
      // same drive behind a USB bridge that answers INQUIRY itself
      {file: 'sg_inq/toshiba-mk1059gsm-usb.txt', vendor: 'TOSHIBA', product: 'MK1059GSM', revision: '0', serial: '1000000000CA'},
      // parallel SCSI, `sg_inq -v`: padded fields, verbose trace lines before the serial
      {file: 'sg_inq/quantum-atlas-v-36-wls-verbose.txt', vendor: 'QUANTUM', product: 'ATLAS_V_36_WLS', revision: '0230', serial: '143110652885'},
      {file: 'sg_inq/seagate-st973401lc-verbose.txt', vendor: 'SEAGATE', product: 'ST973401LC', revision: 'F402', serial: '3LB00XQ900008443EEU1'},
      // no Unit Serial Number VPD page: the VPD INQUIRY fails and no serial line is printed
      {file: 'sg_inq/sony-ddu1621-no-serial-verbose.txt', vendor: 'SONY', product: 'DVD-ROM DDU1621', revision: 'S4.0', serial: null},
    ]
    for (const c of cases) {
      it(c.file, () => {
        expect(parseSgInq(fx(c.file))).to.deep.equal({vendor: c.vendor, product: c.product, revision: c.revision, serial: c.serial})
      })
    }

    it('throws when there are no identification lines', () => {
      expect(() => parseSgInq('')).to.throw(/no vendor\/product identification/)
      expect(() => parseSgInq('sg_inq: error opening file: /dev/sdz: No such file or directory\n')).to.throw(/no vendor\/product identification/)
    })

    it('does not take an empty value from the next line', () => {
      // derived from a real capture (revision blanked), not itself a capture
      const out = fx('sg_inq/toshiba-mk1059gsm-usb.txt').replace(' Product revision level: 0\n', ' Product revision level: \n')
      expect(parseSgInq(out).revision).to.equal(null)
      expect(parseSgInq(out).serial).to.equal('1000000000CA')
    })
  })

  describe('sdparm WCE', () => {
    const cases = [
      // old sdparm --get=WCE: current value only, no [cha: ...] bracket
      {file: 'sdparm/fujitsu-mhv2080b-get-wce.txt', wce: true},
      // default `sdparm <dev>` listing, indented fields, after `sdparm -s WCE=0`
      {file: 'sdparm/st4000nm0035-libsas-listing.txt', wce: false},
      // scsi_debug pseudo device (not hardware), current sdparm
      {file: 'sdparm/scsi-debug-listing.txt', wce: true},
      {file: 'sdparm/scsi-debug-get-wce-cleared.txt', wce: false},
    ]
    for (const c of cases) it(c.file, () => expect(parseSdparmWce(fx(c.file))).to.equal(c.wce))

    it('throws with a clear message when there is no WCE line', () => {
      // header only (first line of a real capture): e.g. a device without a Caching mode page
      const header = fx('sdparm/st4000nm0035-libsas-listing.txt').split('\n')[0] + '\n'
      expect(() => parseSdparmWce(header)).to.throw(/no WCE line in sdparm output.*ST4000NM0035/)
      expect(() => parseSdparmWce('')).to.throw(/no WCE line in sdparm output/)
    })
  })
})
