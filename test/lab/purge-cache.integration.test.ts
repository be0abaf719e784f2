/**
 * Lab tier: the safety gate, the purge and the write cache on real emulated drives (QEMU guest).
 * - gate: a partition table (SCSI), a mounted filesystem (SATA) and a filesystem signature on the
 *   NVMe namespace are each refused by `pts run`, and the device reads back unchanged;
 * - NVMe --purge auto is Format NVM SES 1 (SANICAP 0; FNA says no crypto erase, so SES 2 is never
 *   sent), a pattern written before is gone afterwards, and pts's own read-back proved it;
 * - SCSI: FORMAT UNIT succeeds on the emulated disk but erases nothing: pts's read-back catches it
 *   and the run stops with that reason; SATA without the Security feature set is refused with it;
 * - write cache on all three: set as the enterprise profile requires (disabled), read back,
 *   restored on Ctrl-C (SIGINT) and at the end of a failed run; after pts was killed (SIGKILL) the
 *   next `pts resume` restores the state recorded before pts first changed it.
 * Asserts behaviour only: never guest IOPS or latency (the guest runs under TCG).
 */
import {expect} from 'chai'
import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import type {RunManifest} from '../../src/model/manifest.js'
import type {PurgeResult} from '../../src/device/purge.js'
import {LAB_SERIALS, type Lab, type LabResult} from '../helpers/lab.js'
import {DEV, sharedLab} from './shared.js'

const SHORT = '--point-seconds 0.2 --max-rounds 5 --time-scale 0.01 --tc 1 --qd 4 --wipc-multiple 1'

describe('lab: safety gate, purge and write cache on emulated drives', function () {
  this.timeout(900_000) // the guest runs under TCG on a shared host: minutes per pts command when the host is loaded
  let lab: Lab
  before(async function () { lab = await sharedLab(this) })

  const sha = async (dev: string) => (await lab.ok(`dd if=${dev} bs=1M count=8 iflag=direct status=none | sha256sum`)).split(' ')[0]
  const nvmeCache = async () => /Current value:\s*(?:0x)?0*1\b/.test(await lab.ok(`nvme get-feature ${DEV.nvmeCtrl} -f 6`))
  const scsiCache = async () => /^\s*WCE\s+1/m.test((await lab.exec(`sdparm --get=WCE ${DEV.scsi}`)).stdout)
  const sataCache = async () => /write-caching\s*=\s*1/.test(await lab.ok(`hdparm -W ${DEV.sata}`))
  const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RunManifest
  const events = (dir: string, name: string) => manifest(dir).events.filter(e => e.event === name).map(e => e.detail)
  const until = async (what: string, cond: () => Promise<boolean> | boolean, ms = 600_000) => {
    const t0 = Date.now()
    while (!(await cond())) {
      if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`)
      await new Promise(r => setTimeout(r, 1000))
    }
  }
  /** Start pts in the guest in the background; its pid goes to pidFile. */
  const ptsBackground = (args: string, pidFile: string): Promise<LabResult> =>
    lab.exec(`echo $$ > ${pidFile}; exec node bin/run.js ${args}`, {timeoutMs: 600_000, env: {NO_COLOR: '1'}})
  const runDir = (name: string) => join(lab.shareDir, name)

  it('refuses a partition table (SCSI), a mounted filesystem (SATA) and a filesystem signature on the NVMe namespace, and writes nothing', async function () {
    await lab.ok(`printf 'label: gpt\\n,64M\\n' | sfdisk -q ${DEV.scsi} && partx -u ${DEV.scsi} || true; mkfs.ext4 -q -F ${DEV.sata} && mkdir -p /mnt/sata && mount ${DEV.sata} /mnt/sata && mkfs.ext4 -q -F ${DEV.nvme}`, {timeoutMs: 120_000})
    const before = {scsi: await sha(DEV.scsi), nvme: await sha(DEV.nvme)}
    const run = (dev: string, serial: string, name: string) => lab.pts(`run iops --device ${dev} --yes-destroy-data ${serial} --purge auto ${SHORT} --out ${runDir(name)}`)
    const [s, a, n] = await Promise.all([run(DEV.scsi, LAB_SERIALS.scsi, 'gate-scsi'), run(DEV.sata, LAB_SERIALS.sata, 'gate-sata'), run(DEV.nvme, LAB_SERIALS.nvme, 'gate-nvme')])
    expect([s.code, a.code, n.code], [s.stderr, a.stderr, n.stderr].join('\n')).to.deep.equal([4, 4, 4])
    expect(s.stderr).to.match(/holds partitions|partition-table signature/)
    expect(a.stderr).to.match(/mounted at \/mnt\/sata/)
    expect(n.stderr).to.match(/signature \(ext4\)/)
    for (const name of ['gate-scsi', 'gate-sata', 'gate-nvme']) expect(existsSync(join(runDir(name), 'results.json')), name).to.equal(false)
    expect({scsi: await sha(DEV.scsi), nvme: await sha(DEV.nvme)}).to.deep.equal(before)
    expect(await nvmeCache(), 'the refused run changed no write cache').to.equal(true)
    // clean up for the next tests
    await lab.ok(`umount /mnt/sata && wipefs -q -a ${DEV.sata} ${DEV.nvme} ${DEV.scsi} && partx -d ${DEV.scsi} 2>/dev/null; wipefs -q -a ${DEV.scsi}; true`)
  })

  // Tests on different drives overlap to save time (the guest has two vCPUs): each starts the
  // next drive's scenario and the next test awaits it.
  let sataRefused: Promise<LabResult[]> = Promise.resolve([])
  let sataInterrupted: Promise<{r: LabResult; dir: string; disabledSeen: boolean}> | null = null

  it('SCSI: FORMAT UNIT reports success but leaves the data; the read-back catches it and the run stops; the write cache is set to disabled and restored', async () => {
    expect(await scsiCache(), 'the SCSI disk starts with its write cache enabled').to.equal(true)
    sataRefused = Promise.all([
      lab.pts(`run iops --device ${DEV.sata} --yes-destroy-data ${LAB_SERIALS.sata} --purge auto ${SHORT} --out ${runDir('sata-auto')}`),
      lab.pts(`run iops --device ${DEV.sata} --yes-destroy-data ${LAB_SERIALS.sata} --purge ata-secure-erase ${SHORT} --out ${runDir('sata-sec')}`),
    ])
    sataRefused.catch(() => {}) // awaited (and its failure reported) by the SATA test
    const dir = runDir('scsi-format')
    const r = await lab.pts(`run iops --device ${DEV.scsi} --yes-destroy-data ${LAB_SERIALS.scsi} --purge auto ${SHORT} --out ${dir}`, {timeoutMs: 300_000})
    expect(r.code, r.stderr).to.equal(6)
    expect(r.stderr).to.match(/scsi-format reported success, but \d+ of the 16 sampled 4 KiB blocks still hold the data pts wrote/)
    const log = JSON.parse(readFileSync(join(dir, readdirSync(join(dir, 'raw')).filter(f => f.endsWith('.purge.json')).map(f => `raw/${f}`)[0]), 'utf8')) as PurgeResult
    expect(log.outputs.map(o => o.argv.join(' ')).join('\n')).to.include(`sg_format --format --wait ${DEV.scsi}`).and.not.include('sg_sanitize')
    expect(log.verification?.patternLeft).to.equal(16)
    const wc = events(dir, 'write-cache')
    expect(wc[0]).to.match(/was enabled.*set to disabled, read back disabled via scsi/)
    expect(wc.at(-1)).to.equal('restored to enabled')
    expect(await scsiCache()).to.equal(true)
  })

  it('SATA without the ATA Security feature set: --purge auto and --purge ata-secure-erase are refused with that reason', async () => {
    const [auto, sec] = await sataRefused
    expect([auto.code, sec.code], auto.stderr + sec.stderr).to.deep.equal([4, 4])
    for (const r of [auto, sec]) expect(r.stderr).to.match(/does not support the ATA Security feature set/)
    expect(await sataCache()).to.equal(true)
  })

  it('NVMe --purge auto: Format NVM SES 1 erases a written pattern and pts proves it; write cache disabled during the run, restored on SIGINT, and after SIGKILL by the next pts resume', async () => {
    expect(await nvmeCache(), 'the NVMe controller starts with its write cache enabled').to.equal(true)
    expect(await sataCache()).to.equal(true)
    sataInterrupted = (async () => {
      const dir = runDir('sata-run')
      const pid = join(lab.shareDir, 'pts-sata.pid')
      const run = ptsBackground(`run iops --device ${DEV.sata} --yes-destroy-data ${LAB_SERIALS.sata} --purge discard ${SHORT} --out ${dir}`, pid)
      await until('the SATA write cache to be disabled', async () => !(await sataCache()), 600_000)
      await lab.ok(`sleep 1; kill -INT $(cat ${pid})`)
      return {r: await run, dir, disabledSeen: true}
    })()
    sataInterrupted.catch(() => {}) // awaited (and its failure reported) by the SATA test
    await lab.ok(`dd if=/dev/urandom of=${DEV.nvme} bs=1M count=8 oflag=direct status=none`)
    const zeros = (await lab.ok('dd if=/dev/zero bs=1M count=8 status=none | sha256sum')).split(' ')[0]
    expect(await sha(DEV.nvme)).to.not.equal(zeros)
    const dir = runDir('nvme-run')
    const pid = join(lab.shareDir, 'pts-nvme.pid')
    const results = () => { try { return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {phases: Array<{kind: string; status: string}>} } catch { return null } }
    const first = ptsBackground(`run iops --device ${DEV.nvme} --yes-destroy-data ${LAB_SERIALS.nvme} --purge auto ${SHORT} --out ${dir}`, pid)
    await until('the purge phase to finish', () => results()?.phases[0]?.status === 'done' || results()?.phases[0]?.status === 'failed')
    expect(results()!.phases[0].status).to.equal('done')
    expect(await nvmeCache(), 'enterprise profile: write cache disabled during the run').to.equal(false)
    await lab.ok(`kill -INT $(cat ${pid})`)
    const r1 = await first
    expect(r1.code, r1.stderr).to.equal(130)
    expect(await nvmeCache(), 'restored after Ctrl-C').to.equal(true)

    const log = JSON.parse(readFileSync(join(dir, 'raw/01-purge.purge.json'), 'utf8')) as PurgeResult
    expect(log.method).to.equal('nvme-format-ses1')
    const argv = log.outputs.map(o => o.argv.join(' ')).join('\n')
    expect(argv).to.include(`nvme format ${DEV.nvme} --ses=1 --force`).and.not.include('--ses=2').and.not.include('sanitize')
    expect(log.verification).to.include({patternBlocks: 16, patternLeft: 0, checked: 16})
    expect(log.ok).to.equal(true)
    expect(manifest(dir).target.writeCacheBefore).to.include({enabled: true, via: 'nvme'})

    // SIGKILL: nothing in pts can restore the cache; the next resume restores the recorded state
    const second = ptsBackground(`resume ${dir}`, pid)
    await until('the resumed run to disable the write cache', async () => !(await nvmeCache()))
    await lab.ok(`kill -KILL $(cat ${pid})`)
    expect((await second).signal).to.equal('SIGKILL')
    expect(await nvmeCache(), 'still disabled: the killed pts restored nothing').to.equal(false)
    const seen = events(dir, 'write-cache').length
    const third = ptsBackground(`resume ${dir}`, pid)
    await until('the second resume to set the write cache', () => { try { return events(dir, 'write-cache').length > seen } catch { return false } })
    await lab.ok(`sleep 1; kill -INT $(cat ${pid})`)
    const r3 = await third
    expect(r3.code, r3.stderr).to.be.oneOf([0, 130])
    expect(await nvmeCache(), 'restored to the state recorded before pts first changed it').to.equal(true)
    expect(events(dir, 'write-cache').join('\n')).to.match(/as recorded before pts first changed it/)
  })

  it('SATA: the write cache is set to disabled for the run and restored on SIGINT', async () => {
    expect(sataInterrupted, 'started by the NVMe test').to.not.equal(null)
    const {r, dir} = await sataInterrupted!
    expect(r.code, r.stderr).to.equal(130)
    expect(await sataCache()).to.equal(true)
    expect(events(dir, 'write-cache')[0]).to.match(/was enabled.*set to disabled, read back disabled via ata/)
    expect(events(dir, 'write-cache').at(-1)).to.equal('restored to enabled')
  })
})
