/**
 * pts plan preflight, the pure half (src/app/preflight.ts): what each phase writes (WIPC volume
 * from the plan expansion, the rest as write time x rate), the totals in drive writes, the
 * stored size, the suite sums, and the pass/fail lines from probed facts. Table-driven on real
 * plans of the shipped test definitions.
 */
import {expect} from 'chai'
import {interfaceLimit} from '../../src/claims/interface.js'
import {
  HISTOGRAM_BYTES, phaseWrites, preflight, preflightText, PREFLIGHT_FAILED_EXIT, REPORT_BYTES, STEP_BYTES, storedBytes, sumWrites, wipcBytes, writeEstimate,
  writeRate, type PreflightFacts,
} from '../../src/app/preflight.js'
import {expandProgram, type ProgramOptions, type ProgramPlan} from '../../src/plan/expand.js'
import type {TargetInfo} from '../../src/plan/target.js'
import {loadProgramSpec} from '../../src/store/spec-files.js'

const opts = (o: Partial<ProgramOptions> = {}): ProgramOptions => ({
  revision: '2.0.2', profile: 'enterprise', threadCount: 4, queueDepth: 32, pointSeconds: 60, maxRounds: 25,
  onNoSteadyState: 'stop', roundCap: 25, wipcMultiple: null, timeScale: 1, ioengine: 'libaio', seed: 7,
  workload: null, ceilingMs: null, maxSeconds: null, maxWrittenBytes: null, steadyStateExit: false, ...o,
})
const SATA: TargetInfo = {kind: 'block', path: '/dev/sdb', sizeBytes: 256e9, logicalSectorBytes: 512, purge: {method: 'ata-secure-erase', deviation: null}}
const plan = (test: string, o: Partial<ProgramOptions> = {}, t: Partial<TargetInfo> = {}): ProgramPlan => expandProgram(loadProgramSpec(test, '2.0.2'), opts(o), {...SATA, ...t})
const sataRate = writeRate(null, interfaceLimit({kind: 'block', identity: {interface: 'sata'}}))

describe('pts plan preflight: estimates (pure)', () => {
  it('IOPS: WIPC bytes are the plan\'s; the loop writes 28 point-lengths per round (write shares of the 7 mixes x 8 block sizes)', () => {
    const p = plan('iops')
    const w = phaseWrites(p)
    const wipc = p.phases.find(x => x.kind === 'wipc')!
    if (wipc.kind !== 'wipc') throw new Error('wipc')
    expect(w.find(x => x.kind === 'wipc')!.fixedBytes).to.equal(wipc.totalBytes)
    expect(wipcBytes(p)).to.equal(wipc.totalBytes)
    // write shares 0, .05, .35, .5, .65, .95, 1 sum to 3.5; x 8 block sizes = 28 points of 60 s per round
    const loop = w.find(x => x.kind === 'loop')!
    expect(loop.writeSec.min).to.be.closeTo(5 * 28 * 60, 1e-6)
    expect(loop.writeSec.max).to.be.closeTo(25 * 28 * 60, 1e-6)
    expect(w.find(x => x.kind === 'purge')!.fixedBytes).to.equal(0)
  })

  it('totals: fixed bytes plus write time at the rate; drive writes = bytes / capacity', () => {
    const p = plan('iops')
    const e = writeEstimate(p, sataRate)
    expect(e.rateBytesPerSec).to.equal(600e6)
    expect(e.fixedBytes).to.equal(wipcBytes(p))
    expect(e.totalBytes!.min).to.be.closeTo(e.fixedBytes + 8400 * 600e6, 1)
    expect(e.totalBytes!.max).to.be.closeTo(e.fixedBytes + 42000 * 600e6, 1)
    expect(e.driveWrites.max).to.be.closeTo(e.totalBytes!.max / 256e9, 1e-9)
    const none = writeEstimate(p, {bytesPerSec: null, basis: 'unknown'})
    expect(none.totalBytes).to.equal(null)
    expect(none.driveWrites.min).to.be.closeTo(wipcBytes(p) / 256e9, 1e-12)
  })

  it('the rate: the operator\'s, else the interface\'s limit (a bound), else none', () => {
    const cases: Array<{assumed: number | null; iface: string; kind?: 'file' | 'block'; bytes: number | null; bound: boolean}> = [
      {assumed: 330, iface: 'sata', bytes: 330e6, bound: false},
      {assumed: null, iface: 'sata', bytes: 600e6, bound: true},
      {assumed: null, iface: 'sas', bytes: 1200e6, bound: true},
      {assumed: null, iface: 'file', kind: 'file', bytes: null, bound: false},
      {assumed: 100, iface: 'file', kind: 'file', bytes: 100e6, bound: false},
    ]
    for (const t of cases) {
      const r = writeRate(t.assumed, interfaceLimit({kind: t.kind ?? 'block', identity: {interface: t.iface}}))
      expect(r.bytesPerSec, JSON.stringify(t)).to.equal(t.bytes)
      expect(r.bound, JSON.stringify(t)).to.equal(t.bound)
    }
  })

  it('a series stopping at a volume is capped there (WSAT 4x the capacity); a zero-fill purge writes the capacity', () => {
    const p = plan('wsat')
    const s = phaseWrites(p).find(x => x.kind === 'series')!
    expect(s.capBytes).to.equal(4 * 256e9)
    const e = writeEstimate(p, sataRate)
    expect(e.totalBytes!.max).to.be.at.most(e.fixedBytes + 4 * 256e9)
    const zero = plan('iops', {}, {purge: {method: 'zero', deviation: 'zero fill'}})
    expect(phaseWrites(zero).find(x => x.kind === 'purge')!.fixedBytes).to.equal(256e9)
  })

  it('stored size: steps x STEP_BYTES plus histograms and the report allowance', () => {
    const iops = plan('iops')
    expect(storedBytes(iops)).to.equal((2 + 25 * 56) * STEP_BYTES + REPORT_BYTES)
    const lat = plan('lat')
    const loop = lat.phases.find(x => x.kind === 'loop')!
    if (loop.kind !== 'loop') throw new Error('loop')
    const hist = lat.phases.filter(x => x.kind === 'histogram').length
    expect(storedBytes(lat)).to.equal((2 + 25 * loop.points.length) * STEP_BYTES + hist * HISTOGRAM_BYTES + REPORT_BYTES)
  })

  it('suite sums: every test\'s estimate added up', () => {
    const parts = ['iops', 'tp', 'lat'].map(t => writeEstimate(plan(t), sataRate))
    const s = sumWrites(parts)
    expect(s.fixedBytes).to.equal(parts.reduce((a, w) => a + w.fixedBytes, 0))
    expect(s.totalBytes!.max).to.be.closeTo(parts.reduce((a, w) => a + w.totalBytes!.max, 0), 1)
    expect(s.driveWrites.max).to.be.closeTo(s.totalBytes!.max / 256e9, 1e-9)
  })
})

describe('pts plan preflight: the checks (pure)', () => {
  const facts = (o: Partial<PreflightFacts> = {}): PreflightFacts => ({
    fio: {path: '/usr/bin/fio', version: 'fio-3.33', problem: null},
    chromium: {path: '/usr/bin/chromium', fromEnv: false, executable: true},
    purgeTools: [{tool: 'hdparm', pkg: 'hdparm', found: true, why: 'the PTS purge of a SATA device'}],
    purgeNote: null,
    runDir: {path: '/r/run', probedPath: '/r', freeBytes: 100e9, device: '1', problem: null},
    targetFile: null,
    ...o,
  })
  const p = plan('iops')
  const run = (f: PreflightFacts) => preflight({facts: f, writes: writeEstimate(p, sataRate), rateIsBound: true, wipcBytes: wipcBytes(p), stored: storedBytes(p)})
  const status = (r: ReturnType<typeof run>, id: string) => r.checks.find(c => c.id === id)?.status

  it('all present: every check passes; WIPC time at least bytes / 600 MB/s', () => {
    const r = run(facts())
    expect(r.ok).to.equal(true)
    expect(r.checks.map(c => [c.id, c.status])).to.deep.equal([['fio', 'pass'], ['chromium', 'pass'], ['purge-tool', 'pass'], ['free-space', 'pass'], ['wipc-time', 'info'], ['bytes-written', 'info']])
    expect(r.wipc.seconds).to.be.closeTo(wipcBytes(p) / 600e6, 1e-9)
    expect(r.checks.find(c => c.id === 'wipc-time')!.detail).to.match(/at least \d+m \d+s/)
    expect(r.checks.find(c => c.id === 'bytes-written')!.detail).to.match(/^at most .* drive writes of 256\.0 GB/)
    expect(preflightText(r)).to.match(/^Preflight:\n {2}\[PASS\] fio: fio-3\.33 at \/usr\/bin\/fio/).and.include('All checks passed.')
  })

  it('bytes written of a run whose length is fixed (one round): one value, not "at most 44.1 GB to 44.1 GB"', () => {
    const w = writeEstimate(p, sataRate)
    const fixed = {...w, totalBytes: {min: w.totalBytes!.min, max: w.totalBytes!.min}, driveWrites: {min: w.driveWrites.min, max: w.driveWrites.min}, timedWriteSec: {min: w.timedWriteSec.min, max: w.timedWriteSec.min}}
    const d = preflight({facts: facts(), writes: fixed, rateIsBound: true, wipcBytes: wipcBytes(p), stored: storedBytes(p)}).checks.find(c => c.id === 'bytes-written')!.detail
    expect(d).to.match(/^at most [\d.]+ GB \([\d.]+ [GT]iB\) \([\d.]+ drive writes of 256\.0 GB\)/).and.not.include(' to ')
  })

  const failing: Array<{name: string; f: Partial<PreflightFacts>; id: string; detail: RegExp}> = [
    {name: 'fio missing', f: {fio: {path: '/nonexistent', version: null, problem: 'PTS_FIO=/nonexistent: no such file'}}, id: 'fio', detail: /PTS_FIO=\/nonexistent: no such file: install it/},
    {name: 'Chromium missing', f: {chromium: {path: '/nonexistent', fromEnv: true, executable: false}}, id: 'chromium', detail: /\/nonexistent \(CHROMIUM_PATH\) is not an executable/},
    {name: 'purge tool missing', f: {purgeTools: [{tool: 'nvme', pkg: 'nvme-cli', found: false, why: 'the PTS purge of an NVMe device'}]}, id: 'purge-tool', detail: /missing nvme: apt-get install -y nvme-cli/},
    {name: 'too little free space', f: {runDir: {path: '/r/run', probedPath: '/r', freeBytes: 1e6, device: '1', problem: null}}, id: 'free-space', detail: /free space or choose another --out/},
    {name: 'free space unknown', f: {runDir: {path: '/r/run', probedPath: '/r', freeBytes: null, device: null, problem: 'EACCES'}}, id: 'free-space', detail: /cannot tell the free space .*EACCES/},
    {name: 'a file target on the same file system that does not fit', f: {targetFile: {path: '/r/t.img', createBytes: 200e9, freeBytes: 100e9, device: '1'}}, id: 'free-space', detail: /target file grows to 200\.0 GB/},
    {name: 'a file target elsewhere that does not fit', f: {targetFile: {path: '/s/t.img', createBytes: 200e9, freeBytes: 100e9, device: '2'}}, id: 'target-space', detail: /created sparse and filled by the run/},
  ]
  for (const t of failing) {
    it(`fails: ${t.name}`, () => {
      const r = run(facts(t.f))
      expect(r.ok).to.equal(false)
      expect(status(r, t.id)).to.equal('fail')
      expect(r.checks.find(c => c.id === t.id)!.detail).to.match(t.detail)
      expect(preflightText(r)).to.include('[FAIL]').and.include(`pts plan exits ${PREFLIGHT_FAILED_EXIT}`)
    })
  }

  it('a file target: purge n/a; no rate: the bytes of the time-based phases are not guessed', () => {
    const f = plan('iops', {}, {kind: 'file', path: '/r/t.img', purge: {method: 'none', deviation: 'no purge'}})
    const r = preflight({facts: facts({purgeTools: null}), writes: writeEstimate(f, writeRate(null, interfaceLimit({kind: 'file', identity: {interface: 'file'}}))), rateIsBound: false, wipcBytes: wipcBytes(f), stored: storedBytes(f)})
    expect(status(r, 'purge-tool')).to.equal('n/a')
    expect(r.ok).to.equal(true)
    expect(r.wipc.seconds).to.equal(null)
    expect(r.checks.find(c => c.id === 'bytes-written')!.detail).to.match(/of writing whose volume depends on the target's speed/)
  })
})

describe('pts plan preflight: the purge tool line names the interface as written', () => {
  it('"the PTS purge of an NVMe device" (was "a NVME"), "a SATA", "a SAS"', async () => {
    const {purgeToolWhy} = await import('../../src/app/preflight-probe.js')
    expect(['nvme', 'sata', 'sas', 'scsi'].map(purgeToolWhy)).to.deep.equal(['the PTS purge of an NVMe device', 'the PTS purge of a SATA device', 'the PTS purge of a SAS device', 'the PTS purge of a SCSI device'])
  })
})
