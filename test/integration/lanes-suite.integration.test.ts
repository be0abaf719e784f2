/**
 * pts run all with several --device: one lane per drive, each lane a whole suite (pts run all)
 * in its own directory. Real fio on two file targets this test creates; the suite is restricted
 * with --tests (two of the revision's tests, named out of the spec's order) and run at a small
 * scale (0.2 s points, at most 5 rounds, TC 1 / QD 4, WIPC 1x, --time-scale 0.01, 32 MiB), so the
 * whole fleet takes about a minute on a quiet 2-core machine.
 */
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync, realpathSync} from 'node:fs'
import {join} from 'node:path'
import {runCli} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'
import {check} from '../../src/validate.js'
import type {FleetIndex} from '../../src/fleet/model.js'
import type {SuiteManifest} from '../../src/app/suite.js'
import type {RunManifest} from '../../src/model/manifest.js'

const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T

describe('pts run all with several --device: one suite per drive (real fio, files)', function () {
  this.timeout(600_000)
  const tmpDir = useTmpDir('pts-it-lanes-suite-')

  it('runs the suite\'s tests in order in every lane, each in its own run directories; fleet.json indexes both lanes; exit 0; pts audit passes on every run', async () => {
    const tmp = tmpDir()
    const fleet = join(tmp, 'fleet')
    const devices = [`file:${join(tmp, 'a.img')}`, `file:${join(tmp, 'b.img')}`]
    const r = await runCli(['run', 'all', '--tests', 'lat,tp', ...devices.flatMap(d => ['--device', d]), '--size', '32MiB',
      '--point-seconds', '0.2', '--max-rounds', '5', '--tc', '1', '--qd', '4', '--wipc-multiple', '1', '--time-scale', '0.01', '--seed', '3', '--out', fleet, '--json'])
    expect(r.code, r.stderr.slice(-3000)).to.equal(0)
    const printed = JSON.parse(r.stdout) as FleetIndex & {dir: string; files: string[]}
    expect(check('cli/run.schema.json', printed)).to.deep.equal([])

    const index = readJson<FleetIndex>(join(fleet, 'fleet.json'))
    expect(check('fleet.schema.json', index)).to.deep.equal([])
    expect(index).to.include({kind: 'fleet', test: 'all', status: 'complete'})
    expect(index.lanes.map(l => [l.index, l.device, l.status, l.exit])).to.deep.equal([[1, devices[0], 'complete', 0], [2, devices[1], 'complete', 0]])
    expect(new Set(index.lanes.map(l => l.dir)).size).to.equal(2)
    expect(index.report.sort()).to.deep.equal(['fleet.html', 'fleet.pdf'])

    const runDirs = new Set<string>()
    for (const lane of index.lanes) {
      const laneDir = join(fleet, lane.dir)
      // each lane is a suite of its own: the tests in the spec's order (tp before lat, whatever --tests says), one after the other
      const suite = readJson<SuiteManifest>(join(laneDir, 'suite.json'))
      expect(check('suite.schema.json', suite)).to.deep.equal([])
      expect(suite.status).to.equal('complete')
      expect(suite.device).to.equal(lane.device)
      expect(suite.tests.map(t => [t.test, t.dir, t.status])).to.deep.equal([['tp', '01-tp', 'complete'], ['lat', '02-lat', 'complete']])
      expect(Date.parse(suite.tests[0].finishedAt!)).to.be.at.most(Date.parse(suite.tests[1].startedAt!))
      expect(existsSync(join(laneDir, 'suite.pdf')), 'the lane\'s suite report').to.equal(true)
      for (const t of suite.tests) {
        const runDir = join(laneDir, t.dir)
        const m = readJson<RunManifest>(join(runDir, 'manifest.json'))
        const res = readJson<{test: string; status: string}>(join(runDir, 'results.json'))
        expect([res.test, res.status, m.status]).to.deep.equal([t.test, 'complete', 'complete'])
        expect(`file:${m.target.path}`).to.equal(lane.device)
        expect(m.concurrency?.drives, 'the drives that ran at the same time').to.deep.equal(devices)
        runDirs.add(realpathSync(runDir))
      }
    }
    expect(runDirs.size, 'every test of every lane is a run of its own, in its own directory').to.equal(4)
    // pts audit passes on every run of every lane (the idle-gap bound is raised: this 2-core machine is shared and busy)
    const audits = await Promise.all([...runDirs].map(async d => ({d, a: await runCli(['audit', d, '--max-gap-ms', '60000'], {timeoutMs: 180_000})})))
    for (const {d, a} of audits) expect(a.code, `${d}\n${a.stdout.slice(-3000)}`).to.equal(0)

    // the fleet report: one row per drive and test (compared without white space: a long path wraps in its cell)
    const flat = execFileSync('pdftotext', ['-raw', join(fleet, 'fleet.pdf'), '-'], {encoding: 'utf8'}).replace(/\s+/g, '')
    expect(flat).to.include('Fleetreport:all,2drives')
    for (const [i, d] of devices.entries()) {
      for (const test of ['tp', 'lat']) expect(flat, `${d} ${test}`).to.include(`${i + 1}${d}regularfilenonenone${test}complete`)
    }
  })
})
