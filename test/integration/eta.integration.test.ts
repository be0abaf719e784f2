/**
 * The ETA from measured time on a real run (real fio, file target): 0.05 s test points, where fio's
 * start-up and the hand-over between steps take longer than the points themselves. Every ETA the
 * progress log prints once a few steps are measured is compared with the time the run really had
 * left (its end, from manifest.json, minus the moment the line was written). The bound is loose
 * enough for a loaded machine (host load changes the step times during the run), and tight
 * enough that an ETA from the planned lengths alone (50 x 0.05 s = 2.5 s for a remaining ~15 s)
 * fails it whenever the steps really take longer than planned.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {useTmpDir} from '../helpers/tmp.js'
import {prepare} from '../../src/app/prepare.js'
import {prepareFileTarget} from '../../src/device/target.js'
import {findFio} from '../../src/engine/fio.js'
import {hostFacts, toolVersion} from '../../src/host.js'
import {Progress} from '../../src/progress.js'
import {runProgram} from '../../src/runner/run.js'

/** A progress sink that keeps every line with the moment it was written. */
function capture(): {stream: NodeJS.WriteStream; lines: Array<{atMs: number; text: string}>} {
  const lines: Array<{atMs: number; text: string}> = []
  const stream = {isTTY: false, columns: 200, write: (s: string) => { for (const t of s.split('\n')) if (t) lines.push({atMs: Date.now(), text: t}); return true }} as unknown as NodeJS.WriteStream
  return {stream, lines}
}

const seconds = (t: string): number => {
  // the log line gives the ETA and, after it, the wall-clock finish: "25.5s (done 04:11Z)"
  const m = /^(?:(\d+)h )?(?:(\d+)m )?(\d+(?:\.\d+)?)s(?: \(done [^)]*\))?$/.exec(t.trim())
  if (!m) throw new Error(`not a duration: ${t}`)
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3])
}

describe('ETA from measured step times (real fio, tiny points)', function () {
  this.timeout(300_000)
  const tmpDir = useTmpDir('pts-it-eta-')

  it('the ETA after the first steps is within a loaded-machine bound of the real remaining time', async () => {
    const dir = tmpDir()
    const p = prepare('iops', {device: `file:${join(dir, 't.img')}`, size: '32MiB', revision: '2.0.2', 'point-seconds': '0.05', 'max-rounds': '1',
      'on-no-steady-state': 'stop', ioengine: 'libaio', tc: '1', qd: '4', 'wipc-multiple': '0.1', seed: '7', 'yes-destroy-data': join(dir, 't.img')})
    prepareFileTarget(p.target)
    const {stream, lines} = capture()
    const runDir = join(dir, 'run')
    await runProgram({plan: p.plan, target: p.target, purge: p.purge, fio: findFio(), runId: 'eta', runDir, argv: ['pts', 'test'], toolVersion: toolVersion(), host: hostFacts(),
      progress: new Progress(stream, false, 0)})
    const finishedMs = Date.parse(JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')).finishedAt)
    const points = lines.map(l => ({l, m: /point (\d+)\/56 .*\| ETA ([^|]+?)(?: \||$)/.exec(l.text)})).filter(x => x.m).map(x => ({atMs: x.l.atMs, index: Number(x.m![1]), etaSec: seconds(x.m![2])}))
    expect(points.length, lines.map(l => l.text).join('\n')).to.equal(56)
    // from the 8th step on (7 measured) and while at least 2 s are left: the ETA is within 40 % + 2 s of the truth
    const judged = points.filter(x => x.index >= 8 && finishedMs - x.atMs > 2000)
    expect(judged.length).to.be.greaterThan(10)
    const bad = judged.map(x => ({...x, realSec: (finishedMs - x.atMs) / 1000})).filter(x => Math.abs(x.etaSec - x.realSec) > 0.4 * x.realSec + 2)
    expect(bad.map(x => `point ${x.index}: ETA ${x.etaSec} s, real ${x.realSec.toFixed(1)} s`)).to.deep.equal([])
    // the last point's ETA is 0 (nothing left of a one-round loop)
    expect(points.at(-1)!.etaSec).to.equal(0)
  })
})
