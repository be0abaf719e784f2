import {Flags} from '@oclif/core'
import {BaseCommand} from '../../app/base-command.js'
import {RunDirError} from '../../errors.js'
import * as M from '../../messages.js'
import {dirFlag, inventoryArg} from './plan.js'

/** What `pts fleet report --json` prints: the files written and the run directories they were made from. */
export interface FleetReportJson { files: string[]; runs: Array<{host: string; drive: string; dir: string}> }

export default class FleetReport extends BaseCommand {
  static summary = 'Render the fleet report across hosts (fleet.pdf, fleet.html) from the run directories pts fleet collect copied back.'
  static description = 'One row per drive of every host (shown as host:path): model, serial, firmware, test, verdict and headline values, and for drives of one model the sample variation per headline value (min, median, max, coefficient of variation); the same report as pts run with several --device. Reads <dir>/<host>/<serial>/ of every inventory drive; a drive not collected yet is left out and named.'
  static examples = ['<%= config.bin %> fleet report lab.json', '<%= config.bin %> fleet report lab.json --format html']
  static args = inventoryArg
  static flags = {...dirFlag, format: Flags.string({description: 'comma-separated: pdf, html', default: 'pdf,html'})}

  async run(): Promise<FleetReportJson> {
    const {args, flags} = await this.parse(FleetReport)
    const {existsSync} = await import('node:fs')
    const {join} = await import('node:path')
    const {loadInventory, fleetDirOf} = await import('../../app/fleet-controller.js')
    const {laneKey} = await import('../../fleet/hosts.js')
    const {renderRunsReport} = await import('../../report/fleet/index.js')
    const inv = loadInventory(args.inventory)
    const dir = fleetDirOf(inv, flags.dir)
    const all = Object.entries(inv.hosts).flatMap(([host, h]) => h.drives.map(d => ({host, drive: d.path, dir: join(dir, host, laneKey(d))})))
    const runs = all.filter(r => existsSync(join(r.dir, 'manifest.json')))
    if (runs.length === 0) throw new RunDirError(M.fleet.nothingCollected(dir))
    for (const r of all.filter(x => !runs.includes(x))) this.warn(M.fleet.notCollected(`${r.host}:${r.drive}`, r.dir).message)
    const formats = flags.format.split(',').map(f => f.trim()).filter(f => f === 'pdf' || f === 'html') as Array<'pdf' | 'html'>
    const files = await renderRunsReport(runs.map(r => ({dir: r.dir, lane: null, device: r.drive, status: 'collected', error: null, host: r.host})),
      {outDir: dir, title: `Fleet report: ${inv.test}, ${runs.length} drives on ${new Set(runs.map(r => r.host)).size} hosts (${inv.name})`, formats})
    if (!this.jsonEnabled()) this.log(files.map(f => `Report: ${f}`).join('\n'))
    return {files, runs}
  }
}
