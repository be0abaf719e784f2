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
    expect(summary).to.include({status: 'complete', test: 'iops', revision: '2.0.2', pointsPerRound: 56, compliant: false})
    expect(statSync(`${tmp}/t.img`).size).to.equal(64 * 1024 * 1024)
    const {results, manifest} = verifyRun(out, 6)
    expect(manifest.target.path).to.equal(join(tmp, 't.img'))
    expect(readFileSync(join(out, results.rounds[0].points[0].raw.job), 'utf8')).to.include(`filename=${join(tmp, 't.img')}`)
    expect(summary.verdict).to.equal(results.steadyState.verdict)
    expect(manifest.compliance.reasons.join(' ')).to.match(/regular file/)
    expect(results.purge).to.include({method: 'none', status: 'skipped'})
    // progress went to stderr, stdout is only the JSON summary
    expect(r.stderr).to.match(/WDPC \| round 1\/6 \| point \d+\/56/)
    expect(r.stderr).to.match(/ETA/)
    // the run ends with its report, built from the stored files
    expect(summary.report.error).to.equal(null)
    expect(summary.report.files.map((f: string) => f.split('/').pop()).sort()).to.deep.equal(['report.html', 'report.pdf'])
    expect(statSync(join(out, 'report.pdf')).size).to.be.greaterThan(10_000)
  })
})
