/**
 * pts serve, for real: a real short run on a file target, watched through `pts serve` in real
 * Chromium (puppeteer-core, Debian's /usr/bin/chromium): the page changes while the run progresses,
 * a SIGKILLed run shows as stopped with its resume command (list row and detail pane agree), a run
 * whose fio fails shows as failed. The server answers only GET/HEAD and serves nothing outside the
 * folder; with a token it refuses requests without it. `pts report` of the run while it runs and
 * after it was killed: IN PROGRESS on every page.
 *
 * PTS_LIVE_SCREENSHOT=<file.png> saves a screenshot of the page with the run selected.
 */
import {expect} from 'chai'
import {execFileSync, spawn, type ChildProcess} from 'node:child_process'
import {cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {request} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {Browser, Page} from 'puppeteer-core'
import {ROOT, runCli} from '../helpers/cli.js'
import {check} from '../../src/validate.js'
import {killFio} from '../../src/proc.js'
import {LiveServer, isLoopback} from '../../src/live/server.js'
import type {ServeStateJson} from '../../src/live/snapshot.js'

function raw(port: number, path: string, o: {method?: string; headers?: Record<string, string>} = {}): Promise<{status: number; body: string; headers: Record<string, unknown>}> {
  return new Promise((ok, fail) => {
    const req = request({host: '127.0.0.1', port, path, method: o.method ?? 'GET', headers: o.headers}, res => {
      let body = ''
      res.on('data', d => { body += d })
      res.on('end', () => ok({status: res.statusCode ?? 0, body, headers: res.headers}))
    })
    req.on('error', fail)
    req.end()
  })
}

const short = ['--size', '16MiB', '--point-seconds', '0.1', '--tc', '1', '--qd', '4']

describe('pts serve: the live page in real Chromium', function () {
  this.timeout(120_000)
  let tmp: string
  let served: string
  let serve: ChildProcess | null = null
  let url = ''
  let port = 0
  let browser: Browser | null = null
  let page: Page
  const runs: ChildProcess[] = []

  before(async function () {
    tmp = mkdtempSync(join(tmpdir(), 'pts-serve-'))
    served = join(tmp, 'reports')
    mkdirSync(served)
    serve = spawn(process.execPath, [`${ROOT}bin/dev.js`, 'serve', served, '--port', '0'], {stdio: ['ignore', 'pipe', 'pipe']})
    url = await new Promise<string>((ok, fail) => {
      let out = ''
      const t = setTimeout(() => fail(new Error(`pts serve printed no address: ${out}`)), 30_000)
      serve!.stdout!.on('data', d => { out += d; const m = /at (http:\/\/\S+)/.exec(out); if (m) { clearTimeout(t); ok(m[1]) } })
      serve!.on('exit', code => fail(new Error(`pts serve exited ${code}: ${out}`)))
    })
    port = Number(new URL(url).port)
    const {default: puppeteer} = await import('puppeteer-core')
    const home = join(tmp, 'chromium')
    browser = await puppeteer.launch({executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true, pipe: true, userDataDir: join(home, 'profile'),
      env: {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache')},
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']})
    page = await browser.newPage()
    await page.setViewport({width: 1400, height: 1100})
    // nothing but the server: no other network
    await page.setRequestInterception(true)
    page.on('request', req => { if (req.url().startsWith(url.replace(/\/$/, ''))) void req.continue(); else void req.abort('blockedbyclient') })
  })

  after(async () => {
    await browser?.close().catch(() => {})
    for (const r of runs) if (r.exitCode === null && r.pid) { try { process.kill(r.pid, 'SIGKILL') } catch { /* gone */ } }
    if (tmp) await killFio(join(tmp, 'reports'))
    if (serve?.pid && serve.exitCode === null) serve.kill('SIGTERM')
    if (tmp) rmSync(tmp, {recursive: true, force: true})
  })

  const cell = (sel: string) => page.$eval(sel, el => el.textContent ?? '')
  const state = async (run: string): Promise<ServeStateJson> => JSON.parse((await raw(port, `/api/state?run=${encodeURIComponent(run)}`)).body) as ServeStateJson

  it('shows a run progressing (no reload), then stopped with its resume command after SIGKILL; pts report marks it IN PROGRESS on every page', async () => {
    const dir = join(served, 'lab1', 'a')
    // LAT: 9 points a round, so rounds complete within seconds; its histogram run (1 min at this time scale) keeps it running
    const run = spawn(process.execPath, [`${ROOT}bin/dev.js`, 'run', 'lat', '--device', `file:${join(tmp, 'a.img')}`, ...short, '--max-rounds', '25', '--time-scale', '0.05', '--out', dir], {stdio: 'ignore'})
    runs.push(run)
    await page.goto(url, {waitUntil: 'load'})
    const row = 'tr[data-run-id="lab1/a"]'
    await page.waitForSelector(row, {timeout: 30_000})
    expect(await cell('#list h2')).to.equal('Folder lab1')
    await page.$eval(row, el => (el as HTMLElement).click())
    await page.waitForFunction(() => Number(document.querySelector('#detail .steps')?.textContent ?? 0) >= 1, {timeout: 30_000, polling: 200})
    const first = Number(await cell('#detail .steps'))
    await page.evaluate(() => { (window as unknown as {notReloaded: boolean}).notReloaded = true })
    // the same page, not reloaded, shows more test points as they are stored
    await page.waitForFunction((n: number) => Number(document.querySelector('tr.run .steps')?.textContent ?? 0) > n, {timeout: 30_000, polling: 200}, first)
    expect(await page.evaluate(() => (window as unknown as {notReloaded?: boolean}).notReloaded)).to.equal(true)
    expect(await page.$eval(row, el => (el as HTMLElement).dataset.state)).to.equal('running')
    expect(await cell(`${row} td:nth-child(8)`), 'time left').to.match(/\d/)
    await page.waitForSelector('#detail .chart svg', {timeout: 30_000})
    // once round 1 is complete: its convergence chart, and the round count rises
    await page.waitForFunction(() => Array.from(document.querySelectorAll('#detail .chart h3')).some(h => /steady-state convergence/.test(h.textContent ?? '')), {timeout: 60_000, polling: 250})
    await page.waitForFunction(() => /^[2-9]\d* of at most 25$/.test(document.querySelector('#detail .round')?.textContent ?? ''), {timeout: 30_000, polling: 250})
    if (process.env.PTS_LIVE_SCREENSHOT) await page.screenshot({path: process.env.PTS_LIVE_SCREENSHOT, fullPage: true})

    // pts report of the run while it runs (the report model: the header every page repeats; the PDF's pages are checked after the kill)
    const live = await runCli(['report', dir, '--format', 'json', '--out', join(tmp, 'live-report')])
    expect(live.code, live.stderr).to.equal(0)
    const model = JSON.parse(readFileSync(join(tmp, 'live-report', 'report-model.json'), 'utf8')) as {header: {inProgress?: string}; pages: unknown[]}
    expect(model.header.inProgress).to.match(/^IN PROGRESS: this report shows only what was stored when it was made\. The run is still running \(pts process \d+\)\.$/)
    expect(model.pages.length).to.be.greaterThan(3)
    expect(run.exitCode, 'the run was still running when its report was made').to.equal(null)

    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {pid: number}
    process.kill(manifest.pid, 'SIGKILL')
    await killFio(join(dir, 'raw'))
    await page.waitForFunction((sel: string) => (document.querySelector(sel) as HTMLElement | null)?.dataset.state === 'stopped'
      && (document.querySelector('#detail [data-state]') as HTMLElement | null)?.dataset.state === 'stopped', {timeout: 30_000, polling: 200}, row)
    expect(await cell('#detail code.resume')).to.equal(`pts resume ${dir}`)
    expect(await cell('#detail .state')).to.match(/^stopped: its pts process \(pid \d+\) is gone/)
    if (process.env.PTS_LIVE_SCREENSHOT) await page.screenshot({path: process.env.PTS_LIVE_SCREENSHOT.replace(/\.png$/, '-stopped.png'), fullPage: true})

    // the API: its schema, and the selected run's row is the list's row from the same read
    const s = await state('lab1/a')
    expect(check('cli/serve-state.schema.json', s)).to.deep.equal([])
    expect(s.selected!.row).to.deep.equal(s.groups.find(g => g.folder === 'lab1')!.runs[0])
    expect(s.selected!.row.state).to.equal('stopped')
    expect(s.selected!.detail!.convergence[0].variables.length).to.be.greaterThan(0)

    // pts report after the kill: PDF, every page
    const killed = await runCli(['report', dir, '--format', 'pdf', '--out', join(tmp, 'killed-report')])
    expect(killed.code, killed.stderr).to.equal(0)
    const pdf = join(tmp, 'killed-report', 'report.pdf')
    const n = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], {encoding: 'utf8'}))![1])
    expect(n).to.be.greaterThan(3)
    for (let k = 1; k <= n; k++) {
      const text = execFileSync('pdftotext', ['-f', String(k), '-l', String(k), pdf, '-'], {encoding: 'utf8'}).replace(/\s+/g, ' ')
      expect(text, `page ${k}`).to.include('IN PROGRESS').and.include('The run stopped before its end').and.include(`pts resume ${dir}`)
    }
  })

  it('shows a run whose fio fails as failed, with fio\'s error', async () => {
    const dir = join(served, 'lab2', 'b')
    const r = await runCli(['run', 'iops', '--device', `file:${join(tmp, 'b.img')}`, ...short, '--max-rounds', '2', '--ioengine', 'no_such_engine', '--out', dir])
    expect(r.code).to.equal(6)
    const row = 'tr[data-run-id="lab2/b"]'
    await page.waitForSelector(row, {timeout: 15_000})
    expect(await page.$eval(row, el => (el as HTMLElement).dataset.state)).to.equal('failed')
    await page.$eval(row, el => (el as HTMLElement).click())
    await page.waitForFunction(() => (document.querySelector('#detail') as HTMLElement).dataset.runId === 'lab2/b', {timeout: 15_000, polling: 200})
    expect(await cell('#detail .state')).to.match(/^failed: fio failed/)
    expect(await cell('#detail code.resume')).to.equal(`pts resume ${dir}`)
    if (process.env.PTS_LIVE_SCREENSHOT) await page.screenshot({path: process.env.PTS_LIVE_SCREENSHOT.replace(/\.png$/, '-failed.png'), fullPage: true})

    // a collected host folder of a fleet: listed by its folder, grouped under the fleet (a fleet.json only adds the grouping)
    cpSync(dir, join(served, 'fleet1', 'host-a', 'b'), {recursive: true})
    writeFileSync(join(served, 'fleet1', 'fleet.json'), '{}\n')
    await page.waitForSelector('tr[data-run-id="fleet1/host-a/b"]', {timeout: 15_000})
    expect(await page.$$eval('#list h2', hs => hs.map(h => h.textContent))).to.include('Fleet fleet1: host-a')
    const g = (await state('')).groups.find(x => x.folder === 'fleet1/host-a')!
    expect([g.kind, g.fleet, g.runs.map(r => r.state)]).to.deep.equal(['folder', 'fleet1', ['failed']])
  })

  it('answers only GET and HEAD, and reads nothing outside the served folder', async () => {
    writeFileSync(join(tmp, 'secret.txt'), 'outside\n')
    symlinkSync(tmp, join(served, 'out-link'))
    symlinkSync(join(tmp, 'secret.txt'), join(served, 'secret-link.txt'))
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await raw(port, '/api/state', {method})
      expect(r.status, method).to.equal(405)
      expect(r.headers.allow).to.equal('GET, HEAD')
    }
    expect((await raw(port, '/files/lab1/a/manifest.json')).status).to.equal(200)
    expect((await raw(port, '/files/lab1/a/manifest.json', {method: 'HEAD'})).status).to.equal(200)
    for (const path of ['/files/../secret.txt', '/files/..%2fsecret.txt', '/files/%2e%2e/secret.txt', '/files/%2E%2E%2Fsecret.txt', '/files/lab1/../../secret.txt',
      '/files/out-link/secret.txt', '/files/secret-link.txt', `/files/${encodeURIComponent(join(tmp, 'secret.txt'))}`, '/../secret.txt', '/files/%00']) {
      const r = await raw(port, path)
      expect(r.status, path).to.be.oneOf([400, 404])
      expect(r.body, path).to.not.include('outside')
    }
    // a request addressed to another name (a rebound DNS name) is refused on loopback
    expect((await raw(port, '/api/state', {headers: {Host: 'attacker.example:80'}})).status).to.equal(403)
    // the symlinked folder is not listed either
    expect((await state('')).groups.map(g => g.folder)).to.not.include('out-link')
  })

  it('with a token (any address but loopback), refuses requests without it', async () => {
    expect(isLoopback('127.0.0.1') && isLoopback('127.3.4.5') && isLoopback('::1') && isLoopback('localhost')).to.equal(true)
    expect(isLoopback('0.0.0.0') || isLoopback('10.0.0.1') || isLoopback('::')).to.equal(false)
    const token = LiveServer.newToken()
    const s = new LiveServer(served, {host: '127.0.0.1', port: 0, token})
    const {port: p, url: u} = await s.listen()
    try {
      expect(u).to.include(`?token=${token}`)
      expect((await raw(p, '/')).status).to.equal(401)
      expect((await raw(p, '/api/state?token=wrong')).status).to.equal(401)
      const first = await raw(p, `/?token=${token}`)
      expect(first.status).to.equal(200)
      const cookie = String((first.headers['set-cookie'] as string[])[0]).split(';')[0]
      expect((await raw(p, '/api/state', {headers: {Cookie: cookie}})).status).to.equal(200)
      expect((await raw(p, '/vendor/vega.min.js', {headers: {Cookie: cookie}})).status).to.equal(200)
      expect((await raw(p, '/api/state', {headers: {Authorization: `Bearer ${token}`}})).status).to.equal(200)
      expect((await raw(p, '/api/state', {method: 'POST', headers: {Cookie: cookie}})).status).to.equal(405)
    } finally {
      await s.close()
    }
    expect(existsSync(served)).to.equal(true)
  })
})
