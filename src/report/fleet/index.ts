/**
 * Render the fleet report (fleet.pdf, fleet.html) from run directories: a fleet directory's lanes
 * (renderFleetReport) or any list of run or suite directories (renderRunsReport, e.g. runs
 * collected from several hosts). Each run is read as its own report reads it.
 */
import {existsSync, readFileSync} from 'node:fs'
import {hostname} from 'node:os'
import {join, relative, resolve} from 'node:path'
import {RunDirError} from '../../errors.js'
import * as M from '../../messages.js'
import type {HostsFleetIndex} from '../../fleet/hosts.js'
import {writeJsonAtomic} from '../../store/atomic.js'
import {FLEET_FILE, readFleetFile} from '../../store/fleet-index.js'
import {loadRun} from '../load.js'
import {PROGRAM_PAGE_BUILDERS} from '../pages/index.js'
import {closeBrowser, htmlToPdf} from '../pdf.js'
import {writeOut} from '../index.js'
import {buildFleetReport, type FleetRunInput} from './model.js'
import {fleetHtml} from './html.js'

/** `host`: the host the run was made on (pts fleet collect); its rows show the device as host:path. */
export interface RunRef { dir: string; lane: number | null; device: string; status: string; error: string | null; host?: string }

/** The test run directories of a run or suite directory (a suite: one per test that has stored results). */
function runDirsOf(dir: string): string[] {
  const suite = join(dir, 'suite.json')
  if (!existsSync(suite)) return [dir]
  const s = JSON.parse(readFileSync(suite, 'utf8')) as {tests: Array<{dir: string}>}
  return s.tests.map(t => join(dir, t.dir)).filter(d => existsSync(join(d, 'results.json')))
}

const none = (v: string | null | undefined) => (v ? v : 'none')

/** One report row per test run of a referenced directory (a row with the error for a lane without results). */
export function fleetRows(refs: readonly RunRef[], base: string): FleetRunInput[] {
  const rows: FleetRunInput[] = []
  for (const ref of refs) {
    const dirs = existsSync(ref.dir) ? runDirsOf(ref.dir) : []
    if (dirs.length === 0) {
      rows.push({dir: relative(base, ref.dir) || '.', lane: ref.lane, device: ref.device, model: '-', serial: '-', firmware: '-', test: '-', status: ref.status, compliant: false,
        verdict: ref.error ?? 'no results stored', headline: [], concurrentDrives: 1, hostCpuBusyPct: null})
      continue
    }
    for (const d of dirs) {
      try {
        const run = loadRun(d)
        const m = run.manifest
        const builder = PROGRAM_PAGE_BUILDERS[run.results.test]
        const section = builder ? builder({manifest: m, results: run.results, rawFiles: run.rawFiles, claims: run.claims, generatedAt: new Date().toISOString()}) : null
        rows.push({
          dir: relative(base, d) || '.', lane: ref.lane, device: `${ref.host ? `${ref.host}:` : ''}${m.target.kind === 'file' ? `file:${m.target.path}` : m.target.path}`, model: none(m.target.identity.model),
          serial: none(m.target.identity.serial), firmware: none(m.target.identity.firmware), test: run.results.test, status: run.results.status,
          compliant: m.compliance.compliant && run.results.status === 'complete', verdict: section?.verdict ?? run.results.status, headline: section?.headline ?? [],
          concurrentDrives: m.concurrency?.drives.length ?? 1, hostCpuBusyPct: m.concurrency?.hostCpu.at(-1)?.busyPct ?? null,
        })
      } catch (error) {
        rows.push({dir: relative(base, d) || '.', lane: ref.lane, device: ref.device, model: '-', serial: '-', firmware: '-', test: '-', status: ref.status, compliant: false,
          verdict: ref.error ?? (error as Error).message, headline: [], concurrentDrives: 1, hostCpuBusyPct: null})
      }
    }
  }
  return rows
}

/** Render the fleet report of any run or suite directories into outDir (fleet.pdf, fleet.html); returns the files written. */
export async function renderRunsReport(refs: readonly RunRef[], o: {outDir: string; title: string; formats?: Array<'pdf' | 'html'>; host?: string}): Promise<string[]> {
  const outDir = resolve(o.outDir)
  const model = buildFleetReport({title: o.title, generatedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), host: o.host ?? hostname(), rows: fleetRows(refs, outDir)})
  const html = fleetHtml(model)
  const files: string[] = []
  const formats = o.formats ?? ['pdf', 'html']
  if (formats.includes('html')) { writeOut(join(outDir, 'fleet.html'), html); files.push(join(outDir, 'fleet.html')) }
  if (formats.includes('pdf')) {
    try {
      writeOut(join(outDir, 'fleet.pdf'), await htmlToPdf(html))
      files.push(join(outDir, 'fleet.pdf'))
    } finally {
      await closeBrowser()
    }
  }
  return files
}

/** Plain run directories (e.g. collected from several hosts) as report references. */
export function runRefs(dirs: readonly string[]): RunRef[] {
  return dirs.map(d => ({dir: resolve(d), lane: null, device: d, status: 'stored', error: null}))
}

/** The fleet report of a fleet directory (fleet.json of pts run with several --device, or of pts fleet collect): one row per lane and test. */
export async function renderFleetReport(dirArg: string, o: {formats?: Array<'pdf' | 'html'>} = {}): Promise<string[]> {
  const dir = resolve(dirArg)
  const f = readFleetFile(dir)
  if (!f) throw new RunDirError(M.lanes.notAFleet(dir))
  if (f.kind === 'hosts') return renderHostsReport(dir, f.index, o)
  const fleet = f.index
  const refs = fleet.lanes.map(l => ({dir: join(dir, l.dir), lane: l.index, device: l.device, status: l.status, error: l.error}))
  return renderRunsReport(refs, {outDir: dir, title: `Fleet report: ${fleet.test}, ${fleet.lanes.length} drives (${fleet.fleetId})`, formats: o.formats, host: fleet.hostname})
}

/** The report references of a fleet across hosts: every lane, host:path; a lane not collected is a row that says so. */
export function hostsRefs(dir: string, fleet: HostsFleetIndex): RunRef[] {
  return fleet.lanes.map(l => ({dir: join(dir, l.dir), lane: l.index, device: `${l.host}:${l.device}`, status: l.status, host: l.host,
    error: l.status === 'not collected' ? 'not collected: run pts fleet collect' : null}))
}

/** The fleet report across hosts from the controller's fleet.json (pts fleet collect); its files are recorded in it. */
export async function renderHostsReport(dir: string, fleet: HostsFleetIndex, o: {formats?: Array<'pdf' | 'html'>} = {}): Promise<string[]> {
  const hosts = new Set(fleet.lanes.map(l => l.host)).size
  const files = await renderRunsReport(hostsRefs(dir, fleet), {outDir: dir, title: `Fleet report: ${fleet.test}, ${fleet.lanes.length} drives on ${hosts} hosts (${fleet.fleetId})`, formats: o.formats, host: fleet.controller})
  writeJsonAtomic(join(dir, FLEET_FILE), {...fleet, report: [...new Set([...fleet.report, ...files.map(x => relative(dir, x))])].sort()})
  return files
}
