/**
 * Drive health parsers (src/device/parse-health.ts), table-driven on real captured outputs: smartctl
 * --json of real NVMe, SATA and SAS drives (published captures of the smartctl_exporter project,
 * see each fixture's .source.md), nvme smart-log -o json of a real NVMe drive (nvme-smart-log/,
 * published by the nvme-exporter project), and of a loop device on the development machine.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {criticalWarningText, parseNvmeSmartLog, parseSmartctlHealth, type HealthFacts} from '../../src/device/parse-health.js'

const fx = (p: string) => readFileSync(fileURLToPath(new URL(`../fixtures/devices/${p}`, import.meta.url)), 'utf8')

describe('drive health parsers (real captures)', () => {
  const ok: Array<{file: string; want: Partial<HealthFacts>}> = [
    {file: 'smartctl/samsung-970-evo-plus-nvme.json', want: {source: 'smartctl', protocol: 'NVMe', temperatureC: 35, criticalWarning: 0, smartPassed: true,
      hostBytesWritten: 1969459 * 512_000, hostBytesWrittenUnit: 512_000, mediaErrors: 0, percentageUsed: 0, availableSparePct: 100, powerOnHours: 3149, powerCycles: 16,
      unsafeShutdowns: 12, errorLogEntries: 22, warningTempMinutes: 0, criticalTempMinutes: 0, thermalTransitions: null, hostWritesAttribute: null}},
    {file: 'smartctl/samsung-mzwll3t2hajq-nvme-critical-warning.json', want: {protocol: 'NVMe', criticalWarning: 16, smartPassed: false, temperatureC: 40, powerOnHours: 18376,
      hostBytesWritten: 147556750 * 512_000}},
    {file: 'smartctl/intel-s3520-sat-attributes.json', want: {protocol: 'ATA', temperatureC: 47, smartPassed: true, powerOnHours: 21213, powerCycles: 186,
      // the drive's 241 counts 32 MiB units: kept raw with its name, never turned into bytes
      hostBytesWritten: null, hostWritesAttribute: {id: 241, name: 'Total_LBAs_Written', raw: 129493}, criticalWarning: null, unsafeShutdowns: 167, errorLogEntries: 0, mediaErrors: 0}},
    {file: 'smartctl/hitachi-h109060sesun600g-sas.json', want: {protocol: 'SCSI', temperatureC: 26, smartPassed: true, powerOnHours: 22364,
      hostBytesWritten: 127551260 * 1e6, hostBytesWrittenUnit: 1e6, mediaErrors: 0, criticalWarning: null}},
  ]
  for (const c of ok) it(`smartctl: ${c.file}`, () => {
    const r = parseSmartctlHealth(fx(c.file))
    expect(r.ok, JSON.stringify(r)).to.equal(true)
    if (r.ok) expect(r.facts).to.deep.include(c.want)
  })

  // a real drive's nvme smart-log (nvme-cli 2.16: counters as JSON numbers, not strings as the lab's 2.3 prints them)
  it('nvme smart-log: nvme-smart-log/samsung-pm981a-512g.json (a real Samsung PM981a, nvme-cli 2.16)', () => {
    const r = parseNvmeSmartLog(fx('nvme-smart-log/samsung-pm981a-512g.json'))
    expect(r.ok, JSON.stringify(r)).to.equal(true)
    if (r.ok) expect(r.facts).to.deep.equal({source: 'nvme-cli', protocol: 'NVMe', temperatureC: 49, criticalWarning: 0, smartPassed: null,
      hostBytesWritten: 21724857 * 512_000, hostBytesWrittenUnit: 512_000, hostWritesAttribute: null, mediaErrors: 0, percentageUsed: 2, availableSparePct: 100,
      powerOnHours: 3563, powerCycles: 1134, unsafeShutdowns: 513, errorLogEntries: 39, warningTempMinutes: 0, criticalTempMinutes: 0, thermalTransitions: 0, thermalSeconds: 0})
  })

  // the device lab's emulated drives (test/fixtures/devices/lab-health/README.md)
  const lab: Array<{file: string; parse: 'nvme' | 'smartctl'; want: Partial<HealthFacts>}> = [
    {file: 'lab-health/nvme-smart-log-before.json', parse: 'nvme', want: {source: 'nvme-cli', protocol: 'NVMe', temperatureC: 50, criticalWarning: 0, hostBytesWritten: 0, hostBytesWrittenUnit: 512_000,
      mediaErrors: 0, percentageUsed: 0, powerOnHours: 0, unsafeShutdowns: 0, errorLogEntries: 0, thermalTransitions: 0, thermalSeconds: 0, warningTempMinutes: 0, smartPassed: null}},
    {file: 'lab-health/smartctl-a-nvme.json', parse: 'smartctl', want: {protocol: 'NVMe', temperatureC: 50, criticalWarning: 0, smartPassed: true, thermalTransitions: null}},
    {file: 'lab-health/smartctl-A-nvme.json', parse: 'smartctl', want: {protocol: 'NVMe', temperatureC: 50, criticalWarning: 0}},
    {file: 'lab-health/smartctl-a-sata.json', parse: 'smartctl', want: {protocol: 'ATA', temperatureC: 31, smartPassed: true, powerOnHours: 1, mediaErrors: null, hostWritesAttribute: null, errorLogEntries: 0}},
    {file: 'lab-health/smartctl-A-sata.json', parse: 'smartctl', want: {protocol: 'ATA', temperatureC: 31, powerOnHours: 1}},
  ]
  for (const c of lab) it(`lab: ${c.file}`, () => {
    const r = c.parse === 'nvme' ? parseNvmeSmartLog(fx(c.file)) : parseSmartctlHealth(fx(c.file))
    expect(r.ok, JSON.stringify(r)).to.equal(true)
    if (r.ok) expect(r.facts).to.deep.include(c.want)
  })

  it('lab: the NVMe drive\'s own count of what fio wrote (64 MiB: 0 -> 132 data units of 512,000 B, rounded up)', () => {
    const b = parseNvmeSmartLog(fx('lab-health/nvme-smart-log-before.json'))
    const a = parseNvmeSmartLog(fx('lab-health/nvme-smart-log-after.json'))
    if (!b.ok || !a.ok) throw new Error('not parsed')
    const d = a.facts.hostBytesWritten! - b.facts.hostBytesWritten!
    expect(d).to.equal(132 * 512_000)
    // within one unit above what fio wrote (67,108,864 B)
    expect(d - 67_108_864).to.be.within(0, 512_000)
  })

  const notAvailable: Array<{name: string; text: string; reason: RegExp}> = [
    {name: 'a loop device (smartctl -a, exit 1)', text: fx('smartctl/local-loop-all-unable.json'), reason: /^smartctl: \/dev\/loop0: Unable to detect device type$/},
    {name: 'a virtio disk (smartctl -i, exit 1)', text: fx('smartctl/local-virtio-unable.json'), reason: /Unable to detect device type/},
    {name: 'an emulated SCSI disk without SMART (smartctl -a, exit 4; temperature 0)', text: fx('lab-health/smartctl-a-scsi.json'), reason: /^smartctl: the device reports no SMART \/ health data$/},
    {name: 'the same disk, smartctl -A', text: fx('lab-health/smartctl-A-scsi.json'), reason: /^smartctl: the device reports no SMART \/ health data$/},
    {name: 'no output', text: '', reason: /printed nothing/},
    {name: 'not JSON', text: 'smartctl: command not found', reason: /did not print JSON/},
  ]
  for (const c of notAvailable) it(`smartctl, not available: ${c.name}`, () => {
    const r = parseSmartctlHealth(c.text)
    expect(r.ok).to.equal(false)
    if (!r.ok) expect(r.reason).to.match(c.reason)
  })

  it('nvme smart-log: what nvme-cli prints for a loop device (stderr "smart log: Invalid argument", nothing on stdout) is not available', () => {
    const r = parseNvmeSmartLog('')
    expect(r).to.deep.equal({ok: false, reason: 'nvme smart-log printed nothing'})
    expect(parseNvmeSmartLog('{"device": "x"}')).to.deep.equal({ok: false, reason: 'nvme smart-log printed no SMART / health fields'})
  })

  it('critical warning bits in words', () => {
    expect(criticalWarningText(0)).to.equal('0x00')
    expect(criticalWarningText(16)).to.equal('0x10 (volatile memory backup device failed)')
    expect(criticalWarningText(3)).to.equal('0x03 (available spare below threshold; temperature above or below a threshold)')
  })
})
