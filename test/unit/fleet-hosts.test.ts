import {expect} from 'chai'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ansibleInventory, confirmationOf, hostsFleetIndex, judgeFleet, laneKey, parseProgressLine, shellLine, unconfirmed, type AgentReply, type CollectedHost, type FleetInventory, type HostsFleetIndex, type LaneReport} from '../../src/fleet/hosts.js'
import {readFleet} from '../../src/app/lanes.js'
import {readFleetFile} from '../../src/store/fleet-index.js'
import {check} from '../../src/validate.js'
import {loadInventory} from '../../src/app/fleet-controller.js'
import {InvalidDataError, UsageError} from '../../src/errors.js'
import {commonGlobal, wipcJobText} from '../../src/engine/jobfile.js'

const inv = (): FleetInventory => ({
  name: 'lab', test: 'iops', runArgs: ['--point-seconds', '60'], ssh: {identityFile: '/k/id', knownHostsFile: '/k/known hosts'},
  hosts: {
    n1: {address: '10.0.0.1', workDir: '/var/lib/pts', drives: [{path: '/dev/disk/by-id/nvme-ACME_S1', serial: 'S1'}]},
    n2: {address: '10.0.0.2', ssh: {user: 'lab', port: 2222}, pts: ['/opt/pts/bin/run.js'], workDir: '/srv/pts', drives: [{path: '/dev/loop3', serial: null}]},
  },
})

const lane = (o: Partial<LaneReport> = {}): LaneReport => ({path: '/dev/loop3', serial: null, key: 'loop3', runDir: '/r', state: 'not started', pid: null, phase: null, round: null, eta: null,
  action: null, openBy: [], serialMatches: true, safety: {proceed: true, refusals: []},
  device: {realPath: '/dev/loop3', model: null, serial: null, firmware: null, capacityBytes: 1, interface: 'loop'}, ...o})
const reply = (hostname: string, o: Partial<AgentReply> = {}): AgentReply => ({hostname, ptsVersion: '0.1.0', fioVersion: 'fio-3.33', lanes: [lane()], pack: null, ...o})

describe('pts fleet: inventory, Ansible inventory and the fleet verdict (pure)', () => {
  let dir = ''
  before(() => { dir = mkdtempSync(join(tmpdir(), 'pts-fleet-unit-')) })
  after(() => rmSync(dir, {recursive: true, force: true}))
  const load = (data: unknown): unknown => {
    const f = join(dir, 'inv.json')
    writeFileSync(f, JSON.stringify(data))
    try { return loadInventory(f) } catch (error) { return error }
  }

  it('loads a valid inventory; names lanes and confirmations by serial (path for a device without one)', () => {
    expect(load(inv())).to.deep.equal(inv())
    expect(laneKey(inv().hosts.n1.drives[0])).to.equal('S1')
    expect(laneKey(inv().hosts.n2.drives[0])).to.equal('loop3')
    expect(confirmationOf('n1', inv().hosts.n1.drives[0])).to.equal('n1:S1')
    expect(unconfirmed(inv(), ['n1:S1'])).to.deep.equal(['n2:/dev/loop3'])
  })

  it('refuses a bad inventory with the file and a JSON pointer per problem', () => {
    const bad = inv() as unknown as {hosts: Record<string, {drives: Array<{path: string}>; workDir?: string}>}
    bad.hosts.n1.drives[0].path = '/dev/sda'
    delete bad.hosts.n2.workDir
    const e = load(bad) as InvalidDataError
    expect(e).to.be.instanceOf(InvalidDataError)
    expect(e.message).to.include(join(dir, 'inv.json'))
    expect(e.message).to.include('at /hosts/n1/drives/0/path: must match pattern')
    expect(e.message).to.include('at /hosts/n2/workDir: is required')
  })

  it('refuses a password anywhere in the inventory, and runArgs that pts sets per drive', () => {
    const withPass = {...inv(), ssh: {...inv().ssh, ansible_ssh_pass: 'x'}}
    const e = load(withPass) as InvalidDataError
    expect(e.message).to.include('at /ssh/ansible_ssh_pass: looks like a password')
    expect(e.suggestion).to.include('ssh key')
    const reserved = load({...inv(), runArgs: ['--point-seconds', '5', '--device=/dev/x', '--yes-destroy-data']}) as InvalidDataError
    expect(reserved.message).to.include('at /runArgs/2: is set by pts').and.include('at /runArgs/3: is set by pts')
    const dup = inv(); dup.hosts.n1.drives.push({path: '/dev/disk/by-id/nvme-OTHER', serial: 'S1'})
    expect((load(dup) as Error).message).to.include('at /hosts/n1/drives/1: names a drive')
  })

  it('writes an Ansible inventory that logs in with keys only and checks host keys', () => {
    const a = ansibleInventory(inv(), ['facts']).all.hosts
    expect(a.n1).to.include({ansible_host: '10.0.0.1', ansible_user: 'root', ansible_ssh_private_key_file: '/k/id', pts_work_dir: '/var/lib/pts'})
    expect(a.n1.ansible_ssh_common_args).to.include('PasswordAuthentication=no').and.include('BatchMode=yes').and.include("UserKnownHostsFile='/k/known hosts'").and.include('StrictHostKeyChecking=yes')
    expect(a.n2).to.include({ansible_user: 'lab', ansible_port: 2222, pts_command: '/opt/pts/bin/run.js fleet agent facts'})
    expect(a.n1.pts_command).to.equal('pts fleet agent facts')
    expect(JSON.stringify(a)).to.not.match(/pass(word)?"\s*:/i)
    expect(shellLine(['a b', "it's", '--x=1'])).to.equal(`'a b' 'it'\\''s' --x=1`)
  })

  it('judges the fleet: one pts and one fio release, distinct machines, drives found with their serial and passed by the gate', () => {
    const ok = judgeFleet(inv(), [{host: 'n1', reply: reply('a'), error: null}, {host: 'n2', reply: reply('b'), error: null}])
    expect(ok.problems).to.deep.equal([])
    expect(ok.confirmations).to.deep.equal(['n1:S1', 'n2:/dev/loop3'])
    const bad = judgeFleet(inv(), [
      {host: 'n1', reply: reply('a', {fioVersion: 'fio-3.36', lanes: [lane({serialMatches: false, device: {realPath: '/dev/nvme0n1', model: 'X', serial: 'S9', firmware: null, capacityBytes: 1, interface: 'nvme'}, serial: 'S1', path: '/dev/disk/by-id/nvme-ACME_S1'})]}), error: null},
      {host: 'n2', reply: reply('a', {ptsVersion: '0.2.0', lanes: [lane({safety: {proceed: false, refusals: ['mounted at /mnt']}, state: 'running', pid: 42})]}), error: null},
      {host: 'n3', reply: null, error: 'unreachable: timed out'},
    ])
    expect(bad.problems).to.deep.equal([
      'n1:/dev/disk/by-id/nvme-ACME_S1: reports serial S9, the inventory names S1',
      'n2:/dev/loop3: refused by the safety gate: mounted at /mnt',
      'n2:/dev/loop3: a pts run is already running on it (pid 42)',
      'n3: unreachable: timed out',
      'the hosts run different pts versions: n1 0.1.0, n2 0.2.0; install one pts release on every host',
      'the hosts run different fio versions: n1 fio-3.36, n2 fio-3.33; install one fio release on every host',
      'n1 and n2 are one machine (both report hostname a); each inventory host must be its own machine',
    ])
  })

  it('reads phase, round and ETA from the last progress line of a lane log (with or without the wall-clock time)', () => {
    expect(parseProgressLine('x\n[4.5s] | lat loop | round 1/5 | point 9/9 round complete | ETA 20m 09s\n[6.6s] | lat loop | round 2/5 | point 9/9 round complete | SS: needs 5 rounds\n'))
      .to.deep.equal({phase: 'lat loop', round: '2/5', eta: '20m 09s'})
    expect(parseProgressLine('03:10:34Z [12s] iops loop | round 3/25 | point 1/56 RND | ETA 4m 10s (done 03:14Z)'))
      .to.deep.equal({phase: 'iops loop', round: '3/25', eta: '4m 10s (done 03:14Z)'})
    expect(parseProgressLine('Error: no such device')).to.deep.equal({phase: null, round: null, eta: null})
  })

  it('fio may not create a block device target that is missing (allow_file_create=0); a file target is created as before', () => {
    expect(commonGlobal('libaio', '/dev/disk/by-id/nvme-ACME_S1', false, true)).to.include('allow_file_create=0')
    expect(commonGlobal('libaio', '/scratch/pts.img')).to.not.include('allow_file_create=0')
    const wipc = (device: boolean): string => wipcJobText({header: 'h', ioengine: 'libaio', targetPath: '/dev/loop3', device, blockSizeBytes: 131072, totalBytes: 1 << 20, queueDepth: 32, seed: 1,
      slices: [{offsetBytes: 0, sizeBytes: 1 << 20, ioSizeBytes: 1 << 20}], section: 'wipc'})
    expect(wipc(true)).to.match(/^allow_file_create=0$/m)
    expect(wipc(false)).to.not.include('allow_file_create')
  })
})

describe('pts fleet: the controller\'s fleet.json after a collect (kind hosts)', () => {
  const collectedAll = (): CollectedHost[] => [
    {host: 'n1', dir: '/c/n1', reply: reply('node-1', {lanes: [lane({path: '/dev/disk/by-id/nvme-ACME_S1', serial: 'S1', key: 'S1', runDir: '/var/lib/pts/lab/S1', state: 'complete'})]})},
    {host: 'n2', dir: '/c/n2', reply: reply('node-2', {lanes: [lane({runDir: '/srv/pts/lab/loop3', state: 'stopped'})]})},
  ]
  const build = (collected: CollectedHost[], previous: HostsFleetIndex | null = null, now = '2026-12-04T10:00:00.000Z') =>
    hostsFleetIndex({inv: inv(), inventory: '/k/lab.json', controller: 'ctl', now, collected, previous})

  it('indexes every drive of every host: host, hostname, by-id path, serial, test, copy, run directory on the host, state; valid against its schema', () => {
    const f = build(collectedAll())
    expect(check('fleet-hosts.schema.json', f)).to.deep.equal([])
    expect(f).to.include({kind: 'hosts', fleetId: 'lab', test: 'iops', inventory: '/k/lab.json', controller: 'ctl', status: 'incomplete'})
    expect(f.lanes).to.deep.equal([
      {index: 1, host: 'n1', hostname: 'node-1', device: '/dev/disk/by-id/nvme-ACME_S1', serial: 'S1', test: 'iops', dir: 'n1/S1', hostDir: '/var/lib/pts/lab/S1', status: 'complete', collectedAt: '2026-12-04T10:00:00.000Z'},
      {index: 2, host: 'n2', hostname: 'node-2', device: '/dev/loop3', serial: null, test: 'iops', dir: 'n2/loop3', hostDir: '/srv/pts/lab/loop3', status: 'stopped', collectedAt: '2026-12-04T10:00:00.000Z'},
    ])
    // the local variant's schema does not take it, nor this one the local variant
    expect(check('fleet.schema.json', f)).to.not.deep.equal([])
    const done = collectedAll()
    done[1].reply!.lanes[0].state = 'complete'
    expect(build(done).status).to.equal('complete')
  })

  it('a host not collected this time keeps its earlier lanes, or is listed as not collected', () => {
    const first = build(collectedAll())
    const failed = collectedAll()
    failed[1] = {host: 'n2', dir: null, reply: null}
    const again = build(failed, first, '2026-12-04T11:00:00.000Z')
    expect(again.lanes[0].collectedAt).to.equal('2026-12-04T11:00:00.000Z')
    expect(again.lanes[1]).to.deep.equal(first.lanes[1])
    const never = build(failed)
    expect(never.lanes[1]).to.include({status: 'not collected', hostname: null, collectedAt: null, dir: 'n2/loop3', hostDir: '/srv/pts/lab/loop3'})
    expect(check('fleet-hosts.schema.json', never)).to.deep.equal([])
    expect(never.status).to.equal('incomplete')
  })

  it('pts resume refuses it (its lanes run on their hosts) and names pts fleet resume with the inventory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pts-fleet-hosts-'))
    try {
      writeFileSync(join(dir, 'fleet.json'), JSON.stringify(build(collectedAll())))
      expect(readFleetFile(dir)?.kind).to.equal('hosts')
      const e = (() => { try { readFleet(dir); return null } catch (error) { return error as UsageError } })()
      expect(e).to.be.instanceOf(UsageError)
      expect(e!.message).to.include('ran on several hosts')
      expect(e!.suggestion).to.include('pts fleet resume /k/lab.json')
    } finally { rmSync(dir, {recursive: true, force: true}) }
  })
})
