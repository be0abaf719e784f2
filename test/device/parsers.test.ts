import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {parseLsblk} from '../../src/device/parse-lsblk.js'
import {parseNvmeIdCtrl, parseNvmeSanitizeLog, parseNvmeVwcFeature} from '../../src/device/parse-nvme.js'
import {parseHdparmIdentify, parseHdparmWriteCache} from '../../src/device/parse-ata.js'
import {parseSmartctlInfo} from '../../src/device/parse-smartctl.js'
import {parseBlkidExport, parseWipefsJson} from '../../src/device/parse-signatures.js'

const FX = fileURLToPath(new URL('../fixtures/devices/', import.meta.url))
const fx = (p: string): string => readFileSync(FX + p, 'utf8')

describe('device parsers on real captured outputs', () => {
  describe('nvme id-ctrl', () => {
    const cases = [
      {file: 'nvme-id-ctrl/t-force-tm8fpl500g.H.txt', sn: 'TPBF2210060060400308', mn: 'T-FORCE TM8FPL500G', fr: 'EJFM90.1', oacs: 0x17, sanicap: 0xa0000002, formatNvm: true, block: true, crypto: false, overwrite: false, fnaCrypto: false, vwc: true},
      {file: 'nvme-id-ctrl/solidigm-sbfpf2bu153t.json', sn: 'XXXXXXXXXXXXXXXXXXXXX', mn: 'SOLIDIGM SBFPF2BU153T', fr: '6CV10100', oacs: 94, sanicap: 1610612739, formatNvm: true, block: true, crypto: true, overwrite: false, fnaCrypto: true, vwc: false},
    ]
    for (const c of cases) {
      it(c.file, () => {
        const r = parseNvmeIdCtrl(fx(c.file))
        expect([r.serial, r.model, r.firmware, r.oacs, r.sanicap]).to.deep.equal([c.sn, c.mn, c.fr, c.oacs, c.sanicap])
        expect([r.formatNvm, r.sanitizeBlock, r.sanitizeCrypto, r.sanitizeOverwrite, r.formatCryptoErase, r.volatileWriteCache])
          .to.deep.equal([c.formatNvm, c.block, c.crypto, c.overwrite, c.fnaCrypto, c.vwc])
      })
    }
    it('rejects output without the capability fields', () => {
      expect(() => parseNvmeIdCtrl('{"sn":"x"}')).to.throw(/oacs/)
    })
  })

  it('nvme sanitize-log (text, in progress)', () => {
    const r = parseNvmeSanitizeLog(fx('nvme-sanitize-log/intel-ssdpeknw010t8-in-progress.txt'))
    expect(r.sprog).to.equal(655)
    expect(r.sstat).to.equal(2)
    expect(r.state).to.equal('in-progress')
    expect(r.progress).to.be.closeTo(655 / 65536, 1e-9)
  })

  describe('nvme get-feature / set-feature -f 6', () => {
    const cases = [
      {file: 'nvme-get-feature/vwc-enabled.txt', enabled: true},
      {file: 'nvme-get-feature/vwc-disabled.txt', enabled: false},
      {file: 'nvme-get-feature/vwc-set-disabled.txt', enabled: false},
    ]
    for (const c of cases) it(c.file, () => expect(parseNvmeVwcFeature(fx(c.file))).to.equal(c.enabled))
  })

  it('hdparm -I (SATA SSD, security frozen, enhanced erase, SANITIZE)', () => {
    const r = parseHdparmIdentify(fx('hdparm-I/tesla-2tb-frozen.txt'))
    expect([r.model, r.serial, r.firmware]).to.deep.equal(['TESLA', '2022092T0075', 'V0609B0'])
    expect([r.logicalSectorBytes, r.physicalSectorBytes, r.rotational, r.trim]).to.deep.equal([512, 512, false, true])
    expect([r.writeCacheSupported, r.writeCacheEnabled]).to.deep.equal([true, true])
    expect([r.sanitizeFeature, r.blockEraseExt, r.cryptoScrambleExt]).to.deep.equal([true, true, false])
    expect(r.security).to.deep.equal({supported: true, enabled: false, locked: false, frozen: true, expired: false, enhancedErase: true})
  })

  describe('hdparm -W', () => {
    const cases = [
      {file: 'hdparm-W/linuxconfig-on.txt', on: true},
      {file: 'hdparm-W/linuxconfig-off.txt', on: false},
      {file: 'hdparm-W/linuxconfig-set-off.txt', on: false},
    ]
    for (const c of cases) it(c.file, () => expect(parseHdparmWriteCache(fx(c.file))).to.equal(c.on))
  })

  describe('smartctl -i -j', () => {
    const cases = [
      {file: 'smartctl/samsung-970-evo-plus-nvme.json', ok: true, protocol: 'NVMe', model: 'Samsung SSD 970 EVO Plus 250GB', bytes: 250059350016, lsec: 512, rot: false},
      {file: 'smartctl/intel-s3520-sat.json', ok: true, protocol: 'ATA', model: 'SSDSCKJB240G7R', bytes: 240057409536, lsec: 512, rot: false},
      {file: 'smartctl/local-virtio-unable.json', ok: false, protocol: null, model: null, bytes: null, lsec: null, rot: null},
    ]
    for (const c of cases) {
      it(c.file, () => {
        const r = parseSmartctlInfo(fx(c.file))
        expect([r.ok, r.protocol, r.model, r.capacityBytes, r.logicalSectorBytes, r.rotational]).to.deep.equal([c.ok, c.protocol, c.model, c.bytes, c.lsec, c.rot])
      })
    }
  })

  describe('lsblk -J -b -O (loop devices captured here)', () => {
    const cases = [
      {file: 'lsblk/loop-clean.json', type: 'loop', children: [], mounts: []},
      {file: 'lsblk/loop-ext4.json', type: 'loop', children: [], mounts: []},
      {file: 'lsblk/loop-gpt-2parts.json', type: 'loop', children: ['part', 'part'], mounts: []},
      {file: 'lsblk/loop-swap.json', type: 'loop', children: [], mounts: ['[SWAP]']},
    ]
    for (const c of cases) {
      it(c.file, () => {
        const [n] = parseLsblk(fx(c.file))
        expect(n.type).to.equal(c.type)
        expect(n.sizeBytes).to.equal(64 * 1024 * 1024)
        expect(n.children.map(x => x.type)).to.deep.equal(c.children)
        expect(n.mountpoints).to.deep.equal(c.mounts)
        expect([n.logicalSectorBytes, n.readOnly]).to.deep.equal([512, false])
      })
    }
  })

  describe('wipefs -n -J / blkid -p', () => {
    it('wipefs', () => {
      expect(parseWipefsJson(fx('wipefs/loop-clean.json'))).to.deep.equal([])
      expect(parseWipefsJson(fx('wipefs/loop-ext4.json')).map(s => s.type)).to.deep.equal(['ext4'])
      expect(parseWipefsJson(fx('wipefs/loop-gpt.json')).map(s => s.type)).to.deep.equal(['gpt', 'gpt', 'PMBR'])
    })
    it('blkid', () => {
      expect(parseBlkidExport(fx('blkid/loop-ext4.export.txt')).map(s => s.type)).to.deep.equal(['ext4'])
      expect(parseBlkidExport(fx('blkid/loop-gpt.export.txt')).map(s => s.type)).to.deep.equal(['gpt'])
    })
  })
})
