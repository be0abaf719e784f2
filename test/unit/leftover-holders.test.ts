/**
 * pts resume ends the gate holders a dead pts left behind, also one missing from lock.json: pts
 * can die between starting a holder and recording it (seen with SIGKILL and fio killed beside it,
 * in test/integration/crash-resume.integration.test.ts: a `sleep` holder outlived the resume).
 */
import {expect} from 'chai'
import {spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {endLeftovers, openingFilesIn} from '../../src/store/lock.js'

describe('leftover gate holders after a crash', () => {
  it('endLeftovers ends a holder of the gate folder that lock.json does not list, and removes the folder', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'pts-leftover-'))
    const gateDir = mkdtempSync(join(tmpdir(), 'pts-gate-'))
    mkdirSync(join(runDir, 'raw'))
    // a holder as FioEngine starts it: the gate file open on fd 9, then sleep
    const holder = spawn('sh', ['-c', 'exec 9>"$1"; flock -x 9; echo locked; exec sleep 2147483647', 'sh', join(gateDir, 'gate-7')], {stdio: ['ignore', 'pipe', 'ignore']})
    await new Promise(r => holder.stdout!.once('data', r))
    const exited = new Promise(r => holder.once('exit', r))
    try {
      expect(openingFilesIn(gateDir)).to.deep.equal([holder.pid])
      writeFileSync(join(runDir, 'lock.json'), JSON.stringify({pid: 2 ** 22 + 1, host: 'h', fio: [], holders: [], gateDir}))
      await endLeftovers(runDir)
      await exited
      expect(holder.signalCode).to.equal('SIGKILL')
      expect(existsSync(gateDir)).to.equal(false)
    } finally {
      if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL')
      rmSync(runDir, {recursive: true, force: true})
      rmSync(gateDir, {recursive: true, force: true})
    }
  })
})
