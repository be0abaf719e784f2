/**
 * The test-program definitions (specs/<revision>/<test>.json other than iops.json, which
 * spec-files.test.ts and expand.test.ts cover; the profiles from revision.json): schema, expansion
 * on every profile, and table-driven checks against the digest (B §5.2-5.8, §5.10, §3, Part A 6, 7, 10).
 */
import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {check} from '../../src/validate.js'
import {loadProgramSpec, loadRevision, revisionDir, SPECS_DIR} from '../../src/store/spec-files.js'
import {expandProgram, MIN_SCALED_SECONDS, scaledBurstRepeats, selects, type PlannedPhase, type ProgramOptions, type ProgramPlan, type ProgramPoint} from '../../src/plan/expand.js'
import type {PhaseSpec, ProgramSpec, Workload} from '../../src/model/definition.js'
import {REVISIONS, type ProfileId, type Revision} from '../../src/model/tests.js'
import type {TargetInfo} from '../../src/plan/target.js'
import {formatDuration} from '../../src/units.js'

const specsDir = fileURLToPath(SPECS_DIR)
const GiB = 1024 ** 3
const KiB = 1024
const target: TargetInfo = {kind: 'file', path: '/tmp/x', sizeBytes: GiB, logicalSectorBytes: 512, purge: {method: 'none', deviation: 'no purge'}}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'))
const programFiles = readdirSync(specsDir).filter(d => d.startsWith('pts-')).flatMap(dir =>
  readdirSync(`${specsDir}/${dir}`).filter(f => f.endsWith('.json') && f !== 'iops.json' && f !== 'revision.json').map(f => ({dir, file: f})))

/** The definition as pts loads it: the file plus its revision's profiles (revision.json). */
function load(rev: Revision, test: string): ProgramSpec {
  return loadProgramSpec(test, rev)
}

function opts(spec: ProgramSpec, profile: ProfileId, o: Partial<ProgramOptions> = {}): ProgramOptions {
  const p = spec.profiles[profile]!
  return {
    revision: spec.revision, profile, threadCount: p.threadCount, queueDepth: p.queueDepth, pointSeconds: 60, maxRounds: 25, onNoSteadyState: 'stop', roundCap: 25, wipcMultiple: null, timeScale: 1,
    ioengine: 'libaio', seed: 1, workload: null, ceilingMs: null, maxSeconds: null, maxWrittenBytes: null, steadyStateExit: false, ...o,
  }
}

function plan(rev: Revision, test: string, o: Partial<ProgramOptions> = {}, profile?: ProfileId): ProgramPlan {
  const spec = load(rev, test)
  return expandProgram(spec, opts(spec, profile ?? spec.defaultProfile, o), target)
}

function phase<K extends PlannedPhase['kind']>(p: ProgramPlan, id: string, kind: K): Extract<PlannedPhase, {kind: K}> {
  const ph = p.phases.find(x => x.id === id)
  expect(ph, `phase ${id}`).to.not.equal(undefined)
  expect(ph!.kind, `kind of phase ${id}`).to.equal(kind)
  return ph as Extract<PlannedPhase, {kind: K}>
}

const timelineOf = (p: ProgramPlan, id: string) => p.timeline.find(t => t.phase === id)!
const selectedIndexes = (t: Parameters<typeof selects>[0], points: ProgramPoint[]) => points.filter(pt => selects(t, pt)).map(pt => pt.index)

/** Every workload a spec names (phases, pre-writes, named workloads). */
function workloadsOf(spec: ProgramSpec): Workload[] {
  const ws: Workload[] = Object.values(spec.workloads ?? {}).map(w => w.workload)
  for (const ph of spec.phases as PhaseSpec[]) {
    if (ph.kind === 'loop') { ws.push(ph.workload); if (ph.preRound) ws.push(ph.preRound.workload) }
    if (ph.kind === 'series' || ph.kind === 'bursts') ws.push(ph.workload)
    if (ph.kind === 'operating-points') ws.push(ph.prewrite.workload)
  }
  return ws
}

const TCQD = [32, 16, 8, 6, 4, 2, 1]
const EXPECTED: Record<(typeof REVISIONS)[number], string[]> = {
  '2.0.2': ['cbw', 'dirth', 'hir', 'lat', 'tp', 'wsat', 'xsr'],
  'pts-e-1.1': ['dirth', 'ecw', 'hir', 'lat', 'tp', 'wsat', 'xsr'],
  'pts-c-1.2': ['lat', 'tp', 'wsat'],
}

describe('test-program spec files (specs/*/<test>.json against schemas/test-program.schema.json)', () => {
  for (const {dir, file} of programFiles) {
    it(`${dir}/${file} validates and expands on every profile and workload`, () => {
      const data = readJson(`${specsDir}/${dir}/${file}`)
      expect(check('test-program.schema.json', data)).to.deep.equal([])
      expect(data, 'profiles are the revision\'s (revision.json)').to.not.have.any.keys('profiles', 'defaultProfile')
      const spec = loadProgramSpec((data as ProgramSpec).id, (data as ProgramSpec).revision)
      expect(`${spec.id}.json`).to.equal(file)
      expect(revisionDir(spec.revision)).to.equal(dir)
      expect(spec.$schema).to.equal('../../schemas/test-program.schema.json')
      expect(spec.profiles[spec.defaultProfile]).to.not.equal(undefined)
      const ids = spec.phases.map(p => p.id)
      expect(new Set(ids).size, 'phase ids are unique').to.equal(ids.length)
      expect(spec.phases[0].kind, 'every test starts with a purge (digest B 4)').to.equal('purge')
      for (const ph of spec.phases) {
        if (ph.kind === 'operating-points') expect(spec.phases.find(p => p.id === ph.fromPhase)?.kind).to.equal('loop')
      }
      const before = JSON.stringify(data)
      for (const profile of Object.keys(spec.profiles) as ProfileId[]) {
        for (const workload of spec.workloads ? Object.keys(spec.workloads) : [null]) {
          const p = expandProgram(spec, opts(spec, profile, {workload}), target)
          expect(p.phases.map(x => x.id)).to.deep.equal(ids)
          expect(p.compliance.compliant).to.equal(false)
          for (const ph of p.phases) {
            if (ph.kind !== 'loop') continue
            for (const t of ph.steadyState.tracking) expect(selectedIndexes(t, ph.points), `${ph.id} ${t.id} selects exactly one point`).to.have.length(1)
          }
        }
      }
      expect(JSON.stringify(data), 'expansion does not change the spec').to.equal(before)
    })
  }

  it('each revision has exactly the digest B §1 test list (ECW in PTS-E 1.1, CBW in 2.0.2)', () => {
    for (const rev of REVISIONS) {
      const files = readdirSync(`${specsDir}/${revisionDir(rev)}`).filter(f => f.endsWith('.json') && f !== 'iops.json' && f !== 'revision.json').map(f => f.replace(/\.json$/, '')).sort()
      expect(files, rev).to.deep.equal(EXPECTED[rev])
    }
    expect(load('pts-e-1.1', 'ecw').subtitle).to.equal('ECW - Enterprise Composite Workload')
    expect(load('2.0.2', 'cbw').subtitle).to.equal('CBW - Composite Block Size Workload')
  })

  it('profiles are the IOPS definition\'s of the same revision: the revision\'s, written once (digest B 2.6, Part A 1)', () => {
    for (const rev of REVISIONS) {
      const iops = load(rev, 'iops')
      expect(iops.profiles, rev).to.deep.equal(loadRevision(rev).profiles)
      expect(iops.defaultProfile, rev).to.equal(loadRevision(rev).defaultProfile)
      for (const test of EXPECTED[rev]) {
        const s = load(rev, test)
        expect(s.profiles, `${rev} ${test}`).to.deep.equal(iops.profiles)
        expect(s.defaultProfile, `${rev} ${test}`).to.equal(iops.defaultProfile)
      }
    }
  })

  it('every steady-state loop uses window 5, 20% / 10%, 25 rounds (digest B 3)', () => {
    for (const rev of REVISIONS) {
      for (const test of EXPECTED[rev]) {
        for (const ph of load(rev, test).phases) {
          if (ph.kind === 'loop') expect(ph.steadyState, `${rev} ${test} ${ph.id}`).to.include({windowRounds: 5, maxDataExcursionPct: 20, maxSlopeExcursionPct: 10, maxRounds: 25})
        }
      }
    }
  })

  it('every file records its constants with a provenance: a user-facing note and clause, the digest citations in ref / clauseRef (never printed)', () => {
    for (const rev of REVISIONS) {
      for (const test of EXPECTED[rev]) {
        const s = load(rev, test)
        expect(s.parameters.length, `${rev} ${test}`).to.be.greaterThan(3)
        for (const p of s.parameters) {
          // where it comes from: the internal citation (ref) or, for a parameter written since, its user-facing note
          expect(p.ref ?? p.note ?? '', `${rev} ${test} ${p.name}`).to.not.equal('')
          if (p.ref !== undefined) expect(p.ref, `${rev} ${test} ${p.name}`).to.match(/digest/)
          expect(p.note ?? '', `${rev} ${test} ${p.name}`).to.not.match(/digest|Part A|\bG-[A-Z]{2,4}\b/)
        }
        expect(s.clauseRef).to.match(/digest B 5\.\d/)
        expect(s.clause).to.match(/^PTS(-[EC])? [\d.]+/)
        expect(s.clause).to.not.match(/digest|verify before citing/)
      }
    }
  })

  it('block-size shares and LBA zones sum to 100% (digest B 5.7)', () => {
    let mixes = 0
    for (const rev of REVISIONS) {
      for (const test of EXPECTED[rev]) {
        for (const w of workloadsOf(load(rev, test))) {
          if (w.bssplit) { mixes++; expect(w.bssplit.reduce((a, s) => a + s.pct, 0), `${rev} ${test} bssplit`).to.equal(100) }
          if (w.zones) {
            expect(w.zones.reduce((a, z) => a + z.accessPct, 0), `${rev} ${test} zone accesses`).to.equal(100)
            expect(w.zones.reduce((a, z) => a + z.rangePct, 0), `${rev} ${test} zone ranges`).to.equal(100)
          }
        }
      }
    }
    expect(mixes).to.be.greaterThan(0)
    const cbw = load('2.0.2', 'cbw').phases.find(p => p.id === 'dv')
    expect(cbw?.kind).to.equal('loop')
    const w = (cbw as Extract<PhaseSpec, {kind: 'loop'}>).workload
    expect(w.bssplit!.map(s => [s.blockSizeBytes / KiB, s.pct])).to.deep.equal([
      [0.5, 4], [1, 1], [1.5, 1], [2, 1], [2.5, 1], [3, 1], [3.5, 1], [4, 67], [8, 10], [16, 7], [32, 3], [64, 3]])
    expect(w.zones).to.deep.equal([{accessPct: 50, rangePct: 5}, {accessPct: 30, rangePct: 15}, {accessPct: 20, rangePct: 80}])
  })

  it('the schema reports broken programs with JSON pointers', () => {
    const data = readJson(`${specsDir}/pts-2.0.2/cbw.json`) as Record<string, any>
    data.phases[3].workload.bssplit[0].blockSizeBytes = 1000
    delete data.phases[3].steadyState
    data.phases[2].loops[0].dimension = 'bogus'
    data.phases[1].extra = 1
    data.phases[4].kind = 'nope'
    data.revision = '2.0'
    data.parameters[0].source = 'folklore'
    const pointers = check('test-program.schema.json', data).map(p => p.pointer)
    expect(pointers).to.include('/phases/3/workload/bssplit/0/blockSizeBytes')
    expect(pointers).to.include('/phases/3/steadyState')
    expect(pointers).to.include('/phases/2/loops/0/dimension')
    expect(pointers).to.include('/phases/1/extra')
    expect(pointers).to.include('/phases/4/kind')
    expect(pointers).to.include('/revision')
    expect(pointers).to.include('/parameters/0/source')
    const lat = readJson(`${specsDir}/pts-2.0.2/lat.json`) as Record<string, any>
    lat.phases[2].loops[0].values = [100, 150]
    lat.phases[2].steadyState.tracking[0].select = {}
    lat.phases[2].id = 'Loop 1'
    const latPointers = check('test-program.schema.json', lat).map(p => p.pointer)
    expect(latPointers).to.include('/phases/2/loops/0/values/1')
    expect(latPointers).to.include('/phases/2/steadyState/tracking/0/select')
    expect(latPointers).to.include('/phases/2/id')
    const wsat = readJson(`${specsDir}/pts-2.0.2/wsat.json`) as Record<string, any>
    delete wsat.defaultWorkload
    expect(check('test-program.schema.json', wsat).map(p => p.pointer)).to.include('/defaultWorkload')
  })
})

describe('test programs against the digest tables', () => {
  describe('TP (digest B 5.2)', () => {
    // 1024 KiB first, then 128 KiB: the order of the one public implementation (the parameter text says so)
    for (const [rev, sizes] of [['2.0.2', [1024, 128]], ['pts-e-1.1', [1024, 128]], ['pts-c-1.2', [1024]]] as Array<[Revision, number[]]>) {
      for (const profile of Object.keys(load(rev, 'tp').profiles) as ProfileId[]) {
        it(`${rev} ${profile}: purge, WIPC at the block size under test, 2 points R then W per round, for ${sizes.join(' then ')} KiB`, () => {
          const p = plan(rev, 'tp', {}, profile)
          expect(p.phases.map(x => x.id)).to.deep.equal(sizes.flatMap(k => [`purge-${k}k`, `wipc-${k}k`, `loop-${k}k`]))
          for (const k of sizes) {
            const w = phase(p, `wipc-${k}k`, 'wipc')
            expect(w).to.include({blockSizeBytes: k * KiB, capacityMultiple: 2})
            const l = phase(p, `loop-${k}k`, 'loop')
            expect(l.points.map(x => [x.access, x.readPct, x.blockSizeBytes])).to.deep.equal([['sequential', 100, k * KiB], ['sequential', 0, k * KiB]])
            expect(l.points.map(x => x.id)).to.deep.equal(['rw100', 'rw0'])
            expect(l.steadyState.tracking).to.have.length(1)
            expect(l.steadyState.tracking[0]).to.include({id: `seq-${k}k-w-mbps`, metric: 'writeBwBytesPerSec'})
            expect(selectedIndexes(l.steadyState.tracking[0], l.points)).to.deep.equal([1])
            expect(timelineOf(p, l.id)).to.include({minSec: 5 * 120, maxSec: 25 * 120})
          }
        })
      }
    }
    it('the TP WIPC block size is recorded as open (digest B 8 item 9)', () => {
      for (const rev of ['2.0.2', 'pts-e-1.1', 'pts-c-1.2'] as Revision[]) {
        expect(load(rev, 'tp').parameters.find(x => x.name === 'WIPC block size')?.source).to.equal('open')
      }
      for (const rev of ['2.0.2', 'pts-e-1.1'] as Revision[]) {
        const order = load(rev, 'tp').parameters.find(x => x.name === 'Block-size order')!
        expect(order).to.include({value: '1024KiB first, then 128KiB', source: 'pts'})
        expect(order.note).to.match(/one public implementation of the TP test, which runs 1024 KiB first/)
      }
    })
  })

  describe('LAT (digest B 5.3)', () => {
    for (const rev of REVISIONS) {
      it(`${rev}: 9 points, R/W 100, 65, 0 outer x 8, 4, 0.5 KiB inner, TC 1/QD 1, tracking ART of RND 4KiB 0/100`, () => {
        const p = plan(rev, 'lat')
        // PTS 2.0 adds the optional 20-minute RND 4 KiB 0/100 QD1 response-time histogram run (digest B 5.3)
        expect(p.phases.map(x => x.kind)).to.deep.equal(rev === '2.0.2' ? ['purge', 'wipc', 'loop', 'histogram'] : ['purge', 'wipc', 'loop'])
        if (rev === '2.0.2') {
          const hist = phase(p, 'histogram', 'histogram')
          expect(hist).to.include({seconds: 1200, optional: true})
          expect([hist.workload.access, hist.workload.readPct, hist.workload.blockSizeBytes, hist.workload.threadCount, hist.workload.queueDepth]).to.deep.equal(['random', 0, 4096, 1, 1])
        }
        expect(phase(p, 'wipc', 'wipc')).to.include({blockSizeBytes: 128 * KiB, capacityMultiple: 2})
        const l = phase(p, 'loop', 'loop')
        expect(l.points.map(x => x.id)).to.deep.equal([
          'rw100-bs8k', 'rw100-bs4k', 'rw100-bs512b', 'rw65-bs8k', 'rw65-bs4k', 'rw65-bs512b', 'rw0-bs8k', 'rw0-bs4k', 'rw0-bs512b'])
        for (const x of l.points) expect([x.access, x.threadCount, x.queueDepth], x.id).to.deep.equal(['random', 1, 1])
        expect(l.steadyState.tracking.map(t => t.metric)).to.deep.equal(['latMeanNs'])
        expect(selectedIndexes(l.steadyState.tracking[0], l.points)).to.deep.equal([7])
        expect(l.preRound).to.equal(null)
        expect(load(rev, 'lat').parameters.some(x => /histogram/i.test(x.name) && x.value === 'not implemented')).to.equal(rev !== '2.0.2')
      })
    }
  })

  describe('WSAT (digest B 5.4)', () => {
    it('2.0.2: required RND 4KiB W by default, optional OLTP / VOD / meta-data / CBW workloads', () => {
      const s = load('2.0.2', 'wsat')
      expect(s.defaultWorkload).to.equal('rnd4k-w')
      expect(Object.keys(s.workloads!)).to.deep.equal(['rnd4k-w', 'oltp', 'vod', 'meta', 'cbw'])
      const w = (key: string) => phase(plan('2.0.2', 'wsat', {workload: key}), 'wsat', 'series').workload
      expect(phase(plan('2.0.2', 'wsat'), 'wsat', 'series').workload).to.include({access: 'random', readPct: 0, blockSizeBytes: 4096, label: 'RND 4KiB W'})
      expect(w('oltp')).to.include({access: 'random', readPct: 65, blockSizeBytes: 8192})
      expect(w('vod')).to.include({access: 'sequential', readPct: 90, blockSizeBytes: 128 * KiB})
      expect(w('meta')).to.include({access: 'sequential', readPct: 50, blockSizeBytes: 512})
      expect(w('cbw')).to.include({access: 'random', readPct: 40, blockSizeBytes: null})
      expect(w('cbw').bssplit).to.have.length(12)
      expect(plan('2.0.2', 'wsat', {workload: 'cbw'}).selectedWorkload).to.deep.equal({key: 'cbw', label: s.workloads!.cbw.label})
    })
    for (const rev of ['pts-e-1.1', 'pts-c-1.2'] as Revision[]) {
      it(`${rev}: only the required RND 4KiB W workload`, () => {
        expect(Object.keys(load(rev, 'wsat').workloads!)).to.deep.equal(['rnd4k-w'])
      })
    }
    for (const rev of REVISIONS) {
      it(`${rev}: purge, no WIPC, 1-min samples for 24 h or 4x the capacity; optional steady-state exit`, () => {
        const p = plan(rev, 'wsat')
        expect(p.phases.map(x => x.kind)).to.deep.equal(['purge', 'series'])
        const s = phase(p, 'wsat', 'series')
        expect(s).to.include({sampleSeconds: 60, maxSamples: 1440, durationSeconds: 86400, stopAtBytes: 4 * GiB, stopAtCapacityMultiple: 4, steadyStateExit: null})
        // the 4x-capacity stop is checked after each sample: the earliest stop is after one 1-min sample
        expect(timelineOf(p, 'wsat')).to.include({minSec: 60, maxSec: 86400})
        expect(timelineOf(p, 'wsat').minDependsOn).to.match(/ends once .* is written/)
        const sse = phase(plan(rev, 'wsat', {steadyStateExit: true}), 'wsat', 'series').steadyStateExit
        expect(sse).to.deep.equal({trackEvery: 30, windowRounds: 5, maxDataExcursionPct: 20, maxSlopeExcursionPct: 10})
        expect(load(rev, 'wsat').parameters.find(x => x.name === 'Stop at time')?.source).to.equal('open')
      })
    }
  })

  describe('HIR (digest B 5.5)', () => {
    for (const rev of ['2.0.2', 'pts-e-1.1'] as Revision[]) {
      it(`${rev}: preconditioning rounds of 30 x 1 min tracking the last, then wait states 1, 2, 3, 5, 10 each followed by a 1800 s baseline`, () => {
        const p = plan(rev, 'hir')
        expect(p.phases.map(x => x.id)).to.deep.equal(['purge', 'precondition',
          'ws1', 'baseline-ws1', 'ws2', 'baseline-ws2', 'ws3', 'baseline-ws3', 'ws5', 'baseline-ws5', 'ws10', 'baseline-ws10'])
        const l = phase(p, 'precondition', 'loop')
        expect(l.points).to.have.length(30)
        expect(l.points[0].id).to.equal('r01')
        expect(l.points[29].id).to.equal('r30')
        for (const x of l.points) expect([x.access, x.readPct, x.blockSizeBytes]).to.deep.equal(['random', 0, 4096])
        expect(l.steadyState.tracking.map(t => t.metric)).to.deep.equal(['iops'])
        expect(selectedIndexes(l.steadyState.tracking[0], l.points)).to.deep.equal([29])
        expect(timelineOf(p, 'precondition')).to.include({minSec: 5 * 1800, maxSec: 25 * 1800})
        const idle: Record<number, number> = {1: 5, 2: 10, 3: 15, 5: 25, 10: 50}
        for (const n of [1, 2, 3, 5, 10]) {
          const b = phase(p, `ws${n}`, 'bursts')
          expect(b).to.include({burstSeconds: 5, idleSeconds: idle[n], repeats: 360, waitState: n})
          expect(b.workload).to.include({access: 'random', readPct: 0, blockSizeBytes: 4096})
          expect(timelineOf(p, `ws${n}`).maxSec).to.equal(360 * (5 + idle[n]))
          const s = phase(p, `baseline-ws${n}`, 'series')
          expect(s).to.include({sampleSeconds: 60, maxSamples: 30, durationSeconds: 1800, stopAtBytes: null, steadyStateExit: null})
          expect(s.workload).to.include({access: 'random', readPct: 0, blockSizeBytes: 4096})
        }
        const sum = (pre: string) => p.timeline.filter(t => t.phase.startsWith(pre)).reduce((a, t) => a + t.maxSec, 0)
        expect(sum('ws')).to.equal(13 * 3600)
        expect(sum('baseline-')).to.equal(2.5 * 3600)
      })
    }
  })

  describe('XSR (digest B 5.6)', () => {
    for (const rev of ['2.0.2', 'pts-e-1.1'] as Revision[]) {
      it(`${rev}: purge, no WIPC, SEQ 1024KiB W 8 h, RND 8KiB W 6 h, SEQ 1024KiB W 8 h in 1-min samples`, () => {
        const p = plan(rev, 'xsr')
        expect(p.phases.map(x => x.id)).to.deep.equal(['purge', 'group-1', 'group-2', 'group-3'])
        const g = ['group-1', 'group-2', 'group-3'].map(id => phase(p, id, 'series'))
        expect(g.map(s => s.maxSamples)).to.deep.equal([480, 360, 480])
        expect(g.map(s => [s.workload.access, s.workload.readPct, s.workload.blockSizeBytes])).to.deep.equal([
          ['sequential', 0, 1024 * KiB], ['random', 0, 8192], ['sequential', 0, 1024 * KiB]])
        for (const s of g) expect(s).to.include({sampleSeconds: 60, stopAtBytes: null, steadyStateExit: null})
        expect(p.durations).to.deep.equal({minSec: 22 * 3600, maxSec: 22 * 3600})
        expect(load(rev, 'xsr').parameters.find(x => x.name === 'WIPC')?.source).to.equal('open')
      })
    }
  })

  describe('CBW / ECW / DIRTH demand variation (digest B 5.7, 5.8, 8 item 12)', () => {
    const cases: Array<[Revision, string, number, number | null]> = [
      ['2.0.2', 'cbw', 40, null], ['pts-e-1.1', 'ecw', 40, null], ['2.0.2', 'dirth', 65, 8192], ['pts-e-1.1', 'dirth', 65, 8192],
    ]
    for (const [rev, test, readPct, bs] of cases) {
      it(`${rev} ${test}: purge, WIPC, TC 32/QD 32 preconditioning, 49 points TC 32..1 outer x QD 32..1 inner, Max/Mid/Min histograms`, () => {
        const p = plan(rev, test)
        expect(p.phases.map(x => x.kind)).to.deep.equal(['purge', 'wipc', 'loop', 'loop', 'operating-points'])
        expect(phase(p, 'wipc', 'wipc')).to.include({blockSizeBytes: 128 * KiB, capacityMultiple: 2})
        // rounds of 30 one-minute points tracking the last minute, as HIR's preconditioning (pts's choice, with the reason)
        const pc = phase(p, 'precondition', 'loop')
        expect(pc.points).to.have.length(30)
        for (const x of pc.points) expect(x).to.include({access: 'random', readPct: 0, blockSizeBytes: bs, threadCount: 32, queueDepth: 32})
        expect(selectedIndexes(pc.steadyState.tracking[0], pc.points)).to.deep.equal([29])
        expect(pc.pointSeconds).to.equal(60)
        expect(timelineOf(p, 'precondition')).to.include({minSec: 5 * 30 * 60, maxSec: 25 * 30 * 60})
        const round = load(rev, test).parameters.find(x => x.name === 'Preconditioning round')!
        expect(round).to.include({value: '30 consecutive 1-minute intervals; tracking = IOPS of the last (30th) interval', source: 'pts'})
        expect(round.note).to.match(/one public implementation of these tests runs rounds of 30 x 1 min/)
        const dv = phase(p, 'dv', 'loop')
        expect(dv.points).to.have.length(49)
        expect(dv.dimensions).to.deep.equal(['threadCount', 'queueDepth'])
        dv.points.forEach((x, i) => {
          // TC = fio numjobs (outer), QD = fio iodepth (inner); never swapped (digest Part A 6, B 8 item 12)
          expect([x.threadCount, x.queueDepth], x.id).to.deep.equal([TCQD[Math.floor(i / 7)], TCQD[i % 7]])
          expect(x.id).to.equal(`tc${x.threadCount}-qd${x.queueDepth}`)
          expect(x).to.include({access: 'random', readPct, blockSizeBytes: bs})
          if (bs === null) { expect(x.bssplit).to.have.length(12); expect(x.zones).to.have.length(3) }
        })
        expect(dv.points[1]).to.include({threadCount: 32, queueDepth: 16})
        expect(dv.points[7]).to.include({threadCount: 16, queueDepth: 32})
        expect(dv.steadyState.tracking.map(t => t.metric)).to.deep.equal(['iops'])
        expect(selectedIndexes(dv.steadyState.tracking[0], dv.points)).to.deep.equal([0])
        expect(dv.preRound!.seconds).to.equal(300)
        expect(dv.preRound!.workload).to.include({readPct: 0, threadCount: 32, queueDepth: 32, blockSizeBytes: bs})
        expect(timelineOf(p, 'dv')).to.include({minSec: 5 * 54 * 60, maxSec: 25 * 54 * 60})
        const op = phase(p, 'histograms', 'operating-points')
        expect(op).to.include({fromPhase: 'dv', ceilingMs: 5, measureSeconds: 600})
        expect(op.prewrite.seconds).to.equal(3600)
        expect(op.prewrite.workload).to.include({readPct: 0, threadCount: 32, queueDepth: 32, blockSizeBytes: bs})
        expect(timelineOf(p, 'histograms').maxSec).to.equal(3.5 * 3600)
        expect(phase(plan(rev, test, {ceilingMs: 2}), 'histograms', 'operating-points').ceilingMs).to.equal(2)
      })
    }
    it('DIRTH: the operator picks the access pattern; every phase follows it', () => {
      const s = load('2.0.2', 'dirth')
      expect(s.defaultWorkload).to.equal('oltp')
      expect(s.workloads!.oltp.workload).to.deep.equal({access: 'random', readPct: 65, blockSizeBytes: 8192})
      for (const k of Object.keys(s.workloads!).filter(k => k !== 'oltp')) expect(s.workloads![k].label).to.match(/operator choice/)
      const p = plan('2.0.2', 'dirth', {workload: 'rnd4k-7030'})
      expect(phase(p, 'dv', 'loop').points[48]).to.include({readPct: 70, blockSizeBytes: 4096, threadCount: 1, queueDepth: 1})
      expect(phase(p, 'precondition', 'loop').points[0]).to.include({readPct: 0, blockSizeBytes: 4096})
      expect(phase(p, 'histograms', 'operating-points').prewrite.workload).to.include({readPct: 0, blockSizeBytes: 4096})
      expect(() => plan('2.0.2', 'dirth', {workload: 'nope'})).to.throw(/not defined/)
    })
  })

  describe('time scale (digest Part A 10)', () => {
    const f = 0.01
    for (const rev of REVISIONS) {
      for (const test of ['iops', ...EXPECTED[rev]]) {
        it(`${rev} ${test}: time scale ${f} scales fixed durations and WIPC and marks the run non-compliant naming the scale`, () => {
          const full = plan(rev, test)
          const p = plan(rev, test, {timeScale: f})
          expect(p.compliance.compliant).to.equal(false)
          expect(p.compliance.reasons.some(r => r.includes(String(f))), p.compliance.reasons.join('; ')).to.equal(true)
          const close = (a: number, b: number) => expect(a).to.be.closeTo(b, 1e-9)
          const scaledSec = (s: number) => Math.max(MIN_SCALED_SECONDS, s * f)
          full.phases.forEach((ph, i) => {
            const q = p.phases[i]
            expect(q.kind).to.equal(ph.kind)
            if (ph.kind === 'wipc' && q.kind === 'wipc') {
              close(q.capacityMultiple, ph.capacityMultiple * f)
              expect(q.totalBytes).to.be.lessThan(ph.totalBytes * f * 1.01 + q.blockSizeBytes * q.threadCount)
            }
            if (ph.kind === 'series' && q.kind === 'series') {
              close(q.sampleSeconds, scaledSec(ph.sampleSeconds))
              expect(q.maxSamples).to.equal(ph.maxSamples)
              if (ph.stopAtBytes !== null) expect(q.stopAtBytes).to.equal(Math.round(ph.stopAtBytes * f))
            }
            if (ph.kind === 'bursts' && q.kind === 'bursts') {
              expect(q.burstSeconds).to.be.at.most(scaledSec(ph.burstSeconds)).and.below(ph.burstSeconds)
              expect(q.idleSeconds).to.be.at.most(scaledSec(ph.idleSeconds)).and.below(ph.idleSeconds)
              expect(q.repeats).to.equal(scaledBurstRepeats(ph.repeats, f))
            }
            if (ph.kind === 'loop' && q.kind === 'loop') {
              expect(q.pointSeconds).to.equal(60)
              if (ph.preRound) close(q.preRound!.seconds, scaledSec(ph.preRound.seconds))
            }
            if (ph.kind === 'operating-points' && q.kind === 'operating-points') {
              close(q.prewrite.seconds, scaledSec(ph.prewrite.seconds))
              close(q.measureSeconds, scaledSec(ph.measureSeconds))
            }
          })
        })
      }
    }
  })

  describe('test-time budget, 2.0.2 enterprise at time scale 1 (digest B 5.10)', () => {
    const h = 3600
    const budget: Array<[string, number, number]> = [
      ['iops', 5 * 56 * 60, 25 * 56 * 60], // 5 to 25 rounds of 56 one-minute points
      ['tp', 2 * 5 * 2 * 60, 2 * 25 * 2 * 60], // 5 x 2 min to 25 x 2 min per block size, two block sizes
      ['lat', 45 * 60 + 20 * 60, 3.75 * h + 20 * 60], // + the optional 20-min histogram run
      ['wsat', 60, 24 * h], // 4x capacity may end it after any sample, the first at the earliest
      ['hir', 5 * 0.5 * h + 15.5 * h, 25 * 0.5 * h + 15.5 * h], // PC rounds of 30 min + 13 h bursts + 2.5 h baselines
      ['xsr', 22 * h, 22 * h],
      ['cbw', 5 * 0.5 * h + 5 * 54 * 60 + 3.5 * h, 25 * 0.5 * h + 25 * 54 * 60 + 3.5 * h], // PC rounds of 30 min + DV rounds of 54 min + histograms
      ['dirth', 5 * 0.5 * h + 5 * 54 * 60 + 3.5 * h, 25 * 0.5 * h + 25 * 54 * 60 + 3.5 * h],
    ]
    for (const [test, minSec, maxSec] of budget) {
      it(`${test}: ${formatDuration(minSec)} .. ${formatDuration(maxSec)} of IO (purge and WIPC excluded)`, () => {
        expect(plan('2.0.2', test).durations).to.deep.equal({minSec, maxSec})
      })
    }
    it('client profile keeps the same budget', () => {
      for (const [test, minSec, maxSec] of budget) expect(plan('2.0.2', test, {}, 'client').durations, test).to.deep.equal({minSec, maxSec})
    })
  })
})

describe('HIR bursts at a time scale', () => {
  it('runs the definition\'s 360 bursts per wait state at full length, fewer (at least 3) when shortened', () => {
    const cases: Array<[number, number]> = [[1, 360], [0.5, 180], [0.1, 36], [0.01, 4], [0.001, 3], [0.0005, 3]]
    for (const [f, want] of cases) expect(scaledBurstRepeats(360, f), `scale ${f}`).to.equal(want)
    expect(scaledBurstRepeats(2, 0.001)).to.equal(2)
  })
})
