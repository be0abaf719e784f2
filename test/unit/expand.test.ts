/**
 * IOPS plan expansion through the one pipeline (specs/pts-2.0.2/iops.json -> expandProgram) and
 * the fio job text of its steps (digest Part A 6, 7, 9, 10; B §5.1).
 */
import {expect} from 'chai'
import {pointSeed, splitRange, type TargetInfo} from '../../src/plan/target.js'
import {loadProgramSpec} from '../../src/store/spec-files.js'
import {expandProgram, wipcVolumeText, type PlannedPhase, type ProgramOptions, type ProgramPlan, type ProgramPoint} from '../../src/plan/expand.js'
import {programJob, programWipcJob, stepSeed} from '../../src/engine/job.js'
import {stripHooks, type ExecHooks} from '../../src/engine/jobfile.js'

const spec = loadProgramSpec('iops', '2.0.2')
const opts = (o: Partial<ProgramOptions> = {}): ProgramOptions => ({
  revision: '2.0.2', profile: 'enterprise', threadCount: 4, queueDepth: 32, pointSeconds: 60, maxRounds: 25,
  onNoSteadyState: 'stop', roundCap: 25, wipcMultiple: 2, timeScale: 1, ioengine: 'libaio', seed: 7,
  workload: null, ceilingMs: null, maxSeconds: null, maxWrittenBytes: null, steadyStateExit: false, ...o,
})
const GiB = 1024 ** 3
const block: TargetInfo = {kind: 'block', path: '/dev/nvme1n1', sizeBytes: 480 * 1e9, logicalSectorBytes: 512, purge: {method: 'nvme-sanitize-block', deviation: null}}
const noPurge = {method: 'none', deviation: 'no purge: a regular file cannot be purged'}

const plan = (o: Partial<ProgramOptions> = {}, t: Partial<TargetInfo> = {}): ProgramPlan => expandProgram(spec, opts(o), {...block, ...t})
function phase<K extends PlannedPhase['kind']>(p: ProgramPlan, kind: K): Extract<PlannedPhase, {kind: K}> {
  const ph = p.phases.find(x => x.kind === kind)
  expect(ph, `${kind} phase`).to.not.equal(undefined)
  return ph as Extract<PlannedPhase, {kind: K}>
}
const loopIndex = (p: ProgramPlan) => p.phases.findIndex(x => x.kind === 'loop')

/** The spec's own numbers (specs/pts-2.0.2/iops.json, digest B §5.1). */
const specLoop = spec.phases.find(p => p.kind === 'loop') as Extract<(typeof spec.phases)[number], {kind: 'loop'}>
const specWipc = spec.phases.find(p => p.kind === 'wipc') as Extract<(typeof spec.phases)[number], {kind: 'wipc'}>
const specBlockSizes = specLoop.loops.find(l => l.dimension === 'blockSizeBytes')!.values
const alignDown = (n: number, a: number) => Math.floor(n / a) * a

/** A loop point's fio job as the runner writes it (program/run.ts): section = point id, the loop's point length, its step seed. */
function pointJob(p: ProgramPlan, pt: ProgramPoint, round: number, hooks?: ExecHooks): string {
  const l = phase(p, 'loop')
  return programJob(p, {comment: `${l.id} round ${round} point ${pt.index + 1}/${l.points.length}: ${pt.label}`, section: pt.id, workload: pt,
    seconds: l.pointSeconds, seed: stepSeed(p.options.seed, loopIndex(p), round, pt.index)}, hooks)
}

describe('IOPS plan expansion (digest Part A 7, 9, 10; B §5.1)', () => {
  it('purge, WIPC, then the loop: 56 points per round, R/W mix outer (100/0 .. 0/100), block size inner (1024 .. 0.5 KiB)', () => {
    const p = plan()
    expect(p.phases.map(x => x.kind)).to.deep.equal(['purge', 'wipc', 'loop'])
    const l = phase(p, 'loop')
    expect(l.dimensions).to.deep.equal(['readPct', 'blockSizeBytes'])
    const pts = l.points
    expect(pts).to.have.length(56)
    expect(pts.slice(0, 8).map(x => x.blockSizeBytes)).to.deep.equal([1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512])
    expect(pts.filter((_, i) => i % 8 === 0).map(x => x.readPct)).to.deep.equal([100, 95, 65, 50, 35, 5, 0])
    expect(pts[55]).to.include({readPct: 0, blockSizeBytes: 512, index: 55, id: 'rw0-bs512b'})
    expect(pts[18]).to.include({readPct: 65, blockSizeBytes: 65536, id: 'rw65-bs64k', label: 'RND 64KiB R/W 65/35'})
    for (const x of pts) expect([x.access, x.threadCount, x.queueDepth], x.id).to.deep.equal(['random', 4, 32])
    // the three tracking variables of 2.0.2 (digest B §3.4): RND 4KiB W, RND 64KiB 65/35, RND 1024KiB R
    expect(l.steadyState.tracking.map(t => t.id)).to.deep.equal(['rnd-4k-w', 'rnd-64k-rw65', 'rnd-1024k-r'])
  })

  it('durations: 56 min per round, 5 to 25 rounds at the spec defaults; continuing without steady state runs up to the round cap', () => {
    const p = plan()
    const l = phase(p, 'loop')
    const roundSec = l.points.length * l.pointSeconds
    expect(roundSec).to.equal(56 * 60)
    expect(p.timeline.find(t => t.phase === l.id)).to.include({minSec: 5 * 56 * 60, maxSec: 25 * 56 * 60})
    // purge and WIPC depend on the device: the budget is the loop's
    expect(p.durations).to.deep.equal({minSec: 5 * 56 * 60, maxSec: 25 * 56 * 60})
    const c = plan({onNoSteadyState: 'continue', roundCap: 100})
    expect(phase(c, 'loop')).to.include({maxRounds: 25, roundCap: 100})
    expect(c.durations).to.deep.equal({minSec: 5 * 56 * 60, maxSec: 100 * 56 * 60})
    expect(c.timeline.find(t => t.phase === 'loop')!.detail).to.match(/continuing without steady state up to 100/)
  })

  const wipcCases = [
    {tc: 1, size: 1 * GiB}, {tc: 4, size: 1 * GiB}, {tc: 3, size: 1 * GiB + 5 * 131072}, {tc: 7, size: 480e9},
  ]
  for (const c of wipcCases) {
    it(`WIPC writes exactly 2x the user capacity in total, inside the PC ActiveRange, with TC ${c.tc} (size ${c.size})`, () => {
      const p = plan({threadCount: c.tc}, {sizeBytes: c.size})
      // the PC ActiveRange (100%) aligned to the largest block size of the test; WIPC at its block size over it
      const pcAr = alignDown(c.size, Math.max(...specBlockSizes, specWipc.blockSizeBytes))
      expect(p.preconditionActiveRangeBytes).to.equal(pcAr)
      const ar = alignDown(pcAr, specWipc.blockSizeBytes)
      const w = phase(p, 'wipc')
      expect(w).to.include({blockSizeBytes: 131072, capacityMultiple: 2, threadCount: c.tc, rangeBytes: ar})
      // PTS: "2X User Capacity ... writing to the entire ActiveRange": 2x the capacity, not 2x the (aligned) range
      const want = alignDown(2 * c.size, 131072)
      expect(w.totalBytes).to.equal(want)
      expect(w.requiredBytes).to.equal(want)
      expect(w.slices.reduce((a, s) => a + s.ioSizeBytes, 0)).to.equal(want)
      expect(w.slices).to.have.length(c.tc)
      // slices are contiguous and cover the range, and no write leaves it
      let off = 0
      for (const s of w.slices) { expect(s.offsetBytes).to.equal(off); off += s.sizeBytes }
      expect(off).to.equal(ar)
      expect(off).to.be.at.most(c.size)
    })
  }

  it('WIPC with the client\'s 75 % ActiveRange: 2x the user capacity, so the range is written 2.67 times; the header text says so', () => {
    const p = plan({profile: 'client', threadCount: 2, queueDepth: 16}, {sizeBytes: 256 * GiB})
    const w = phase(p, 'wipc')
    expect(p.profile.preconditionActiveRangePct).to.equal(75)
    expect(w.rangeBytes).to.equal(alignDown(0.75 * 256 * GiB, 1048576))
    expect(w.totalBytes).to.equal(2 * 256 * GiB)
    expect(w.totalBytes / w.rangeBytes).to.be.closeTo(8 / 3, 1e-9)
    for (const s of w.slices) expect(s.offsetBytes + s.sizeBytes).to.be.at.most(w.rangeBytes)
    expect(wipcVolumeText(w.totalBytes, p.target.sizeBytes, 75)).to.equal('2X user capacity (549.8 GB) in the 75 % ActiveRange')
    expect(p.timeline.find(t => t.phase === 'wipc')!.detail).to.match(/2X user capacity \(549\.8 GB\) in the 75 % ActiveRange .* written 2\.67 times/)
    // the fio job writes it: io_size per slice sums to the total; each io_size exceeds its slice (fio wraps inside it)
    const text = programWipcJob(p, w, 1)
    const io = [...text.matchAll(/^io_size=(\d+)$/gm)].map(m => Number(m[1]))
    const sizes = [...text.matchAll(/^size=(\d+)$/gm)].map(m => Number(m[1]))
    expect(io.reduce((a, b) => a + b, 0)).to.equal(2 * 256 * GiB)
    io.forEach((x, i) => expect(x).to.be.greaterThan(sizes[i]))
  })

  it('WIPC multiple: null = the test definition\'s 2x (x the time scale); another multiple (of the user capacity) is planned exactly', () => {
    const p = plan({wipcMultiple: null})
    const w = phase(p, 'wipc')
    expect(w.capacityMultiple).to.equal(specWipc.capacityMultiple)
    expect(w.totalBytes).to.equal(alignDown(2 * block.sizeBytes, 131072))
    const h = phase(plan({wipcMultiple: 0.5}, {sizeBytes: GiB}), 'wipc')
    expect(h.totalBytes).to.equal(GiB / 2)
    expect(h.requiredBytes).to.equal(2 * GiB)
    const t = plan({wipcMultiple: null, timeScale: 0.01}, {sizeBytes: GiB})
    expect(phase(t, 'wipc').totalBytes).to.equal(alignDown(0.02 * GiB, 131072))
    expect(t.compliance.reasons).to.include('WIPC of 0.02x instead of 2x the user capacity (time scale 0.01)')
    // a multiple below one block per thread is rounded up by the job: the reason says what is written
    const tiny = plan({wipcMultiple: null, timeScale: 0.0002}, {sizeBytes: 64 * 2 ** 20})
    const tw = phase(tiny, 'wipc')
    expect(tw.totalBytes).to.be.greaterThan(0.0004 * 64 * 2 ** 20)
    expect(tiny.compliance.reasons).to.include(`WIPC of ${+(tw.totalBytes / (64 * 2 ** 20)).toPrecision(4)}x instead of 2x the user capacity (time scale 0.0002; 0.0004x asked for, rounded to whole 128KiB writes)`)
  })

  it('splitRange refuses more threads than blocks', () => {
    expect(() => splitRange(131072, 2, 131072)).to.throw(/too small/)
  })

  it('client profile: ActiveRange 75%, TC 2 / QD 16 from the spec data', () => {
    const p = plan({profile: 'client', threadCount: 2, queueDepth: 16}, {sizeBytes: 100 * GiB})
    expect(p.profile).to.include({activeRangePct: 75, writeCache: 'enabled', threadCount: 2, queueDepth: 16})
    expect(p.activeRangeBytes).to.equal(75 * GiB)
  })

  it('compliance: spec defaults on a block device with a PTS purge are compliant; fallbacks and short runs are not (digest Part A 8, 10)', () => {
    const p = plan()
    expect(p.compliance).to.deep.equal({compliant: true, reasons: []})
    expect(p.deviations).to.deep.equal([])
    const d = plan({}, {purge: {method: 'discard', deviation: 'purge by discard'}, nonCompliant: ['/dev/x1 is a partition']})
    expect(d.compliance.reasons).to.deep.equal(['purge by discard, not a PTS purge method', '/dev/x1 is a partition'])
    expect(d.deviations).to.deep.equal(['purge by discard'])
    const f = plan({pointSeconds: 0.5, maxRounds: 6, roundCap: 6, wipcMultiple: 1}, {kind: 'file', path: '/tmp/x', purge: noPurge})
    expect(f.compliance.compliant).to.equal(false)
    expect(f.compliance.reasons.join('\n')).to.match(/regular file/).and.match(/0.5 s/).and.match(/round limit 6/).and.match(/WIPC of 1x/).and.match(/no purge/)
  })

  it('refuses 0.5 KiB points on a 4Kn device', () => {
    expect(() => plan({}, {logicalSectorBytes: 4096})).to.throw(/logical sector/)
  })

  it('seeds are deterministic per (run, round, point) and differ between points', () => {
    expect(pointSeed(7, 3, 12)).to.equal(pointSeed(7, 3, 12))
    const p = plan()
    const li = loopIndex(p)
    expect(stepSeed(7, li, 3, 12)).to.equal(stepSeed(7, li, 3, 12))
    const seeds = new Set([1, 2, 3].flatMap(r => phase(p, 'loop').points.map(x => stepSeed(7, li, r, x.index))))
    expect(seeds.size).to.equal(3 * 56)
  })
})

describe('IOPS fio job text (digest Part A 6)', () => {
  const p = plan()
  const pts = phase(p, 'loop').points
  it('maps TC to numjobs and QD to iodepth, direct=1, random data, ActiveRange by size', () => {
    const job = pointJob(p, pts[18], 3)
    expect(job).to.match(/^numjobs=4$/m).and.match(/^iodepth=32$/m)
    expect(job).to.match(/^direct=1$/m).and.match(/^refill_buffers=1$/m).and.match(/^norandommap=1$/m)
    expect(job).to.match(/^rw=randrw$/m).and.match(/^rwmixread=65$/m)
    expect(job).to.match(/^bs=65536$/m).and.match(/^blockalign=65536$/m)
    expect(job).to.match(new RegExp(`^size=${p.activeRangeBytes}$`, 'm')).and.match(/^offset=0$/m)
    expect(job).to.match(/^runtime=60000ms$/m).and.match(/^time_based=1$/m)
    expect(job).to.match(new RegExp(`^randseed=${stepSeed(7, loopIndex(p), 3, 18)}$`, 'm'))
    expect(job).to.match(/^group_reporting=1$/m).and.match(/^filename=\/dev\/nvme1n1$/m)
    expect(job).to.match(/^\[rw65-bs64k\]$/m)
  })
  it('pure reads and writes use randread / randwrite', () => {
    expect(pointJob(p, pts[0], 1)).to.match(/^rw=randread$/m).and.not.match(/rwmixread/)
    expect(pointJob(p, pts[55], 1)).to.match(/^rw=randwrite$/m)
  })
  it('sub-second points and escaped file names', () => {
    const q = plan({pointSeconds: 0.5}, {kind: 'file', path: '/tmp/a:b.img', purge: noPurge})
    const job = pointJob(q, phase(q, 'loop').points[0], 1)
    expect(job).to.match(/^runtime=500ms$/m)
    expect(job).to.match(/^filename=\/tmp\/a\\:b.img$/m)
  })
  it('WIPC is one sequential 128 KiB write section per thread, io_size wrapping its slice', () => {
    const w = phase(p, 'wipc')
    const job = programWipcJob(p, w, stepSeed(7, p.phases.indexOf(w), 0, 0))
    expect(job.match(/^\[wipc-t\d\]$/gm)).to.have.length(4)
    expect(job).to.match(/^rw=write$/m).and.match(/^bs=131072$/m)
    const ioSizes = [...job.matchAll(/^io_size=(\d+)$/gm)].map(m => Number(m[1]))
    expect(ioSizes.reduce((a, b) => a + b, 0)).to.equal(w.totalBytes)
  })
  it('hooks are added for sequencing and can be stripped to repeat the point by hand', () => {
    const job = pointJob(p, pts[1], 1, {prerun: '/g/gate.sh wait a b', postrun: '/g/gate.sh done c d 4'})
    expect(job).to.match(/^exec_prerun=\/g\/gate.sh wait a b$/m)
    expect(stripHooks(job)).to.equal(pointJob(p, pts[1], 1))
  })
})
