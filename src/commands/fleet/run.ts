import {BaseCommand} from '../../app/base-command.js'
import {EXIT, PtsError, UnsafeTargetError, UsageError} from '../../errors.js'
import * as M from '../../messages.js'
import type {FleetActionJson} from '../../fleet/hosts.js'
import {confirmFlag, dirFlag, inventoryArg} from './plan.js'

export default class FleetRun extends BaseCommand {
  static summary = 'Start the fleet: one pts run per drive on every host, detached from ssh (it outlives the controller).'
  static description = `Checks the fleet as pts fleet plan does (and refuses as it does), then runs "pts fleet agent start" on every host through Ansible: for every drive confirmed with --yes-destroy-data host:serial, the host re-checks the serial and starts "pts run <test> --device <path> --yes-destroy-data <serial> --out <workDir>/<fleet>/<serial>" in its own session (setsid), its output in <workDir>/<fleet>/<serial>.log. Each run holds its device lock on its host and passes the host's safety gate again. Watch with pts fleet status, copy back with pts fleet collect. Exit 4 when a drive was refused.`
  static examples = ['<%= config.bin %> fleet run lab.json --yes-destroy-data node1:S3EVNX0K123456 --yes-destroy-data node2:S3EVNX0K654321']
  static args = inventoryArg
  static flags = {...dirFlag, ...confirmFlag}

  async run(): Promise<FleetActionJson> {
    const {args, flags} = await this.parse(FleetRun)
    const {loadInventory, fleetDirOf, onHosts} = await import('../../app/fleet-controller.js')
    const {judgeFleet, unconfirmed, actionJson} = await import('../../fleet/hosts.js')
    const {outcomesText} = await import('../../fleet/text.js')
    const inv = loadInventory(args.inventory)
    const confirmed = flags['yes-destroy-data']
    const known = judgeFleet(inv, []).confirmations
    const extra = confirmed.filter(c => !known.includes(c))
    if (extra.length > 0) throw new UsageError(M.fleet.unknownConfirmation(extra, known))
    const missing = unconfirmed(inv, confirmed)
    if (missing.length > 0) throw new UnsafeTargetError(M.fleet.notConfirmed(missing))
    const dir = fleetDirOf(inv, flags.dir)
    const plan = judgeFleet(inv, onHosts(inv, dir, 'facts'))
    if (plan.problems.length > 0) throw new PtsError(M.fleet.planRefused(plan.problems), EXIT.unsafeTarget)
    const result = actionJson(inv, onHosts(inv, dir, 'start', confirmed))
    if (!this.jsonEnabled()) this.log(outcomesText(result.hosts))
    if (result.refused.length > 0) { process.exitCode = EXIT.unsafeTarget; this.warn(M.fleet.lanesRefused(result.refused).message) }
    return result
  }
}
