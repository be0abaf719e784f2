/**
 * `pts plan` preflight through the CLI (test/helpers/cli.ts), on file targets: fio (with its
 * version), Chromium, the purge tool (n/a for a file), free space against the run's stored size
 * and the target file, the WIPC and bytes-written lines; exit 12 when a check fails; --json
 * carries the preflight (schemas/cli/plan.schema.json); plan all gives the suite's totals.
 */
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {join} from 'node:path'
import type {PlanSuiteJson, PlanTestJson} from '../../src/commands/plan.js'
import {check} from '../../src/validate.js'
import {runCli} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'

describe('pts plan: preflight', function () {
  this.timeout(120_000)
  const tmp = useTmpDir('pts-plan-preflight-')

  it('everything present: PASS lines with fio\'s version, n/a purge for a file, exit 0; --json carries them', async () => {
    const version = execFileSync(process.env.PTS_FIO ?? 'fio', ['--version'], {encoding: 'utf8'}).trim()
    const r = await runCli(['plan', 'iops', '--device', `file:${tmp()}/a.img`, '--size', '1GiB', '--out', join(tmp(), 'run'), '--json'])
    expect(r.code, r.stderr).to.equal(0)
    const j = JSON.parse(r.stdout) as PlanTestJson
    expect(check('cli/plan.schema.json', j)).to.deep.equal([])
    expect(j.preflight.ok).to.equal(true)
    const byId = Object.fromEntries(j.preflight.checks.map(c => [c.id, c]))
    expect(byId.fio).to.include({status: 'pass'})
    expect(byId.fio.detail).to.include(version)
    expect(byId.chromium.status).to.equal('pass')
    expect(byId['purge-tool'].status).to.equal('n/a')
    expect(byId['free-space'].status).to.equal('pass')
    expect(byId['wipc-time'].status).to.equal('info')
    // the WIPC volume is the plan's own
    const wipc = j.phases.find(p => p.kind === 'wipc') as {totalBytes: number}
    expect(j.preflight.wipc.bytes).to.equal(wipc.totalBytes)
    expect(j.preflight.writes.fixedBytes).to.equal(wipc.totalBytes)
    expect(j.preflight.writes.driveWrites.min).to.be.closeTo(wipc.totalBytes / 2 ** 30, 1e-9)
  })

  it('PTS_FIO=/nonexistent and CHROMIUM_PATH=/nonexistent: FAIL lines, the plan still printed, exit 12', async () => {
    const r = await runCli(['plan', 'iops', '--device', `file:${tmp()}/b.img`, '--size', '1GiB', '--out', join(tmp(), 'run')], {env: {PTS_FIO: '/nonexistent', CHROMIUM_PATH: '/nonexistent'}})
    expect(r.code, r.stderr).to.equal(12)
    expect(r.stdout).to.match(/Timeline:/).and.match(/Duration: minimum 4h 40m 00s/)
    expect(r.stdout).to.match(/\[FAIL\] fio: PTS_FIO=\/nonexistent: no such file: install it/)
    expect(r.stdout).to.match(/\[FAIL\] Chromium \(report\.pdf\): \/nonexistent \(CHROMIUM_PATH\) is not an executable/)
    expect(r.stdout).to.match(/\[N\/A \] purge tool: a file target is not purged/)
    expect(r.stdout).to.match(/\[INFO\] bytes written: /)
    expect(r.stdout).to.match(/2 check\(s\) FAILED: pts plan exits 12/)
    expect(r.stdout).to.not.match(/digest/)
  })

  it('a file target larger than the free space of its file system: free-space FAIL (exit 12)', async () => {
    const r = await runCli(['plan', 'tp', '--device', `file:${tmp()}/huge.img`, '--size', '1000000GiB', '--out', join(tmp(), 'run'), '--json'])
    expect(r.code, r.stderr).to.equal(12)
    const j = JSON.parse(r.stdout) as PlanTestJson
    const free = j.preflight.checks.find(c => c.id === 'free-space')!
    expect(free.status).to.equal('fail')
    expect(free.detail).to.match(/the target file grows to/)
  })

  it('plan all: suite totals are the tests\' sums; --assume-write-mbps sets the rate', async () => {
    const r = await runCli(['plan', 'all', '--tests', 'iops,tp,lat', '--device', `file:${tmp()}/c.img`, '--size', '1GiB', '--out', join(tmp(), 'suite'), '--assume-write-mbps', '200', '--json'])
    expect(r.code, r.stderr).to.equal(0)
    const j = JSON.parse(r.stdout) as PlanSuiteJson
    expect(check('cli/plan.schema.json', j)).to.deep.equal([])
    expect(j.tests.map(t => t.test)).to.deep.equal(['iops', 'tp', 'lat'])
    const sum = (f: (t: PlanSuiteJson['tests'][number]) => number) => j.tests.reduce((a, t) => a + f(t), 0)
    expect(j.preflight.wipc.bytes).to.equal(sum(t => t.wipcBytes))
    expect(j.preflight.storedBytes).to.equal(sum(t => t.storedBytes))
    expect(j.preflight.writes.rateBytesPerSec).to.equal(200e6)
    expect(j.preflight.writes.totalBytes!.max).to.be.closeTo(sum(t => t.writes.totalBytes!.max), 1)
    expect(j.preflight.wipc.seconds).to.be.closeTo(j.preflight.wipc.bytes / 200e6, 1e-6)
    const text = await runCli(['plan', 'all', '--tests', 'iops,tp', '--device', `file:${tmp()}/c.img`, '--size', '1GiB', '--out', join(tmp(), 'suite')])
    expect(text.code, text.stderr).to.equal(0)
    expect(text.stdout).to.match(/Writes and stored size per test:\n {2}iops {3}WIPC 2\.1 GB, writes 2\.1 GB plus/)
    expect(text.stdout).to.match(/Preflight:\n/).and.match(/All checks passed\./)
  })
})
