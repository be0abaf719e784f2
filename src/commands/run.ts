import {BaseCommand} from '../app/base-command.js'
import {defaultRunDir, metadataFlags, runFlags, signKeyFlag, testArg} from '../app/flags.js'
import {suiteFlags} from '../app/flags.js'
import {EXIT, UsageError} from '../errors.js'
import * as M from '../messages.js'
import type {RunSummary} from '../app/execute.js'
import type {SuiteManifest} from '../app/suite.js'

/** What `pts run --json` (and `pts resume --json`) prints: the run of one test with its report, or a suite (run all). */
export type RunJson = RunSummary | (SuiteManifest & {files: string[]})

export default class Run extends BaseCommand {
  static summary = 'Run a PTS test (iops, tp, lat, wsat, hir, xsr, cbw, ecw, dirth), a review test (fob-ss, consistency, consistency-128k, four-corners, transfer-sizes, fill; not part of the SNIA PTS) or the whole suite (all) against a block device or a file.'
  static description = `Runs the phases of the test's definition in specs/<revision>/<test>.json: purge, WIPC (SEQ writes of 2x the user capacity inside the PC ActiveRange, or --wipc-multiple x), steady-state loops (rounds in the spec's loop order until the criteria hold in a 5-round window or the round limit is reached; IOPS: R/W mix x block size), per-minute series, HIR wait states, CBW/DIRTH operating points with response-time histograms; pts plan <test> prints them with the timeline. "all" runs every test the revision defines (or --tests tp,lat,...) in the spec's order, each from its own purge, each in its own directory under the suite directory, and writes suite.pdf: a contents page and every test's report. Writes manifest.json, results.json (after every test point) and raw/ (every fio job and JSON output) into the run directory, and ends by rendering report.pdf and report.html from those files (if only the report fails, the exit code is 7 and "pts report <run-dir>" renders it again). Progress goes to stderr.

--operator, --vendor and --notes are stored in manifest.json and printed in every report page's header ("Tested By", "Vendor", and the Test Platform block); with "all" they apply to every test of the suite. The header also shows what discovery found of the platform: the PCIe link (speed and width) of an NVMe drive, or a SATA/SAS drive's host adapter, the NUMA node, the I/O scheduler and the sector sizes ("not available" where the target has none, e.g. a file or loop device).

The review tests (fob-ss, consistency, consistency-128k, four-corners, transfer-sizes, fill) are what drive reviews measure, not part of the SNIA PTS; their definitions are in specs/reviews/ and are used whatever --revision says, and every plan and report page says that they are review tests and which review each comes from.

A block device is written only when it is not mounted, not swap, holds no partitions, has no holders, and --yes-destroy-data names its serial or path. A file: target is always non-compliant.

When the run ends (also when it fails or is interrupted), manifest.json lists the SHA-256 of results.json and of every raw file; with --sign-key it is also signed (manifest.sig). pts audit checks both.`
  static examples = [
    '<%= config.bin %> run iops --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run iops --device file:/scratch/pts.img --size 8GiB --point-seconds 5 --max-rounds 8',
    '<%= config.bin %> run tp --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run dirth --device /dev/nvme1n1 --workload oltp --ceiling-ms 5 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run all --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run iops --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456 --operator "ACME Labs, J. Doe" --vendor ACME --notes "FW 1.2 RC2, slot 3"',
    '<%= config.bin %> run fob-ss --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run all --tests tp,lat,wsat --device file:/scratch/pts.img --size 4GiB --point-seconds 1 --max-rounds 5 --time-scale 0.001',
  ]
  static args = testArg
  static flags = {...runFlags, ...metadataFlags, ...suiteFlags, ...signKeyFlag}

  async run(): Promise<RunJson> {
    const {loadSigningKey} = await import('../store/integrity.js')
    const {prepare} = await import('../app/prepare.js')
    const {execute, exitFor, summaryText} = await import('../app/execute.js')
    const {chooseTests, revisionTests, runSuite} = await import('../app/suite.js')
    const {args, flags} = await this.parse(Run)
    const signKey = flags['sign-key'] === undefined ? undefined : loadSigningKey(flags['sign-key'])
    const runDir = flags.out ?? defaultRunDir(new Date(), args.test, flags.device)
    if (args.test === 'all') {
      const tests = chooseTests(revisionTests(flags.revision), flags.tests, flags.revision)
      const s = await runSuite({dir: runDir, tests, flags, argv: ['pts', 'run', ...this.argv], signKey, resumeTest: dir => this.config.runCommand('resume', [dir, ...(flags['sign-key'] ? ['--sign-key', flags['sign-key']] : [])])})
      if (!this.jsonEnabled()) this.log([`Suite ${s.suiteId}: ${s.status}`, ...s.tests.map(t => `  ${t.dir}: ${t.status}${t.error ? ` (${t.error})` : ''}`), ...s.files.map(f => `Report: ${f}`)].join('\n'))
      process.exitCode = s.tests.some(t => t.error) ? EXIT.report : EXIT.ok
      return s
    }
    if (flags.tests !== undefined) throw new UsageError(M.usage.testsOnlyForAll('run'))
    const prepared = prepare(args.test, flags)
    const summary = await execute(prepared, runDir, ['pts', 'run', ...this.argv], false, {signKey})
    if (!this.jsonEnabled()) this.log(summaryText(summary))
    process.exitCode = exitFor(summary)
    return summary
  }
}
