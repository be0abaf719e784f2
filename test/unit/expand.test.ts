import {expect} from 'chai'
import {expandPlan, expandPoints, pointSeed, splitRange, type RunOptions} from '../../src/spec/expand.js'
import {loadSpec} from '../../src/spec/load.js'
import {pointJob, wipcJob, stripHooks} from '../../src/engine/jobfile.js'

const spec = loadSpec('iops', '2.0.2')
const opts = (o: Partial<RunOptions> = {}): RunOptions => ({
  revision: '2.0.2', profile: 'enterprise', threadCount: 4, queueDepth: 32, pointSeconds: 60, maxRounds: 25,
  onNoSteadyState: 'stop', wipcMultiple: 2, ioengine: 'libaio', seed: 7, ...o,
})
const GiB = 1024 ** 3
const block = {kind: 'block' as const, path: '/dev/nvme1n1', sizeBytes: 480 * 1e9, logicalSectorBytes: 512, purge: {method: 'nvme-sanitize-block', deviation: null}}
const noPurge = {method: 'none', deviation: 'no purge: a regular file cannot be purged'}

describe('plan expansion (digest Part A 7, 9, 10; B §5.1)', () => {
  it('56 points per round: R/W mix outer (100/0 .. 0/100), block size inner (1024 .. 0.5 KiB)', () => {
    const pts = expandPoints(spec)
    expect(pts).to.have.length(56)
    expect(pts.slice(0, 8).map(p => p.blockSizeBytes)).to.deep.equal([1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512])
    expect(pts.filter((_, i) => i % 8 === 0).map(p => p.readPct)).to.deep.equal([100, 95, 65, 50, 35, 5, 0])
    expect(pts[55]).to.include({readPct: 0, blockSizeBytes: 512, index: 55, id: 'rw0-bs512b'})
    expect(pts[18]).to.include({readPct: 65, blockSizeBytes: 65536, id: 'rw65-bs64k', label: 'RND 64KiB R/W 65/35'})
  })

  it('durations: 56 min per round, 5 to 25 rounds at the spec defaults', () => {
    const p = expandPlan(spec, opts(), block)
    expect(p.durations.roundSec).to.equal(56 * 60)
    expect(p.durations.minSec).to.equal(5 * 56 * 60)
    expect(p.durations.maxSec).to.equal(25 * 56 * 60)
    expect(expandPlan(spec, opts({onNoSteadyState: 'continue'}), block).durations.maxSec).to.equal(null)
  })

  const wipcCases = [
    {tc: 1, size: 1 * GiB}, {tc: 4, size: 1 * GiB}, {tc: 3, size: 1 * GiB + 5 * 131072}, {tc: 7, size: 480e9},
  ]
  for (const c of wipcCases) {
    it(`WIPC writes exactly 2x the ActiveRange in total with TC ${c.tc} (size ${c.size})`, () => {
      const p = expandPlan(spec, opts({threadCount: c.tc}), {...block, sizeBytes: c.size})
      const ar = Math.floor(c.size / 131072) * 131072
      expect(p.preconditionActiveRangeBytes).to.equal(ar)
      expect(p.wipc.totalBytes).to.equal(2 * ar)
      expect(p.wipc.slices.reduce((a, s) => a + s.ioSizeBytes, 0)).to.equal(2 * ar)
      expect(p.wipc.slices).to.have.length(c.tc)
      // slices are contiguous and cover the range
      let off = 0
      for (const s of p.wipc.slices) { expect(s.offsetBytes).to.equal(off); off += s.sizeBytes }
      expect(off).to.equal(ar)
    })
  }

  it('splitRange refuses more threads than blocks', () => {
    expect(() => splitRange(131072, 2, 131072)).to.throw(/too small/)
  })

  it('client profile: ActiveRange 75%, TC 2 / QD 16 from the spec data', () => {
    const p = expandPlan(spec, opts({profile: 'client', threadCount: 2, queueDepth: 16}), {...block, sizeBytes: 100 * GiB})
    expect(p.profile).to.include({activeRangePct: 75, writeCache: 'enabled'})
    expect(p.activeRangeBytes).to.equal(75 * GiB)
  })

  it('compliance: spec defaults on a block device with a PTS purge are compliant; fallbacks and short runs are not (digest Part A 8, 10)', () => {
    const p = expandPlan(spec, opts(), block)
    expect(p.compliance).to.deep.equal({compliant: true, reasons: []})
    expect(p.deviations).to.deep.equal([])
    const d = expandPlan(spec, opts(), {...block, purge: {method: 'discard', deviation: 'purge by discard'}, nonCompliant: ['/dev/x1 is a partition']})
    expect(d.compliance.reasons).to.deep.equal(['purge by discard, not a PTS purge method', '/dev/x1 is a partition'])
    expect(d.deviations).to.deep.equal(['purge by discard'])
    const f = expandPlan(spec, opts({pointSeconds: 0.5, maxRounds: 6, wipcMultiple: 1}), {...block, kind: 'file', path: '/tmp/x', purge: noPurge})
    expect(f.compliance.compliant).to.equal(false)
    expect(f.compliance.reasons.join('\n')).to.match(/regular file/).and.match(/0.5 s/).and.match(/round limit 6/).and.match(/WIPC of 1x/).and.match(/no purge/)
  })

  it('refuses 0.5 KiB points on a 4Kn device', () => {
    expect(() => expandPlan(spec, opts(), {...block, logicalSectorBytes: 4096})).to.throw(/logical sector/)
  })

  it('seeds are deterministic per (run, round, point) and differ between points', () => {
    expect(pointSeed(7, 3, 12)).to.equal(pointSeed(7, 3, 12))
    const seeds = new Set([1, 2, 3].flatMap(r => expandPoints(spec).map(p => pointSeed(7, r, p.index))))
    expect(seeds.size).to.equal(3 * 56)
  })
})

describe('fio job text (digest Part A 6)', () => {
  const p = expandPlan(spec, opts(), block)
  const pts = expandPoints(spec)
  it('maps TC to numjobs and QD to iodepth, direct=1, random data, ActiveRange by size', () => {
    const job = pointJob(p, pts[18], 3)
    expect(job).to.match(/^numjobs=4$/m).and.match(/^iodepth=32$/m)
    expect(job).to.match(/^direct=1$/m).and.match(/^refill_buffers=1$/m).and.match(/^norandommap=1$/m)
    expect(job).to.match(/^rw=randrw$/m).and.match(/^rwmixread=65$/m)
    expect(job).to.match(/^bs=65536$/m).and.match(/^blockalign=65536$/m)
    expect(job).to.match(new RegExp(`^size=${p.activeRangeBytes}$`, 'm')).and.match(/^offset=0$/m)
    expect(job).to.match(/^runtime=60000ms$/m).and.match(/^time_based=1$/m)
    expect(job).to.match(new RegExp(`^randseed=${pointSeed(7, 3, 18)}$`, 'm'))
    expect(job).to.match(/^group_reporting=1$/m).and.match(/^filename=\/dev\/nvme1n1$/m)
  })
  it('pure reads and writes use randread / randwrite', () => {
    expect(pointJob(p, pts[0], 1)).to.match(/^rw=randread$/m).and.not.match(/rwmixread/)
    expect(pointJob(p, pts[55], 1)).to.match(/^rw=randwrite$/m)
  })
  it('sub-second points and escaped file names', () => {
    const q = expandPlan(spec, opts({pointSeconds: 0.5}), {...block, kind: 'file', path: '/tmp/a:b.img', purge: noPurge})
    const job = pointJob(q, pts[0], 1)
    expect(job).to.match(/^runtime=500ms$/m)
    expect(job).to.match(/^filename=\/tmp\/a\\:b.img$/m)
  })
  it('WIPC is one sequential 128 KiB write section per thread, io_size wrapping its slice', () => {
    const job = wipcJob(p)
    expect(job.match(/^\[wipc-t\d\]$/gm)).to.have.length(4)
    expect(job).to.match(/^rw=write$/m).and.match(/^bs=131072$/m)
    const ioSizes = [...job.matchAll(/^io_size=(\d+)$/gm)].map(m => Number(m[1]))
    expect(ioSizes.reduce((a, b) => a + b, 0)).to.equal(p.wipc.totalBytes)
  })
  it('hooks are added for sequencing and can be stripped to repeat the point by hand', () => {
    const job = pointJob(p, pts[1], 1, {prerun: '/g/gate.sh wait a b', postrun: '/g/gate.sh done c d 4'})
    expect(job).to.match(/^exec_prerun=\/g\/gate.sh wait a b$/m)
    expect(stripHooks(job)).to.equal(pointJob(p, pts[1], 1))
  })
})
