import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {runCli} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'
import type {AuditResult} from '../../src/audit/checks.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'

type Loop = Extract<PhaseResult, {kind: 'loop'}>

// A real TP run (PTS-C 1.2: SEQ 1024KiB R and W per round) with --per-second on a 64 MiB file:
// 2 s points, 5 rounds, half a user capacity of WIPC. About 30 s here, plus the report.
describe('pts run --per-second: fio\'s per-second logs stored, audited and charted per point', function () {
  this.timeout(240_000)
  const tmp = useTmpDir('pts-per-second-')
  let dir = ''
  let results: ProgramResults
  before(async () => {
    dir = join(tmp(), 'run')
    const r = await runCli(['run', 'tp', '--revision', 'pts-c-1.2', '--device', `file:${join(tmp(), 'target.img')}`, '--size', '64MiB',
      '--point-seconds', '2', '--max-rounds', '5', '--wipc-multiple', '0.5', '--tc', '1', '--qd', '4', '--seed', '7', '--per-second', '--out', dir, '--json'])
    expect(r.code, r.stderr.slice(-3000)).to.equal(0)
    results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))
  })
  const audit = async () => {
    const r = await runCli(['audit', dir, '--json', '--max-gap-ms', '5000'])
    return JSON.parse(r.stdout) as AuditResult
  }

  it('every point has its raw logs beside its job and a trace read from them; WIPC has none; the job replays as plain fio', () => {
    expect(results.parameters.perSecond).to.equal(true)
    const loop = results.phases.find(p => p.kind === 'loop') as Loop
    const points = loop.rounds.flatMap(r => r.points)
    expect(points.length).to.equal(10)
    for (const p of points) {
      const t = p.perSecond!
      expect(t, p.raw.json).to.not.equal(undefined)
      const base = p.raw.json.replace(/\.json$/, '')
      expect(t.logs.map(l => l.slice(base.length)).sort()).to.deep.equal(['_bw.1.log', '_clat.1.log', '_clat_hist.1.log', '_iops.1.log', '_lat.1.log', '_slat.1.log'])
      // a 2 s step: fio logs its full seconds (1, sometimes 2: the last one ends with the step)
      expect(t.seconds.length).to.be.within(1, 2)
      expect(t.seconds[0].s).to.equal(1)
      for (const s of t.seconds) {
        expect(s.iops).to.be.above(0)
        // SEQ 1024KiB: bytes per second = 1 MiB x IOs (both logs average the same window)
        expect(s.bwBytesPerSec / s.iops).to.be.closeTo(1048576, 1048576 * 0.02)
        expect(s.latMeanNs).to.be.above(0)
      }
      // the second fio wrote a histogram window for has a maximum, at least the mean of that second
      const withMax = t.seconds.filter(s => s.latMaxNs !== null)
      expect(withMax.length).to.be.at.least(1)
      for (const s of withMax) expect(s.latMaxNs!).to.be.at.least(s.latMeanNs! * 0.9)
      // the stored job names its logs; fio runs it as it is, writing the same logs in its working folder
      const job = readFileSync(join(dir, p.raw.job), 'utf8')
      expect(job).to.match(/^write_hist_log=\S+$/m)
      expect(job).to.not.match(/^exec_/m)
      expect(job).to.not.include('log_max_value')
    }
    const wipc = results.phases.find(p => p.kind === 'wipc') as Extract<PhaseResult, {kind: 'wipc'}>
    expect(readFileSync(join(dir, wipc.raw!.job), 'utf8')).to.not.include('write_iops_log')
    // the seal covers every log
    const sealed = new Set((JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).integrity.files as Array<{path: string}>).map(f => f.path))
    for (const l of points.flatMap(p => p.perSecond!.logs)) expect(sealed.has(l), l).to.equal(true)
  })

  it('the report has a trace page per point: IOPS and response times against seconds, with the per-second statistics', () => {
    const pdf = readdirSync(dir).find(f => f === 'report.pdf')
    expect(pdf).to.equal('report.pdf')
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'report.pdf'), '-'], {encoding: 'utf8'}).replace(/\s+/g, ' ')
    for (const label of ['SEQ 1024KiB R TC 1/QD 4', 'SEQ 1024KiB W TC 1/QD 4']) {
      expect(text).to.include(`Throughput (TP) Test - Per-Second Trace - loop-1024k: ${label}`)
      expect(text).to.include(`${label}, rounds 1-5, 2 s each, end to end;`)
    }
    expect(text).to.include('Time (s)')
    expect(text).to.include('Mean response time')
    expect(text).to.include('Maximum response time')
    // the statistics printed are those of the stored trace
    const loop = results.phases.find(p => p.kind === 'loop') as Loop
    const iops = loop.rounds.flatMap(r => r.points.filter(p => p.id === loop.rounds[0].points[0].id)).flatMap(p => p.perSecond!.seconds.map(s => s.iops))
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US')
    expect(text).to.include(`${iops.length} of 10 s traced. IOPS per second: min ${fmt(Math.min(...iops))},`)
    expect(text).to.include(`max ${fmt(Math.max(...iops))}, coefficient of variation`)
  })

  it('pts audit recomputes every per-second value from the logs: passes as stored, fails when one log byte changes', async () => {
    const ok = await audit()
    const ps = ok.checks.find(c => c.id === 'per-second')!
    expect(ps.status, ps.reason).to.equal('pass')
    expect(ps.reason).to.match(/^10 steps, \d+ seconds: every stored per-second value equals/)
    expect(ok.ok, JSON.stringify(ok.checks.filter(c => c.status === 'fail'))).to.equal(true)

    // change one digit of the first IOPS value of the first point's IOPS log
    const loop = results.phases.find(p => p.kind === 'loop') as Loop
    const log = loop.rounds[0].points[0].perSecond!.logs.find(l => l.endsWith('_iops.1.log'))!
    const text = readFileSync(join(dir, log), 'utf8')
    const m = /^(\d+), (\d)/.exec(text)!
    const changed = text.slice(0, m[1].length + 2) + String((Number(m[2]) + 1) % 10) + text.slice(m[1].length + 3)
    expect(changed.length).to.equal(text.length)
    writeFileSync(join(dir, log), changed)
    const bad = await audit()
    expect(bad.ok).to.equal(false)
    expect(bad.checks.find(c => c.id === 'integrity')!.problems.join('\n')).to.include(`changed: ${log}`)
    const p = bad.checks.find(c => c.id === 'per-second')!
    expect(p.status).to.equal('fail')
    expect(p.problems.join('\n')).to.match(/perSecond\/seconds\/0\/iops: stored \d+, recomputed \d+/)
    writeFileSync(join(dir, log), text)
  })
})
