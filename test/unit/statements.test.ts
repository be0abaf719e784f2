/**
 * Generated statements that must be true (pure): the suite contents page on purges, the WSAT
 * minimum of pts plan, the compliance line of a target the safety gate refuses, a loop device's
 * compliance, the summary of an interrupted IOPS run, and numbers without float noise.
 */
import {expect} from 'chai'
import {fileURLToPath} from 'node:url'
import {contentsHtml, purgeSentence, suiteDurationText, type SuiteManifest} from '../../src/app/suite.js'
import {planText} from '../../src/app/plan-text.js'
import {loadProgramSpec} from '../../src/store/spec-files.js'
import {expandProgram, type ProgramOptions} from '../../src/plan/expand.js'
import type {TargetInfo} from '../../src/plan/target.js'
import {safetyVerdict, type SafetyFacts} from '../../src/device/safety.js'
import {loadRun} from '../../src/report/load.js'
import {buildProgramReportModel} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'

const opts = (o: Partial<ProgramOptions> = {}): ProgramOptions => ({
  revision: '2.0.2', profile: 'enterprise', threadCount: 4, queueDepth: 32, pointSeconds: 60, maxRounds: 25,
  onNoSteadyState: 'stop', roundCap: 25, wipcMultiple: null, timeScale: 1, ioengine: 'libaio', seed: 7,
  workload: null, ceilingMs: null, maxSeconds: null, maxWrittenBytes: null, steadyStateExit: false, ...o,
})
const block: TargetInfo = {kind: 'block', path: '/dev/loop7', sizeBytes: 256 * 1024 ** 2, logicalSectorBytes: 512, purge: {method: 'nvme-sanitize-block', deviation: null}}

describe('suite contents page: what the purges did', () => {
  const suite = {schemaVersion: 1, kind: 'suite', suiteId: 's1', revision: '2.0.2', argv: ['pts', 'run', 'all'], device: 'file:/tmp/t.img', flags: {},
    status: 'complete', createdAt: '2026-12-01T00:00:00Z', finishedAt: '2026-12-01T01:00:00Z', report: null,
    tests: [{test: 'tp', dir: '01-tp', status: 'complete', error: null, startedAt: null, finishedAt: null}, {test: 'lat', dir: '02-lat', status: 'complete', error: null, startedAt: null, finishedAt: null}]} as unknown as SuiteManifest
  const row = (test: string, purge: string) => ({test, status: 'complete', detail: 'loop: steady', firstPage: 2, pages: 3, purge})

  it('a file target: no test was purged, and the page says so instead of "Every test started from a purge"', () => {
    const rows = [row('tp', 'none: the target is a regular file (skipped)'), row('lat', 'none: the target is a regular file (skipped)')]
    const html = contentsHtml(suite, rows, '')
    expect(html).not.to.include('Every test started from a purge')
    expect(html).to.include('No test started from a purge (the Purge column says why for each); a regular file target cannot be purged, so the runs are marked non-compliant for it.')
    expect(html).to.include('<th>Purge</th>')
    expect(html).to.include('<td>none: the target is a regular file (skipped)</td>')
  })

  it('every test purged: the statement holds; some: it names them', () => {
    expect(purgeSentence([row('tp', 'nvme-sanitize-block (done)'), row('lat', 'nvme-format-ses1 (done)')])).to.equal('Every test started from a purge (the Purge column names the method).')
    expect(purgeSentence([row('tp', 'nvme-sanitize-block (done)'), row('lat', 'nvme-sanitize-block (failed)')])).to.equal('1 of 2 tests started from a purge (tp); the Purge column says what happened for each.')
    expect(purgeSentence([{test: 'tp'}])).to.equal('No test has recorded a purge yet.')
  })
})

describe('pts plan: minimum durations and compliance', () => {
  it('WSAT: the minimum is the earliest possible stop (one sample), not 0 s, and the text says it depends on the device', () => {
    const plan = expandProgram(loadProgramSpec('wsat', '2.0.2'), opts(), block)
    const t = plan.timeline.find(x => x.phase === 'wsat')!
    expect(t.minSec).to.be.greaterThan(0)
    expect(t.minSec).to.equal(plan.phases.find(p => p.kind === 'series')!.kind === 'series' ? (plan.phases.find(p => p.kind === 'series') as {sampleSeconds: number}).sampleSeconds : -1)
    expect(t.minDependsOn).to.match(/ends once 1\.1 GB \(1 GiB\) is written, which takes as long as the device needs to write it/)
    const text = planText(plan, '/dev/loop7', [])
    expect(text).not.to.match(/\(0s to /)
    expect(text).to.match(/\(1m 00s to 24h 00m 00s; the minimum is the earliest possible stop: the phase ends once 1\.1 GB/)
    expect(text).to.match(/^Duration: minimum .* \(the earliest possible stop of wsat; the real length depends on the device\), maximum/m)
    expect(suiteDurationText([{test: 'wsat', minSec: t.minSec, maxSec: t.maxSec, minDependsOn: ['wsat']}])).to.match(/^ {2}wsat {3}1m 00s to 24h 00m 00s \(the minimum is the earliest possible stop of wsat: it depends on how fast the device writes\)$/m)
  })

  it('a target the safety gate refuses has no "Compliance: compliant" line', () => {
    const plan = expandProgram(loadProgramSpec('iops', '2.0.2'), opts(), block)
    expect(plan.compliance.compliant).to.equal(true)
    const refused = planText(plan, '/dev/loop7', ['/dev/loop7 carries a filesystem signature (ext4)'])
    expect(refused).to.match(/^Safety: would REFUSE:/m)
    expect(refused).to.match(/^Compliance: no run \(the safety gate refuses this target\); once the refusals are resolved the run would be compliant$/m)
    expect(planText(plan, '/dev/loop7', [])).to.match(/^Compliance: compliant$/m)
  })

  it('a loop device is never a compliant target: it is a file behind a block device', () => {
    const facts: SafetyFacts = {path: '/dev/loop7', name: 'loop7', type: 'loop', serial: null, readOnly: false, mountpoints: [], swap: false, partitions: [], holders: [], childrenMounted: [],
      fstype: null, descendantMounts: [], descendantSwap: [], rootOrBoot: [], stackedChildren: [], signatures: []}
    const v = safetyVerdict(facts)
    expect(v.proceed).to.equal(true)
    expect(v.nonCompliant).to.deep.equal(['/dev/loop7 is a loop device (a file behind a block device), not a drive'])
    expect(safetyVerdict({...facts, type: 'disk', path: '/dev/sdz', name: 'sdz'}).nonCompliant).to.deep.equal([])
  })
})

describe('the summary of an interrupted IOPS run (test/fixtures/runs-v1/iops-interrupted)', () => {
  const run = loadRun(fileURLToPath(new URL('../fixtures/runs-v1/iops-interrupted', import.meta.url)))
  const model = buildProgramReportModel({manifest: run.manifest, results: run.results, generatedAt: '2026-12-01T00:00:00Z'}, PROGRAM_PAGE_BUILDERS.iops!)
  const s = model.pages[0].summary!
  const loop = run.results.phases.find(p => p.kind === 'loop')!
  const complete = loop.kind === 'loop' ? loop.rounds.filter(r => r.finishedAt !== null).length : -1

  it('says how many rounds completed, consistently in the verdict and the rounds row', () => {
    const rounds = s.device.find(d => d.label === 'Rounds run')!.value
    expect(rounds).to.match(new RegExp(`^${complete} complete of max \\d+`))
    if (complete === 0) expect(s.verdict).to.include('before the end of round 1')
    else expect(s.verdict).to.include(`after ${complete} complete round${complete === 1 ? '' : 's'}`)
    expect(s.verdictDetail).not.to.include('no complete window did not meet')
  })
})

describe('numbers without float noise in --json', () => {
  const noise = /\d\.\d{9,}/
  it('pts plan --json: the timeline and durations in seconds to the ms (56 x 0.2 s is 11.2, not 11.200000000000001)', () => {
    const plan = expandProgram(loadProgramSpec('iops', '2.0.2'), opts({pointSeconds: 0.2, timeScale: 0.001, maxRounds: 5, roundCap: 5}), block)
    const text = JSON.stringify({timeline: plan.timeline, durations: plan.durations})
    expect(text).not.to.match(noise)
    expect(plan.timeline.find(t => t.phase === 'loop')!.minSec).to.equal(56)
  })

  it('pts run --json: window averages rounded to 0.001 of their unit (results.json keeps the exact value)', async () => {
    const {summarizeProgram} = await import('../../src/runner/run.js')
    const dir = fileURLToPath(new URL('../fixtures/runs/golden-iops', import.meta.url))
    const {manifest, results} = (await import('../../src/store/read.js')).readStoredRun(dir)
    const s = summarizeProgram(dir, manifest, results)
    expect(s.tracking.length).to.equal(3)
    const exact = results.phases.flatMap(p => (p.kind === 'loop' ? p.steadyState.variables.map(v => v.average) : []))
    expect(exact.some(x => noise.test(String(x))), 'the stored averages have full precision').to.equal(true)
    for (const t of s.tracking) expect(String(t.windowAverage)).not.to.match(noise)
    expect(JSON.stringify(s)).not.to.match(noise)
    expect(s.timing.durations).to.match(/^\d+ fio steps: no step shorter than its length/)
  })
})
