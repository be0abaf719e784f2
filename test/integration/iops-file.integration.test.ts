import {expect} from 'chai'
import {check} from '../../src/validate.js'
import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {useTmpDir} from '../helpers/tmp.js'
import {runCli} from '../helpers/cli.js'
import {verifyRun} from '../helpers/verify-run.js'

describe('pts run iops on a file target (real fio)', function () {
  this.timeout(600_000)
  const tmpDir = useTmpDir('pts-it-file-')
  let tmp = ''
  before(() => { tmp = tmpDir() })

  it('runs purge/WIPC/WDPC to steady state or 6 rounds; results validate, 56 points per round in order, verdict recomputes', async () => {
    const out = join(tmp, 'run')
    // a relative target path, as `pts demo` and most users give it (fio runs in another directory)
    const r = await runCli(['run', 'iops', '--device', 'file:t.img', '--size', '64MiB', '--point-seconds', '0.2', '--max-rounds', '6', '--tc', '2', '--qd', '8', '--out', out, '--json'], {cwd: tmp})
    expect(r.code, r.stderr.slice(-3000)).to.equal(0)
    const summary = JSON.parse(r.stdout)
    expect(check('cli/run.schema.json', summary)).to.deep.equal([])
    expect(summary).to.include({status: 'complete', test: 'iops', revision: '2.0.2', compliant: false})
    expect(summary.phases.map((p: {id: string; kind: string}) => `${p.id}:${p.kind}`)).to.deep.equal(['purge:purge', 'wipc:wipc', 'loop:loop'])
    expect(statSync(`${tmp}/t.img`).size).to.equal(64 * 1024 * 1024)
    const {manifest, loop, purge} = verifyRun(out, 6)
    expect(loop.rounds[0].points).to.have.length(56)
    expect(manifest.target.path).to.equal(join(tmp, 't.img'))
    expect(readFileSync(join(out, loop.rounds[0].points[0].raw.job), 'utf8')).to.include(`filename=${join(tmp, 't.img')}`)
    // the summary's loop line and tracking verdicts are the stored ones
    const loopLine = summary.phases.find((p: {id: string}) => p.id === 'loop')
    expect(loopLine.detail).to.match(loop.steadyState.verdict === 'steady' ? /^steady state in rounds / : /^steady state NOT ACHIEVED/)
    expect(summary.tracking.map((t: {id: string; steady: boolean | null}) => [t.id, t.steady])).to.deep.equal(loop.steadyState.variables.map(v => [v.id, v.steady]))
    expect(manifest.compliance.reasons.join(' ')).to.match(/regular file/)
    expect(purge).to.include({method: 'none', status: 'skipped'})
    // progress went to stderr, stdout is only the JSON summary
    expect(r.stderr).to.match(/iops loop \| round 1\/6 \| point \d+\/56/)
    expect(r.stderr).to.match(/ETA/)
    // the run ends with its report, built from the stored files
    expect(summary.report.error).to.equal(null)
    expect(summary.report.files.map((f: string) => f.split('/').pop()).sort()).to.deep.equal(['report.html', 'report.pdf'])
    expect(statSync(join(out, 'report.pdf')).size).to.be.greaterThan(10_000)
  })
})
