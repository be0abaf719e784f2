import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../../app/base-command.js'
import {EXIT} from '../../errors.js'
import type {FleetPlanJson} from '../../fleet/hosts.js'

export const inventoryArg = {inventory: Args.string({description: 'pts fleet inventory (JSON; schemas/fleet-inventory.schema.json)', required: true})}
export const dirFlag = {dir: Flags.string({description: 'the fleet directory on this controller: the Ansible inventory pts writes, and the collected run directories (default reports/fleet-<name>)'})}
export const confirmFlag = {'yes-destroy-data': Flags.string({description: 'confirm destroying the data of one drive, as host:serial (host:path for a device without a serial); once per drive', multiple: true, default: []})}

export default class FleetPlan extends BaseCommand {
  static summary = 'Check a fleet of hosts before a run: pts and fio versions, every drive\'s identity and safety verdict; writes nothing to any drive.'
  static description = `Runs "pts fleet agent facts" on every host of the inventory through Ansible (ansible-core, over ssh, keys only) and refuses the fleet when a host is unreachable, the hosts run different pts or fio versions, two inventory hosts are one machine (the same hostname), a drive is missing, reports another serial than the inventory names, or is refused by the host's safety gate, or a pts run already runs on it. Prints what --yes-destroy-data must name for pts fleet run. Exit 12 when the fleet may not run.`
  static examples = ['<%= config.bin %> fleet plan lab.json', '<%= config.bin %> fleet plan lab.json --json']
  static args = inventoryArg
  static flags = dirFlag

  async run(): Promise<FleetPlanJson> {
    const {args, flags} = await this.parse(FleetPlan)
    const {loadInventory, fleetDirOf, onHosts} = await import('../../app/fleet-controller.js')
    const {judgeFleet} = await import('../../fleet/hosts.js')
    const {planText} = await import('../../fleet/text.js')
    const inv = loadInventory(args.inventory)
    const plan = judgeFleet(inv, onHosts(inv, fleetDirOf(inv, flags.dir), 'facts'))
    if (!this.jsonEnabled()) this.log(planText(plan))
    if (plan.problems.length > 0) process.exitCode = EXIT.preflightFailed
    return plan
  }
}
