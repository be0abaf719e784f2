/**
 * `pts verify` through the CLI (test/helpers/cli.ts) on copies of stored real runs
 * (test/fixtures/runs/golden-iops, golden-dirth): a QD32 claim against the IOPS run's other load
 * is flagged NOT LIKE FOR LIKE in the table, the JSON and the verdict reasons; a DIRTH run's
 * TC 1 / QD 32 point measures it like for like; a file target is flagged NOT A DRIVE; the output
 * names where the claimed figures come from, in the buyer's terms.
 */
import {expect} from 'chai'
import {cpSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {VerifyResult} from '../../src/claims/types.js'
import {checkVerifyResult} from '../../src/claims/schema.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'
import {ROOT, runCli} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'

type Loop = Extract<PhaseResult, {kind: 'loop'}>

describe('pts verify: like for like and plausibility (stored runs)', function () {
  this.timeout(120_000)
  const tmp = useTmpDir('pts-verify-checks-')
  const copy = (name: string) => {
    const d = join(tmp(), name)
    cpSync(join(ROOT, 'test/fixtures/runs', name), d, {recursive: true})
    return d
  }

  it('the MX100 claims against an IOPS run at TC 2 / QD 4: NOT LIKE FOR LIKE (32 vs 8 IOs), NOT A DRIVE, in table, JSON and reasons', async () => {
    const run = copy('golden-iops')
    const r = await runCli(['verify', run, '--claims', join(ROOT, 'specs/claims/crucial-mx100-256gb.json'), '--no-report'])
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stdout).to.match(/^Claimed figures from: Crucial MX100 SSD product flyer \(CT256MX100SSD1, 2014\)$/m)
    expect(r.stdout).to.not.match(/issue|digest/i)
    const row = r.stdout.split('\n').find(l => l.startsWith('4 KiB random read '))!
    expect(row).to.include('NOT LIKE FOR LIKE (32 vs 8 IOs), NOT A DRIVE')
    expect(r.stdout).to.include('not like for like: the claim is at 32 outstanding IOs (TC 1 x QD 32), the measurement at 8 (TC 2 x QD 4)')
    const v = JSON.parse(readFileSync(join(run, 'claims.json'), 'utf8')) as VerifyResult
    expect(checkVerifyResult(v)).to.deep.equal([])
    const c = v.claims.find(x => x.id === 'rnd-4k-read')!
    expect(c.load).to.deep.include({likeForLike: false})
    expect(c.load!.measured).to.deep.equal({threadCount: 2, queueDepth: 4, outstandingIos: 8})
    expect(c.plausibility!.status).to.equal('not-a-drive')
    expect(c.verdictReasons!.some(x => x.startsWith('not like for like'))).to.equal(true)
    expect(c.verdictReasons!.some(x => x.startsWith('not a drive'))).to.equal(true)
    expect(v.summary.flagged).to.equal(2)
  })

  it('a DIRTH run: the QD32 claim is matched to its TC 1 / QD 32 point, like for like; --json prints the same outcome', async () => {
    const run = copy('golden-dirth')
    const claims = join(tmp(), 'claims.json')
    writeFileSync(claims, JSON.stringify({vendor: 'Acme', model: 'X1', capacityBytes: 1e12, source: 'Acme X1 product brief, rev. 2',
      claims: [{id: 'oltp-qd32', metric: 'iops', access: 'random', blockSize: '8KiB', readPct: 65, queueDepth: 32, value: 100000, unit: 'IOPS', condition: 'steady-state'},
        {id: 'oltp-p99', metric: 'latency', access: 'random', blockSize: '8KiB', readPct: 65, queueDepth: 32, statistic: 'p99', value: 5, unit: 'ms', condition: 'steady-state'},
        {id: 'tbw', metric: 'endurance', value: 1000, unit: 'TBW', periodYears: 5, condition: 'unspecified'}]}))
    const r = await runCli(['verify', run, '--claims', claims, '--no-report', '--json', '--fail-on-miss'])
    const v = JSON.parse(r.stdout) as VerifyResult
    const results = JSON.parse(readFileSync(join(run, 'results.json'), 'utf8')) as ProgramResults
    const dv = results.phases.find((p): p is Loop => p.kind === 'loop' && p.id === 'dv')!
    const w = dv.windowAverages.find(x => x.threadCount === 1 && x.queueDepth === 32)!
    const [iops, p99, tbw] = v.claims
    expect(iops.measured!.value).to.equal(w.iops)
    expect(iops.load!.likeForLike).to.equal(true)
    expect(iops.source).to.include({test: 'dirth', phase: 'dv'})
    expect(p99.verdict).to.be.oneOf(['meets', 'below'])
    expect(p99.measured!.source).to.match(/raw fio output of dv/)
    expect(tbw.verdict).to.equal('not-measurable')
    // --fail-on-miss: exit 10 only when a measurable claim is below or not measured
    const miss = [iops, p99].some(c => c.verdict !== 'meets')
    expect(r.code, r.stderr).to.equal(miss ? 10 : 0)
  })
})
