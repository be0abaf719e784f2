import {BaseCommand} from '../../app/base-command.js'
import {EXIT, UnsafeTargetError} from '../../errors.js'
import * as M from '../../messages.js'
import type {FleetActionJson} from '../../fleet/hosts.js'
import {confirmFlag, dirFlag, inventoryArg} from './plan.js'

export default class FleetResume extends BaseCommand {
  static summary = 'Continue every unfinished lane of the fleet (pts resume on its host); finished and running lanes are left alone.'
  static description = `Runs "pts fleet agent resume" on every host through Ansible. For each lane that is stopped, interrupted or failed and confirmed with --yes-destroy-data host:serial, the host ends the fio processes its dead pts left running (recorded in the run's lock.json), refuses while any process still has the drive open (it names them), re-checks the serial, and starts "pts resume <run dir>" detached from ssh. Exit 4 when a lane was refused.`
  static examples = ['<%= config.bin %> fleet resume lab.json --yes-destroy-data node2:S3EVNX0K654321']
  static args = inventoryArg
  static flags = {...dirFlag, ...confirmFlag}

  async run(): Promise<FleetActionJson> {
    const {args, flags} = await this.parse(FleetResume)
    const {loadInventory, fleetDirOf, onHosts} = await import('../../app/fleet-controller.js')
    const {actionJson} = await import('../../fleet/hosts.js')
    const {outcomesText} = await import('../../fleet/text.js')
    const inv = loadInventory(args.inventory)
    if (flags['yes-destroy-data'].length === 0) throw new UnsafeTargetError(M.fleet.notConfirmed(actionJson(inv, []).confirmations))
    const result = actionJson(inv, onHosts(inv, fleetDirOf(inv, flags.dir), 'resume', flags['yes-destroy-data']))
    if (!this.jsonEnabled()) this.log(outcomesText(result.hosts))
    if (result.refused.length > 0) { process.exitCode = EXIT.unsafeTarget; this.warn(M.fleet.lanesRefused(result.refused).message) }
    return result
  }
}
