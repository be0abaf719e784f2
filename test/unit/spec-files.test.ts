import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {check} from '../../src/validate.js'
import {loadSpec, SPECS_DIR} from '../../src/spec/load.js'
import {expandPoints} from '../../src/spec/expand.js'
import {REVISIONS} from '../../src/spec/types.js'

const specsDir = fileURLToPath(SPECS_DIR)

describe('IOPS spec files (specs/pts-*/iops.json against schemas/test-spec.schema.json; the other tests: program-specs.test.ts)', () => {
  for (const dir of readdirSync(specsDir).filter(d => d.startsWith('pts-'))) {
    for (const file of readdirSync(`${specsDir}/${dir}`).filter(f => f === 'iops.json')) {
      it(`${dir}/${file} validates and expands without changing`, () => {
        const data = JSON.parse(readFileSync(`${specsDir}/${dir}/${file}`, 'utf8'))
        expect(check('test-spec.schema.json', data)).to.deep.equal([])
        const before = JSON.stringify(data)
        expect(expandPoints(data)).to.have.length(data.stimulus.loops.rwMixReadPct.length * data.stimulus.loops.blockSizesBytes.length)
        expect(JSON.stringify(data)).to.equal(before)
      })
    }
  }

  it('every revision has an IOPS definition with the spec matrix (digest B §5.1)', () => {
    for (const rev of REVISIONS) {
      const s = loadSpec('iops', rev)
      expect(s.stimulus.loops.rwMixReadPct).to.deep.equal([100, 95, 65, 50, 35, 5, 0])
      expect(s.stimulus.loops.blockSizesBytes).to.deep.equal([1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512])
      expect(s.steadyState).to.include({windowRounds: 5, maxDataExcursionPct: 20, maxSlopeExcursionPct: 10, maxRounds: 25})
    }
  })

  it('2.0.2 tracks three variables, 1.x one (digest B §3.4)', () => {
    expect(loadSpec('iops', '2.0.2').steadyState.tracking.map(t => t.id)).to.deep.equal(['rnd-4k-w', 'rnd-64k-rw65', 'rnd-1024k-r'])
    expect(loadSpec('iops', 'pts-e-1.1').steadyState.tracking.map(t => t.id)).to.deep.equal(['rnd-4k-w'])
    expect(loadSpec('iops', 'pts-c-1.2').steadyState.tracking.map(t => t.id)).to.deep.equal(['rnd-4k-w'])
  })

  it('a spec that breaks the schema is reported with JSON pointers', () => {
    const data = JSON.parse(readFileSync(`${specsDir}/pts-2.0.2/iops.json`, 'utf8'))
    data.stimulus.loops.blockSizesBytes[2] = 1000
    delete data.steadyState.windowRounds
    data.extra = 1
    const problems = check('test-spec.schema.json', data)
    const pointers = problems.map(p => p.pointer)
    expect(pointers).to.include('/stimulus/loops/blockSizesBytes/2')
    expect(pointers).to.include('/steadyState/windowRounds')
    expect(pointers).to.include('/extra')
  })
})
