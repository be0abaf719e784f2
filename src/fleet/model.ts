/**
 * Many drives on one host (pure): the fleet directory's index (fleet.json), one lane per drive.
 * Each lane is a single-drive run (or suite) in its own directory, run by its own pts process with
 * its own fio processes, device lock, purge, write cache, verdict, report, seal and resume; this
 * module only names the lanes, builds each lane's command line and sums up their outcomes.
 */

export type LaneStatus = 'pending' | 'running' | 'complete' | 'failed' | 'refused' | 'interrupted'

export interface FleetLane {
  /** @integer @minimum 1 */
  index: number
  /** The lane's target as given to --device. */
  device: string
  /** The lane's run directory (or suite directory), relative to the fleet directory. */
  dir: string
  status: LaneStatus
  /** The lane's pts exit code (null while it runs or before it started). @integer */
  exit: number | null
  /** Why the lane failed or was refused (null otherwise). */
  error: string | null
  /** The arguments of the lane's pts run (after the program name). */
  argv: string[]
  /** @format date-time */
  startedAt: string | null
  /** @format date-time */
  finishedAt: string | null
}

/** fleet.json: the index of a multi-drive run's lanes. */
export interface FleetIndex {
  /** @integer */
  schemaVersion: 1
  kind: 'fleet'
  fleetId: string
  /** The test of every lane (a test id, or all for the suite). */
  test: string
  /** The command line that made the fleet. */
  argv: string[]
  hostname: string
  status: 'running' | 'complete' | 'failed' | 'interrupted'
  /** @format date-time */
  createdAt: string
  /** @format date-time */
  finishedAt: string | null
  lanes: FleetLane[]
  /** The fleet report's files, relative to the fleet directory (empty until rendered). */
  report: string[]
}

/** What `pts run --json` with several --device (and `pts resume <fleet> --json`) prints. */
export type FleetJson = FleetIndex & {dir: string; files: string[]}

/** The lane's directory name: its number and the device, file-system safe ("01-nvme1n1", "02-file-a.img"). */
export function laneDirName(index: number, device: string): string {
  const dev = device.startsWith('file:') ? `file-${device.split('/').pop()}` : device.replace(/^\/dev\//, '').replace(/\//g, '_')
  return `${String(index).padStart(2, '0')}-${dev.replace(/[^A-Za-z0-9._-]/g, '_')}`
}

/** Flags whose value is the next argument and that the fleet sets per lane (not forwarded as given). */
const PER_LANE = new Set(['--device', '-d', '--out', '-o'])

/**
 * The arguments every lane shares: the command line without --device/--out (set per lane) and
 * --json (the parent reads each lane's JSON itself). Every --yes-destroy-data is forwarded: a
 * lane proceeds only when one of them names its own drive's serial or path.
 */
export function sharedArgs(argv: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a
    if (PER_LANE.has(name)) { if (!a.includes('=')) i++; continue }
    if (a === '--json') continue
    out.push(a)
  }
  return out
}

/** A lane's pts arguments: run <test> --device <drive> --out <dir> <shared>. */
export function laneArgv(test: string, device: string, dir: string, shared: readonly string[]): string[] {
  const rest = shared[0] === test ? shared.slice(1) : [...shared]
  return ['run', test, '--device', device, '--out', dir, ...rest, '--json']
}

/** A lane's status from its pts exit code. */
export function laneStatusOf(exit: number): LaneStatus {
  return exit === 0 ? 'complete' : exit === 4 ? 'refused' : exit === 130 ? 'interrupted' : 'failed'
}

/** The fleet's exit codes: 0 when every lane completed; else FLEET_EXIT_BASE plus one bit per failed lane. */
export const FLEET_EXIT_BASE = 64
/** Lanes 1-5 have their own bit (1, 2, 4, 8, 16); bit 32 stands for any failed lane from 6 on. */
export const FLEET_EXIT_LANE_BITS = 5

/** The exit code of a fleet (pure): 0, or 64 + the bits of the failed lanes (refused, failed or interrupted). */
export function fleetExit(lanes: ReadonlyArray<Pick<FleetLane, 'index' | 'status'>>): number {
  let bits = 0
  for (const l of lanes) {
    if (l.status === 'complete') continue
    bits |= l.index <= FLEET_EXIT_LANE_BITS ? 1 << (l.index - 1) : 1 << FLEET_EXIT_LANE_BITS
  }
  return bits === 0 ? 0 : FLEET_EXIT_BASE + bits
}

/** The fleet's status once no lane runs. */
export function fleetStatus(lanes: ReadonlyArray<Pick<FleetLane, 'status'>>): FleetIndex['status'] {
  if (lanes.some(l => l.status === 'running' || l.status === 'pending')) return 'running'
  if (lanes.some(l => l.status === 'interrupted')) return 'interrupted'
  return lanes.every(l => l.status === 'complete') ? 'complete' : 'failed'
}

/** The lanes `pts resume <fleet>` runs again: every one not complete and not refused by the safety gate. */
export function lanesToResume(f: FleetIndex): FleetLane[] {
  return f.lanes.filter(l => l.status !== 'complete' && l.status !== 'refused')
}

/** The closing text of a fleet, one line per lane. */
export function fleetSummaryText(f: FleetIndex, dir: string, exit: number): string {
  return [
    `Fleet ${f.fleetId}: ${f.lanes.length} lanes, ${f.status}`,
    ...f.lanes.map(l => `  lane ${l.index} ${l.device}: ${l.status}${l.exit !== null && l.exit !== 0 ? ` (exit ${l.exit})` : ''}${l.error ? `: ${l.error}` : ''} -> ${dir}/${l.dir}`),
    ...f.report.map(r => `Report: ${dir}/${r}`),
    `Exit code ${exit}${exit === 0 ? ': every lane completed' : `: failed lanes ${f.lanes.filter(l => l.status !== 'complete').map(l => l.index).join(', ')}`}`,
  ].join('\n')
}
