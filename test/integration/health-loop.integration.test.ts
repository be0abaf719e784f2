/**
 * Drive health on a real run whose target has no health log: a loop device (real fio, root). The
 * run completes; results.json, the run's events and the report's "Drive Health and Temperature"
 * page say "not available" with the reason; pts audit's health check is skipped with that reason
 * and the seal holds. (A drive with a health log is run in the device lab.)
 */
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {closeSync, ftruncateSync, mkdtempSync, openSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {requireRoot} from '../helpers/requires.js'
import {prepare} from '../../src/app/prepare.js'
import {auditRun} from '../../src/audit/load.js'
import {findFio} from '../../src/engine/fio.js'
import {hostFacts, toolVersion} from '../../src/host.js'
import {Progress} from '../../src/progress.js'
import {buildProgramReportModel} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import {runProgram} from '../../src/runner/run.js'
import {readStoredRun} from '../../src/store/read.js'

describe('drive health on a loop device: not available, said so (real fio, root)', function () {
  this.timeout(300_000)
  let tmp = ''
  let dev = ''
  before(function () {
    requireRoot(this, 'creating a loop device')
    tmp = mkdtempSync(join(tmpdir(), 'pts-it-health-'))
    const file = join(tmp, 'loop.img')
    const fd = openSync(file, 'w')
    ftruncateSync(fd, 64 * 1024 * 1024)
    closeSync(fd)
    dev = execFileSync('losetup', ['-f', '--show', '--direct-io=on', file], {encoding: 'utf8'}).trim()
  })
  after(() => {
    if (dev) { try { execFileSync('losetup', ['-d', dev]) } catch { /* already */ } }
    if (tmp) rmSync(tmp, {recursive: true, force: true})
  })

  it('the run completes; results, events, report page and audit say why there is no health log', async () => {
    const p = prepare('lat', {device: dev, revision: '2.0.2', 'point-seconds': '0.1', 'max-rounds': '1', 'on-no-steady-state': 'stop', ioengine: 'libaio',
      'wipc-multiple': '0.05', 'time-scale': '0.001', purge: 'none', seed: '3', 'yes-destroy-data': dev, 'health-interval': '0.5'})
    expect(p.refusals).to.deep.equal([])
    const notes: string[] = []
    const stream = {isTTY: false, write: (s: string) => { notes.push(s); return true }} as unknown as NodeJS.WriteStream
    const runDir = join(tmp, 'run')
    const summary = await runProgram({plan: p.plan, target: p.target, purge: p.purge, fio: findFio(), runId: 'health-loop', runDir, argv: ['pts', 'test'], toolVersion: toolVersion(), host: hostFacts(),
      progress: new Progress(stream, false, 0), healthIntervalSec: p.healthIntervalSec})
    expect(summary.status).to.equal('complete')
    const reason = 'a loop device has no drive health log: the drive under its backing file is not the device under test'
    const run = readStoredRun(runDir)
    expect(run.results.health).to.deep.equal({available: false, reason, tool: null, device: null, intervalSec: 0.5, before: null, after: null, samples: [], problems: []})
    expect(run.manifest.events.filter(e => e.event === 'health').map(e => e.detail)).to.deep.equal([`drive health and temperature: not available: ${reason}`])
    expect(notes.join('')).to.include(`drive health and temperature: not available (${reason})`)
    const model = buildProgramReportModel({manifest: run.manifest, results: run.results, generatedAt: '2026-12-04T00:00:00Z'}, PROGRAM_PAGE_BUILDERS.lat!)
    const page = model.pages.find(x => x.title === 'Drive Health and Temperature')!
    expect(page.tables[0].heading).to.equal('Drive health log and temperature: not available')
    expect(page.tables[0].rows.map(r => r.cells[0])).to.deep.equal([`not available: ${reason}`, 'not available', `${summaryBytes(run.results)} B`])
    expect(model.pages[0].summary!.health).to.deep.equal({warning: false, text: `not available: ${reason}`})
    const audit = auditRun(runDir, {maxGapMs: 1000})
    expect(audit.checks.find(c => c.id === 'health')).to.include({status: 'skip', reason: `not available: ${reason}`})
    expect(audit.checks.find(c => c.id === 'integrity')).to.include({status: 'pass'})
  })
})

/** What fio wrote, from results.json (the page's last row). */
function summaryBytes(r: ReturnType<typeof readStoredRun>['results']): string {
  let n = 0
  for (const ph of r.phases) {
    if (ph.kind === 'wipc') n += ph.writtenBytes
    if (ph.kind === 'loop') for (const rd of ph.rounds) for (const pt of rd.points) n += pt.writeBytes
    if (ph.kind === 'histogram' && ph.job) n += ph.job.writeBytes
  }
  return n.toLocaleString('en-US')
}
