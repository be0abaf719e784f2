import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import {histBucketTopNs, perSecondLogKind, perSecondTrace} from '../../src/engine/parse.js'
import {perSecondJob, perSecondPrefix} from '../../src/engine/jobfile.js'
import {traceNote} from '../../src/report/pages/traces.js'
import type {PointTrace} from '../../src/analysis/traces.js'

// Real fio 3.33 logs of one RND 4KiB 70/30 point, TC 2 / QD 4, 3.5 s (how: README.md beside them).
const dir = new URL('../fixtures/fio/3.33/per-second/', import.meta.url)
const files = readdirSync(dir).filter(f => f.endsWith('.log')).map(name => ({name, text: readFileSync(new URL(name, dir), 'utf8')}))
const text = (name: string) => files.find(f => f.name === name)!.text
const rows = (name: string) => text(name).trim().split('\n').map(l => l.split(',').map(Number))
const json = JSON.parse(readFileSync(new URL('point.json', dir), 'utf8'))

describe('per-second traces from fio logs (real fio 3.33 logs)', () => {
  const trace = perSecondTrace(files)

  it('one value per full second fio logged: seconds 1-3 of a 3.5 s step (the partial last window is in no IOPS log)', () => {
    expect(trace.map(t => t.s)).to.deep.equal([1, 2, 3])
    // the latency log does have the partial window at 3.5 s: it is not a traced second
    expect(rows('point_lat.1.log').some(r => r[0] === 3500)).to.equal(true)
  })

  it('IOPS and bandwidth: every job and direction added up, from the logs themselves', () => {
    for (const t of trace) {
      let iops = 0
      let bw = 0
      for (const j of [1, 2]) {
        for (const r of rows(`point_iops.${j}.log`)) if (Math.round(r[0] / 1000) === t.s) iops += r[1]
        for (const r of rows(`point_bw.${j}.log`)) if (Math.round(r[0] / 1000) === t.s) bw += r[1] * 1024
      }
      expect(t.iops).to.equal(iops)
      expect(t.bwBytesPerSec).to.equal(bw)
      // 4 KiB IOs: bytes per second ~ 4096 x IOs (fio averages both logs over the same window)
      expect(t.bwBytesPerSec / t.iops).to.be.closeTo(4096, 4096 * 0.02)
    }
    // the traced seconds hold most of the step's IOs (3 of its 3.5 s), never more than all of them
    const all = json.jobs[0].mixed.total_ios
    const traced = trace.reduce((a, t) => a + t.iops, 0)
    expect(traced).to.be.below(all)
    expect(traced).to.be.above(all * 0.5)
  })

  it('mean latency: IO-weighted over directions and jobs, within the range of the logged window means', () => {
    for (const t of trace) {
      const means = [1, 2].flatMap(j => rows(`point_lat.${j}.log`).filter(r => Math.round(r[0] / 1000) === t.s).map(r => r[1]))
      expect(t.latMeanNs).to.be.a('number')
      expect(t.latMeanNs!).to.be.at.least(Math.min(...means))
      expect(t.latMeanNs!).to.be.at.most(Math.max(...means))
    }
  })

  it('maximum latency: the top of the highest non-empty histogram bucket of the second, at most fio\'s whole-step maximum bucket', () => {
    const clatMax = Math.max(json.jobs[0].read.clat_ns.max, json.jobs[0].write.clat_ns.max)
    for (const t of trace) {
      expect(t.latMaxNs).to.be.a('number')
      expect(t.latMaxNs!).to.be.above(t.latMeanNs! / 10)
      // no second's maximum exceeds the top of the bucket that holds the step's maximum
      expect(t.latMaxNs!).to.be.at.most(clatMax * 1.016 + 1)
    }
  })

  it('fio 3.33 writes 1,856 buckets per histogram line; each non-empty bucket is one of json+\'s completion-latency bins (the bucket mapping)', () => {
    const hist = [1, 2].flatMap(j => rows(`point_clat_hist.${j}.log`))
    for (const r of hist) expect(r.length - 3).to.equal(1856)
    // json+ keys each bin by the middle of its bucket (fio plat_idx_to_val); the histogram log counts per bucket index
    const bins = new Map<number, number>()
    for (const d of ['read', 'write']) for (const [k, v] of Object.entries(json.jobs[0][d].clat_ns.bins as Record<string, number>)) bins.set(Number(k), (bins.get(Number(k)) ?? 0) + v)
    const perIdx = new Map<number, number>()
    for (const r of hist) r.slice(3).forEach((c, i) => { if (c > 0) perIdx.set(i, (perIdx.get(i) ?? 0) + c) })
    expect(perIdx.size).to.be.above(20)
    for (const [i, c] of perIdx) {
      const lo = i === 0 ? 0 : histBucketTopNs(i - 1)
      const hi = histBucketTopNs(i)
      const mid = i < 128 ? i : Math.floor((lo + hi) / 2)
      expect(bins.has(mid), `bucket ${i}: json+ has no bin ${mid}`).to.equal(true)
      expect(bins.get(mid)!).to.be.at.least(c)
    }
  })

  it('bucket tops: exact below 128 ns, 2^(group-1) wide above, increasing', () => {
    expect(histBucketTopNs(0)).to.equal(0)
    expect(histBucketTopNs(127)).to.equal(127)
    expect(histBucketTopNs(128)).to.equal(130)
    expect(histBucketTopNs(191)).to.equal(256)
    expect(histBucketTopNs(192)).to.equal(260)
    for (let i = 1; i < 1856; i++) expect(histBucketTopNs(i)).to.be.above(histBucketTopNs(i - 1))
  })

  it('log names: fio\'s <prefix>_<kind>.<job>.log', () => {
    expect(perSecondLogKind('point_clat_hist.2.log')).to.deep.equal({kind: 'clat_hist', job: 2})
    expect(perSecondLogKind('point_iops.1.log')).to.deep.equal({kind: 'iops', job: 1})
    expect(perSecondLogKind('point.json')).to.equal(null)
  })

  it('the job lines: the logs go in [global] (every job section), named after the step; the job text stays plain fio', () => {
    const job = readFileSync(new URL('point.fio', dir), 'utf8').split('\n').filter(l => !/^(write_|log_)/.test(l)).join('\n')
    const withLogs = perSecondJob(job, perSecondPrefix('raw/03-loop/round-01/05-p05'))
    expect(perSecondPrefix('raw/03-loop/round-01/05-p05')).to.equal('03-loop.round-01.05-p05')
    const lines = withLogs.split('\n')
    const g = lines.indexOf('[global]')
    const end = lines.indexOf('', g)
    const global = lines.slice(g, end)
    for (const l of ['write_iops_log=03-loop.round-01.05-p05', 'write_bw_log=03-loop.round-01.05-p05', 'write_lat_log=03-loop.round-01.05-p05', 'log_avg_msec=1000', 'write_hist_log=03-loop.round-01.05-p05', 'log_hist_msec=1000']) expect(global).to.include(l)
    expect(withLogs).to.not.include('log_max_value')
    expect(withLogs.replace(/^(write_\w+_log|log_\w+_msec)=.*\n/gm, '')).to.equal(job)
  })
})

describe('trace notes (report/pages/traces.ts)', () => {
  const trace = (stepSec: number, steps: number, rows: number): PointTrace => ({
    key: 'rnd-75', phase: {kind: 'series', id: 'rnd-75'} as PointTrace['phase'], label: 'RND 4KiB W TC 1/QD 32', span: `${steps} steps of ${stepSec} s end to end`,
    steps: Array.from({length: steps}, () => ({}) as PointTrace['steps'][number]),
    rows: Array.from({length: rows}, (_, i) => ({x: i + 1, iops: 1000 + i, bwBytesPerSec: 4096e3, latMeanNs: 1e5, latMaxNs: 2e6})),
    stepSeconds: stepSec * steps, tracedSeconds: rows,
  })
  it('say their source (fio\'s per-second logs); a trace of 1 s steps (consistency) says it has gaps and where every sample is', () => {
    const one = traceNote(trace(1, 2000, 1100))
    expect(one).to.match(/^Source: fio's per-second logs of the steps \(1-second windows\), not their JSON statistics\. RND 4KiB W TC 1\/QD 32, 2000 steps of 1 s end to end; 1100 of 2,000 s traced\./)
    expect(one).to.include('Each step here is 1.0 s long: fio logs its second only when the window completes before the step ends, so this trace has gaps; the test\'s own per-sample pages have every sample, from fio\'s JSON of each step.')
    expect(one).to.include('Each line is drawn from at most 600 points')
    const long = traceNote(trace(60, 5, 295))
    expect(long).to.match(/^Source: fio's per-second logs/)
    expect(long).to.not.include('so this trace has gaps')
  })
})
