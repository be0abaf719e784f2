/**
 * The read-back proof of a PTS purge (device/purge.ts), on a regular file standing in for the
 * device: a "purge" command that reports success and erases nothing (as SCSI FORMAT UNIT does on
 * QEMU, and ATA SECURITY ERASE through hdparm when the drive aborts) fails the purge with the
 * reason; one that erases passes, with the counts recorded. Only dd runs (no fio, no device).
 */
import {expect} from 'chai'
import {mkdtempSync, rmSync, truncateSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {runPurge} from '../../src/device/purge.js'
import type {PurgeChoice, PurgeFacts} from '../../src/device/purge-plan.js'

describe('purge read-back proof', () => {
  const dir = mkdtempSync(join('/var/tmp', 'pts-purge-proof-')) // O_DIRECT reads need a disk filesystem; /tmp may be tmpfs
  const file = join(dir, 'disk.img')
  const size = 16 * 1024 * 1024
  const facts: PurgeFacts = {path: file, interface: 'scsi', nvme: null, ata: null, scsi: true, discard: false, discardZeroes: null, tools: {}}
  const choice = (argv: string[]): PurgeChoice => ({method: 'scsi-format', deviation: null, steps: [{argv, why: 'test'}], refused: null})
  beforeEach(() => { writeFileSync(file, ''); truncateSync(file, size) })
  after(() => rmSync(dir, {recursive: true, force: true}))

  it('a command that succeeds and erases nothing fails the purge: every sampled block still holds the pattern', () => {
    const r = runPurge(facts, choice(['true']), {sizeBytes: size})
    expect(r.ok).to.equal(false)
    expect(r.detail).to.match(/^scsi-format reported success, but 16 of the 16 sampled 4 KiB blocks still hold the data pts wrote to them just before/)
    expect(r.verification).to.include({patternBlocks: 16, patternLeft: 16, checked: 16})
    expect(r.outputs[0].argv.slice(0, 2)).to.deep.equal(['(pts)', 'write-pattern'])
  })

  it('a command that erases passes, and the read-back is recorded', () => {
    const r = runPurge(facts, choice(['dd', 'if=/dev/zero', `of=${file}`, 'bs=1M', 'count=16', 'conv=notrunc,fsync', 'status=none']), {sizeBytes: size})
    expect(r.detail).to.equal('scsi-format completed and verified')
    expect(r.ok).to.equal(true)
    expect(r.verification).to.include({patternBlocks: 16, patternLeft: 0, checked: 16, zeros: 16})
    expect(r.verification!.outcome).to.equal('none of the 16 sampled 4 KiB blocks holds the data written before the purge (16 read back as zeros)')
  })

  it('a failing command still fails on its exit status, before any read-back', () => {
    const r = runPurge(facts, choice(['false']), {sizeBytes: size})
    expect([r.ok, r.verification]).to.deep.equal([false, null])
    expect(r.detail).to.match(/^false exited 1/)
  })
})
