/**
 * Parsers and rules on outputs captured in the device lab (QEMU 7.2's emulated NVMe controller,
 * virtio-scsi disk and AHCI SATA disk, read by the host's nvme-cli 2.3, sg3-utils 1.46, sdparm
 * 1.12, hdparm 9.65 and smartmontools 7.3): test/fixtures/devices/lab/, captured by
 * scripts/lab/capture-fixtures.ts (README.md there). They sit beside the real-drive fixtures.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {parseNvmeIdCtrl, parseNvmeVwcFeature} from '../../src/device/parse-nvme.js'
import {parseHdparmIdentify, parseHdparmWriteCache} from '../../src/device/parse-ata.js'
import {parseSdparmWce, parseSgInq} from '../../src/device/parse-scsi.js'
import {parseSmartctlInfo} from '../../src/device/parse-smartctl.js'
import {ataPurgeNotes, choosePurge, purgeMethods, type PurgeFacts} from '../../src/device/purge-plan.js'
import {scsiSanitizeSupport} from '../../src/device/discover.js'
import {purgeToolsNeeded} from '../../src/app/preflight-probe.js'
import {nvmeControllerPath} from '../../src/device/write-cache.js'
import {applyWriteCache} from '../../src/runner/session.js'
import type {CacheTarget, WriteCacheState} from '../../src/device/write-cache.js'
import type {ResolvedTarget} from '../../src/device/target.js'
import type {RunManifest} from '../../src/model/manifest.js'

const LAB = fileURLToPath(new URL('../fixtures/devices/lab/', import.meta.url))
const fx = (f: string) => readFileSync(LAB + f, 'utf8')
/** The exit status each capture had (exit-codes.tsv: file, "exit N", command). */
const exitOf = (f: string) => Number(/exit (\d+)/.exec(fx('exit-codes.tsv').split('\n').find(l => l.startsWith(`${f}\t`)) ?? '')?.[1])
const tools = {nvme: true, hdparm: true, sg_sanitize: true, sg_format: true, blkdiscard: true}

describe('lab fixtures: NVMe (QEMU NVMe Ctrl)', () => {
  const id = parseNvmeIdCtrl(fx('nvme-id-ctrl.json'))
  it('id-ctrl: identity, Format NVM, no sanitize (SANICAP 0), no crypto erase (FNA 0), a volatile write cache', () => {
    expect([id.model, id.serial]).to.deep.equal(['QEMU NVMe Ctrl', 'PTSNVME0001'])
    expect(id).to.include({sanicap: 0, fna: 0, formatNvm: true, formatCryptoErase: false, sanitizeBlock: false, sanitizeCrypto: false, volatileWriteCache: true})
  })
  it('purge auto is Format NVM SES 1; SES 2 is refused (FNA says no), never sent', () => {
    const f: PurgeFacts = {path: '/dev/nvme0n1', interface: 'nvme', nvme: id, ata: null, scsi: false, discard: true, discardZeroes: null, tools}
    expect(purgeMethods(f).filter(m => m.startsWith('nvme-'))).to.deep.equal(['nvme-format-ses1'])
    const auto = choosePurge(f, 'auto')
    expect([auto.method, auto.refused, auto.steps.map(s => s.argv.join(' '))]).to.deep.equal(['nvme-format-ses1', null, ['nvme format /dev/nvme0n1 --ses=1 --force']])
    expect(choosePurge(f, 'nvme-format-ses2').refused).to.match(/does not support purge method nvme-format-ses2/)
  })
  it('get-feature 6: "0x00000001" when on, nvme-cli 2.3\'s "00000000" (no 0x) when off, and the -H form', () => {
    expect(fx('nvme-get-feature-6-on.txt')).to.match(/Current value:0x0*1/)
    expect(fx('nvme-get-feature-6-off.txt')).to.match(/Current value:00000000/)
    expect(parseNvmeVwcFeature(fx('nvme-get-feature-6-on.txt'))).to.equal(true)
    expect(parseNvmeVwcFeature(fx('nvme-get-feature-6-off.txt'))).to.equal(false)
    expect(parseNvmeVwcFeature(fx('nvme-get-feature-6-H.txt'))).to.equal(true)
  })
  it('the write cache is a controller feature: the namespace refuses it, so pts sends it to the controller', () => {
    expect(fx('nvme-set-feature-6-namespace.txt')).to.match(/Feature Not Namespace Specific/)
    expect(exitOf('nvme-set-feature-6-namespace.txt')).to.not.equal(0)
    expect(['/dev/nvme0n1', '/dev/nvme0', '/dev/nvme10n3'].map(nvmeControllerPath)).to.deep.equal(['/dev/nvme0', '/dev/nvme0', '/dev/nvme10'])
  })
  it('smartctl -i -j identifies it', () => {
    expect(parseSmartctlInfo(fx('smartctl-nvme.json'))).to.include({ok: true, serial: 'PTSNVME0001'})
  })
})

describe('lab fixtures: SCSI (virtio-scsi disk)', () => {
  it('sg_inq: vendor, product, serial', () => {
    expect(parseSgInq(fx('sg_inq-scsi.txt'))).to.include({vendor: 'PTSLAB', product: 'SCSIDISK', serial: 'PTSSCSI0001'})
  })
  it('sdparm --get=WCE exits 5 yet prints the current value: the output is read, not the exit code', () => {
    expect(exitOf('sdparm-get-wce-scsi.txt')).to.equal(5)
    expect(parseSdparmWce(fx('sdparm-get-wce-scsi.txt'))).to.equal(true)
  })
  it('sg_opcodes for SANITIZE fails with exit 9 (invalid opcode): not supported, so not offered and refused when asked for', () => {
    const code = exitOf('sg_opcodes-sanitize-scsi.txt')
    expect(code).to.equal(9)
    const s = scsiSanitizeSupport({code, stdout: '', stderr: fx('sg_opcodes-sanitize-scsi.txt')})
    expect(s.supported).to.equal(false)
    expect(s.detail).to.match(/SCSI SANITIZE is not supported.*sg_opcodes exit 9/)
    const f: PurgeFacts = {path: '/dev/sda', interface: 'scsi', nvme: null, ata: null, scsi: true, scsiSanitize: s, discard: true, discardZeroes: null, tools}
    expect(purgeMethods(f)).to.include('scsi-format').and.not.include('scsi-sanitize')
    expect(choosePurge(f, 'auto').method).to.equal('scsi-format')
    expect(choosePurge(f, 'scsi-sanitize').refused).to.match(/SCSI SANITIZE of \/dev\/sda refused: SCSI SANITIZE is not supported/)
  })
  it('pts plan\'s preflight asks for the chosen purge\'s tool only: sg_format for FORMAT UNIT, not sg_sanitize for the SANITIZE the drive lacks', () => {
    const s = scsiSanitizeSupport({code: exitOf('sg_opcodes-sanitize-scsi.txt'), stdout: '', stderr: fx('sg_opcodes-sanitize-scsi.txt')})
    const f: PurgeFacts = {path: '/dev/sda', interface: 'scsi', nvme: null, ata: null, scsi: true, scsiSanitize: s, discard: true, discardZeroes: null, tools}
    expect(purgeToolsNeeded('scsi', choosePurge(f, 'auto'))).to.deep.equal([['sg_format', 'the scsi-format purge']])
    // asked for by name, SANITIZE is refused, and its tool is the one the preflight names
    expect(purgeToolsNeeded('scsi', choosePurge(f, 'scsi-sanitize'))).to.deep.equal([['sg_sanitize', 'the scsi-sanitize purge']])
    expect(purgeToolsNeeded('scsi', choosePurge(f, 'none'))).to.deep.equal([])
    // nothing could be chosen (here: sg3-utils missing, so no SCSI method): the interface's tools, since installing them may be the fix
    const noTools = choosePurge({...f, scsi: false, discard: false}, 'auto')
    expect(noTools.steps).to.deep.equal([])
    expect(noTools.refused).to.match(/^no PTS purge method is supported by \/dev\/sda \(scsi\)/)
    expect(purgeToolsNeeded('scsi', noTools)).to.deep.equal([['sg_sanitize', 'the PTS purge of a SCSI device'], ['sg_format', 'the PTS purge of a SCSI device']])
  })
  it('other sg_opcodes failures leave SANITIZE unknown, with the reason; "supported" lines decide when it answers', () => {
    expect(scsiSanitizeSupport({code: 99, stdout: '', stderr: 'sg_opcodes: transport error'})).to.deep.equal({supported: null, detail: 'whether the drive supports SCSI SANITIZE is unknown: sg_opcodes exited 99 (sg_opcodes: transport error)'})
    expect(scsiSanitizeSupport({code: null, stdout: '', stderr: ''}).supported).to.equal(null)
  })
  it('smartctl -i -j identifies it', () => {
    expect(parseSmartctlInfo(fx('smartctl-scsi.json')).serial).to.equal('PTSSCSI0001')
  })
})

describe('lab fixtures: SATA (AHCI disk)', () => {
  const ata = parseHdparmIdentify(fx('hdparm-I-sata.txt'))
  it('hdparm -I: identity and write cache; no Security section, no SANITIZE', () => {
    expect([ata.model, ata.serial, ata.writeCacheEnabled, ata.security, ata.sanitizeFeature]).to.deep.equal(['PTS-LAB-SATA', 'PTSSATA0001', true, null, false])
    expect(parseHdparmWriteCache(fx('hdparm-W-sata.txt'))).to.equal(true)
  })
  it('without the Security feature set: --purge auto and ata-secure-erase are refused with that reason', () => {
    const f: PurgeFacts = {path: '/dev/sdb', interface: 'sata', nvme: null, ata, scsi: false, discard: true, discardZeroes: null, tools}
    expect(choosePurge(f, 'auto').refused).to.match(/no PTS purge method .*ATA security erase unavailable: the drive does not support the ATA Security feature set/)
    for (const m of ['ata-secure-erase', 'ata-secure-erase-enhanced'] as const) expect(choosePurge(f, m).refused).to.equal('ATA security erase of /dev/sdb refused: the drive does not support the ATA Security feature set')
  })
  it('pts devices says why no ATA purge is offered (as it does for SCSI SANITIZE)', () => {
    expect(ataPurgeNotes(ata)).to.deep.equal([
      'ATA security erase is not available: the drive does not support the ATA Security feature set',
      'ATA SANITIZE is not supported: the drive does not report the SANITIZE feature set (hdparm -I)',
    ])
    expect(ataPurgeNotes(null)).to.deep.equal([])
    // a real drive (published hdparm -I of a frozen 2 TB drive): the note says frozen and what to do
    const frozen = parseHdparmIdentify(readFileSync(fileURLToPath(new URL('../fixtures/devices/hdparm-I/tesla-2tb-frozen.txt', import.meta.url)), 'utf8'))
    expect(ataPurgeNotes(frozen)[0]).to.match(/^ATA security erase is not available: the drive's security state is frozen/)
  })
  it('sg_inq through libata (vendor ATA) and sdparm (exit 5, value printed)', () => {
    expect(parseSgInq(fx('sg_inq-sata.txt')).vendor).to.equal('ATA')
    expect(parseSdparmWce(fx('sdparm-get-wce-sata.txt'))).to.equal(true)
  })
  it('smartctl -i -j identifies it', () => {
    expect(parseSmartctlInfo(fx('smartctl-sata.json'))).to.include({ok: true, serial: 'PTSSATA0001'})
  })
})

describe('write cache: the state before pts first changes it is recorded first, and a resume restores it', () => {
  const manifest = (): RunManifest => ({
    target: {kind: 'block', path: '/dev/nvme0n1', sizeBytes: 1, identity: {interface: 'nvme', writeCache: 'enabled'}},
    compliance: {compliant: true, reasons: []}, deviations: [],
  } as unknown as RunManifest)
  const target = {path: '/dev/nvme0n1', kind: 'block', identity: {interface: 'nvme'}, device: {nvme: {volatileWriteCache: true}}} as unknown as ResolvedTarget
  const device = (start: boolean, calls: string[]) => {
    let on = start
    const state = (t: CacheTarget): WriteCacheState => ({supported: true, enabled: on, via: 'nvme', argv: ['nvme', 'get-feature', t.path, '-f', '6'], output: `Current value:${on ? '0x00000001' : '00000000'}\n`})
    return {get: (t: CacheTarget) => { calls.push('get'); return state(t) }, set: (t: CacheTarget, e: boolean) => { calls.push(`set ${e}`); on = e; return state(t) }}
  }

  it('saves the original state before the first set', () => {
    const m = manifest()
    const calls: string[] = []
    applyWriteCache(target, 'disabled', m, () => {}, device(true, calls), () => calls.push(`save ${JSON.stringify(m.target.writeCacheBefore && {enabled: m.target.writeCacheBefore.enabled, via: m.target.writeCacheBefore.via})}`))
    expect(calls.slice(0, 3)).to.deep.equal(['get', 'save {"enabled":true,"via":"nvme"}', 'set false'])
  })

  it('a resume after SIGKILL (the device still disabled) restores the recorded "enabled", not what it reads now', () => {
    const m = manifest()
    m.target.writeCacheBefore = {enabled: true, via: 'nvme', at: '2026-12-04T03:00:00.000Z'}
    const calls: string[] = []
    const events: string[] = []
    const c = applyWriteCache(target, 'disabled', m, (_e, x) => events.push(x), device(false, calls))
    expect(calls).to.deep.equal(['set false'])
    expect(events[0]).to.equal('before the run (was enabled, as recorded before pts first changed it): set to disabled, read back disabled via nvme')
    c.restore()
    expect(calls.at(-1)).to.equal('set true')
  })
})
