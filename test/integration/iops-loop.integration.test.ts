import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, ftruncateSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {runCli} from '../helpers/cli.js'
import {requireRoot} from '../helpers/requires.js'
import {verifyRun} from '../helpers/verify-run.js'
import {purgeLog} from '../../src/analysis/steps.js'

function sha(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

function makeLoop(dir: string, name: string, bytes: number): string {
  const file = join(dir, name)
  const fd = openSync(file, 'w')
  ftruncateSync(fd, bytes)
  closeSync(fd)
  return execFileSync('losetup', ['-f', '--show', '--direct-io=on', file], {encoding: 'utf8'}).trim()
}

describe('pts run iops on a loop block device (real fio, root)', function () {
  this.timeout(600_000)
  let tmp: string
  const loops: string[] = []
  const mounts: string[] = []
  before(function () {
    requireRoot(this, 'creating loop devices')
    tmp = mkdtempSync(join(tmpdir(), 'pts-it-loop-'))
  })
  after(() => {
    for (const m of mounts) { try { execFileSync('umount', [m]) } catch { /* already */ } }
    for (const l of loops) { try { execFileSync('losetup', ['-d', l]) } catch { /* already */ } }
    if (tmp) rmSync(tmp, {recursive: true, force: true})
  })

  it('refuses without --yes-destroy-data and with a wrong confirmation; nothing is written', async () => {
    const dev = makeLoop(tmp, 'refuse.img', 64 * 1024 * 1024)
    loops.push(dev)
    const before = sha(dev)
    const none = await runCli(['run', 'iops', '--device', dev, '--point-seconds', '0.2', '--max-rounds', '1', '--out', join(tmp, 'r-none')])
    expect(none.code).to.equal(4)
    expect(none.stderr).to.match(/not confirmed: pass --yes-destroy-data/)
    const wrong = await runCli(['run', 'iops', '--device', dev, '--yes-destroy-data', 'SOME-OTHER-SERIAL', '--point-seconds', '0.2', '--max-rounds', '1', '--out', join(tmp, 'r-wrong')])
    expect(wrong.code).to.equal(4)
    expect(sha(dev)).to.equal(before)
  })

  it('refuses a mounted device (no flag bypasses it)', async function () {
    const dev = makeLoop(tmp, 'mounted.img', 64 * 1024 * 1024)
    loops.push(dev)
    execFileSync('mkfs.ext4', ['-q', dev])
    const mnt = join(tmp, 'mnt')
    execFileSync('mkdir', ['-p', mnt])
    execFileSync('mount', [dev, mnt])
    mounts.push(mnt)
    const r = await runCli(['run', 'iops', '--device', dev, '--yes-destroy-data', dev, '--purge', 'discard', '--point-seconds', '0.2', '--max-rounds', '1', '--out', join(tmp, 'r-mounted')])
    expect(r.code).to.equal(4)
    expect(r.stderr).to.match(/is mounted at/)
  })

  it('runs to steady state or the round limit on a clean loop device confirmed by path', async () => {
    const dev = makeLoop(tmp, 'dut.img', 128 * 1024 * 1024)
    loops.push(dev)
    const out = join(tmp, 'run')
    const plan = await runCli(['plan', 'iops', '--device', dev, '--point-seconds', '0.2', '--max-rounds', '6'])
    expect(plan.code).to.equal(0)
    expect(plan.stdout).to.match(/would REFUSE/).and.match(/not confirmed/)
    // a loop device supports no PTS purge: without an explicit fallback the run is refused
    const auto = await runCli(['run', 'iops', '--device', dev, '--yes-destroy-data', dev, '--point-seconds', '0.2', '--max-rounds', '1', '--out', join(tmp, 'r-auto')])
    expect(auto.code).to.equal(4)
    expect(auto.stderr).to.match(/no PTS purge method is supported by/)
    const r = await runCli(['run', 'iops', '--device', dev, '--yes-destroy-data', dev, '--purge', 'discard', '--point-seconds', '0.2', '--max-rounds', '6', '--tc', '2', '--qd', '8', '--out', out, '--json'])
    expect(r.code, r.stderr.slice(-3000)).to.equal(0)
    const {manifest, purge} = verifyRun(out, 6)
    expect(manifest.target).to.include({kind: 'block', path: dev, sizeBytes: 128 * 1024 * 1024})
    expect(manifest.target.identity.interface).to.equal('loop')
    expect(purge).to.include({method: 'discard', status: 'done'})
    expect(manifest.deviations.join(' ')).to.match(/blkdiscard/)
    expect(manifest.deviations.join(' ')).to.match(/write cache not set to disabled/)
    // the purge tool's output: raw/01-purge.purge.json (phase 1, id purge)
    expect(purgeLog(purge, 0)).to.equal('raw/01-purge.purge.json')
    expect(existsSync(join(out, 'raw', '01-purge.purge.json'))).to.equal(true)
  })
})
