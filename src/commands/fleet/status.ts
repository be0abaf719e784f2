import {BaseCommand} from '../../app/base-command.js'
import type {FleetActionJson} from '../../fleet/hosts.js'
import {dirFlag, inventoryArg} from './plan.js'

export default class FleetStatus extends BaseCommand {
  static summary = 'Every lane of the fleet: state (running, complete, failed, interrupted, stopped), phase, round and ETA.'
  static description = 'Runs "pts fleet agent status" on every host through Ansible; each lane\'s phase, round and ETA are what its pts last printed (its log, <workDir>/<fleet>/<serial>.log on the host). "stopped": the run directory says running but no pts runs it (killed, or the host rebooted): continue it with pts fleet resume. Touches nothing.'
  static examples = ['<%= config.bin %> fleet status lab.json', '<%= config.bin %> fleet status lab.json --json']
  static args = inventoryArg
  static flags = dirFlag

  async run(): Promise<FleetActionJson> {
    const {args, flags} = await this.parse(FleetStatus)
    const {loadInventory, fleetDirOf, onHosts} = await import('../../app/fleet-controller.js')
    const {actionJson} = await import('../../fleet/hosts.js')
    const {outcomesText} = await import('../../fleet/text.js')
    const inv = loadInventory(args.inventory)
    const result = actionJson(inv, onHosts(inv, fleetDirOf(inv, flags.dir), 'status'))
    if (!this.jsonEnabled()) this.log(outcomesText(result.hosts))
    return result
  }
}
