import {expect} from 'chai'
import {defaultRunDir, parseSizeFlag, type RunFlagValues} from '../../src/app/flags.js'
import {DEFAULT_ROUND_CAP, runOptions} from '../../src/app/prepare.js'
import {loadProgramSpec} from '../../src/store/spec-files.js'
import {parseSizeBytes} from '../../src/units.js'

const base: RunFlagValues = {device: 'file:/tmp/x', revision: '2.0.2', 'point-seconds': '60', 'max-rounds': '25', 'on-no-steady-state': 'stop', 'wipc-multiple': '2', ioengine: 'libaio'}

describe('flags -> run options', () => {
  const spec = loadProgramSpec('iops', '2.0.2')
  it('defaults come from the profile in the spec data', () => {
    expect(runOptions(base, spec, 9)).to.include({profile: 'enterprise', threadCount: 4, queueDepth: 32, seed: 9, pointSeconds: 60})
    expect(runOptions({...base, profile: 'client'}, spec, 9)).to.include({threadCount: 2, queueDepth: 16})
    expect(runOptions(base, loadProgramSpec('iops', 'pts-c-1.2'), 9)).to.include({profile: 'client'})
  })
  it('WIPC multiple and the round limit behaviour: the flag when given, else the test definition\'s (null)', () => {
    expect(runOptions(base, spec, 9)).to.include({wipcMultiple: 2, onNoSteadyState: 'stop', maxRounds: 25, roundCap: 25, timeScale: 1})
    const {'wipc-multiple': _, ...noWipc} = base
    expect(runOptions(noWipc, spec, 9).wipcMultiple).to.equal(null)
    expect(runOptions({...base, 'wipc-multiple': '0.5'}, spec, 9).wipcMultiple).to.equal(0.5)
    expect(runOptions({...base, 'on-no-steady-state': 'continue'}, spec, 9)).to.include({onNoSteadyState: 'continue', roundCap: DEFAULT_ROUND_CAP})
    expect(runOptions({...base, 'on-no-steady-state': 'continue', 'round-cap': '40'}, spec, 9).roundCap).to.equal(40)
  })
  it('sub-second points are allowed', () => {
    expect(runOptions({...base, 'point-seconds': '0.5'}, spec, 1).pointSeconds).to.equal(0.5)
  })
  const bad: Array<[Partial<RunFlagValues>, RegExp]> = [
    [{'point-seconds': '0'}, /--point-seconds 0: must be greater than 0/],
    [{'point-seconds': '-5'}, /must be greater than 0/],
    [{'point-seconds': 'abc'}, /expected a number/],
    [{qd: '0'}, /--qd 0: must be at least 1/],
    [{tc: '1.5'}, /--tc 1.5: expected an integer/],
    [{'max-rounds': '0'}, /--max-rounds 0/],
    [{'wipc-multiple': '0'}, /--wipc-multiple 0/],
    [{profile: 'client', revision: 'pts-e-1.1'}, /defines only enterprise/],
    [{ioengine: 'libaio; rm -rf /'}, /not an fio ioengine/],
    [{'round-cap': '40'}, /--round-cap applies with --on-no-steady-state continue/],
    [{'on-no-steady-state': 'continue', 'round-cap': '10'}, /--round-cap 10: must be at least the round limit/],
  ]
  for (const [flags, msg] of bad) {
    it(`rejects ${JSON.stringify(flags)}`, () => {
      const s = flags.revision ? loadProgramSpec('iops', flags.revision) : spec
      expect(() => runOptions({...base, ...flags}, s, 1)).to.throw(msg)
    })
  }
  it('sizes: binary units, multiples of 512 B only', () => {
    expect(parseSizeFlag('8GiB')).to.equal(8 * 1024 ** 3)
    expect(parseSizeFlag('512MiB')).to.equal(512 * 1024 ** 2)
    expect(parseSizeBytes('1.5GiB')).to.equal(1.5 * 1024 ** 3)
    expect(() => parseSizeFlag('1000')).to.throw(/not a multiple of 512/)
    expect(() => parseSizeFlag('8 parsecs')).to.throw(/expected a size/)
    expect(() => parseSizeFlag('0')).to.throw(/expected a size/)
  })
  it('default run directory names the time, test and device', () => {
    const d = new Date('2026-12-01T10:20:30.456Z')
    expect(defaultRunDir(d, 'iops', '/dev/nvme1n1')).to.equal('reports/2026-12-01T102030Z-iops-nvme1n1')
    expect(defaultRunDir(d, 'iops', 'file:/scratch/pts.img')).to.equal('reports/2026-12-01T102030Z-iops-file-pts.img')
  })
})
