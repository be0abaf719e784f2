import {expect} from 'chai'
import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, readFileSync, readdirSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {useTmpDir} from '../helpers/tmp.js'
import {ROOT, runCli} from '../helpers/cli.js'
import {verifyRun} from '../helpers/verify-run.js'
import type {RunManifest} from '../../src/model/manifest.js'

const MAX_ROUNDS = 4
const RUN_ARGS = (dir: string, tmp: string) => ['run', 'iops', '--device', `file:${tmp}/t.img`, '--size', '32MiB', '--point-seconds', '0.1', '--max-rounds', String(MAX_ROUNDS), '--tc', '1', '--qd', '4', '--out', dir]

function start(args: string[]): {child: ChildProcess; done: Promise<{code: number | null; signal: NodeJS.Signals | null; stderr: string}>} {
  const child = spawn(process.execPath, [`${ROOT}bin/dev.js`, ...args], {cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe']})
  let stderr = ''
  child.stderr!.on('data', d => { stderr += d })
  const done = new Promise<{code: number | null; signal: NodeJS.Signals | null; stderr: string}>(resolve => child.on('exit', (code, signal) => resolve({code, signal, stderr})))
  return {child, done}
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

/** SIGKILL pts, and with a power cut also every fio process it recorded in lock.json. */
function kill(child: ChildProcess, dir: string, powerCut: boolean): void {
  child.kill('SIGKILL')
  if (!powerCut) return
  try {
    const lock = JSON.parse(readFileSync(join(dir, 'lock.json'), 'utf8')) as {fio: number[]; holders: number[]}
    for (const pid of lock.fio) { try { process.kill(-pid, 'SIGKILL') } catch { /* gone */ } }
  } catch { /* no lock yet */ }
}

describe('crash and resume (SIGKILL at random moments, real fio on a file)', function () {
  this.timeout(900_000)
  const tmpDir = useTmpDir('pts-crash-')
  let tmp = ''
  before(() => { tmp = tmpDir() })

  it('survives repeated kills of pts alone and of pts with its fio; the final results are whole and recompute', async () => {
    const dir = join(tmp, 'run')
    const kills: string[] = []
    let args = RUN_ARGS(dir, tmp)
    for (let i = 0; i < 4; i++) {
      const {child, done} = start(args)
      // a fresh run: the kill delay counts from its manifest.json (on a busy host pts alone can take 8 s to start,
      // and a run killed before it wrote anything is started afresh, so no kill would ever be resumed)
      for (let w = 0; w < 600 && args[0] === 'run' && child.exitCode === null && !existsSync(join(dir, 'manifest.json')); w++) await sleep(100)
      const afterMs = 1500 + Math.floor(Math.random() * 6000)
      const powerCut = i % 2 === 1
      await Promise.race([sleep(afterMs), done])
      if (child.exitCode === null) {
        kill(child, dir, powerCut)
        kills.push(`${powerCut ? 'pts+fio' : 'pts'} after ${afterMs} ms`)
      }
      await done
      if (!existsSync(join(dir, 'manifest.json'))) { args = RUN_ARGS(dir, tmp); rmSync(dir, {recursive: true, force: true}); continue }
      args = ['resume', dir]
      const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RunManifest
      if (m.status === 'complete') break
    }
    const last = await runCli(args[0] === 'resume' ? args : RUN_ARGS(dir, tmp))
    expect(last.code, `kills: ${kills.join(', ')}\n${last.stderr.slice(-3000)}`).to.equal(0)
    const {loop, manifest} = verifyRun(dir, MAX_ROUNDS)
    // no missing or duplicate rounds; a cut round was re-run from its start
    expect(loop.rounds.map(r => r.round)).to.deep.equal(loop.rounds.map((_, i) => i + 1))
    const resumes = manifest.events.filter(e => e.event === 'resume').length
    expect(kills.length, 'the run must have been killed at least twice').to.be.at.least(2)
    expect(resumes).to.be.at.least(1)
    expect(manifest.deviations.filter(d => /resumed .* idle/.test(d))).to.have.length(resumes)
    if (resumes > 0) expect(manifest.compliance.reasons).to.include('the run was interrupted and resumed (idle time between steps)')
    // no fio of the run is left, no partial outputs are left
    const leftovers = readdirSync(join(dir, 'raw'), {recursive: true}).map(String).filter(f => f.endsWith('.partial'))
    expect(leftovers).to.deep.equal([])
    // the audit recomputes everything from raw/ and accepts the run: the seal written at the
    // end covers the set-aside cut rounds, the idle gaps lie across the recorded resumes, and
    // every identity record (start and each resume) names the same target
    const audit = await runCli(['audit', dir, '--json', '--max-gap-ms', '5000']) // shared test host: see test/commands/audit.test.ts
    const a = JSON.parse(audit.stdout) as {ok: boolean; checks: Array<{id: string; status: string; problems: string[]}>}
    expect(a.checks.filter(c => c.status === 'fail'), `kills: ${kills.join(', ')}`).to.deep.equal([])
    expect(audit.code).to.equal(0)
    expect(manifest.events.filter(e => e.event === 'identity').length).to.equal(manifest.events.filter(e => e.event === 'start' || e.event === 'resume').length)
  })

  it('SIGINT stops cleanly (exit 130, resume command printed) and pts resume finishes the run', async () => {
    const dir = join(tmp, 'sigint')
    const {child, done} = start(['run', 'iops', '--device', `file:${tmp}/s.img`, '--size', '32MiB', '--point-seconds', '0.1', '--max-rounds', '2', '--tc', '1', '--qd', '4', '--out', dir])
    // wait until the first round is under way
    for (let i = 0; i < 200 && !existsSync(join(dir, 'raw', '03-loop', 'round-01')); i++) await sleep(100)
    await sleep(1500)
    child.kill('SIGINT')
    const r = await done
    expect(r.code).to.equal(130)
    expect(r.stderr).to.include(`pts resume ${dir}`)
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RunManifest
    expect(m.status).to.equal('interrupted')
    expect(existsSync(join(dir, 'lock.json'))).to.equal(false)
    // an interrupted run is sealed too: every completed measurement is covered by the manifest's SHA-256 list
    expect(m.integrity?.files.map(f => f.path)).to.include('results.json')
    const again = await runCli(['resume', dir])
    expect(again.code, again.stderr.slice(-2000)).to.equal(0)
    verifyRun(dir, 2)
    const busy = await runCli(['resume', dir])
    expect(busy.code).to.equal(2)
    expect(busy.stderr).to.match(/already complete/)
  })

  it('resume refuses another device identity (capacity changed)', async () => {
    const dir = join(tmp, 'sigint')
    // pretend the stored run was on a bigger target: resume must refuse before touching it
    const {writeFileSync} = await import('node:fs')
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RunManifest
    m.status = 'interrupted'
    m.target.sizeBytes = 64 * 1024 * 1024
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m))
    const res = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))
    res.status = 'interrupted'
    writeFileSync(join(dir, 'results.json'), JSON.stringify(res))
    const r = await runCli(['resume', dir])
    expect(r.code).to.equal(4)
    expect(r.stderr).to.match(/not the device of the run/)
  })
})
