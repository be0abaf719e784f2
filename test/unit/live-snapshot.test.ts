/**
 * The live page's rows and details (src/live/snapshot.ts) from the stored golden runs (real short
 * runs of every test, test/fixtures/runs/golden-README.md): every test gives a row and a detail
 * that pass the API's schema, whose charts compile with Vega-Lite; the state says what the stored
 * status and the liveness of the run's process say.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {compile} from 'vega-lite'
import type {TopLevelSpec} from 'vega-lite'
import {liveDetail, liveRow, type ServeStateJson, type SnapshotInput} from '../../src/live/snapshot.js'
import {stepsOf} from '../../src/analysis/steps.js'
import type {RunManifest} from '../../src/model/manifest.js'
import type {ProgramResults} from '../../src/model/results.js'
import {check} from '../../src/validate.js'

const FIXTURES = new URL('../fixtures/runs/', import.meta.url).pathname
const TESTS = ['iops', 'tp', 'lat', 'wsat', 'hir', 'xsr', 'cbw', 'ecw', 'dirth']

function golden(test: string): {manifest: RunManifest; results: ProgramResults; path: string} {
  const path = join(FIXTURES, `golden-${test}`)
  return {path, manifest: JSON.parse(readFileSync(join(path, 'manifest.json'), 'utf8')) as RunManifest, results: JSON.parse(readFileSync(join(path, 'results.json'), 'utf8')) as ProgramResults}
}

function input(test: string, o: Partial<SnapshotInput> = {}, status?: RunManifest['status']): SnapshotInput {
  const g = golden(test)
  const manifest = status ? {...g.manifest, status, error: status === 'failed' ? {message: 'fio failed (exit 1) on raw/02-wipc.fio', exit: 6} : null} : g.manifest
  const results = status === 'running' ? {...g.results, status} : g.results
  return {id: `lab/${test}`, group: 'lab', path: g.path, manifest, results, alive: false, timeline: null, now: '2026-12-04T03:00:00.000Z', ...o}
}

describe('live page snapshot (pts serve)', () => {
  for (const test of TESTS) {
    it(`${test}: row and detail pass the API schema; every chart compiles`, () => {
      const i = input(test)
      const row = liveRow(i)
      const detail = liveDetail(i.results)
      const state: ServeStateJson = {at: i.now, root: FIXTURES, groups: [{folder: 'lab', kind: 'folder', fleet: null, runs: [row]}], selected: {row, detail}}
      expect(check('cli/serve-state.schema.json', state)).to.deep.equal([])
      expect(row.state).to.equal('complete')
      expect(row.resumeCommand).to.equal(null)
      expect(row.eta).to.equal(null)
      expect(row.steps).to.equal(stepsOf(i.results).length).and.be.greaterThan(0)
      expect(detail.points.map(p => p.n)).to.deep.equal(Array.from({length: row.steps}, (_, k) => k + 1))
      expect(detail.charts.length).to.be.greaterThan(0)
      for (const c of detail.charts) expect(() => compile(c.spec as unknown as TopLevelSpec), c.title).to.not.throw()
    })
  }

  it('iops: the verdict, the window and the tracking values as stored', () => {
    const {results} = golden('iops')
    const loop = results.phases.find(p => p.kind === 'loop') as Extract<ProgramResults['phases'][number], {kind: 'loop'}>
    const row = liveRow(input('iops'))
    expect(row.verdict).to.equal(`not achieved (window rounds ${loop.steadyState.fromRound}-${loop.steadyState.toRound})`)
    const c = liveDetail(results).convergence
    expect(c).to.have.length(1)
    expect(c[0].window).to.deep.equal({fromRound: loop.steadyState.fromRound, toRound: loop.steadyState.toRound})
    expect(c[0].variables.map(v => v.values.map(x => x.value))).to.deep.equal(loop.tracking.map(t => t.series))
    expect(row.round).to.equal(loop.rounds.length)
  })

  it('the state: running, stopped (process gone, with the resume command), not known (another host), failed, interrupted', () => {
    const running = liveRow(input('iops', {alive: true}, 'running'))
    expect([running.state, running.resumeCommand]).to.deep.equal(['running', null])
    expect(running.stateText).to.match(/^running \(pid \d+\)$/)
    const stopped = liveRow(input('iops', {alive: false}, 'running'))
    expect(stopped.state).to.equal('stopped')
    expect(stopped.resumeCommand).to.equal(`pts resume ${golden('iops').path}`)
    expect(stopped.eta).to.equal(null)
    const elsewhere = liveRow(input('iops', {alive: null}, 'running'))
    expect([elsewhere.state, elsewhere.resumeCommand]).to.deep.equal(['unknown', null])
    const failed = liveRow(input('iops', {}, 'failed'))
    expect([failed.state, failed.stateText, failed.error]).to.deep.equal(['failed', 'failed: fio failed (exit 1) on raw/02-wipc.fio', 'fio failed (exit 1) on raw/02-wipc.fio'])
    expect(failed.resumeCommand).to.equal(`pts resume ${golden('iops').path}`)
    const interrupted = liveRow(input('iops', {}, 'interrupted'))
    expect(interrupted.state).to.equal('interrupted')
    expect(interrupted.resumeCommand).to.equal(`pts resume ${golden('iops').path}`)
  })
})
