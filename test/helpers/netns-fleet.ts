/**
 * A fleet of real hosts on this machine, for the fleet tests (root only):
 * - one network namespace for the controller and one per host, joined by a veth pair each; every
 *   address (10.213.N.1 on the controller side, 10.213.N.2 on the host's) lives inside those
 *   namespaces only, so nothing outside the test can reach the hosts or be reached by them;
 * - each host runs its own Debian openssh-server (sshd -D) inside `unshare --uts`, after
 *   `hostname <name>`: every process started over ssh sees that host's own hostname;
 * - a test-generated host key per host and one client key (ed25519, no passphrase), an
 *   authorized_keys and a known_hosts file in the temp directory; sshd accepts public keys only;
 * - each host's own loop devices (losetup --direct-io=on on sparse files in the temp directory)
 *   and its own work directory (host-local run directories).
 * The file system is shared (namespaces share it), so every host runs this checkout's bin/run.js.
 * `destroy()` ends every process left in the namespaces (by pid, from `ip netns pids`), deletes
 * the namespaces, detaches the loop devices and removes the temp directory, also after a failure.
 */
import {execFileSync, spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {randomBytes} from 'node:crypto'

export interface FleetHost {
  name: string
  address: string
  ns: string
  workDir: string
  loops: string[]
  sshd: ChildProcess
}

export interface NetnsFleet {
  dir: string
  ctlNs: string
  hosts: FleetHost[]
  clientKey: string
  knownHosts: string
  /** Run argv in the controller's namespace (as a child process; resolves with its exit). */
  inCtl(argv: string[], opts?: {env?: NodeJS.ProcessEnv; timeoutMs?: number}): Promise<{code: number | null; stdout: string; stderr: string}>
  destroy(): void
}

const sh = (argv: string[], input?: string): string => execFileSync(argv[0], argv.slice(1), {encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe']})

async function waitPort(ns: string, address: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    const r = spawnSync('ip', ['netns', 'exec', ns, 'bash', '-c', `exec 3<>/dev/tcp/${address}/22 && head -c 3 <&3`], {encoding: 'utf8', timeout: 5000})
    if (r.stdout.startsWith('SSH')) return
    await new Promise(res => setTimeout(res, 100))
  }
  throw new Error(`sshd on ${address} (namespace ${ns}) did not answer within ${timeoutMs} ms`)
}

export async function createNetnsFleet(names: string[], opts: {loopsPerHost?: number; loopMiB?: number} = {}): Promise<NetnsFleet> {
  const dir = mkdtempSync(join(tmpdir(), 'pts-fleet-'))
  chmodSync(dir, 0o755)
  const tag = randomBytes(3).toString('hex')
  const ctlNs = `pts-fleet-${tag}-ctl`
  const hosts: FleetHost[] = []
  const namespaces: string[] = []
  const loops: string[] = []
  const destroy = (): void => {
    for (const ns of namespaces) {
      const pids = spawnSync('ip', ['netns', 'pids', ns], {encoding: 'utf8'}).stdout.split(/\s+/).filter(Boolean).map(Number)
      for (const pid of pids) { try { process.kill(pid, 'SIGKILL') } catch { /* gone */ } }
    }
    for (const h of hosts) { try { h.sshd.kill('SIGKILL') } catch { /* gone */ } }
    for (const ns of namespaces) spawnSync('ip', ['netns', 'del', ns])
    for (const l of loops) spawnSync('losetup', ['-d', l])
    rmSync(dir, {recursive: true, force: true})
  }
  try {
    const clientKey = join(dir, 'client_ed25519')
    sh(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', 'pts-fleet-test', '-f', clientKey])
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(`${clientKey}.pub`))
    chmodSync(join(dir, 'authorized_keys'), 0o600)
    sh(['ip', 'netns', 'add', ctlNs]); namespaces.push(ctlNs)
    sh(['ip', 'netns', 'exec', ctlNs, 'ip', 'link', 'set', 'lo', 'up'])
    mkdirSync('/run/sshd', {recursive: true})
    const known: string[] = []
    for (const [i, name] of names.entries()) {
      const n = i + 1
      const ns = `pts-fleet-${tag}-${n}`
      sh(['ip', 'netns', 'add', ns]); namespaces.push(ns)
      const ve = `pf${tag}${n}`
      // create the pair inside the controller namespace and move one end: no interface is ever in the root namespace
      sh(['ip', 'netns', 'exec', ctlNs, 'ip', 'link', 'add', `${ve}c`, 'type', 'veth', 'peer', 'name', `${ve}h`])
      sh(['ip', 'netns', 'exec', ctlNs, 'ip', 'link', 'set', `${ve}h`, 'netns', ns])
      sh(['ip', 'netns', 'exec', ctlNs, 'ip', 'addr', 'add', `10.213.${n}.1/30`, 'dev', `${ve}c`])
      sh(['ip', 'netns', 'exec', ctlNs, 'ip', 'link', 'set', `${ve}c`, 'up'])
      sh(['ip', 'netns', 'exec', ns, 'ip', 'addr', 'add', `10.213.${n}.2/30`, 'dev', `${ve}h`])
      sh(['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', `${ve}h`, 'up'])
      sh(['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up'])
      const address = `10.213.${n}.2`
      const hdir = join(dir, name)
      mkdirSync(hdir)
      const hostKey = join(hdir, 'ssh_host_ed25519_key')
      sh(['ssh-keygen', '-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', hostKey])
      known.push(`${address} ${readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ')}`)
      const cfg = join(hdir, 'sshd_config')
      writeFileSync(cfg, [
        `ListenAddress ${address}`, 'Port 22', `HostKey ${hostKey}`, `PidFile ${join(hdir, 'sshd.pid')}`,
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`, 'PermitRootLogin prohibit-password',
        'PubkeyAuthentication yes', 'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'UsePAM no',
        'StrictModes no', 'Subsystem sftp /usr/lib/openssh/sftp-server', 'LogLevel ERROR', '',
      ].join('\n'))
      const workDir = join(hdir, 'work')
      mkdirSync(workDir)
      const hostLoops: string[] = []
      for (let k = 0; k < (opts.loopsPerHost ?? 1); k++) {
        const img = join(hdir, `drive${k}.img`)
        writeFileSync(img, '')
        truncateSync(img, (opts.loopMiB ?? 32) * 1024 * 1024)
        const l = sh(['losetup', '-f', '--show', '--direct-io=on', img]).trim()
        loops.push(l); hostLoops.push(l)
      }
      const sshd = spawn('ip', ['netns', 'exec', ns, 'unshare', '--uts', '--', 'sh', '-c', `hostname "$0" && exec /usr/sbin/sshd -D -e -f "$1"`, name, cfg], {stdio: ['ignore', 'ignore', 'pipe']})
      let sshdErr = ''
      sshd.stderr!.on('data', d => { sshdErr += d })
      hosts.push({name, address, ns, workDir, loops: hostLoops, sshd})
      await waitPort(ctlNs, address, 15_000).catch(e => { throw new Error(`${(e as Error).message}\n${sshdErr}`) })
    }
    const knownHosts = join(dir, 'known_hosts')
    writeFileSync(knownHosts, `${known.join('\n')}\n`)
    const inCtl: NetnsFleet['inCtl'] = (argv, o = {}) => new Promise((resolve, reject) => {
      const child = spawn('ip', ['netns', 'exec', ctlNs, ...argv], {env: {...process.env, ...o.env}, stdio: ['ignore', 'pipe', 'pipe']})
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', d => { stdout += d })
      child.stderr.on('data', d => { stderr += d })
      const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${argv.join(' ')} timed out\n${stderr.slice(-3000)}`)) }, o.timeoutMs ?? 120_000)
      child.on('exit', code => { clearTimeout(timer); resolve({code, stdout, stderr}) })
    })
    return {dir, ctlNs, hosts, clientKey, knownHosts, inCtl, destroy}
  } catch (error) {
    destroy()
    throw error
  }
}
