/**
 * Several drives at once (pts run --device A --device B ...): real fio on four loop devices this
 * test creates (sparse files, losetup --direct-io=on; detached after). Lane 1 finishes first;
 * lane 2 plays a slow drive (its pts is stopped for a while), lane 3 is not confirmed (refused by the safety gate), lane 4's
 * backing file lives on a 4 MiB tmpfs, so its fio fails (no space) while the others go on. pts is
 * killed (SIGKILL) when lane 1 is complete; pts resume <fleet> (on a terminal, through script(1))
 * finishes lane 2 and keeps lane 1 as it was. The fleet PDF is rendered by Chromium and read back.
 */
import {expect} from 'chai'
import {execFileSync, spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {closeSync, existsSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ROOT} from '../helpers/cli.js'
import {requireRoot} from '../helpers/requires.js'
import {check} from '../../src/validate.js'
import {measureLayout} from '../../bench/layout.js'

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex')
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

function sparse(path: string, bytes: number): void {
  const fd = openSync(path, 'w')
  ftruncateSync(fd, bytes)
  closeSync(fd)
}

describe('pts run with several --device: one lane per drive (real fio, loop devices, root)', function () {
  this.timeout(400_000)
  let tmp = ''
  let tiny = ''
  const loops: string[] = []
  let lane2Pid = 0
  before(function () {
    requireRoot(this, 'creating loop devices and a tmpfs')
    tmp = mkdtempSync(join(tmpdir(), 'pts-it-lanes-'))
  })
  after(() => {
    // a lane left running by a failed assertion is stopped first (it holds its loop device): its pid is in its lock.json
    if (lane2Pid) { try { process.kill(lane2Pid, 'SIGCONT') } catch { /* gone */ } }
    const fleet = join(tmp, 'fleet')
    for (const d of existsSync(fleet) ? readdirSync(fleet) : []) {
      try { process.kill(JSON.parse(readFileSync(join(fleet, d, 'lock.json'), 'utf8')).pid, 'SIGKILL') } catch { /* no lock, or gone */ }
    }
    for (const l of loops) { try { execFileSync('losetup', ['-d', l]) } catch { /* already */ } }
    if (tiny) { try { execFileSync('umount', [tiny]) } catch { /* already */ } }
    if (tmp) rmSync(tmp, {recursive: true, force: true})
  })

  it('runs the lanes at once; a refused lane and a failed fio do not stop the others; resume after SIGKILL finishes the rest; the fleet report', async () => {
    tiny = join(tmp, 'tiny')
    mkdirSync(tiny)
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', tiny])
    const loop = (file: string, bytes: number, direct: boolean) => {
      sparse(file, bytes)
      const dev = execFileSync('losetup', ['-f', '--show', ...(direct ? ['--direct-io=on'] : []), file], {encoding: 'utf8'}).trim()
      loops.push(dev)
      return dev
    }
    const small = loop(join(tmp, 'small.img'), 16 << 20, true)
    const large = loop(join(tmp, 'large.img'), 64 << 20, true)
    const unconfirmed = loop(join(tmp, 'unconfirmed.img'), 16 << 20, true)
    const full = loop(join(tiny, 'full.img'), 64 << 20, false)
    const before3 = sha(unconfirmed)
    const fleet = join(tmp, 'fleet')
    const args = ['run', 'tp', '--revision', 'pts-c-1.2', '--device', small, '--device', large, '--device', unconfirmed, '--device', full,
      '--yes-destroy-data', small, '--yes-destroy-data', large, '--yes-destroy-data', full, '--purge', 'discard',
      '--point-seconds', '0.2', '--max-rounds', '2', '--tc', '1', '--qd', '2', '--wipc-multiple', '1', '--out', fleet]
    const child = spawn(process.execPath, [`${ROOT}bin/dev.js`, ...args], {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe']})
    let stderr = ''
    child.stderr.on('data', d => { stderr += d })
    const exited = new Promise<number | null>(r => child.on('exit', code => r(code)))
    const index = () => JSON.parse(readFileSync(join(fleet, 'fleet.json'), 'utf8')) as {lanes: Array<{status: string; dir: string; exit: number | null; error: string | null}>}
    // lane 2 plays a slow drive: its pts is stopped (SIGSTOP) once it holds its lane, and pts is
    // killed (SIGKILL) as soon as lane 1 is complete; then lane 2 goes on (SIGCONT) without its parent
    const t0 = Date.now()
    const waitFor = async (what: string, ok: () => boolean) => {
      while (!ok()) {
        if (Date.now() - t0 > 200_000 || child.exitCode !== null) expect.fail(`${what} (pts exit ${child.exitCode}):\n${stderr.slice(-3000)}`)
        await sleep(50)
      }
    }
    await waitFor('lane 2 never held its run directory', () => existsSync(join(fleet, 'fleet.json')) && existsSync(join(fleet, index().lanes[1].dir, 'lock.json')) && existsSync(join(fleet, index().lanes[1].dir, 'results.json')))
    lane2Pid = JSON.parse(readFileSync(join(fleet, index().lanes[1].dir, 'lock.json'), 'utf8')).pid as number
    process.kill(lane2Pid, 'SIGSTOP')
    await waitFor('lanes 1, 3 and 4 did not end while pts ran', () => [0, 2, 3].every(i => !['running', 'pending'].includes(index().lanes[i].status)))
    const lane2Dir = join(fleet, index().lanes[1].dir)
    const lane2Was = JSON.parse(readFileSync(join(lane2Dir, 'results.json'), 'utf8')).status
    child.kill('SIGKILL')
    await exited
    process.kill(lane2Pid, 'SIGCONT')
    expect(lane2Was, 'lane 2 (stopped) was still running when pts was killed').to.equal('running')
    // not a terminal: plain lines, each with the wall-clock time and its lane
    expect(stderr).to.match(new RegExp(`^\\d\\d:\\d\\d:\\d\\dZ \\[lane 1 ${small}\\s*\\] .*\\| ETA .*\\(done \\d\\d:\\d\\dZ`, 'm'))

    const killed = index()
    expect(check('fleet.schema.json', killed)).to.deep.equal([])
    expect(killed.lanes.map(l => l.status).slice(0, 3)).to.deep.equal(['complete', 'running', 'refused'])
    expect(killed.lanes[2].error).to.match(/not confirmed: pass --yes-destroy-data/)
    expect(sha(unconfirmed), 'the refused drive was not written').to.equal(before3)
    expect(existsSync(join(fleet, killed.lanes[2].dir)), 'the refused lane has no run directory').to.equal(false)
    // lane 4's fio failed (no space on its backing file system) while lanes 1 and 2 ran on
    expect(killed.lanes[3].status).to.equal('failed')
    expect(killed.lanes[3].exit).to.equal(6)
    const lane1 = join(fleet, killed.lanes[0].dir)
    const lane1Results = sha(join(lane1, 'results.json'))
    const m1 = JSON.parse(readFileSync(join(lane1, 'manifest.json'), 'utf8'))
    expect(m1.concurrency.drives, 'the drives that ran at the same time (not the refused one)').to.deep.equal([small, large, full])
    expect(m1.concurrency.hostCpu[0].cpus).to.be.at.least(1)
    expect(m1.concurrency.hostCpu[0].busyPct).to.be.within(0, 100)
    expect(m1.deviations.join('\n')).to.include(`tested at the same time as 2 other drives on this host (${large}, ${full})`)
    expect(execFileSync('pdftotext', [join(lane1, 'report.pdf'), '-'], {encoding: 'utf8'})).to.match(/Concurrent:\s+3\s+drives\s+at\s+once[\s\S]*Host CPU:\s+[\d.]+%\s+busy/)
    // a lane's header (the concurrent drives, the host CPU, one more deviation) is the largest of
    // all: before the summary could go on over a continuation page its last lines ran under the caption
    for (const p of await measureLayout(readFileSync(join(lane1, 'report.html'), 'utf8'))) {
      expect(p.overflowMm, `lane 1 report page ${p.page} (${p.kind}) reaches ${p.overflowMm.toFixed(1)} mm below the top of its caption`).to.be.at.most(0)
    }

    // resume on a terminal 72 columns wide: lane 2 continues (its pts stopped when its parent went away), lane 1 is kept
    const r = spawn('script', ['-qec', `stty cols 72 rows 40; exec ${process.execPath} ${ROOT}bin/dev.js resume ${fleet}`, '/dev/null'], {cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe']})
    let tty = ''
    r.stdout.on('data', d => { tty += d })
    const code = await new Promise<number | null>(res => r.on('exit', c => res(c)))
    // PTS_LANES_TTY=<file>: keep what the terminal showed, to look at it
    if (process.env.PTS_LANES_TTY) writeFileSync(process.env.PTS_LANES_TTY, tty)
    const done = index()
    expect(done.lanes.map(l => l.status), tty.slice(-3000)).to.deep.equal(['complete', 'complete', 'refused', 'failed'])
    expect(code, 'exit 64 + lane 3 (4) + lane 4 (8)').to.equal(76)
    expect(sha(join(lane1, 'results.json')), 'lane 1 was not run again').to.equal(lane1Results)
    const m2 = JSON.parse(readFileSync(join(lane2Dir, 'manifest.json'), 'utf8'))
    expect(m2.events.map((e: {event: string}) => e.event)).to.include('resume')
    expect(m2.integrity?.sealedAt, 'lane 2 sealed').to.be.a('string')
    // every progress line drawn on the terminal fits its 72 columns, the steady-state status on it:
    // each redraw starts at column 1 (ESC[1G) or on a new line; the other control sequences are taken out
    // eslint-disable-next-line no-control-regex
    const drawn = tty.split(/\r\n|\r|\n|\x1b\[1G|\x1b\[2K/).map(l => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''))
    const bars = drawn.filter(l => /^\[\d \/dev\/loop\d+\]\s+\d+% /.test(l))
    expect(bars.length, `progress lines drawn:\n${tty.slice(-2000)}`).to.be.greaterThan(2)
    for (const l of bars) expect([...l].length, l).to.be.at.most(71)
    expect(bars.some(l => / \| ETA [^|]+\(done \d\d:\d\dZ\) \| SS: /.test(l)), bars.join('\n')).to.equal(true)

    const text = execFileSync('pdftotext', ['-layout', join(fleet, 'fleet.pdf'), '-'], {encoding: 'utf8'})
    expect(text).to.include('Fleet report: tp, 4 drives')
    for (const d of [small, large, unconfirmed, full]) expect(text).to.include(d)
    expect(text).to.match(/Sample variation per model/)
    expect(text).to.match(/refused/)
    expect(text).to.match(/failed/)
    // both loop devices that completed are one model: their variation row (min, median, max, CV)
    expect(text).to.match(/SEQ 1024KiB[^\n]*MB\/s\s+2\s+[\d.,]+\s+[\d.,]+\s+[\d.,]+\s+[\d.]+ %/)
  })
})

describe('pts run with several --device: Ctrl-C (SIGINT) stops every lane cleanly (real fio, files)', function () {
  this.timeout(200_000)
  let tmp = ''
  before(() => { tmp = mkdtempSync(join(tmpdir(), 'pts-it-lanes-int-')) })
  after(() => { if (tmp) rmSync(tmp, {recursive: true, force: true}) })

  it('passes the signal on once: each lane ends interrupted (its points kept), exit 64 + lanes 1 and 2', async () => {
    const fleet = join(tmp, 'fleet')
    const args = ['run', 'tp', '--revision', 'pts-c-1.2', '--device', `file:${join(tmp, 'a.img')}`, '--device', `file:${join(tmp, 'b.img')}`, '--size', '16MiB',
      '--point-seconds', '1', '--max-rounds', '5', '--tc', '1', '--qd', '2', '--wipc-multiple', '1', '--out', fleet]
    const child = spawn(process.execPath, [`${ROOT}bin/dev.js`, ...args], {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    child.stdout.on('data', d => { out += d })
    child.stderr.on('data', d => { out += d })
    const exited = new Promise<number | null>(r => child.on('exit', code => r(code)))
    const lanes = () => (JSON.parse(readFileSync(join(fleet, 'fleet.json'), 'utf8')) as {lanes: Array<{dir: string; status: string}>}).lanes
    const points = (dir: string) => (JSON.parse(readFileSync(join(fleet, dir, 'results.json'), 'utf8')) as {phases: Array<{rounds?: unknown[]}>}).phases.some(p => (p.rounds?.length ?? 0) > 0)
    const t0 = Date.now()
    while (!(existsSync(join(fleet, 'fleet.json')) && lanes().every(l => existsSync(join(fleet, l.dir, 'results.json')) && points(l.dir)))) {
      if (Date.now() - t0 > 150_000 || child.exitCode !== null) expect.fail(`the lanes did not reach their loops (exit ${child.exitCode}):\n${out.slice(-3000)}`)
      await sleep(100)
    }
    child.kill('SIGINT')
    expect(await exited, out.slice(-2000)).to.equal(64 + 1 + 2)
    for (const l of lanes()) {
      expect(l.status).to.equal('interrupted')
      expect(JSON.parse(readFileSync(join(fleet, l.dir, 'results.json'), 'utf8')).status).to.equal('interrupted')
      expect(existsSync(join(fleet, l.dir, 'lock.json')), 'the lane released its lock').to.equal(false)
    }
    expect(out).to.include(`Continue the lanes not complete (not the refused ones) with: pts resume ${fleet}`)
  })
})
