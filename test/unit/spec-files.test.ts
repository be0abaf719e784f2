import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {check} from '../../src/validate.js'
import {loadProgramSpec, loadRevision, revisionDir, SPECS_DIR} from '../../src/store/spec-files.js'
import {expandProgram, type ProgramOptions} from '../../src/plan/expand.js'
import type {LoopPhase, ProgramSpec} from '../../src/model/definition.js'
import {REVISIONS, revisionLabel, type ProfileId} from '../../src/model/tests.js'
import type {TargetInfo} from '../../src/plan/target.js'

const specsDir = fileURLToPath(SPECS_DIR)
const target: TargetInfo = {kind: 'file', path: '/tmp/x', sizeBytes: 1024 ** 3, logicalSectorBytes: 512, purge: {method: 'none', deviation: 'no purge'}}
const readJson = (path: string): Record<string, any> => JSON.parse(readFileSync(path, 'utf8'))

function opts(spec: ProgramSpec, profile: ProfileId): ProgramOptions {
  const p = spec.profiles[profile]!
  return {
    revision: spec.revision, profile, threadCount: p.threadCount, queueDepth: p.queueDepth, pointSeconds: 60, maxRounds: 25, onNoSteadyState: 'stop', roundCap: 25,
    wipcMultiple: null, timeScale: 1, ioengine: 'libaio', seed: 1, workload: null, ceilingMs: null, maxSeconds: null, maxWrittenBytes: null, steadyStateExit: false,
  }
}
const loopOf = (s: {phases: ProgramSpec['phases']}): LoopPhase => s.phases.find((p): p is LoopPhase => p.kind === 'loop')!
const loopValues = (s: {phases: ProgramSpec['phases']}, dim: string) => loopOf(s).loops.find(l => l.dimension === dim)!.values

describe('IOPS spec files (specs/pts-*/iops.json against schemas/test-program.schema.json; the other tests: program-specs.test.ts)', () => {
  for (const dir of readdirSync(specsDir).filter(d => d.startsWith('pts-'))) {
    for (const file of readdirSync(`${specsDir}/${dir}`).filter(f => f === 'iops.json')) {
      it(`${dir}/${file} validates and expands on every profile without changing`, () => {
        const data = readJson(`${specsDir}/${dir}/${file}`)
        expect(check('test-program.schema.json', data)).to.deep.equal([])
        expect(data.$schema).to.equal('../../schemas/test-program.schema.json')
        expect(data).to.not.have.any.keys('profiles', 'defaultProfile')
        const spec = loadProgramSpec('iops', data.revision)
        const before = JSON.stringify(data)
        const loaded = JSON.stringify(spec)
        for (const profile of Object.keys(spec.profiles) as ProfileId[]) {
          const plan = expandProgram(spec, opts(spec, profile), target)
          const loop = plan.phases.find(p => p.kind === 'loop')!
          expect(loop.kind === 'loop' && loop.points).to.have.length(loopValues(data as ProgramSpec, 'readPct').length * loopValues(data as ProgramSpec, 'blockSizeBytes').length)
        }
        expect(JSON.stringify(data)).to.equal(before)
        expect(JSON.stringify(spec), 'expansion does not change the loaded definition').to.equal(loaded)
      })
    }
  }

  it('every revision has an IOPS definition with the spec matrix (digest B §5.1): purge, WIPC SEQ 128KiB 2x, then the loop', () => {
    for (const rev of REVISIONS) {
      const s = loadProgramSpec('iops', rev)
      expect(s.phases.map(p => p.kind), rev).to.deep.equal(['purge', 'wipc', 'loop'])
      expect(s.phases[1]).to.include({blockSizeBytes: 131072, capacityMultiple: 2})
      const l = loopOf(s)
      expect(l.loops.map(x => x.dimension)).to.deep.equal(['readPct', 'blockSizeBytes'])
      expect(l.workload).to.include({access: 'random'})
      expect(l.pointSeconds).to.equal(null)
      expect(l.preRound).to.equal(null)
      expect(loopValues(s, 'readPct')).to.deep.equal([100, 95, 65, 50, 35, 5, 0])
      expect(loopValues(s, 'blockSizeBytes')).to.deep.equal([1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512])
      expect(l.steadyState).to.include({windowRounds: 5, maxDataExcursionPct: 20, maxSlopeExcursionPct: 10, maxRounds: 25})
    }
  })

  it('2.0.2 tracks three variables, 1.x one (digest B §3.4)', () => {
    expect(loopOf(loadProgramSpec('iops', '2.0.2')).steadyState.tracking.map(t => t.id)).to.deep.equal(['rnd-4k-w', 'rnd-64k-rw65', 'rnd-1024k-r'])
    expect(loopOf(loadProgramSpec('iops', 'pts-e-1.1')).steadyState.tracking.map(t => t.id)).to.deep.equal(['rnd-4k-w'])
    expect(loopOf(loadProgramSpec('iops', 'pts-c-1.2')).steadyState.tracking.map(t => t.id)).to.deep.equal(['rnd-4k-w'])
  })

  it('a spec that breaks the schema is reported with JSON pointers', () => {
    const data = readJson(`${specsDir}/pts-2.0.2/iops.json`)
    data.phases[2].loops[1].values[2] = 1000
    delete data.phases[2].steadyState.windowRounds
    data.extra = 1
    const problems = check('test-program.schema.json', data)
    const pointers = problems.map(p => p.pointer)
    expect(pointers).to.include('/phases/2/loops/1/values/2')
    expect(pointers).to.include('/phases/2/steadyState/windowRounds')
    expect(pointers).to.include('/extra')
  })
})

describe('revision files (specs/pts-*/revision.json against schemas/revision.schema.json; digest B §2.6)', () => {
  const profiles: Record<(typeof REVISIONS)[number], ProfileId[]> = {'2.0.2': ['enterprise', 'client'], 'pts-e-1.1': ['enterprise'], 'pts-c-1.2': ['client']}
  for (const rev of REVISIONS) {
    it(`${revisionDir(rev)}/revision.json validates; every test of ${rev} takes its profiles from it`, () => {
      const data = readJson(`${specsDir}/${revisionDir(rev)}/revision.json`)
      expect(check('revision.schema.json', data)).to.deep.equal([])
      expect(data).to.include({$schema: '../../schemas/revision.schema.json', revision: rev, label: revisionLabel(rev)})
      const r = loadRevision(rev)
      expect(Object.keys(r.profiles)).to.deep.equal(profiles[rev])
      expect(r.profiles[r.defaultProfile]).to.not.equal(undefined)
      const tests = readdirSync(`${specsDir}/${revisionDir(rev)}`).filter(f => f.endsWith('.json') && f !== 'revision.json').map(f => f.replace(/\.json$/, ''))
      expect(tests).to.include('iops')
      for (const test of tests) {
        const s = loadProgramSpec(test, rev)
        expect(s.profiles, `${rev} ${test}`).to.deep.equal(r.profiles)
        expect(s.defaultProfile, `${rev} ${test}`).to.equal(r.defaultProfile)
      }
    })
  }

  it('the profile parameters (digest B §2.6): enterprise WCD, AR 100%, TC 4/QD 32; client WCE, AR 75%, TC 2/QD 16', () => {
    const ent = {writeCache: 'disabled', activeRangePct: 100, preconditionActiveRangePct: 100, threadCount: 4, queueDepth: 32}
    expect(loadRevision('2.0.2').profiles.enterprise).to.deep.equal(ent)
    expect(loadRevision('2.0.2').profiles.client).to.include({writeCache: 'enabled', activeRangePct: 75, threadCount: 2, queueDepth: 16})
    expect(loadRevision('pts-e-1.1').profiles.enterprise).to.deep.equal(ent)
    expect(loadRevision('pts-c-1.2').defaultProfile).to.equal('client')
  })

  it('a broken revision file is reported with JSON pointers', () => {
    const data = readJson(`${specsDir}/pts-2.0.2/revision.json`)
    data.profiles.enterprise.activeRangePct = 'all'
    delete data.defaultProfile
    data.extra = 1
    const pointers = check('revision.schema.json', data).map(p => p.pointer)
    expect(pointers).to.include('/profiles/enterprise/activeRangePct')
    expect(pointers).to.include('/defaultProfile')
    expect(pointers).to.include('/extra')
  })
})
