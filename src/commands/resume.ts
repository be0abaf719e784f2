import {Args, Flags} from '@oclif/core'
import {join} from 'node:path'
import {BaseCommand} from '../app/base-command.js'
import {UsageError} from '../errors.js'
import * as M from '../messages.js'
import {signKeyFlag} from '../app/flags.js'
import type {RunJson} from './run.js'

export default class Resume extends BaseCommand {
  static summary = 'Continue an interrupted run or suite (after a crash, a reboot or Ctrl-C).'
  static description = `Continues a run from its stored state: completed rounds are kept, the round that was cut is re-run from its start (the points it had are set aside under raw/cut-<time>/), and the interruption (when, how long idle) is a recorded deviation shown in the report. With --restart-from purge everything measured is set aside and the run starts again from the purge: a clean, compliant run.

Before touching the device, resume ends any fio process that a killed pts left running (found by the pids recorded in lock.json), refuses while another pts holds the run or the device, and refuses when the device identity (serial, capacity) differs from the manifest. The run's old seal and signature are removed when it continues and written again when it ends (pass --sign-key again to sign).

Every test continues from its stored phases: completed phases are kept, a cut loop round, HIR wait state or histogram run is re-run from its start, a cut series continues with its next sample. Runs stored by earlier versions of pts (the IOPS format without phases) are read as the same phases. A suite directory (pts run all) continues the cut test, then runs the tests not yet started, and writes suite.pdf. A fleet directory (pts run with several --device) continues every lane that is not complete (each lane as its own pts resume, all at once), keeps the complete ones, and renders fleet.pdf again; a lane refused by the safety gate is not run again. The exit code is the fleet's (0, or 64 + one bit per lane that did not complete, as pts run).`
  static examples = [
    '<%= config.bin %> resume reports/2026-12-01T101500Z-iops-nvme1n1',
    '<%= config.bin %> resume reports/2026-12-01T101500Z-iops-nvme1n1 --restart-from purge',
    '<%= config.bin %> resume reports/2026-12-01T101500Z-all-nvme1n1',
  ]
  static args = {runDir: Args.string({description: 'run directory written by pts run (or a suite directory of pts run all, or a fleet directory of pts run with several --device)', required: true})}
  static flags = {
    'restart-from': Flags.string({description: 'start again from this phase instead of continuing', options: ['purge']}),
    ...signKeyFlag,
  }

  async run(): Promise<RunJson> {
    const {args, flags} = await this.parse(Resume)
    const [{loadSigningKey}, {readSuite, runSuite}] = await Promise.all([import('../store/integrity.js'), import('../app/suite.js')])
    const signKey = flags['sign-key'] === undefined ? undefined : loadSigningKey(flags['sign-key'])
    const {readFleet, resumeFleet} = await import('../app/lanes.js')
    const fleetIndex = readFleet(args.runDir)
    if (fleetIndex) {
      if (flags['restart-from']) throw new UsageError(M.lanes.restartFromFleet(join(args.runDir, fleetIndex.lanes[0].dir)))
      const {fleetSummaryText} = await import('../fleet/model.js')
      const {fleet, exit} = await resumeFleet(args.runDir, this.jsonEnabled(), flags['sign-key'] ? ['--sign-key', flags['sign-key']] : [])
      if (!this.jsonEnabled()) this.log(fleetSummaryText(fleet, fleet.dir, exit))
      process.exitCode = exit
      return fleet
    }
    const suite = readSuite(args.runDir)
    if (suite) {
      if (flags['restart-from']) throw new UsageError(M.suite.restartFromSuite(join(args.runDir, suite.tests[0].dir)))
      if (suite.status === 'complete') throw new UsageError(M.suite.alreadyComplete(args.runDir))
      const s = await runSuite({dir: args.runDir, tests: suite.tests.map(t => t.test), flags: suite.flags as never, argv: suite.argv, signKey, resume: suite,
        resumeTest: dir => this.config.runCommand('resume', [dir, ...(flags['sign-key'] ? ['--sign-key', flags['sign-key']] : [])])})
      if (!this.jsonEnabled()) this.log([`Suite ${s.suiteId}: ${s.status}`, ...s.tests.map(t => `  ${t.dir}: ${t.status}`), ...s.files.map(f => `Report: ${f}`)].join('\n'))
      return s
    }
    const {resumeRun} = await import('../app/resume.js')
    return resumeRun(args.runDir, {restart: flags['restart-from'] === 'purge', signKey, argv: ['pts', 'resume', ...this.argv], log: this.jsonEnabled() ? null : (t: string) => this.log(t)})
  }
}
