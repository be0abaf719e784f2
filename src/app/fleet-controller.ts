/**
 * The controller side of `pts fleet` (I/O): reads and checks the inventory, writes the Ansible
 * inventory into the fleet directory, runs `pts fleet agent <action>` on every host through
 * Ansible's command module (ansible-core, ad hoc, over ssh; one JSON answer per host, read from
 * Ansible's --tree output), and copies the hosts' run directories back with Ansible's fetch module.
 */
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {existsSync, mkdirSync, readFileSync, renameSync, rmSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {hostname} from 'node:os'
import {InvalidDataError, MissingToolError, PtsError, EXIT} from '../errors.js'
import * as M from '../messages.js'
import {runTool, whichPath} from '../proc.js'
import {writeFileAtomic} from '../store/atomic.js'
import {assertValid, check} from '../validate.js'
import {ansibleInventory, duplicateDrives, hostsFleetIndex, reservedRunArgs, secretPointers, type AgentReply, type CollectedHost, type FleetInventory, type HostOutcome, type HostsFleetIndex} from '../fleet/hosts.js'
import {writeJsonAtomic} from '../store/atomic.js'
import {FLEET_FILE, readFleetFile} from '../store/fleet-index.js'
import type {AgentAction} from './fleet-agent.js'

export function loadInventory(file: string): FleetInventory {
  let data: unknown
  try { data = JSON.parse(readFileSync(file, 'utf8')) } catch (error) {
    throw new InvalidDataError(M.fleet.inventoryUnreadable(file, (error as Error).message))
  }
  const secrets = secretPointers(data)
  if (secrets.length > 0) throw new InvalidDataError(M.fleet.secretInInventory(file, secrets))
  const problems = check('fleet-inventory.schema.json', data)
  if (problems.length > 0) throw new InvalidDataError(M.fleet.inventoryInvalid(file, problems))
  const inv = data as FleetInventory
  const more = [
    ...reservedRunArgs(inv).map(pointer => ({pointer, message: 'is set by pts for every drive (--device, --out, --yes-destroy-data, --json); leave it out'})),
    ...duplicateDrives(inv).map(pointer => ({pointer, message: 'names a drive (path or serial) this host already lists'})),
  ]
  if (more.length > 0) throw new InvalidDataError(M.fleet.inventoryInvalid(file, more))
  return inv
}

/** The controller's directory of a fleet run (default reports/fleet-<name>). */
export function fleetDirOf(inv: FleetInventory, dir: string | undefined): string {
  return resolve(dir ?? join('reports', `fleet-${inv.name}`))
}

/** The ansible.cfg pts writes into the fleet directory: no ansible.cfg of the working directory or the user changes what pts runs. */
function ansibleConfig(dir: string): string {
  const file = join(dir, '.ansible', 'ansible.cfg')
  writeFileAtomic(file, [
    '[defaults]', 'nocolor = True', 'host_key_checking = True', 'retry_files_enabled = False', 'deprecation_warnings = False', 'system_warnings = False',
    'localhost_warning = False', 'forks = 20', 'timeout = 30', `local_tmp = ${join(dir, '.ansible', 'tmp')}`, 'interpreter_python = /usr/bin/python3',
    '[inventory]', 'enable_plugins = yaml', 'unparsed_is_failed = True',
    '[ssh_connection]', 'pipelining = True', `control_path_dir = ${join(dir, '.ansible', 'cp')}`, '',
  ].join('\n'))
  return file
}

function ansibleEnv(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ANSIBLE_')) env[k] = v
  return {...env, ANSIBLE_CONFIG: ansibleConfig(dir), ANSIBLE_FORCE_COLOR: '0'}
}

interface TreeResult { rc?: number; stdout?: string; stderr?: string; msg?: string; unreachable?: boolean; failed?: boolean; checksum?: string; dest?: string }

/** Run one ad hoc Ansible module on every host of the inventory; the result of each host from --tree. */
function ansible(inv: FleetInventory, dir: string, what: string, agentArgs: string[], module: string, args: Record<string, unknown>): Map<string, TreeResult> {
  const bin = whichPath('ansible')
  if (!bin) throw new MissingToolError(M.fleet.ansibleMissing)
  mkdirSync(join(dir, '.ansible', 'tmp'), {recursive: true})
  const invFile = join(dir, 'ansible-inventory.json')
  writeFileAtomic(invFile, `${JSON.stringify(ansibleInventory(inv, agentArgs), null, 2)}\n`)
  const tree = join(dir, '.ansible', `tree-${process.pid}`)
  rmSync(tree, {recursive: true, force: true})
  const argv = [bin, 'all', '-i', invFile, '-m', module, '-a', JSON.stringify(args), '-t', tree]
  const r = spawnAnsible(argv, dir)
  const out = new Map<string, TreeResult>()
  for (const host of Object.keys(inv.hosts)) {
    try { out.set(host, JSON.parse(readFileSync(join(tree, host), 'utf8')) as TreeResult) } catch { /* no result */ }
  }
  rmSync(tree, {recursive: true, force: true})
  if (out.size === 0) throw new PtsError(M.fleet.ansibleFailed(what, (r.stderr || r.stdout).trim().split('\n').slice(-5).join(' / ') || `exit ${r.code}`), EXIT.internal)
  return out
}

function spawnAnsible(argv: string[], dir: string): {code: number | null; stdout: string; stderr: string} {
  const r = spawnSync(argv[0], argv.slice(1), {encoding: 'utf8', env: ansibleEnv(dir), timeout: 30 * 60_000, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe']})
  return {code: r.status, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}`}
}

/** Run `pts fleet agent <action>` on every host; each host's reply, or why there is none. */
export function onHosts(inv: FleetInventory, dir: string, action: AgentAction, confirmed: readonly string[] = []): HostOutcome[] {
  const agentArgs = [action, ...confirmed.flatMap(c => ['--confirm', c])]
  const results = ansible(inv, dir, `pts fleet agent ${action}`, agentArgs, 'command', {cmd: '{{ pts_command }}', stdin: '{{ pts_spec | to_json }}'})
  return Object.keys(inv.hosts).map(host => {
    const t = results.get(host)
    if (!t) return {host, reply: null, error: 'no answer from Ansible'}
    if (t.unreachable) return {host, reply: null, error: `unreachable: ${(t.msg ?? '').trim()}`}
    try {
      const reply = JSON.parse(t.stdout ?? '') as AgentReply
      if (t.rc !== 0) return {host, reply: null, error: `pts fleet agent exited ${t.rc}: ${(t.stderr ?? '').trim().split('\n').slice(-3).join(' / ')}`}
      return {host, reply, error: null}
    } catch {
      return {host, reply: null, error: `pts fleet agent failed (exit ${t.rc ?? '?'}): ${(t.stderr || t.msg || t.stdout || '').trim().split('\n').slice(-3).join(' / ')}`}
    }
  })
}

/**
 * Copy every host's run directories back: the agent packs <workDir>/<fleet> into a tar, Ansible's
 * fetch copies it (and checks its checksum), pts checks size and SHA-256 against the host's and
 * unpacks it into <dir>/<host>/ (bytes unchanged; an earlier copy is replaced).
 */
export function collect(inv: FleetInventory, dir: string): Array<{host: string; dir: string | null; error: string | null; reply: AgentReply | null}> {
  const packed = onHosts(inv, dir, 'pack')
  const inbox = join(dir, '.collect')
  mkdirSync(inbox, {recursive: true})
  const fetched = ansible(inv, dir, 'fetch', ['pack'], 'fetch', {src: `{{ pts_work_dir }}/${inv.name}.collect.tar`, dest: `${inbox}/{{ inventory_hostname }}.tar`, flat: true, validate_checksum: true})
  return packed.map(p => {
    if (!p.reply?.pack) return {host: p.host, dir: null, error: p.error ?? 'no archive', reply: p.reply}
    const t = fetched.get(p.host)
    const file = join(inbox, `${p.host}.tar`)
    if (!t || t.failed || t.unreachable || !existsSync(file)) return {host: p.host, dir: null, error: `fetch failed: ${(t?.msg ?? 'no answer').trim()}`, reply: p.reply}
    const bytes = readFileSync(file)
    if (bytes.length !== p.reply.pack.bytes || createHash('sha256').update(bytes).digest('hex') !== p.reply.pack.sha256) {
      throw new PtsError(M.fleet.packMismatch(p.host, file), EXIT.storage)
    }
    const hostDir = join(dir, p.host)
    const staging = join(inbox, `${p.host}.new`)
    rmSync(staging, {recursive: true, force: true})
    mkdirSync(staging, {recursive: true})
    const x = runTool(['tar', '-C', staging, '-xf', file], 600_000)
    if (x.code !== 0) return {host: p.host, dir: null, error: `tar -x ${file}: ${x.stderr.trim()}`, reply: p.reply}
    rmSync(hostDir, {recursive: true, force: true})
    renameSync(join(staging, inv.name), hostDir)
    rmSync(staging, {recursive: true, force: true})
    rmSync(file, {force: true})
    return {host: p.host, dir: hostDir, error: null, reply: p.reply}
  })
}

/**
 * Write the controller's fleet.json after a collect (schemas/fleet-hosts.schema.json): every
 * drive of every host with its copy's directory, test and state. A host not collected this time
 * keeps its lanes of the previous index. An earlier fleet.json that cannot be read is replaced.
 */
export function writeHostsIndex(inv: FleetInventory, inventoryFile: string, dir: string, collected: readonly CollectedHost[]): HostsFleetIndex {
  let previous: HostsFleetIndex | null = null
  try {
    const f = readFleetFile(dir)
    previous = f?.kind === 'hosts' ? f.index : null
  } catch { /* replaced */ }
  const index = hostsFleetIndex({inv, inventory: resolve(inventoryFile), controller: hostname(), now: new Date().toISOString(), collected, previous})
  assertValid('fleet-hosts.schema.json', index, p => M.internal.builtInvalid(join(dir, FLEET_FILE), p))
  writeJsonAtomic(join(dir, FLEET_FILE), index)
  return index
}
