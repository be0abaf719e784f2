import {Flags} from '@oclif/core'
import {BaseCommand} from '../app/base-command.js'
import {defaultRunDir, metadataFlags} from '../app/flags.js'
import type {RunSummary} from '../app/execute.js'

/** What `pts demo --json` prints: the summary of the IOPS run it made, with its report. */
export type DemoJson = RunSummary

export const DEMO_TARGET = 'reports/demo/demo.img'

export default class Demo extends BaseCommand {
  static summary = 'Run the IOPS test on a built-in 1 GiB file target with short points (real fio, real data).'
  static description = `Creates a sparse 1 GiB file ${DEMO_TARGET}, runs the PTS 2.0.2 enterprise IOPS test on it with 1-second test points and at most 6 rounds, and writes the results and the report (report.pdf, report.html) under reports/demo/. About 6 minutes on a 2-core machine. The run is marked non-compliant (file target, short points, few rounds, no purge).`
  static examples = ['<%= config.bin %> demo']
  static flags = {
    'point-seconds': Flags.string({description: 'seconds per test point', default: '1'}),
    'max-rounds': Flags.string({description: 'round limit', default: '6'}),
    out: Flags.string({char: 'o', description: 'run directory (default: reports/demo/<timestamp>-iops-demo)'}),
    ...metadataFlags,
  }

  async run(): Promise<DemoJson> {
    const {prepare} = await import('../app/prepare.js')
    const {execute, exitFor, summaryText} = await import('../app/execute.js')
    const {flags} = await this.parse(Demo)
    const device = `file:${DEMO_TARGET}`
    const prepared = prepare('iops', {
      device, size: '1GiB', revision: '2.0.2', 'point-seconds': flags['point-seconds'], 'max-rounds': flags['max-rounds'],
      'on-no-steady-state': 'stop', ioengine: 'libaio', 'yes-destroy-data': DEMO_TARGET,
      operator: flags.operator, vendor: flags.vendor, notes: flags.notes,
    })
    const runDir = flags.out ?? defaultRunDir(new Date(), 'iops', 'demo').replace(/^reports\//, 'reports/demo/')
    const summary = await execute(prepared, runDir, ['pts', 'demo', ...this.argv], false)
    if (!this.jsonEnabled()) this.log(summaryText(summary))
    process.exitCode = exitFor(summary)
    return summary
  }
}
