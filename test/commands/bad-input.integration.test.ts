import {expect} from 'chai'
import {cpSync, existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {useTmpDir} from '../helpers/tmp.js'
import {runCli, ROOT} from '../helpers/cli.js'

describe('bad input: one clear message, a documented exit code, nothing written', function () {
  this.timeout(120_000)
  const tmpDir = useTmpDir('pts-bad-')
  let tmp = ''
  before(() => { tmp = tmpDir() })
  const file = () => `file:${tmp}/never.img`

  const cases: Array<{name: string; args: () => string[]; code: number; msg: RegExp}> = [
    {name: 'unknown test', args: () => ['run', 'nope', '--device', file(), '--size', '1GiB'], code: 2, msg: /unknown test "nope"/},
    {name: 'unknown revision', args: () => ['plan', 'iops', '--device', file(), '--size', '1GiB', '--revision', '9.9'], code: 2, msg: /9\.9/},
    {name: 'zero point duration', args: () => ['run', 'iops', '--device', file(), '--size', '1GiB', '--point-seconds', '0'], code: 2, msg: /--point-seconds 0: must be greater than 0/},
    {name: 'negative point duration', args: () => ['run', 'iops', '--device', file(), '--size', '1GiB', '--point-seconds=-3'], code: 2, msg: /must be greater than 0/},
    {name: 'QD 0', args: () => ['run', 'iops', '--device', file(), '--size', '1GiB', '--qd', '0'], code: 2, msg: /--qd 0: must be at least 1/},
    {name: 'size not a multiple of 512 B', args: () => ['run', 'iops', '--device', file(), '--size', '1000'], code: 2, msg: /not a multiple of 512/},
    {name: 'file target without size', args: () => ['run', 'iops', '--device', file()], code: 2, msg: /no --size was given/},
    {name: 'not a block device', args: () => ['run', 'iops', '--device', '/etc/hostname'], code: 2, msg: /not a block device/},
  ]
  for (const c of cases) {
    it(`${c.name} -> exit ${c.code}`, async () => {
      const r = await runCli(c.args())
      expect(r.code, r.stderr).to.equal(c.code)
      expect(r.stderr).to.match(c.msg)
      expect(r.stderr).to.not.match(/\n\s+at /) // no stack trace
      expect(existsSync(`${tmp}/never.img`)).to.equal(false)
    })
  }

  it('a spec file that fails its schema names the file and the field (exit 3)', async () => {
    const specs = join(tmp, 'specs')
    cpSync(join(ROOT, 'specs'), specs, {recursive: true})
    const p = join(specs, 'pts-2.0.2', 'iops.json')
    const s = JSON.parse(readFileSync(p, 'utf8'))
    // the IOPS loop phase (phases: purge, wipc, loop)
    expect(s.phases[2].kind).to.equal('loop')
    s.phases[2].steadyState.maxDataExcursionPct = 'twenty'
    writeFileSync(p, JSON.stringify(s))
    const r = await runCli(['run', 'iops', '--device', file(), '--size', '64MiB'], {env: {PTS_SPECS_DIR: specs}})
    expect(r.code).to.equal(3)
    expect(r.stderr).to.include(p).and.match(/at \/phases\/2\/steadyState\/maxDataExcursionPct: must be number/)
    expect(existsSync(`${tmp}/never.img`)).to.equal(false)
  })

  it('a missing fio binary says which package to install (exit 5), nothing written', async () => {
    const r = await runCli(['run', 'iops', '--device', file(), '--size', '64MiB', '--out', join(tmp, 'nofio')], {env: {PTS_FIO: '/nonexistent/fio'}})
    expect(r.code).to.equal(5)
    expect(r.stderr).to.match(/fio was not found/).and.match(/apt-get install -y fio/)
    expect(existsSync(`${tmp}/never.img`)).to.equal(false)
    expect(existsSync(join(tmp, 'nofio'))).to.equal(false)
  })

  it('--json keeps the exit code and prints the error as JSON on stdout', async () => {
    const r = await runCli(['run', 'iops', '--device', file(), '--size', '1GiB', '--qd', '0', '--json'])
    expect(r.code).to.equal(2)
    expect(JSON.parse(r.stdout).error.message).to.match(/--qd 0/)
  })

  it('pts plan touches nothing and prints phases, the 56 points of a round (job text with --json) and durations', async () => {
    const r = await runCli(['plan', 'iops', '--device', file(), '--size', '1GiB'])
    expect(r.code).to.equal(0)
    expect(r.stdout).to.match(/1\. Purge \[purge\]/).and.match(/2\. WIPC: SEQ 128KiB W.* \[wipc\]/).and.match(/3\. IOPS loop: RND R\/W mix x block size \[loop\]: rounds of 56 points/)
    expect(r.stdout).to.match(/minimum 4h 40m 00s, maximum 23h 20m 00s/)
    const j = await runCli(['plan', 'iops', '--device', file(), '--size', '1GiB', '--json'])
    expect(j.code).to.equal(0)
    const plan = JSON.parse(j.stdout) as {phases: Array<{kind: string; points?: Array<{id: string}>}>; jobs: Record<string, string>}
    expect(plan.phases.map(p => p.kind)).to.deep.equal(['purge', 'wipc', 'loop'])
    const ids = plan.phases[2].points!.map(p => p.id)
    expect(ids).to.have.length(56)
    expect(ids.every(id => /^rw\d+-bs\w+$/.test(id))).to.equal(true)
    expect(plan.jobs.wipc).to.match(/^rw=write$/m)
    expect(plan.jobs.loop).to.match(/^\[rw100-bs1024k\]$/m).and.match(/^bs=1048576$/m)
    expect(existsSync(`${tmp}/never.img`)).to.equal(false)
  })
})
