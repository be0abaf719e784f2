/**
 * Features that once worked for IOPS only, now through the one pipeline for every test they
 * apply to, through real fio on a file target: --wipc-multiple (TP), --on-no-steady-state
 * continue with --round-cap (LAT), and pts resume --restart-from purge (TP).
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect} from 'chai'
import {runCli} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'
import type {RunManifest} from '../../src/model/manifest.js'

const read = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T
const phases = <K extends PhaseResult['kind']>(r: ProgramResults, kind: K) => r.phases.filter((p): p is Extract<PhaseResult, {kind: K}> => p.kind === kind)

describe('IOPS-only features now for every test (real fio, file target)', function () {
  this.timeout(600_000)
  const tmp = useTmpDir('pts-every-test-')
  const common = (name: string) => ['--device', `file:${join(tmp(), `${name}.img`)}`, '--size', '64MiB', '--yes-destroy-data', join(tmp(), `${name}.img`),
    '--point-seconds', '0.2', '--tc', '2', '--qd', '4', '--seed', '11', '--out', join(tmp(), name)]

  it('TP with --wipc-multiple 0.05: each WIPC writes 0.05x the user capacity in whole blocks inside the PC ActiveRange, disclosed as non-compliant with the multiple written', async () => {
    const r = await runCli(['run', 'tp', ...common('tp'), '--max-rounds', '5', '--wipc-multiple', '0.05'])
    expect(r.code, r.stderr.slice(-2000)).to.equal(0)
    const res = read<ProgramResults>(join(tmp(), 'tp', 'results.json'))
    const m = read<RunManifest>(join(tmp(), 'tp', 'manifest.json'))
    expect(res.parameters.wipcMultiple).to.equal(0.05)
    const w = phases(res, 'wipc')
    expect(w).to.have.length(2)
    for (const p of w) {
      // exact in total: 0.05x the user capacity, aligned down to whole blocks of the WIPC block size
      expect(p.plannedBytes).to.equal(Math.max(p.blockSizeBytes, Math.floor(res.parameters.capacityBytes * 0.05 / p.blockSizeBytes) * p.blockSizeBytes))
      expect(p.writtenBytes).to.equal(p.plannedBytes)
      expect(p.writtenBytes).to.be.below(p.requiredBytes)
    }
    // the reason names the multiple each WIPC writes (whole blocks) and the 0.05x asked for when they differ
    for (const p of w) {
      const written = +(p.plannedBytes / res.parameters.capacityBytes).toPrecision(4)
      const want = written === 0.05 ? 'WIPC of 0.05x instead of 2x the user capacity' : `WIPC of ${written}x instead of 2x the user capacity (0.05x asked for, rounded to whole ${p.blockSizeBytes / 1024}KiB writes)`
      expect(m.compliance.reasons, m.compliance.reasons.join('; ')).to.include(want)
    }
  })

  it('pts resume --restart-from purge on that TP run: everything measured set aside, the run starts over and passes its audit', async () => {
    const dir = join(tmp(), 'tp')
    const before = read<ProgramResults>(join(dir, 'results.json'))
    const r = await runCli(['resume', dir, '--restart-from', 'purge'])
    expect(r.code, r.stderr.slice(-2000)).to.equal(0)
    const after = read<ProgramResults>(join(dir, 'results.json'))
    const m = read<RunManifest>(join(dir, 'manifest.json'))
    expect(after.status).to.equal('complete')
    expect(m.events.some(e => e.event === 'resume' && /restarting from the purge/.test(e.detail))).to.equal(true)
    // the first run's raw files are kept under raw/cut-<time>/, none of them is referenced by the new results
    const cut = readdirSync(join(dir, 'raw')).filter(d => d.startsWith('cut-'))
    expect(cut).to.have.length(1)
    expect(existsSync(join(dir, 'raw', cut[0], '02-wipc-1024k.json'))).to.equal(true)
    const firstLoop = phases(before, 'loop')[0].rounds[0].points[0]
    const newLoop = phases(after, 'loop')[0].rounds[0].points[0]
    expect(newLoop.raw.json).to.equal(firstLoop.raw.json)
    expect(newLoop.startNs).to.not.equal(firstLoop.startNs)
    // no interruption deviation: a clean restart
    expect(m.deviations.some(d => /resumed/.test(d))).to.equal(false)
    const a = await runCli(['audit', dir, '--json'])
    expect(a.code, a.stdout.slice(-3000)).to.equal(0)
    expect((JSON.parse(a.stdout) as {ok: boolean}).ok).to.equal(true)
  })

  it('LAT with --on-no-steady-state continue --round-cap 6: the loop may run past --max-rounds 5, never past the cap', async () => {
    const plan = await runCli(['plan', 'lat', ...common('lat-plan'), '--max-rounds', '5', '--on-no-steady-state', 'continue', '--round-cap', '6', '--json'])
    expect(plan.code, plan.stderr).to.equal(0)
    const loop = (JSON.parse(plan.stdout) as {phases: Array<{kind: string; maxRounds?: number; roundCap?: number}>}).phases.find(p => p.kind === 'loop')!
    expect(loop).to.include({maxRounds: 5, roundCap: 6})
    const r = await runCli(['run', 'lat', ...common('lat'), '--max-rounds', '5', '--on-no-steady-state', 'continue', '--round-cap', '6', '--time-scale', '0.001'])
    expect(r.code, r.stderr.slice(-2000)).to.equal(0)
    const res = read<ProgramResults>(join(tmp(), 'lat', 'results.json'))
    expect(res.parameters).to.include({onNoSteadyState: 'continue', roundCap: 6})
    const l = phases(res, 'loop')[0]
    const rounds = l.rounds.length
    expect(rounds).to.be.within(5, 6)
    // it stops at the first steady window, or at the cap with the last 5 rounds NOT ACHIEVED
    if (l.steadyState.verdict === 'steady') expect(l.steadyState.toRound).to.equal(rounds)
    else expect({verdict: l.steadyState.verdict, rounds, from: l.steadyState.fromRound}).to.deep.equal({verdict: 'not-achieved', rounds: 6, from: 2})
  })

  it('--round-cap without continue, and --wipc-multiple for a test without WIPC, are refused before anything runs', async () => {
    const a = await runCli(['plan', 'lat', ...common('x'), '--round-cap', '6'])
    expect(a.code).to.equal(2)
    expect(a.stderr).to.match(/--round-cap applies with --on-no-steady-state continue/)
    const b = await runCli(['plan', 'wsat', ...common('y'), '--wipc-multiple', '1'])
    expect(b.code).to.equal(2)
    expect(b.stderr).to.match(/the wsat test has no WIPC phase/)
  })
})
