/**
 * Resume of a cut review run through real fio on a file: pts is SIGKILLed in the middle of a
 * sweep phase (transfer-sizes, pts alone: its fio may run on) and of a fill phase (fill in two passes,
 * pts and its fio, as a power cut would), then `pts resume` finishes the run. Every point and
 * piece is stored exactly once and in order, the cut step is re-run, the report renders, and
 * pts audit recomputes every step and passes (the idle gap of the kill lies across the
 * recorded resume). Small scale: a copy of specs/ (PTS_SPECS_DIR) with fewer points.
 */
import {expect} from 'chai'
import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {ROOT, runCli} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'
import {reviewSpecsCopy} from '../helpers/review-specs.js'
import {check} from '../../src/validate.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'
import type {RunManifest} from '../../src/model/manifest.js'

const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

function smallSpecs(dir: string): string {
  return reviewSpecsCopy(dir, {
    'transfer-sizes': s => { s.phases[0].loops[0].values = [4096, 1048576] },
    fill: s => { s.phases[0].steps = 4; s.phases[0].passes = 2 },
  })
}

/** How many steps of phase `id` results.json holds now (0 while it cannot be read). */
function stored(dir: string, id: string): number {
  try {
    const p = readJson<ProgramResults>(join(dir, 'results.json')).phases.find(x => x.id === id)
    return p?.kind === 'sweep' ? p.points.length : p?.kind === 'fill' ? p.steps.length : 0
  } catch { return 0 }
}

/** Start `pts run`, SIGKILL it once `id` holds `after` steps (with its fio too when powerCut), resume, and return the finished results. */
async function cutAndResume(args: string[], dir: string, env: NodeJS.ProcessEnv, id: string, after: number, powerCut: boolean): Promise<{r: ProgramResults; m: RunManifest; killedAt: number}> {
  const child: ChildProcess = spawn(process.execPath, [`${ROOT}bin/dev.js`, ...args], {cwd: ROOT, env: {...process.env, ...env}, stdio: ['ignore', 'ignore', 'pipe']})
  let stderr = ''
  child.stderr!.on('data', d => { stderr += d })
  const done = new Promise<void>(resolve => child.on('exit', () => resolve()))
  let killedAt = -1
  for (let w = 0; w < 1200 && child.exitCode === null; w++) {
    const n = stored(dir, id)
    if (n >= after) {
      child.kill('SIGKILL')
      killedAt = n
      if (powerCut) {
        const lock = readJson<{fio: number[]}>(join(dir, 'lock.json'))
        for (const pid of lock.fio) { try { process.kill(-pid, 'SIGKILL') } catch { /* gone */ } }
      }
      break
    }
    await sleep(50)
  }
  await done
  expect(killedAt, `pts was killed mid-phase (${stderr.slice(-2000)})`).to.be.at.least(after)
  const cut = readJson<RunManifest>(join(dir, 'manifest.json'))
  expect(cut.status, 'the killed run is left as running (no one recorded its end)').to.equal('running')
  const again = await runCli(['resume', dir], {env})
  expect(again.code, again.stderr.slice(-3000)).to.equal(0)
  const r = readJson<ProgramResults>(join(dir, 'results.json'))
  expect(check('program-result.schema.json', r)).to.deep.equal([])
  expect(r.status).to.equal('complete')
  const m = readJson<RunManifest>(join(dir, 'manifest.json'))
  expect(m.events.filter(e => e.event === 'resume')).to.have.length(1)
  expect(m.compliance.reasons).to.include('the run was interrupted and resumed (idle time between steps)')
  return {r, m, killedAt}
}

async function expectAuditPasses(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const audit = await runCli(['audit', dir, '--json', '--max-gap-ms', '5000'], {env}) // shared test host: see test/commands/audit.test.ts
  const a = JSON.parse(audit.stdout) as {ok: boolean; checks: Array<{id: string; status: string; problems: string[]}>}
  expect(a.checks.filter(c => c.status === 'fail')).to.deep.equal([])
  expect(audit.code).to.equal(0)
  const leftovers = readdirSync(join(dir, 'raw'), {recursive: true}).map(String).filter(f => f.endsWith('.partial'))
  expect(leftovers, 'no partial outputs are left').to.deep.equal([])
}

const sweep = (r: ProgramResults, id: string) => r.phases.find((p): p is Extract<PhaseResult, {kind: 'sweep'}> => p.id === id && p.kind === 'sweep')!

describe('resume of a cut review run (SIGKILL mid-phase, real fio on a file)', function () {
  this.timeout(600_000)
  const tmp = useTmpDir('pts-it-reviews-resume-')
  let env: NodeJS.ProcessEnv
  before(() => { env = {PTS_SPECS_DIR: smallSpecs(tmp())} })

  it('transfer-sizes killed in its sweep (pts alone): resume continues with the next point; every point once, in order', async () => {
    const dir = join(tmp(), 'transfer-sizes')
    const args = ['run', 'transfer-sizes', '--device', `file:${join(tmp(), 't.img')}`, '--size', '32MiB', '--time-scale', '0.03', '--out', dir]
    const {r, killedAt} = await cutAndResume(args, dir, env, 'sizes', 1, false)
    expect(killedAt).to.be.below(4)
    const s = sweep(r, 'sizes')
    expect(s.status).to.equal('done')
    expect(s.points.map(p => `${p.blockSizeBytes}/${p.readPct}`)).to.deep.equal(['4096/0', '4096/100', '1048576/0', '1048576/100'])
    expect(s.points.map(p => p.index)).to.deep.equal([0, 1, 2, 3])
    for (const p of s.points) expect(p.ioCount, p.label).to.be.greaterThan(0)
    // each point's raw output is its own, and the points ran one after the other in their order
    expect(new Set(s.points.map(p => p.raw.json)).size).to.equal(4)
    for (let i = 1; i < 4; i++) expect(BigInt(s.points[i].startNs) >= BigInt(s.points[i - 1].endNs), `point ${i + 1} after point ${i}`).to.equal(true)
    await expectAuditPasses(dir, env)
    expect(existsSync(join(dir, 'report.pdf'))).to.equal(true)
  })

  it('fill (two passes) killed in its second pass with its fio: resume continues with the next piece; every piece once, in LBA order', async () => {
    const dir = join(tmp(), 'fill')
    const args = ['run', 'fill', '--device', `file:${join(tmp(), 'l.img')}`, '--size', '64MiB', '--out', dir]
    const {r, killedAt} = await cutAndResume(args, dir, env, 'fill', 5, true)
    expect(killedAt).to.be.below(8)
    const f = r.phases.find((p): p is Extract<PhaseResult, {kind: 'fill'}> => p.kind === 'fill')!
    expect(f.status).to.equal('done')
    const piece = 16 * 1024 * 1024
    expect(f.steps.map(s => `${s.pass}:${s.offsetBytes}`)).to.deep.equal([1, 2].flatMap(pass => Array.from({length: 4}, (_, k) => `${pass}:${k * piece}`)))
    for (const s of f.steps) expect(s.writeBytes).to.equal(s.sizeBytes)
    for (let i = 1; i < f.steps.length; i++) expect(BigInt(f.steps[i].startNs) >= BigInt(f.steps[i - 1].endNs), `piece ${i + 1} after piece ${i}`).to.equal(true)
    await expectAuditPasses(dir, env)
  })
})
