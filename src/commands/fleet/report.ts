import {Flags} from '@oclif/core'
import {BaseCommand} from '../../app/base-command.js'
import {RunDirError, UsageError} from '../../errors.js'
import * as M from '../../messages.js'
import {dirFlag, inventoryArg} from './plan.js'

/** What `pts fleet report --json` prints: the files written and the run directories they were made from. */
export interface FleetReportJson { files: string[]; runs: Array<{host: string; drive: string; dir: string}> }

export default class FleetReport extends BaseCommand {
  static summary = 'Render the fleet report across hosts (fleet.pdf, fleet.html) from the run directories pts fleet collect copied back.'
  static description = 'One row per drive of every host (shown as host:path): model, serial, firmware, test, verdict and headline values, and for drives of one model the sample variation per headline value (min, median, max, coefficient of variation); the same report as pts run with several --device. Reads the fleet.json that pts fleet collect wrote into <dir> (every drive of every host, its copy <dir>/<host>/<serial>/, its test and state); a drive not collected yet is a row that says so, and is named. pts report <dir> renders the same report.'
  static examples = ['<%= config.bin %> fleet report lab.json', '<%= config.bin %> fleet report lab.json --format html']
  static args = inventoryArg
  static flags = {...dirFlag, format: Flags.string({description: 'comma-separated: pdf, html', default: 'pdf,html'})}

  async run(): Promise<FleetReportJson> {
    const {args, flags} = await this.parse(FleetReport)
    const {existsSync} = await import('node:fs')
    const {join} = await import('node:path')
    const {loadInventory, fleetDirOf} = await import('../../app/fleet-controller.js')
    const {readFleetFile} = await import('../../store/fleet-index.js')
    const {renderHostsReport} = await import('../../report/fleet/index.js')
    const inv = loadInventory(args.inventory)
    const dir = fleetDirOf(inv, flags.dir)
    const f = readFleetFile(dir)
    if (!f) throw new RunDirError(M.fleet.nothingCollected(dir))
    if (f.kind !== 'hosts') throw new UsageError(M.fleet.notHostsFleet(dir))
    const runs = f.index.lanes.filter(l => existsSync(join(dir, l.dir, 'manifest.json')) || existsSync(join(dir, l.dir, 'suite.json'))).map(l => ({host: l.host, drive: l.device, dir: join(dir, l.dir)}))
    if (runs.length === 0) throw new RunDirError(M.fleet.nothingCollected(dir))
    for (const l of f.index.lanes.filter(x => !runs.some(r => r.dir === join(dir, x.dir)))) this.warn(M.fleet.notCollected(`${l.host}:${l.device}`, join(dir, l.dir)).message)
    const formats = flags.format.split(',').map(x => x.trim()).filter(x => x === 'pdf' || x === 'html') as Array<'pdf' | 'html'>
    const files = await renderHostsReport(dir, f.index, {formats})
    if (!this.jsonEnabled()) this.log(files.map(x => `Report: ${x}`).join('\n'))
    return {files, runs}
  }
}
