/**
 * Root-only: real loop devices. An ext4 signature, a partition table, an active swap, a mounted one
 * and a clean one; discovery + safety must refuse each with the right reason and write nothing.
 */
import {expect} from 'chai'
import {execFileSync, spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, mkdirSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {discoverDevice, which} from '../../src/device/discover.js'
import {runCli} from '../helpers/cli.js'
import {requireRoot} from '../helpers/requires.js'

const sha = (dev: string): string => createHash('sha256').update(readFileSync(dev)).digest('hex')

describe('device layer on real loop devices (root only)', function () {
  this.timeout(30_000)
  const dir = mkdtempSync(join(tmpdir(), 'pts-dev-'))
  const loops: Record<string, string> = {}
  const mnt = join(dir, 'mnt')
  let swapOn = false
  let mounted = false

  before(function () {
    requireRoot(this, 'creating loop devices, swap and mounts')
    // .ci/setup installs these (util-linux, e2fsprogs, fdisk): a missing one is a failure, not a skip
    for (const tool of ['losetup', 'mkfs.ext4', 'mkswap', 'sfdisk']) expect(which(tool), `${tool} is not installed`).to.equal(true)
    for (const n of ['clean', 'ext4', 'parts', 'swap', 'mounted']) {
      const img = join(dir, `${n}.img`)
      writeFileSync(img, '')
      truncateSync(img, 32 * 1024 * 1024)
      loops[n] = execFileSync('losetup', ['-f', '--show', '--direct-io=on', ...(n === 'parts' ? ['-P'] : []), img], {encoding: 'utf8'}).trim()
    }
    execFileSync('mkfs.ext4', ['-q', loops.ext4])
    execFileSync('sfdisk', ['-q', loops.parts], {input: 'label: gpt\n,16M\n,\n', stdio: ['pipe', 'ignore', 'ignore']})
    spawnSync('partx', ['-u', loops.parts])
    execFileSync('mkswap', [loops.swap], {stdio: 'ignore'})
    execFileSync('swapon', [loops.swap]); swapOn = true
    execFileSync('mkfs.ext4', ['-q', loops.mounted])
    mkdirSync(mnt)
    execFileSync('mount', [loops.mounted, mnt])
    mounted = true
  })

  after(() => {
    if (swapOn) spawnSync('swapoff', [loops.swap])
    if (mounted) spawnSync('umount', [mnt])
    for (const l of Object.values(loops)) spawnSync('losetup', ['-d', l])
    rmSync(dir, {recursive: true, force: true})
  })

  const cases = [
    {n: 'ext4', match: /signature \(ext4\)/},
    {n: 'parts', match: /holds partitions|signature \(gpt/},
    {n: 'swap', match: /in use as swap/},
    {n: 'mounted', match: /mounted at/},
  ]
  for (const c of cases) {
    it(`refuses the ${c.n} loop device and writes nothing`, function () {
      const before = sha(loops[c.n])
      const d = discoverDevice(loops[c.n])
      expect(d.interface).to.equal('loop')
      expect(d.safety.proceed).to.equal(false)
      expect(d.safety.refusals.join('\n')).to.match(c.match)
      // a mounted ext4 is written by the kernel itself (superblock, journal): no checksum there
      if (c.n !== 'mounted') expect(sha(loops[c.n])).to.equal(before)
    })
  }

  it('the partition-table device lists its partitions as children', () => {
    const d = discoverDevice(loops.parts)
    expect(d.children.filter(c => c.type === 'part').length).to.be.greaterThan(0)
    expect(d.safety.refusals.join('\n')).to.match(/holds partitions/)
  })

  it('a clean loop device passes, with a write-cache deviation and discard/zero/none only', () => {
    const before = sha(loops.clean)
    const d = discoverDevice(loops.clean)
    expect(d.safety).to.deep.include({proceed: true, refusals: []})
    expect(d.capacityBytes).to.equal(32 * 1024 * 1024)
    expect(d.capacityGB).to.equal(0.03)
    expect(d.logicalSectorBytes).to.equal(512)
    expect(d.writeCache.settable).to.equal(false)
    expect(d.writeCache.note).to.match(/loop device/)
    expect(d.purgeMethods).to.not.include('nvme-sanitize-block')
    expect(d.purgeMethods).to.include.members(['zero', 'none'])
    expect(sha(loops.clean)).to.equal(before)
  })

  it('a partition is refused, or allowed (non-compliant) with allowPartition; never if it is mounted', () => {
    const part = `${loops.parts}p1`
    const d = discoverDevice(part)
    expect(d.safety.refusals.join()).to.match(/partition, not a whole disk/)
    const a = discoverDevice(part, {allowPartition: true})
    expect(a.safety.proceed).to.equal(true)
    expect(a.safety.nonCompliant.join()).to.match(/partition/)
  })

  it('pts devices --json lists the loop devices', async () => {
    const r = await runCli(['devices', '--json'], {timeoutMs: 60_000})
    expect(r.code, r.stderr).to.equal(0)
    const list = JSON.parse(r.stdout) as Array<{path: string; safety: {proceed: boolean; refusals: string[]}}>
    const byPath = new Map(list.map(d => [d.path, d]))
    for (const l of Object.values(loops)) expect(byPath.has(l), l).to.equal(true)
    expect(byPath.get(loops.clean)!.safety.proceed).to.equal(true)
    expect(byPath.get(loops.swap)!.safety.refusals.join()).to.match(/swap/)
  })
})
