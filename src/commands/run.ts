import {BaseCommand} from '../app/base-command.js'
import {defaultRunDir, metadataFlags, runFlags, signKeyFlag, testArg} from '../app/flags.js'
import {suiteFlags} from '../app/flags.js'
import {EXIT, UsageError} from '../errors.js'
import * as M from '../messages.js'
import type {RunSummary} from '../app/execute.js'
import type {SuiteManifest} from '../app/suite.js'
import type {FleetJson} from '../fleet/model.js'
import {Flags} from '@oclif/core'

/** What `pts run --json` (and `pts resume --json`) prints: the run of one test with its report, a suite (run all), or a fleet (several --device: one lane per drive). */
export type RunJson = RunSummary | (SuiteManifest & {files: string[]}) | FleetJson

export default class Run extends BaseCommand {
  static summary = 'Run a PTS test (iops, tp, lat, wsat, hir, xsr, cbw, ecw, dirth) or the whole suite (all) against a block device or a file.'
  static description = `Runs the phases of the test's definition in specs/<revision>/<test>.json: purge, WIPC (SEQ writes of 2x the user capacity inside the PC ActiveRange, or --wipc-multiple x), steady-state loops (rounds in the spec's loop order until the criteria hold in a 5-round window or the round limit is reached; IOPS: R/W mix x block size), per-minute series, HIR wait states, CBW/DIRTH operating points with response-time histograms; pts plan <test> prints them with the timeline. "all" runs every test the revision defines (or --tests tp,lat,...) in the spec's order, each from its own purge, each in its own directory under the suite directory, and writes suite.pdf: a contents page and every test's report. Writes manifest.json, results.json (after every test point) and raw/ (every fio job and JSON output) into the run directory, and ends by rendering report.pdf and report.html from those files (if only the report fails, the exit code is 7 and "pts report <run-dir>" renders it again). Progress goes to stderr.

--operator, --vendor and --notes are stored in manifest.json and printed in every report page's header ("Tested By", "Vendor", and the Test Platform block); with "all" they apply to every test of the suite. The header also shows what discovery found of the platform: the PCIe link (speed and width) of an NVMe drive, or a SATA/SAS drive's host adapter, the NUMA node, the I/O scheduler and the sector sizes ("not available" where the target has none, e.g. a file or loop device).

A block device is written only when it is not mounted, not swap, holds no partitions, has no holders, and --yes-destroy-data names its serial or path. A file: target is always non-compliant.

Several drives at once: repeat --device (and --yes-destroy-data, one serial per drive). Each drive gets its own lane: a pts process of its own running this same command on that drive alone, into its own directory under the fleet directory (--out, default reports/<timestamp>-<test>-fleet), with its own fio processes, device lock, purge, write-cache handling, steady-state verdict, report, seal and resume. A drive refused by the safety gate, or whose fio fails, does not stop the others. fleet.json indexes the lanes; fleet.pdf and fleet.html have one row per drive (model, serial, firmware, test, verdict, headline values) and, for the drives of one model, the sample variation of each headline value (min, median, max, coefficient of variation). Each lane's manifest and report record the drives tested at the same time and the host's CPU use. Exit code: 0 when every lane completed, else 64 + one bit per lane that did not (lane 1: 1, lane 2: 2, lane 3: 4, lane 4: 8, lane 5: 16, any lane from 6 on: 32); the closing summary and fleet.json name each lane's status and exit code. pts resume <fleet directory> continues every unfinished lane; pts report <fleet directory> renders the fleet report again.

When the run ends (also when it fails or is interrupted), manifest.json lists the SHA-256 of results.json and of every raw file; with --sign-key it is also signed (manifest.sig). pts audit checks both.`
  static examples = [
    '<%= config.bin %> run iops --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run iops --device file:/scratch/pts.img --size 8GiB --point-seconds 5 --max-rounds 8',
    '<%= config.bin %> run tp --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run dirth --device /dev/nvme1n1 --workload oltp --ceiling-ms 5 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run all --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456',
    '<%= config.bin %> run iops --device /dev/nvme1n1 --yes-destroy-data S3EVNX0K123456 --operator "ACME Labs, J. Doe" --vendor ACME --notes "FW 1.2 RC2, slot 3"',
    '<%= config.bin %> run iops --device /dev/nvme1n1 --device /dev/nvme2n1 --yes-destroy-data S3EVNX0K123456 --yes-destroy-data S3EVNX0K654321',
    '<%= config.bin %> run all --tests tp,lat,wsat --device file:/scratch/pts.img --size 4GiB --point-seconds 1 --max-rounds 5 --time-scale 0.001',
  ]
  static args = testArg
  static flags = {
    ...runFlags, ...metadataFlags, ...suiteFlags, ...signKeyFlag,
    device: Flags.string({char: 'd', description: 'target: a block device path (/dev/nvme1n1) or file:<path> (always non-compliant); repeat it to test several drives at once, one lane each', required: true, multiple: true}),
    'yes-destroy-data': Flags.string({description: 'confirm destroying all data on the target: its serial number or path; with several --device, one per drive (repeat it)', multiple: true}),
  }

  async run(): Promise<RunJson> {
    const {loadSigningKey} = await import('../store/integrity.js')
    const {prepare} = await import('../app/prepare.js')
    const {execute, exitFor, summaryText} = await import('../app/execute.js')
    const {chooseTests, revisionTests, runSuite} = await import('../app/suite.js')
    const {args, flags: parsed} = await this.parse(Run)
    if (parsed.device.length > 1) return this.fleet(args.test, parsed.device, parsed.out)
    const {stopWhenParentGoes} = await import('../app/lanes.js')
    stopWhenParentGoes()
    const confirmations = parsed['yes-destroy-data'] ?? []
    const flags = {...parsed, device: parsed.device[0], 'yes-destroy-data': confirmations.length > 1 ? await oneConfirmation(parsed.device[0], parsed.size, parsed['allow-partition'], confirmations) : confirmations[0]}
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

  /** Several --device: one lane per drive, concurrently, indexed by fleet.json in the fleet directory. */
  private async fleet(test: string, devices: string[], out: string | undefined): Promise<RunJson> {
    const {runFleet} = await import('../app/lanes.js')
    const {fleetSummaryText} = await import('../fleet/model.js')
    const dir = out ?? defaultRunDir(new Date(), test, 'fleet')
    const {fleet, exit} = await runFleet({dir, test, devices, argv: this.argv, json: this.jsonEnabled()})
    if (!this.jsonEnabled()) this.log(fleetSummaryText(fleet, fleet.dir, exit))
    process.exitCode = exit
    return fleet
  }
}

/** Of several --yes-destroy-data (a lane of a multi-drive run gets them all), the one naming this drive's serial or path. */
async function oneConfirmation(device: string, size: string | undefined, allowPartition: boolean, list: string[]): Promise<string | undefined> {
  const {parseTarget, pickConfirmation, resolveTarget} = await import('../device/target.js')
  const {parseSizeFlag} = await import('../app/flags.js')
  return pickConfirmation(resolveTarget(parseTarget(device), parseSizeFlag(size), {allowPartition}), list)
}
