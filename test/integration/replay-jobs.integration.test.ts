/**
 * Replayable job files: every .fio a run stores is the workload as fio ran it, without the gate's
 * exec_ hooks, so plain fio re-runs the step. A real HIR run (WIPC, a steady-state loop, series,
 * bursts with an IOPS log) on a file target; its stored jobs are parsed by fio and a few are run
 * again with plain fio, whose options must equal those fio reported for pts's run minus the hooks.
 */
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {mkdirSync, readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {runCli} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'
import {stripHooks} from '../../src/engine/jobfile.js'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
const FIO = process.env.PTS_FIO ?? 'fio'

function walk(dir: string, ext: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap(e => (e.isDirectory() ? walk(join(dir, e.name), ext) : e.name.endsWith(ext) ? [join(dir, e.name)] : [])).sort()
}

/** What fio says it ran: per job section its name and options (without the gate's hooks), and the global options. */
function ranOptions(fioJson: Json): {global: Json; jobs: Array<{name: string; options: Json}>} {
  const drop = (o: Json) => Object.fromEntries(Object.entries(o).filter(([k]) => !/^exec_(pre|post)run$/.test(k)))
  return {global: drop(fioJson['global options'] ?? {}), jobs: (fioJson.jobs as Json[]).map(j => ({name: j.jobname, options: drop(j['job options'] ?? {})}))}
}

describe('stored fio jobs re-run with plain fio (real HIR run on a file target)', function () {
  this.timeout(600_000)
  const tmp = useTmpDir('pts-replay-')
  let run = ''

  before(async () => {
    run = join(tmp(), 'run')
    const r = await runCli(['run', 'hir', '--device', `file:${tmp()}/target.img`, '--size', '32MiB', '--seed', '5', '--tc', '1', '--qd', '4',
      '--point-seconds', '0.2', '--max-rounds', '5', '--time-scale', '0.001', '--out', run, '--json'], {env: {CHROMIUM_PATH: '/nonexistent'}})
    // the report after the run fails without Chromium (exit 7); the run itself is complete
    expect(r.code, r.stderr.slice(-2000)).to.be.oneOf([0, 7])
    expect(JSON.parse(r.stdout).status).to.equal('complete')
  })

  it('no stored job carries an exec_ hook; fio\'s own output shows it ran them with the hooks; raw/fio-gate.txt says how', () => {
    const jobs = walk(join(run, 'raw'), '.fio')
    expect(jobs.length).to.be.greaterThan(20)
    for (const j of jobs) {
      const text = readFileSync(j, 'utf8')
      expect(text, relative(run, j)).to.not.match(/^exec_/m)
      expect(stripHooks(text)).to.equal(text)
      const out = JSON.parse(readFileSync(j.replace(/\.fio$/, '.json'), 'utf8')) as Json
      for (const job of out.jobs as Json[]) expect(job['job options'].exec_prerun, relative(run, j)).to.match(/pts-gate-.*\/gate\.sh wait /)
    }
    const note = readFileSync(join(run, 'raw/fio-gate.txt'), 'utf8')
    expect(note).to.match(/^# +exec_prerun=<gate>\/gate\.sh wait/m)
    expect(note).to.include('flock -s') // the gate script itself
  })

  it('fio --parse-only accepts the stored jobs as they are (the first of every phase)', () => {
    const firstOfPhase = new Map<string, string>()
    for (const j of walk(join(run, 'raw'), '.fio')) {
      const phase = relative(join(run, 'raw'), j).split('/')[0].replace(/\.fio$/, '')
      if (!firstOfPhase.has(phase)) firstOfPhase.set(phase, j)
    }
    expect(firstOfPhase.size).to.be.at.least(5)
    for (const j of firstOfPhase.values()) {
      const r = spawnSync(FIO, ['--parse-only', j], {encoding: 'utf8'})
      expect(r.status, `${relative(run, j)}: ${r.stderr}`).to.equal(0)
    }
  })

  it('plain fio re-runs the WIPC, a loop point, a series sample and the bursts with the options pts ran (minus the hooks)', () => {
    const results = JSON.parse(readFileSync(join(run, 'results.json'), 'utf8')) as Json
    const phases = results.phases as Json[]
    const pick = [
      phases.find(p => p.kind === 'wipc')?.raw?.job,
      phases.find(p => p.kind === 'loop')?.rounds[0].points[0].raw.job,
      phases.find(p => p.kind === 'series')?.samples[0]?.raw.job,
      // HIR: each burst is its own fio step (no IOPS log)
      phases.find(p => p.kind === 'bursts')?.steps?.[0]?.raw.job,
    ].filter((x): x is string => typeof x === 'string')
    // HIR has no WIPC: a loop point, a series sample and a burst
    expect(pick.length).to.be.at.least(3)
    expect(pick.some(rel => rel === phases.find(p => p.kind === 'bursts')?.steps?.[0]?.raw.job), 'a burst step is replayed').to.equal(true)
    for (const [i, rel] of pick.entries()) {
      const cwd = join(tmp(), `replay-${i}`)
      mkdirSync(cwd)
      const r = spawnSync(FIO, ['--output-format=json', join(run, rel)], {cwd, encoding: 'utf8', timeout: 120_000})
      expect(r.status, `${rel}: ${r.stderr}`).to.equal(0)
      const replay = ranOptions(JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as Json)
      const original = ranOptions(JSON.parse(readFileSync(join(run, rel.replace(/\.fio$/, '.json')), 'utf8')) as Json)
      expect(replay, rel).to.deep.equal(original)
    }
  })

  it('pts plan --json gives, per phase, the job text the run stored for that phase\'s first step', async () => {
    const r = await runCli(['plan', 'hir', '--device', `file:${tmp()}/target.img`, '--seed', '5', '--tc', '1', '--qd', '4',
      '--point-seconds', '0.2', '--max-rounds', '5', '--time-scale', '0.001', '--json'])
    expect(r.code, r.stderr).to.equal(0)
    const planned = JSON.parse(r.stdout).jobs as Record<string, string>
    const results = JSON.parse(readFileSync(join(run, 'results.json'), 'utf8')) as Json
    let compared = 0
    for (const p of results.phases as Json[]) {
      const first = p.kind === 'wipc' ? p.raw?.job : p.kind === 'loop' ? p.rounds[0]?.points[0]?.raw.job : p.kind === 'series' ? p.samples[0]?.raw.job : p.kind === 'bursts' ? p.job?.raw.job : undefined
      if (!first || planned[p.id] === undefined) continue
      expect(readFileSync(join(run, first), 'utf8'), `${p.id} (${first})`).to.equal(planned[p.id])
      compared++
    }
    expect(compared).to.be.at.least(4)
  })

  it('pts audit reads the hook-less jobs: job parameters and the device identity of every job check out', async () => {
    const r = await runCli(['audit', run, '--json'])
    const a = JSON.parse(r.stdout) as Json
    const status = Object.fromEntries((a.checks as Json[]).map(c => [c.id, c.status]))
    expect([status.integrity, status['job-parameters'], status.identity, status.measurements]).to.deep.equal(['pass', 'pass', 'pass', 'pass'])
  })
})
