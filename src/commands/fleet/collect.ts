import {BaseCommand} from '../../app/base-command.js'
import {EXIT} from '../../errors.js'
import type {FleetCollectJson} from '../../fleet/hosts.js'
import {dirFlag, inventoryArg} from './plan.js'

export default class FleetCollect extends BaseCommand {
  static summary = 'Copy every host\'s run directories back to this controller, byte for byte: <dir>/<host>/<serial>/, indexed by <dir>/fleet.json.'
  static description = 'Each host packs <workDir>/<fleet> (every lane\'s run directory and log) into a tar; Ansible\'s fetch module copies it and checks its checksum; pts checks its size and SHA-256 against the host\'s, and unpacks it into <dir>/<host>/, replacing an earlier copy. <dir>/fleet.json then indexes every drive of every host (host, by-id path, serial, test, the directory of its copy, the state of its lane; schemas/fleet-hosts.schema.json): pts fleet report and pts report <dir> read it; a host that could not be collected keeps its earlier entries. pts audit runs on the copies as on the originals. A running lane is copied as it is at that moment (collect again when it ends). Exit 8 when a host could not be collected.'
  static examples = ['<%= config.bin %> fleet collect lab.json', '<%= config.bin %> fleet collect lab.json --dir /srv/fleets/lab']
  static args = inventoryArg
  static flags = dirFlag

  async run(): Promise<FleetCollectJson> {
    const {args, flags} = await this.parse(FleetCollect)
    const {loadInventory, fleetDirOf, collect, writeHostsIndex} = await import('../../app/fleet-controller.js')
    const inv = loadInventory(args.inventory)
    const dir = fleetDirOf(inv, flags.dir)
    const collected = collect(inv, dir)
    writeHostsIndex(inv, args.inventory, dir, collected)
    const hosts = collected.map(c => ({host: c.host, dir: c.dir, error: c.error, lanes: (c.reply?.lanes ?? []).map(l => ({key: l.key, state: l.state, dir: c.dir ? `${c.dir}/${l.key}` : null}))}))
    if (!this.jsonEnabled()) this.log(hosts.map(h => h.dir ? `${h.host}: ${h.dir}\n${h.lanes.map(l => `  ${l.dir} (${l.state})`).join('\n')}` : `${h.host}: NOT COLLECTED: ${h.error}`).join('\n'))
    if (hosts.some(h => !h.dir)) process.exitCode = EXIT.runDir
    return {fleet: inv.name, dir, hosts}
  }
}
