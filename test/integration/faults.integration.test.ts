import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {runCli} from '../helpers/cli.js'
import {requireRoot} from '../helpers/requires.js'
import {check} from '../../src/validate.js'
import type {RunManifest} from '../../src/model/manifest.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'

type Loop = Extract<PhaseResult, {kind: 'loop'}>
const loopOf = (r: ProgramResults): Loop => r.phases.find((p): p is Loop => p.kind === 'loop')!

const short = ['--point-seconds', '0.1', '--max-rounds', '2', '--tc', '1', '--qd', '4']

function stored(dir: string): {results: ProgramResults; manifest: RunManifest} {
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ProgramResults
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RunManifest
  expect(check('program-result.schema.json', results)).to.deep.equal([])
  expect(results.phases.map(p => p.kind)).to.deep.equal(['purge', 'wipc', 'loop'])
  expect(check('run-manifest.schema.json', manifest)).to.deep.equal([])
  return {results, manifest}
}

describe('faults stop the run with a clear message and keep every completed measurement', function () {
  this.timeout(300_000)
  let tmp: string
  const mounts: string[] = []
  before(() => { tmp = mkdtempSync(join(tmpdir(), 'pts-faults-')) })
  after(() => {
    for (const m of mounts) { try { execFileSync('umount', [m]) } catch { /* gone */ } }
    rmSync(tmp, {recursive: true, force: true})
  })

  function tmpfs(name: string, size: string): string {
    const dir = join(tmp, name)
    mkdirSync(dir)
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir])
    mounts.push(dir)
    return dir
  }

  it('fio exiting non-zero (exit 6), recorded in the manifest', async () => {
    const dir = join(tmp, 'bad-engine')
    const r = await runCli(['run', 'iops', '--device', `file:${tmp}/a.img`, '--size', '16MiB', ...short, '--ioengine', 'no_such_engine', '--out', dir])
    expect(r.code).to.equal(6)
    expect(r.stderr).to.match(/fio failed \(exit \d+\) on raw\/02-wipc\.fio/)
    const {manifest, results} = stored(dir)
    expect(manifest.status).to.equal('failed')
    expect(manifest.error!.exit).to.equal(6)
    expect(loopOf(results).rounds).to.deep.equal([])
  })

  it('fio output that is not valid fio JSON is never taken as a measurement (exit 6)', async () => {
    // real fio, whose JSON output is then cut short (as a crash while writing would)
    const wrapper = join(tmp, 'fio-truncating')
    writeFileSync(wrapper, `#!/bin/sh
out=""
for a in "$@"; do case "$a" in --output=*) out="\${a#--output=}";; esac; done
fio "$@"; rc=$?
case "$*" in *round-01/03-*) head -c 300 "$out" > "$out.cut" && mv "$out.cut" "$out";; esac
exit $rc
`)
    chmodSync(wrapper, 0o755)
    const dir = join(tmp, 'bad-json')
    const r = await runCli(['run', 'iops', '--device', `file:${tmp}/b.img`, '--size', '16MiB', ...short, '--out', dir], {env: {PTS_FIO: wrapper}})
    expect(r.code).to.equal(6)
    expect(r.stderr).to.match(/round-01\/03-rw100-bs64k\.json: not valid fio JSON/)
    const {results} = stored(dir)
    expect(loopOf(results).rounds[0].points.map(p => p.index)).to.deep.equal([0, 1]) // the two good points are kept
  })

  it('an I/O error from the target (a file on a full file system) stops the run (exit 6)', async function () {
    requireRoot(this, 'mounting a small tmpfs for the I/O-error target')
    const small = tmpfs('small-target', '8M')
    const dir = join(tmp, 'io-error')
    const r = await runCli(['run', 'iops', '--device', `file:${small}/t.img`, '--size', '64MiB', ...short, '--out', dir])
    expect(r.code).to.equal(6)
    expect(r.stderr).to.match(/fio failed/).and.match(/No space left on device|error/i)
    expect(stored(dir).manifest.status).to.equal('failed')
  })

  it('a full disk under the results directory stops the run (exit 9), completed points kept', async function () {
    requireRoot(this, 'mounting a small tmpfs for the full results disk')
    const full = tmpfs('small-results', '600k')
    const dir = join(full, 'run')
    const r = await runCli(['run', 'iops', '--device', `file:${tmp}/c.img`, '--size', '16MiB', ...short, '--out', dir])
    expect(r.code, r.stderr).to.equal(9)
    expect(r.stderr).to.match(/no space left on the device that holds the run directory/)
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ProgramResults
    expect(check('program-result.schema.json', results)).to.deep.equal([])
    const kept = loopOf(results).rounds.flatMap(x => x.points)
    expect(kept.length).to.be.greaterThan(0)
    for (const p of kept) expect(existsSync(join(dir, p.raw.json))).to.equal(true)
  })
})
