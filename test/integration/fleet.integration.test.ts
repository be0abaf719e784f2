/**
 * pts fleet for real (root only): two hosts, each a network namespace with its own hostname
 * (unshare --uts), address (10.213.N.2, inside the namespaces only), sshd (Debian openssh-server,
 * a test-made host key, public keys only) and loop device; the controller runs in a namespace of
 * its own and drives them with real ansible-core over real ssh (test/helpers/netns-fleet.ts). Each
 * host runs this checkout's bin/run.js (the namespaces share the file system; the run directories
 * are each host's own work directory). A tiny LAT run per drive (0.2 s points, --time-scale 0.001,
 * 32 MiB). One host's pts is killed with SIGKILL mid-run; pts fleet resume finishes it, the other
 * host's run is left as it was; collect copies both back byte for byte and pts audit passes on the copies.
 */
import {expect} from 'chai'
import {execFileSync, spawn} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {ROOT} from '../helpers/cli.js'
import {requireRoot} from '../helpers/requires.js'
import {createNetnsFleet, type NetnsFleet} from '../helpers/netns-fleet.js'
import {whichPath} from '../../src/proc.js'
import {check} from '../../src/validate.js'
import type {FleetActionJson, FleetCollectJson, FleetPlanJson, HostsFleetIndex} from '../../src/fleet/hosts.js'
import {fleetRows, hostsRefs} from '../../src/report/fleet/index.js'
import {headlineNumber, shownDecimals} from '../../src/report/fleet/model.js'
import {fmtNumber} from '../../src/report/fleet/html.js'

const sleep = (ms: number): Promise<void> => new Promise(r => setTimeout(r, ms))

function files(dir: string): string[] {
  return readdirSync(dir, {recursive: true, encoding: 'utf8'}).filter(f => statSync(join(dir, f)).isFile()).sort()
}
const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex')

async function until(what: string, ms: number, ok: () => boolean): Promise<void> {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await sleep(200)
  }
}

const manifestStatus = (runDir: string): string | null => {
  try { return (JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as {status: string}).status } catch { return null }
}

describe('pts fleet over Ansible and ssh, on network-namespace hosts (root only)', function () {
  this.timeout(300_000)
  let fleet: NetnsFleet | null = null
  let inv = ''
  let dir = ''
  let confirm: string[] = []
  const pts = (args: string[], timeoutMs = 180_000) => fleet!.inCtl([process.execPath, join(ROOT, 'bin/run.js'), ...args], {timeoutMs})
  const runDirOf = (i: number): string => join(fleet!.hosts[i].workDir, 'f1', fleet!.hosts[i].loops[0].slice('/dev/'.length))

  before(async function () {
    requireRoot(this, 'network namespaces, sshd and loop devices')
    // .ci/setup installs these: a missing one is a failure, not a skip
    for (const tool of ['ansible', 'sshd', 'ssh', 'ssh-keygen', 'ip', 'unshare', 'losetup', 'fio']) expect(whichPath(tool), `${tool} is not installed (bash .ci/setup)`).to.not.equal(null)
    expect(existsSync(join(ROOT, 'dist/commands/fleet/agent.js')), 'dist/ is missing or old: npm run build').to.equal(true)
    fleet = await createNetnsFleet(['node-a', 'node-b'])
    dir = join(fleet.dir, 'controller')
    inv = join(fleet.dir, 'fleet.json')
    writeFileSync(inv, JSON.stringify({
      name: 'f1', test: 'lat',
      runArgs: ['--point-seconds', '0.2', '--max-rounds', '5', '--wipc-multiple', '1', '--time-scale', '0.001', '--purge', 'none', '--seed', '7'],
      ssh: {user: 'root', identityFile: fleet.clientKey, knownHostsFile: fleet.knownHosts},
      hosts: Object.fromEntries(fleet.hosts.map(h => [h.name, {address: h.address, pts: [process.execPath, join(ROOT, 'bin/run.js')], workDir: h.workDir, drives: [{path: h.loops[0], serial: null}]}])),
    }, null, 2))
    confirm = fleet.hosts.flatMap(h => ['--yes-destroy-data', `${h.name}:${h.loops[0]}`])
  })

  after(() => { fleet?.destroy() })

  it('plan gathers every host\'s hostname, versions and drives over ssh, and names the confirmations', async () => {
    const r = await pts(['fleet', 'plan', inv, '--dir', dir, '--json'])
    expect(r.code, r.stderr + r.stdout).to.equal(0)
    const plan = JSON.parse(r.stdout) as FleetPlanJson
    expect(check('cli/fleet-plan.schema.json', plan)).to.deep.equal([])
    expect(plan.problems).to.deep.equal([])
    expect(plan.hosts.map(h => h.hostname)).to.deep.equal(['node-a', 'node-b'])
    expect(new Set(plan.hosts.map(h => h.fioVersion)).size).to.equal(1)
    expect(plan.hosts[0].fioVersion).to.match(/^fio-/)
    for (const [i, h] of plan.hosts.entries()) {
      expect(h.lanes).to.have.length(1)
      expect(h.lanes[0].device?.realPath).to.equal(fleet!.hosts[i].loops[0])
      expect(h.lanes[0].safety?.proceed, JSON.stringify(h.lanes[0].safety)).to.equal(true)
      expect(h.lanes[0].state).to.equal('not started')
    }
    expect(plan.confirmations).to.deep.equal(fleet!.hosts.map(h => `${h.name}:${h.loops[0]}`))
  })

  it('plan refuses a fleet with a host that does not answer, and names it', async () => {
    const withDead = JSON.parse(readFileSync(inv, 'utf8')) as {hosts: Record<string, {address: string}>}
    withDead.hosts['node-c'] = {...withDead.hosts['node-a'], address: '10.213.99.2'}
    const f = join(fleet!.dir, 'fleet-dead.json')
    writeFileSync(f, JSON.stringify(withDead))
    const r = await pts(['fleet', 'plan', f, '--dir', join(fleet!.dir, 'controller-dead'), '--json'])
    expect(r.code, r.stderr).to.equal(12)
    const plan = JSON.parse(r.stdout) as FleetPlanJson
    expect(plan.hosts.map(h => h.hostname)).to.deep.equal(['node-a', 'node-b', null])
    expect(plan.problems).to.have.length(1)
    expect(plan.problems[0]).to.match(/^node-c: unreachable: /)
  })

  it('run refuses drives not confirmed as host:serial, and writes nothing', async () => {
    const r = await pts(['fleet', 'run', inv, '--dir', dir, '--yes-destroy-data', `node-a:${fleet!.hosts[0].loops[0]}`])
    expect(r.code).to.equal(4)
    expect(r.stderr).to.include(`node-b:${fleet!.hosts[1].loops[0]}`)
    expect(existsSync(join(fleet!.hosts[0].workDir, 'f1'))).to.equal(false)
  })

  it('run starts both hosts detached; a SIGKILLed host shows as stopped; resume finishes it; the other host is left alone', async () => {
    const r = await pts(['fleet', 'run', inv, '--dir', dir, '--json', ...confirm])
    expect(r.code, r.stderr + r.stdout).to.equal(0)
    const started = JSON.parse(r.stdout) as FleetActionJson
    expect(check('cli/fleet-action.schema.json', started)).to.deep.equal([])
    expect(started.hosts.map(h => h.reply?.lanes[0].action)).to.satisfy((a: string[]) => a.every(x => /^started pts run \(pid \d+\)$/.test(x)))
    // the ansible command and its ssh session are gone; the runs go on (they run in sessions of their own)
    const b = runDirOf(1)
    await until('node-b round 2', 120_000, () => existsSync(join(b, 'raw/03-loop/round-02')))
    const lock = JSON.parse(readFileSync(join(b, 'lock.json'), 'utf8')) as {pid: number; host: string}
    expect(lock.host).to.equal('node-b')
    process.kill(lock.pid, 'SIGKILL')
    await sleep(300)
    const st = await pts(['fleet', 'status', inv, '--dir', dir, '--json'])
    expect(st.code, st.stderr).to.equal(0)
    const status = JSON.parse(st.stdout) as FleetActionJson
    expect(check('cli/fleet-action.schema.json', status)).to.deep.equal([])
    const laneB = status.hosts[1].reply!.lanes[0]
    expect(laneB.state).to.equal('stopped')
    expect(laneB.phase).to.be.a('string')
    expect(['running', 'complete']).to.include(status.hosts[0].reply!.lanes[0].state)
    // something else holds node-b's drive open: resume refuses that lane and names the process
    const holder = spawn('sh', ['-c', 'exec 3<"$0"; exec sleep 120', fleet!.hosts[1].loops[0]], {stdio: 'ignore'})
    try {
      await until('the holder opened the drive', 10_000, () => { try { return readdirSync(`/proc/${holder.pid}/fd`).length > 3 } catch { return false } })
      const refused = await pts(['fleet', 'resume', inv, '--dir', dir, '--json', ...confirm])
      expect(refused.code, refused.stderr + refused.stdout).to.equal(4)
      const rj = JSON.parse(refused.stdout) as FleetActionJson
      expect(rj.hosts[1].reply!.lanes[0].openBy.map(o => o.pid)).to.include(holder.pid)
      expect(rj.hosts[1].reply!.lanes[0].action).to.match(/^refused: .* is still open: pid \d+ sleep 120/)
    } finally { holder.kill('SIGKILL') }
    await until('the holder is gone', 10_000, () => !existsSync(`/proc/${holder.pid}`))
    const rs = await pts(['fleet', 'resume', inv, '--dir', dir, '--json', ...confirm])
    expect(rs.code, rs.stderr + rs.stdout).to.equal(0)
    const resumed = JSON.parse(rs.stdout) as FleetActionJson
    expect(resumed.hosts[1].reply!.lanes[0].action).to.match(/started pts resume \(pid \d+\)/)
    expect(resumed.hosts[0].reply!.lanes[0].action).to.match(/^nothing to resume \((running|complete)\)$/)
    await until('both lanes complete', 150_000, () => [runDirOf(0), b].every(d => manifestStatus(d) === 'complete'))
    const events = (d: string): string[] => (JSON.parse(readFileSync(join(d, 'manifest.json'), 'utf8')) as {events: Array<{event: string}>}).events.map(e => e.event)
    expect(events(b).join(' ')).to.match(/resum/)
    expect(events(runDirOf(0)).join(' ')).to.not.match(/resum/)
  })

  it('status shows every lane complete; collect copies every run directory byte for byte and pts audit passes on the copies', async () => {
    // pts run / pts resume end after their report is rendered (after the run is sealed)
    const alive = (d: string): boolean => { try { process.kill((JSON.parse(readFileSync(`${d}.pid`, 'utf8')) as {pid: number}).pid, 0); return true } catch { return false } }
    await until('both lanes\' pts ended', 90_000, () => [runDirOf(0), runDirOf(1)].every(d => !alive(d)))
    const st = JSON.parse((await pts(['fleet', 'status', inv, '--dir', dir, '--json'])).stdout) as FleetActionJson
    expect(st.hosts.map(h => h.reply!.lanes[0].state)).to.deep.equal(['complete', 'complete'])
    const c = await pts(['fleet', 'collect', inv, '--dir', dir, '--json'])
    expect(c.code, c.stderr + c.stdout).to.equal(0)
    const col = JSON.parse(c.stdout) as FleetCollectJson
    expect(check('cli/fleet-collect.schema.json', col)).to.deep.equal([])
    for (const [i, h] of col.hosts.entries()) {
      const orig = runDirOf(i)
      const copy = h.lanes[0].dir!
      expect(copy).to.equal(join(dir, fleet!.hosts[i].name, relative(join(fleet!.hosts[i].workDir, 'f1'), orig)))
      expect(files(copy)).to.deep.equal(files(orig))
      for (const f of files(orig)) expect(sha(join(copy, f)), f).to.equal(sha(join(orig, f)))
      const job = readFileSync(join(copy, files(copy).find(f => f.endsWith('.fio'))!), 'utf8')
      expect(job).to.include('allow_file_create=0')
      // the audit's idle-gap bound is raised: this 2-core machine is shared and busy
      const a = await pts(['audit', copy, '--max-gap-ms', '60000'], 120_000)
      expect(a.code, a.stdout.slice(-3000)).to.equal(0)
    }
  })

  it('collect writes fleet.json: valid against its schema, one lane per drive of every host; pts resume of the directory refuses it', async () => {
    const index = JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8')) as HostsFleetIndex
    expect(check('fleet-hosts.schema.json', index)).to.deep.equal([])
    expect(index).to.include({kind: 'hosts', fleetId: 'f1', test: 'lat', inventory: inv, status: 'complete'})
    expect(index.lanes.map(l => ({host: l.host, hostname: l.hostname, device: l.device, serial: l.serial, test: l.test, dir: l.dir, hostDir: l.hostDir, status: l.status}))).to.deep.equal(
      fleet!.hosts.map((h, i) => ({host: h.name, hostname: h.name, device: h.loops[0], serial: null, test: 'lat', dir: `${h.name}/${h.loops[0].slice('/dev/'.length)}`, hostDir: runDirOf(i), status: 'complete'})))
    for (const [i, l] of index.lanes.entries()) {
      // the copy it names is that host's run of that drive
      const m = JSON.parse(readFileSync(join(dir, l.dir, 'manifest.json'), 'utf8')) as {target: {path: string}; host: {hostname: string}}
      expect(m.target.path).to.equal(fleet!.hosts[i].loops[0])
      expect(m.host.hostname).to.equal(fleet!.hosts[i].name)
    }
    // its lanes run on their hosts: pts resume of the controller's directory refuses, and says what to run
    const r = await pts(['resume', dir])
    expect(r.code, r.stderr + r.stdout).to.equal(2)
    expect(r.stderr).to.include('ran on several hosts').and.include(`pts fleet resume ${inv}`)
  })

  it('report renders one fleet report across the hosts from fleet.json: the PDF (Chromium) has one row per drive and the sample variation', async () => {
    const r = await pts(['fleet', 'report', inv, '--dir', dir, '--json'], 180_000)
    expect(r.code, r.stderr + r.stdout).to.equal(0)
    const rep = JSON.parse(r.stdout) as {files: string[]; runs: Array<{host: string}>}
    expect(check('cli/fleet-report.schema.json', rep)).to.deep.equal([])
    expect(rep.files).to.deep.equal([join(dir, 'fleet.html'), join(dir, 'fleet.pdf')])
    expect(rep.runs.map(x => x.host)).to.deep.equal(['node-a', 'node-b'])
    const index = JSON.parse(readFileSync(join(dir, 'fleet.json'), 'utf8')) as HostsFleetIndex
    expect(index.report).to.deep.equal(['fleet.html', 'fleet.pdf'])
    // each row as the copy's own report shows it (read from the copy, not from the fleet report)
    const rows = fleetRows(hostsRefs(dir, index), dir)
    expect(rows).to.have.length(2)
    // compared without white space: a cell's text wraps where the column ends
    const flat = execFileSync('pdftotext', ['-raw', join(dir, 'fleet.pdf'), '-'], {encoding: 'utf8'}).replace(/\s+/g, '')
    const squeeze = (cells: string[]): string => cells.join('').replace(/\s+/g, '')
    expect(flat).to.include(squeeze(['Fleet report: lat, 2 drives on 2 hosts (f1)']))
    for (const [i, row] of rows.entries()) {
      const h = fleet!.hosts[i]
      // host, model, serial, firmware, test, status and verdict, headline values, in the row's order
      expect(row).to.include({device: `${h.name}:${h.loops[0]}`, model: 'loop device', serial: 'none', firmware: 'none', test: 'lat', status: 'complete'})
      expect(row.headline.length).to.be.greaterThan(0)
      const cells = [String(i + 1), row.device, row.model, row.serial, row.firmware, row.test, row.compliant ? row.status : `${row.status} (non-compliant)`, row.verdict, ...row.headline.map(x => `${x.label}: ${x.value}`)]
      expect(flat, cells.join(' | ')).to.include(squeeze(cells))
    }
    // two drives of one model: the sample variation of every headline value (min, median, max, CV)
    expect(flat).to.include(squeeze(['Sample variation per model']))
    for (const label of rows[0].headline.map(x => x.label)) {
      const texts = rows.map(x => x.headline.find(y => y.label === label)!.value)
      const vals = texts.map(headlineNumber)
      if (vals.some(v => v === null)) continue
      const xs = vals.map(v => v!.value)
      const lo = Math.min(...xs)
      const hi = Math.max(...xs)
      // printed with the decimals the lane reports print (ms to 0.001)
      const d = Math.max(...texts.map(shownDecimals))
      const cells = ['loop device', 'lat', label, vals[0]!.unit, '2', fmtNumber(lo, d), fmtNumber((lo + hi) / 2, d), fmtNumber(hi, d)]
      expect(flat, cells.join(' | ')).to.match(new RegExp(`${squeeze(cells).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(-|[\\d.]+%)`))
    }
    // pts report of the directory renders the same report from the same fleet.json
    const again = await pts(['report', dir, '--format', 'html', '--json'], 120_000)
    expect(again.code, again.stderr + again.stdout).to.equal(0)
    const html = readFileSync(join(dir, 'fleet.html'), 'utf8')
    expect(html).to.include('Fleet report: lat, 2 drives on 2 hosts (f1)')
    for (const h of fleet!.hosts) expect(html).to.include(`${h.name}:${h.loops[0]}`)
  })
})
