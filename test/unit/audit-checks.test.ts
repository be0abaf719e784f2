/**
 * The audit's pure checks, table-driven: the real captured fixture run (test/fixtures/runs/
 * iops-file-short, stored in the IOPS format of earlier versions and read as phases) is fed to
 * runProgramAudit (the one audit of every test), then one fact at a time is changed in memory.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {jsonDiff} from '../../src/audit/checks.js'
import {runProgramAudit, type ProgramAuditInput} from '../../src/audit/audit.js'
import {parseJobFile} from '../../src/engine/parse.js'
import type {PhaseResult} from '../../src/model/results.js'
import {computeSeal, hashFile, sealedPaths} from '../../src/store/integrity.js'
import {compareSeal} from '../../src/audit/checks.js'
import {loadRun} from '../../src/report/load.js'
import {buildProgramReportModel} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import type {RunManifest} from '../../src/model/manifest.js'

const DIR = fileURLToPath(new URL('../fixtures/runs/iops-file-short', import.meta.url))

type AuditInput = ProgramAuditInput
const runAudit = runProgramAudit

function input(): AuditInput & {raw: Map<string, string | null>} {
  const run = loadRun(DIR)
  const raw = new Map<string, string | null>()
  for (const f of sealedPaths(DIR)) if (f.startsWith('raw/')) raw.set(f, readFileSync(`${DIR}/${f}`, 'utf8'))
  const manifest: RunManifest = structuredClone(run.manifest)
  manifest.integrity = computeSeal(DIR, new Date('2026-12-01T00:00:00Z'))
  return {
    manifest, results: structuredClone(run.results), raw,
    sealNow: sealedPaths(DIR).map(p => hashFile(DIR, p)),
    signature: {present: false, keyGiven: false},
    buildModel: r => buildProgramReportModel({...run, results: r, generatedAt: '2026-12-01T00:00:00Z'}, PROGRAM_PAGE_BUILDERS.iops!),
    storedModel: null,
    maxGapMs: 1000,
  }
}
/** The IOPS run's phases: purge, WIPC, then the loop (at /phases/2). */
const LOOP = 2
function phaseOf<K extends PhaseResult['kind']>(i: AuditInput, kind: K): Extract<PhaseResult, {kind: K}> {
  const p = i.results.phases.find(x => x.kind === kind)
  if (!p) throw new Error(`the fixture run has no ${kind} phase`)
  return p as Extract<PhaseResult, {kind: K}>
}
const loop = (i: AuditInput) => phaseOf(i, 'loop')
const statuses = (inp: AuditInput) => Object.fromEntries(runAudit(inp).checks.map(c => [c.id, c.status]))
const failedIds = (inp: AuditInput) => runAudit(inp).checks.filter(c => c.status === 'fail').map(c => c.id)

describe('audit checks (pure) on the captured fixture run', () => {
  it('the unchanged run passes every check; the unsigned one skips the signature', () => {
    const inp = input()
    expect(inp.results.phases.map(p => p.kind)).to.deep.equal(['purge', 'wipc', 'loop'])
    expect(inp.results.phases.indexOf(loop(inp))).to.equal(LOOP)
    const s = statuses(inp)
    expect(s).to.deep.equal({integrity: 'pass', signature: 'skip', measurements: 'pass', 'steady-state': 'pass', report: 'pass', purge: 'pass',
      wipc: 'pass', durations: 'pass', 'loop-order': 'pass', 'idle-gaps': 'pass', identity: 'pass', 'job-parameters': 'pass', continuity: 'skip', health: 'skip', 'per-second': 'skip'})
  })

  it('the durations and idle-gap checks state their bounds', () => {
    const c = Object.fromEntries(runAudit(input()).checks.map(x => [x.id, x.reason]))
    expect(c.durations).to.match(/^\d+ fio steps: no step shorter than its length, every overrun within its bound; largest overrun \d+ ms \(.*, bound \d+ ms\) \(bound per step: its maximum response time \+ 10 ms, the time fio needs to complete the I\/O in flight when the step's time is up\)$/)
    expect(c['idle-gaps']).to.match(/^\d+ gaps between steps: median [\d.]+ ms, max [\d.]+ ms \(limit 1000 ms\)$/)
  })

  const cases: Array<{name: string; change: (i: ReturnType<typeof input>) => void; fails: string[]; says: RegExp}> = [
    {name: 'no seal in the manifest', change: i => { i.manifest.integrity = null }, fails: ['integrity'], says: /no integrity list/},
    {name: 'a stored latency differs from raw', change: i => { loop(i).rounds[0].points[0].latMeanNs += 1 }, fails: ['measurements'], says: /\/phases\/2\/rounds\/0\/points\/0\/latMeanNs/},
    {name: 'a stored window average differs from the recomputation', change: i => { loop(i).windowAverages[3].iops *= 2 }, fails: ['steady-state', 'report'], says: /\/phases\/2\/windowAverages\/3\/iops/},
    {name: 'the verdict was changed to steady', change: i => { const ss = loop(i).steadyState; ss.verdict = ss.verdict === 'steady' ? 'not-achieved' : 'steady' }, fails: ['steady-state', 'report'], says: /\/phases\/2\/steadyState\/verdict/},
    {name: 'a file target claimed compliant', change: i => { i.manifest.compliance = {compliant: true, reasons: []} }, fails: ['purge', 'durations'], says: /must be marked non-compliant/},
    {name: 'WIPC short of the requirement, undisclosed', change: i => { phaseOf(i, 'wipc').requiredBytes *= 2 }, fails: ['wipc'], says: /wrote \d+ bytes, the spec requires \d+, and the run is not marked non-compliant/},
    {name: 'points that ran far shorter than declared', change: i => { const p = loop(i).rounds[0].points[0].raw.job; i.raw.set(p, i.raw.get(p)!.replace(/^runtime=\d+ms$/m, 'runtime=1000ms')) }, fails: ['durations'], says: /fio ran 0\.2\d* s and the step lasted 0\.2\d* s from its start to its end, shorter than the 1 s its job asked for/},
    {name: 'a point that overran its bound (its maximum response time + 10 ms)', change: i => { const p = loop(i).rounds[0].points[0].raw.job; i.raw.set(p, i.raw.get(p)!.replace(/^runtime=\d+ms$/m, 'runtime=1ms')) }, fails: ['durations'], says: /fio ran 0\.2\d* s for 0\.001 s, an overrun of \d+ ms beyond its bound of \d+ ms \(the step's maximum response time \+ 10 ms\)/},
    {name: 'a stored timing that differs from the recomputation', change: i => { const p = loop(i).rounds[0].points[3]; p.timing = {plannedSec: 0.2, overrunSec: 5, overrunLimitSec: 0.01, gapBeforeMs: 0} }, fails: ['durations', 'report'], says: /results\.json \/phases\/2\/rounds\/0\/points\/3\/timing\/overrunSec: 5 ≠ /},
    {name: 'two points swapped in a round', change: i => { const p = loop(i).rounds[1].points; [p[4], p[5]] = [p[5], p[4]] }, fails: ['loop-order', 'steady-state', 'report'], says: /\/phases\/2\/rounds\/1\/points\/4/},
    {name: 'an idle gap of 5 s', change: i => { for (const r of loop(i).rounds.slice(3)) for (const p of r.points) { p.startNs = String(BigInt(p.startNs) + 5_000_000_000n); p.endNs = String(BigInt(p.endNs) + 5_000_000_000n) } }, fails: ['idle-gaps'], says: /raw\/round-04\/01-.*: started 50\d\d ms after the previous step ended \(limit 1000 ms of idle time\)/},
    {name: 'an identity record of another device', change: i => { i.manifest.events.push({at: '2026-12-01T00:00:00.000Z', event: 'identity', detail: 'serial X; model Y; capacity 1 B; path /dev/sdz'}) }, fails: ['identity'], says: /serial X/},
    {name: 'a job with another queue depth', change: i => { const p = loop(i).rounds[2].points[9].raw.job; i.raw.set(p, i.raw.get(p)!.replace(/iodepth=\d+/, 'iodepth=1')) }, fails: ['job-parameters'], says: /iodepth=1, expected 8/},
    {name: 'a raw job that is missing', change: i => { i.raw.set(loop(i).rounds[0].points[1].raw.job, null) }, fails: ['identity'], says: /raw job file raw\/round-01\/02-.* is missing/},
  ]
  for (const c of cases) {
    it(c.name, () => {
      const inp = input()
      c.change(inp)
      const r = runAudit(inp)
      expect(r.ok).to.equal(false)
      expect(failedIds(inp).sort()).to.deep.equal([...c.fails].sort())
      expect(r.checks.filter(x => x.status === 'fail').flatMap(x => x.problems).join('\n')).to.match(c.says)
    })
  }

  it('a gap across a recorded resume is excused (the interruption is a deviation)', () => {
    const inp = input()
    const first = loop(inp).rounds[3].points[0]
    for (const r of loop(inp).rounds.slice(3)) for (const p of r.points) { p.startNs = String(BigInt(p.startNs) + 5_000_000_000n); p.endNs = String(BigInt(p.endNs) + 5_000_000_000n) }
    inp.manifest.events.push({at: new Date(Number(BigInt(first.startNs) / 1_000_000n) - 1000).toISOString(), event: 'resume', detail: 'pts resume'})
    const c = runAudit(inp).checks.find(x => x.id === 'idle-gaps')!
    expect(c.status).to.equal('pass')
    expect(c.reason).to.match(/1 across a recorded interruption/)
  })
})

describe('audit helpers', () => {
  it('jsonDiff names JSON pointers', () => {
    const t: Array<[unknown, unknown, string[]]> = [
      [{a: 1}, {a: 1}, []],
      [{a: [1, 2]}, {a: [1, 3]}, ['/a/1: 2 ≠ 3']],
      [{a: 1}, {b: 1}, ['/a: 1 ≠ absent', '/b: absent ≠ 1']],
      [[1], [1, 2], ['/: 1 items ≠ 2 items']],
      [{'x/y': null}, {'x/y': 0}, ['/x~1y: null ≠ 0']],
    ]
    for (const [a, b, want] of t) expect(jsonDiff(a, b)).to.deep.equal(want)
  })

  it('parseJobFile reads sections, skips comments', () => {
    const j = parseJobFile('; c\n[global]\nioengine=libaio\ndirect=1\n\n[rw65-bs4k]\nrw=randrw\nrwmixread=65\n')
    expect([...j.keys()]).to.deep.equal(['global', 'rw65-bs4k'])
    expect(j.get('rw65-bs4k')!.get('rwmixread')).to.equal('65')
  })

  it('compareSeal lists changed, missing and added files', () => {
    const a = {path: 'a', bytes: 1, sha256: '1'.repeat(64)}
    const b = {path: 'b', bytes: 1, sha256: '2'.repeat(64)}
    const r = compareSeal([a, b], [{...a, sha256: '3'.repeat(64)}, {path: 'c', bytes: 0, sha256: '4'.repeat(64)}])
    expect(r.changed[0]).to.match(/^a \(sealed 1 B/)
    expect(r.missing).to.deep.equal(['b'])
    expect(r.added).to.deep.equal(['c'])
  })
})
