/**
 * A run's record of where it ran survives pts being killed at any moment: the start of a run and
 * each resume are written to manifest.json in the same write as the identity record of the
 * device, so no manifest.json that a SIGKILL can leave behind has a start or a resume without its
 * identity record. (test/integration/crash-resume.integration.test.ts: pts killed just after a
 * resume's event was written left that resume without one; identity records 2, start + resumes 3.)
 *
 * pts runs here with a fio that fails every job, so each run stops at its first step; every
 * manifest.json written is read back from the disk as it was at that moment.
 */
import {expect} from 'chai'
import {chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {getPriority, setPriority, tmpdir} from 'node:os'
import {join} from 'node:path'
import {prepare} from '../../src/app/prepare.js'
import {resumeRun} from '../../src/app/resume.js'
import {prepareFileTarget} from '../../src/device/target.js'
import {hostFacts, toolVersion} from '../../src/host.js'
import type {RunManifest} from '../../src/model/manifest.js'
import {Progress} from '../../src/progress.js'
import {runProgram} from '../../src/runner/run.js'
import {RunStore} from '../../src/store/run-store.js'

describe('run records written for a crash at any moment', () => {
  it('every manifest.json written has an identity record for the start and for each resume', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'pts-records-'))
    const fio = join(tmp, 'fio')
    writeFileSync(fio, '#!/bin/sh\n[ "$1" = --version ] && echo fio-3.33 && exit 0\necho "fio: this fio fails every job" >&2\nexit 1\n')
    chmodSync(fio, 0o755)
    const dir = join(tmp, 'run')
    const written: string[][] = []
    const saveManifest = RunStore.prototype.saveManifest
    RunStore.prototype.saveManifest = function (this: RunStore, m: RunManifest) {
      saveManifest.call(this, m)
      written.push((JSON.parse(readFileSync(this.path('manifest.json'), 'utf8')) as RunManifest).events.map(e => e.event))
    }
    const env = process.env.PTS_FIO
    const nice = getPriority() // pts raises its own priority to fio's (engine/fio.ts); the test process gets its own back
    const stderrWrite = process.stderr.write
    process.env.PTS_FIO = fio
    try {
      const p = prepare('iops', {device: `file:${tmp}/t.img`, size: '16MiB', revision: '2.0.2', tc: '1', qd: '1', 'point-seconds': '0.1', 'max-rounds': '1', 'on-no-steady-state': 'stop', ioengine: 'libaio'})
      prepareFileTarget(p.target)
      const run = runProgram({plan: p.plan, target: p.target, purge: p.purge, fio: {path: fio, version: 'fio-3.33'}, runId: 'run', runDir: dir, argv: ['run'],
        toolVersion: toolVersion(), host: hostFacts(), progress: new Progress(process.stderr, true)})
      expect(await run.then(() => 'completed', (error: Error) => error.message)).to.match(/fio/)
      process.stderr.write = (() => true) as typeof process.stderr.write // resume's own progress lines
      const resumed = resumeRun(dir, {restart: false, signKey: undefined, argv: ['resume', dir], log: null})
      expect(await resumed.then(() => 'completed', (error: Error) => error.message)).to.match(/fio/)
    } finally {
      process.stderr.write = stderrWrite
      try { setPriority(nice) } catch { /* unchanged */ }
      RunStore.prototype.saveManifest = saveManifest
      if (env === undefined) delete process.env.PTS_FIO
      else process.env.PTS_FIO = env
      rmSync(tmp, {recursive: true, force: true})
    }
    expect(written.flat()).to.include.members(['start', 'resume', 'identity'])
    for (const events of written) {
      const n = (name: string) => events.filter(e => e === name).length
      expect(n('identity'), `manifest.json events: ${events.join(', ')}`).to.equal(n('start') + n('resume'))
    }
  })
})
