import {BaseCommand} from '../cli/base.js'
import {defaultRunDir, runFlags, signKeyFlag, testArg} from '../cli/options.js'
import {loadSigningKey} from '../store/integrity.js'
import {executeProgram, prepareProgram, programFlags, programSummaryText, timeScaleOf} from '../cli/program.js'
import {prepare} from '../cli/prepare.js'
import {execute, exitFor, summaryText} from '../cli/execute.js'

export default class Run extends BaseCommand {
  static summary = 'Run a PTS test against a block device or a file, to steady state.'
  static description = `Purges the target, runs WIPC (SEQ 128 KiB writes of --wipc-multiple x the ActiveRange), then WDPC rounds in the spec's loop order until the steady-state criteria hold in a 5-round window or the round limit is reached. Writes manifest.json, results.json (after every test point) and raw/ (every fio job and JSON output) into the run directory, and ends by rendering report.pdf and report.html from those files (if only the report fails, the exit code is 7 and "pts report <run-dir>" renders it again). Progress goes to stderr.

A block device is written only when it is not mounted, not swap, holds no partitions, has no holders, and --yes-destroy-data names its serial or path. A file: target is always non-compliant.

When the run ends (also when it fails or is interrupted), manifest.json lists the SHA-256 of results.json and of every raw file; with --sign-key it is also signed (manifest.sig). pts audit checks both.`
  static examples = [
    '<%= config.bin %> run iops --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run iops --device file:/scratch/pts.img --size 8GiB --point-seconds 5 --max-rounds 8',
  ]
  static args = testArg
  static flags = {...runFlags, ...programFlags, ...signKeyFlag}

  async run(): Promise<unknown> {
    const {args, flags} = await this.parse(Run)
    const signKey = flags['sign-key'] === undefined ? undefined : loadSigningKey(flags['sign-key'])
    const runDir = flags.out ?? defaultRunDir(new Date(), args.test, flags.device)
    if (args.test !== 'iops') {
      const program = prepareProgram(args.test, flags)
      const s = await executeProgram(program, runDir, ['pts', 'run', ...this.argv], false, {signKey})
      if (!this.jsonEnabled()) this.log(programSummaryText(s))
      process.exitCode = exitFor(s)
      return s
    }
    const prepared = prepare(args.test, {...flags, 'wipc-multiple': String(Number(flags['wipc-multiple']) * timeScaleOf(flags['time-scale']))})
    const summary = await execute(prepared, runDir, ['pts', 'run', ...this.argv], false, {signKey})
    if (!this.jsonEnabled()) this.log(summaryText(summary))
    process.exitCode = exitFor(summary)
    return summary
  }
}
