import {Args, Flags} from '@oclif/core'
import {readFileSync} from 'node:fs'
import {BaseCommand} from '../../app/base-command.js'
import type {AgentReply, AgentSpec} from '../../fleet/hosts.js'

export default class FleetAgent extends BaseCommand {
  static hidden = true
  static summary = 'The host side of pts fleet (run on each host by Ansible; reads the host\'s part of the inventory on stdin, prints JSON).'
  static description = 'facts: versions, drive identities and safety verdicts. start: one pts run per confirmed drive, detached from the ssh session. status: each lane\'s state and progress. resume: pts resume for each unfinished lane, after checking that nothing has its drive open. pack: a tar of the fleet\'s run directories for pts fleet collect.'
  static args = {action: Args.string({required: true, options: ['facts', 'start', 'status', 'resume', 'pack']})}
  static flags = {confirm: Flags.string({description: 'a drive confirmed as host:serial (start, resume)', multiple: true, default: []})}

  async run(): Promise<AgentReply> {
    const {args, flags} = await this.parse(FleetAgent)
    const {runAgent} = await import('../../app/fleet-agent.js')
    const spec = JSON.parse(readFileSync(0, 'utf8')) as AgentSpec
    const reply = await runAgent(args.action as 'facts', spec, flags.confirm)
    this.log(JSON.stringify(reply))
    return reply
  }
}
