/**
 * Fleets of hosts (pure): the pts fleet inventory (schemas/fleet-inventory.schema.json), the
 * Ansible inventory pts generates from it, the messages the controller and the host agent trade,
 * and the judgements of `pts fleet plan` (one pts and fio release across the fleet, every drive
 * found with its serial and passed by the host's safety gate). Design: pts runs on every host,
 * started and watched through Ansible over ssh; fio's server mode is not used (no authentication).
 */

/** ssh settings of every host (under `ssh`) or of one host (its own `ssh`, field by field over the fleet's). Keys only: there is no password field. */
export interface FleetSsh {
  /** login user (default root: pts needs root on the host to reach its drives) */
  user?: string
  /**
   * @integer
   * @minimum 1
   * @maximum 65535
   */
  port?: number
  /** private key file on the controller (ssh keys only; default: ssh's own key files and agent) */
  identityFile?: string
  /** known_hosts file on the controller with every host's key: pts connects only to hosts whose key it lists (StrictHostKeyChecking=yes) */
  knownHostsFile?: string
}

/** One drive of a host: its stable path and the serial it must report. */
export interface FleetDrive {
  /**
   * a /dev/disk/by-id/ path (stable across reboots), or a loop device for tests
   * @pattern ^/dev/(disk/by-id/[^/]+|loop[0-9]+)$
   */
  path: string
  /** the serial the drive reports; null only for a device without one (a loop device): then its path identifies it */
  serial: string | null
}

export interface FleetHost {
  /** host name or address ssh connects to */
  address: string
  ssh?: FleetSsh
  /**
   * the command that runs pts on the host, as argv (default ["pts"])
   * @minItems 1
   */
  pts?: string[]
  /**
   * absolute directory on the host; the lanes' run directories are <workDir>/<fleet name>/<serial>
   * @pattern ^/
   */
  workDir: string
  /** @minItems 1 */
  drives: FleetDrive[]
}

/** A pts fleet inventory: which hosts, which drives, which test (a JSON file; pts writes the Ansible inventory from it). */
export interface FleetInventory {
  /**
   * name of this fleet run (directory names on the hosts and on the controller)
   * @pattern ^[A-Za-z0-9][A-Za-z0-9._-]*$
   */
  name: string
  /** the pts test every drive runs (iops, tp, lat, ...; or all) */
  test: string
  /** more pts run flags for every drive, e.g. ["--point-seconds", "60"] (not --device, --out or --yes-destroy-data: pts sets those per drive) */
  runArgs?: string[]
  ssh?: FleetSsh
  /**
   * the hosts by inventory name
   * @minProperties 1
   */
  hosts: Record<string, FleetHost>
}

/** The flags pts sets on every lane itself; an inventory's runArgs may not carry them. */
export const LANE_FLAGS = ['--device', '--out', '-o', '--yes-destroy-data', '--json'] as const

/** Run directory name of a drive on its host (its serial, or the device name when it has none). */
export function laneKey(d: FleetDrive): string {
  return (d.serial ?? d.path.slice(d.path.lastIndexOf('/') + 1)).replace(/[^A-Za-z0-9._-]/g, '_')
}

/** What `--yes-destroy-data` must name to confirm a drive: host:serial (host:path for a drive without a serial). */
export function confirmationOf(host: string, d: FleetDrive): string {
  return `${host}:${d.serial ?? d.path}`
}

/** Keys anywhere in a parsed inventory that would hold a secret (refused before the schema, with a clearer message). */
export function secretPointers(data: unknown, at = ''): string[] {
  if (Array.isArray(data)) return data.flatMap((v, i) => secretPointers(v, `${at}/${i}`))
  if (data === null || typeof data !== 'object') return []
  return Object.entries(data as Record<string, unknown>).flatMap(([k, v]) => {
    const p = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`
    return [...(/pass|secret|become_pass/i.test(k) ? [p] : []), ...secretPointers(v, p)]
  })
}

/** runArgs that pts sets itself, as JSON pointers. */
export function reservedRunArgs(inv: FleetInventory): string[] {
  return (inv.runArgs ?? []).flatMap((a, i) => (LANE_FLAGS as readonly string[]).some(f => a === f || a.startsWith(`${f}=`)) ? [`/runArgs/${i}`] : [])
}

/** Drives named twice on one host, as JSON pointers of the second mention. */
export function duplicateDrives(inv: FleetInventory): string[] {
  const out: string[] = []
  for (const [h, host] of Object.entries(inv.hosts)) {
    const seen = new Set<string>()
    host.drives.forEach((d, i) => {
      for (const k of [d.path, laneKey(d)]) {
        if (seen.has(k)) { out.push(`/hosts/${h}/drives/${i}`); return }
      }
      seen.add(d.path); seen.add(laneKey(d))
    })
  }
  return out
}

const shq = (s: string): string => (/^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`)

/** One argv as a shell-quoted command line (Ansible's command module splits it back). */
export function shellLine(argv: readonly string[]): string {
  return argv.map(shq).join(' ')
}

/** What the host agent gets on stdin for every action (the host's part of the inventory). */
export interface AgentSpec {
  fleet: string
  host: string
  test: string
  runArgs: string[]
  workDir: string
  drives: FleetDrive[]
}

export function agentSpec(inv: FleetInventory, host: string): AgentSpec {
  const h = inv.hosts[host]
  return {fleet: inv.name, host, test: inv.test, runArgs: inv.runArgs ?? [], workDir: h.workDir, drives: h.drives}
}

/** The ssh options every connection uses: keys only, never a password prompt, only known host keys. */
export function sshOptions(s: FleetSsh): string[] {
  return [
    '-o BatchMode=yes', '-o PasswordAuthentication=no', '-o KbdInteractiveAuthentication=no', '-o PreferredAuthentications=publickey',
    ...(s.identityFile ? ['-o IdentitiesOnly=yes'] : []),
    ...(s.knownHostsFile ? [`-o UserKnownHostsFile=${shq(s.knownHostsFile)}`, '-o StrictHostKeyChecking=yes'] : ['-o StrictHostKeyChecking=yes']),
  ]
}

/** The Ansible inventory (YAML inventory plugin, written as JSON) for an action: one host entry per inventory host, with its pts command and agent spec. */
export function ansibleInventory(inv: FleetInventory, agentArgs: readonly string[]): {all: {hosts: Record<string, Record<string, unknown>>}} {
  const hosts: Record<string, Record<string, unknown>> = {}
  for (const [name, h] of Object.entries(inv.hosts)) {
    const s: FleetSsh = {...inv.ssh, ...h.ssh}
    hosts[name] = {
      ansible_host: h.address,
      ansible_user: s.user ?? 'root',
      ...(s.port ? {ansible_port: s.port} : {}),
      ...(s.identityFile ? {ansible_ssh_private_key_file: s.identityFile} : {}),
      ansible_ssh_common_args: sshOptions(s).join(' '),
      ansible_python_interpreter: '/usr/bin/python3',
      pts_command: shellLine([...(h.pts ?? ['pts']), 'fleet', 'agent', ...agentArgs]),
      pts_spec: agentSpec(inv, name),
      pts_work_dir: h.workDir,
    }
  }
  return {all: {hosts}}
}

// ------------------------------------------------------------------------------------------------
// What the host agent answers (one JSON document on stdout)

export type LaneState = 'not started' | 'running' | 'complete' | 'failed' | 'interrupted' | 'stopped'

export interface LaneReport {
  path: string
  /** the serial the inventory names */
  serial: string | null
  key: string
  runDir: string
  /** the device as the host sees it (null: not found) */
  device: {realPath: string; model: string | null; serial: string | null; firmware: string | null; capacityBytes: number; interface: string} | null
  /** the device reports the inventory's serial (or has none, like a loop device, and the inventory names none) */
  serialMatches: boolean
  safety: {proceed: boolean; refusals: string[]} | null
  state: LaneState
  /** pid of the lane's live pts */
  pid: number | null
  /** pts's last progress line: phase, round and ETA */
  phase: string | null
  round: string | null
  eta: string | null
  /** what this action did to the lane (started, resumed, refused: why) */
  action: string | null
  /** processes that have the drive open (pid and command), found before a resume */
  openBy: Array<{pid: number; command: string}>
}

export interface AgentReply {
  hostname: string
  ptsVersion: string
  fioVersion: string | null
  lanes: LaneReport[]
  /** collect: the archive of the fleet's run directories on the host */
  pack: {path: string; bytes: number; sha256: string} | null
}

/** The answer of one host, or why there is none. */
export type HostOutcome = {host: string; reply: AgentReply; error: null} | {host: string; reply: null; error: string}

// ------------------------------------------------------------------------------------------------
// pts fleet plan: the fleet's verdict

export interface FleetPlanHost {
  host: string
  hostname: string | null
  ptsVersion: string | null
  fioVersion: string | null
  error: string | null
  lanes: LaneReport[]
}

/** What `pts fleet plan --json` prints. */
export interface FleetPlanJson {
  fleet: string
  test: string
  hosts: FleetPlanHost[]
  /** every reason the fleet may not run; empty: it may (each drive still needs --yes-destroy-data host:serial) */
  problems: string[]
  /** what --yes-destroy-data must name, one per drive */
  confirmations: string[]
}

function distinct<T>(xs: T[]): T[] { return [...new Set(xs)] }

export function judgeFleet(inv: FleetInventory, outcomes: HostOutcome[]): FleetPlanJson {
  const problems: string[] = []
  const hosts: FleetPlanHost[] = outcomes.map(o => ({host: o.host, hostname: o.reply?.hostname ?? null, ptsVersion: o.reply?.ptsVersion ?? null, fioVersion: o.reply?.fioVersion ?? null, error: o.error, lanes: o.reply?.lanes ?? []}))
  for (const h of hosts) {
    if (h.error) { problems.push(`${h.host}: ${h.error}`); continue }
    if (!h.fioVersion) problems.push(`${h.host}: fio was not found`)
    for (const l of h.lanes) {
      if (!l.device) problems.push(`${h.host}:${l.path}: no such device on the host`)
      else if (!l.serialMatches) problems.push(`${h.host}:${l.path}: reports serial ${l.device.serial ?? 'none'}, the inventory names ${l.serial ?? 'none'}`)
      if (l.safety && !l.safety.proceed) problems.push(`${h.host}:${l.path}: refused by the safety gate: ${l.safety.refusals.join('; ')}`)
      if (l.state === 'running') problems.push(`${h.host}:${l.path}: a pts run is already running on it (pid ${l.pid})`)
    }
  }
  const ok = hosts.filter(h => !h.error)
  const pts = distinct(ok.map(h => h.ptsVersion ?? 'none'))
  if (pts.length > 1) problems.push(`the hosts run different pts versions: ${ok.map(h => `${h.host} ${h.ptsVersion}`).join(', ')}; install one pts release on every host`)
  const fio = distinct(ok.map(h => h.fioVersion ?? 'none'))
  if (fio.length > 1) problems.push(`the hosts run different fio versions: ${ok.map(h => `${h.host} ${h.fioVersion ?? 'none'}`).join(', ')}; install one fio release on every host`)
  const names = ok.map(h => h.hostname)
  for (const n of distinct(names)) {
    const same = ok.filter(h => h.hostname === n)
    if (same.length > 1) problems.push(`${same.map(h => h.host).join(' and ')} are one machine (both report hostname ${n}); each inventory host must be its own machine`)
  }
  const confirmations = Object.entries(inv.hosts).flatMap(([h, host]) => host.drives.map(d => confirmationOf(h, d)))
  return {fleet: inv.name, test: inv.test, hosts, problems, confirmations}
}

/** The drives of the fleet that no --yes-destroy-data names. */
export function unconfirmed(inv: FleetInventory, confirmed: readonly string[]): string[] {
  return Object.entries(inv.hosts).flatMap(([h, host]) => host.drives.map(d => confirmationOf(h, d))).filter(c => !confirmed.includes(c))
}

/**
 * The progress fields of pts's last plain progress line in a lane's log: "[12.9s] | lat loop | round
 * 5/5 | point 9/9 ... | ETA 1m 02s", or with the wall-clock time first ("03:10:34Z [12s] lat loop |
 * round 2/5 | ETA 40s (done 03:11Z)"). The ETA is the last one printed.
 */
export function parseProgressLine(log: string): {phase: string | null; round: string | null; eta: string | null} {
  const lines = log.split('\n').map(l => /^(?:\d\d:\d\d:\d\dZ )?\[[^\]]+\] (?:\| )?(.+)$/.exec(l)?.[1]).filter((l): l is string => Boolean(l))
  const last = lines.at(-1)
  if (!last) return {phase: null, round: null, eta: null}
  const parts = last.split(' | ')
  const round = parts.find(p => /^round \d+\/\S+$/.test(p))
  const eta = [...lines].reverse().map(l => l.split(' | ').find(p => p.startsWith('ETA '))).find(Boolean)
  return {phase: parts[0] ?? null, round: round ? round.slice('round '.length) : null, eta: eta ? eta.slice('ETA '.length) : null}
}

/** What `pts fleet run|status|resume --json` print: every host's answer, and the lanes this action refused. */
export interface FleetActionJson {
  fleet: string
  hosts: HostOutcome[]
  /** "host:serial: why" for every lane refused, and every host without an answer */
  refused: string[]
  confirmations: string[]
}

export function actionJson(inv: FleetInventory, outcomes: HostOutcome[]): FleetActionJson {
  const refused = outcomes.flatMap(o => o.reply ? o.reply.lanes.filter(l => l.action?.startsWith('refused')).map(l => `${o.host}:${l.serial ?? l.path}: ${l.action}`) : [`${o.host}: ${o.error}`])
  return {fleet: inv.name, hosts: outcomes, refused, confirmations: Object.entries(inv.hosts).flatMap(([h, host]) => host.drives.map(d => confirmationOf(h, d)))}
}

/** What `pts fleet collect --json` prints: where each host's run directories were copied. */
export interface FleetCollectJson {
  fleet: string
  dir: string
  hosts: Array<{host: string; dir: string | null; error: string | null; lanes: Array<{key: string; state: LaneState; dir: string | null}>}>
}

// ------------------------------------------------------------------------------------------------
// fleet.json of the controller's directory (pts fleet collect): the lanes of every host

/** A lane's status in the controller's fleet.json: its state on its host when collected, or not collected (yet). */
export type HostsLaneStatus = LaneState | 'not collected'

/** One drive of one host, as the controller's fleet.json indexes it. */
export interface HostsFleetLane {
  /**
   * the lane's number across the fleet (hosts in inventory order, each host's drives in order)
   * @integer
   * @minimum 1
   */
  index: number
  /** the host's name in the inventory */
  host: string
  /** the hostname the host reported when it was collected (null: never collected) */
  hostname: string | null
  /** the drive's path as the inventory names it (a /dev/disk/by-id/ path, or a loop device for tests) */
  device: string
  /** the serial the inventory names (null: a drive without one, identified by its path) */
  serial: string | null
  /** the test the drive runs (a test id, or all for the suite) */
  test: string
  /** the copy of the lane's run directory (or suite directory), relative to the fleet directory: <host>/<serial> */
  dir: string
  /** the lane's run directory on its host */
  hostDir: string
  status: HostsLaneStatus
  /**
   * when this lane's copy was made (null: never collected)
   * @format date-time
   */
  collectedAt: string | null
}

/**
 * fleet.json of a fleet across hosts (the controller's directory of pts fleet): where every host's
 * lanes were copied by pts fleet collect, with their host, drive, serial, test and state. The
 * cross-host variant of the fleet.json of pts run with several --device (kind "hosts"); its lanes
 * run on their hosts, so they are continued with pts fleet resume <inventory>, not pts resume.
 */
export interface HostsFleetIndex {
  /** @integer */
  schemaVersion: 1
  kind: 'hosts'
  /** the inventory's name of the fleet */
  fleetId: string
  /** the test every drive runs */
  test: string
  /** the inventory file on the controller (absolute) */
  inventory: string
  /** the controller's hostname */
  controller: string
  /** complete: every lane complete; running: a lane was running when collected; incomplete: some lane is not complete (failed, interrupted, stopped, not started or not collected) */
  status: 'complete' | 'running' | 'incomplete'
  /** @format date-time */
  collectedAt: string
  /** @minItems 1 */
  lanes: HostsFleetLane[]
  /** The fleet report's files, relative to the fleet directory (empty until rendered). */
  report: string[]
}

/** What one host's collect gave: its copy's directory (null: not collected this time) and its agent's answer. */
export interface CollectedHost { host: string; dir: string | null; reply: AgentReply | null }

/**
 * The controller's fleet.json after a collect (pure): one lane per inventory drive. A host not
 * collected this time keeps its lanes of the previous index (its earlier copy is still there), or
 * is listed as not collected.
 */
export function hostsFleetIndex(o: {inv: FleetInventory; inventory: string; controller: string; now: string; collected: readonly CollectedHost[]; previous: HostsFleetIndex | null}): HostsFleetIndex {
  const lanes: HostsFleetLane[] = []
  for (const [host, h] of Object.entries(o.inv.hosts)) {
    const got = o.collected.find(c => c.host === host)
    for (const d of h.drives) {
      const key = laneKey(d)
      const base = {index: lanes.length + 1, host, device: d.path, serial: d.serial, test: o.inv.test, dir: `${host}/${key}`, hostDir: `${h.workDir}/${o.inv.name}/${key}`}
      const r = got?.dir ? got.reply?.lanes.find(l => l.key === key) : undefined
      if (got?.dir && got.reply && r) { lanes.push({...base, hostname: got.reply.hostname, hostDir: r.runDir, status: r.state, collectedAt: o.now}); continue }
      const before = o.previous?.lanes.find(l => l.host === host && l.device === d.path && l.serial === d.serial)
      lanes.push(before ? {...before, index: base.index} : {...base, hostname: null, status: 'not collected', collectedAt: null})
    }
  }
  const status = lanes.every(l => l.status === 'complete') ? 'complete' : lanes.some(l => l.status === 'running') ? 'running' : 'incomplete'
  return {schemaVersion: 1, kind: 'hosts', fleetId: o.inv.name, test: o.inv.test, inventory: o.inventory, controller: o.controller, status, collectedAt: o.now, lanes, report: o.previous?.report ?? []}
}
