import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../app/base-command.js'
import {EXIT, PtsError, RunDirError} from '../errors.js'
import * as M from '../messages.js'
import type {VerifyRunInput} from '../claims/match.js'
import type {VerifyResult} from '../claims/types.js'
import type {SuiteManifest} from '../app/suite.js'

/** What `pts verify` was pointed at: one run (IOPS, TP or LAT) or a suite directory, with the runs to match against. */
interface Target {
  kind: 'run' | 'suite'
  dir: string
  runs: VerifyRunInput[]
  suite?: SuiteManifest
  warnings: string[]
  /** The heading of the stand-alone claims document (suites). */
  heading: string
}

export default class Verify extends BaseCommand {
  static summary = 'Check a drive\'s datasheet claims against stored runs (an IOPS, TP, LAT, DIRTH, CBW or ECW run, or a whole suite): claimed vs measured, ratio, verdict and its reasons per claim.'
  static description = `Matches every claim of a datasheet claims file (schemas/claims.schema.json; example: specs/claims/crucial-mx100-256gb.json) to the measurement of the same access, block size and R/W mix: a window average (IOPS, MB/s = 10^6 B/s, mean response time, or a QoS percentile: 99th, 99.9th, 99.99th or 99.999th). Random IOPS and MB/s claims are measured by the IOPS run; sequential ones by the Throughput (tp) run's loops (SEQ 128 KiB / 1024 KiB, R/W 100/0 and 0/100, at its TC/QD); response-time claims by the Latency (lat) run (TC 1/QD 1), else by the IOPS run's point. Give one run directory, or a suite directory of \`pts run all\` (suite.json): each claim then takes the best measurement among the suite's runs.

Like for like: a claim's load is its thread count x queue depth (outstanding IOs; "QD32" without a thread count is TC 1 / QD 32). A measurement at exactly that TC and QD is taken first, from any run given: the LAT run's TC 1/QD 1 points, or a DIRTH/CBW/ECW run's TC x QD grid (e.g. its TC 1 / QD 32 point). Otherwise the IOPS (or TP, LAT) run's point is used and the claim is flagged NOT LIKE FOR LIKE (e.g. 32 outstanding IOs claimed, 128 measured at TC 4 / QD 32), in the table, the JSON (load) and the verdict reasons.

Plausibility: a measurement above what the drive's interface carries is flagged IMPLAUSIBLE (a cache, or not the drive): SATA 6 Gb/s = 600 MB/s (reads and writes together), SAS 12 Gb/s = 1,200 MB/s, NVMe the PCIe link stored with the run (speed x width), or PCIe 5.0 x4 when the link was not stored (said so). A file or loop-device target is flagged NOT A DRIVE.

The ratio is measured / claimed; a claim "meets" when the measurement is within --tolerance of it or better (latency: lower is better, so it meets when measured <= claimed x (1 + tolerance)), else it is "below". A claim no run given measures is "not measured", with the reason and the PTS test that measures it. An endurance claim (TBW, DWPD) is "not measurable": no PTS test wears a drive out. A fresh-out-of-box (or unstated) claim measured at steady state (the loop's own steady-state verdict) is noted. The flags are reported, not judged: they do not change a verdict or the exit code.

Writes the outcome to claims.json (schemas/verify-result.schema.json, atomically) in the run or suite directory. Unless --no-report: the run's report.pdf and report.html are re-rendered with a "Claims vs measured" page; a suite gets claims.pdf and suite.pdf is re-rendered with the "Claims vs measured" pages right after its contents page. Prints a table; --json prints the outcome instead.

Exit codes: 0 done (also when claims are missed, unless --fail-on-miss); 2 bad usage (no --claims, claims file not found, bad --tolerance); 3 the claims file is not valid JSON or fails its schema (file, JSON pointer and what is expected are named), or results.json / manifest.json / suite.json fail theirs; 7 the report cannot be rendered (claims.json is kept); 8 run directory missing, incomplete, still in progress, of a test verify does not read, or a suite without an IOPS, TP, LAT, DIRTH, CBW or ECW run; 9 claims.json cannot be written; 10 --fail-on-miss and at least one claim is below or not measured (not measurable claims do not count).`
  static examples = [
    {description: 'Check the Crucial MX100 datasheet against an IOPS run; write claims.json and re-render the report', command: '<%= config.bin %> verify reports/20261201-013109-iops-sda --claims specs/claims/crucial-mx100-256gb.json'},
    {description: 'Against a whole suite (pts run all): random claims from the IOPS run, sequential from TP, response times from LAT; re-renders suite.pdf', command: '<%= config.bin %> verify reports/suite-sda --claims specs/claims/crucial-mx100-256gb.json'},
    {description: 'In CI: fail (exit 10) when any claim is more than 20% below or not measured', command: '<%= config.bin %> verify reports/<run> --claims acme.json --tolerance 20% --fail-on-miss'},
    {description: 'Only the outcome as JSON, no report', command: '<%= config.bin %> verify reports/<run> --claims acme.json --no-report --json'},
  ]
  static args = {
    runDir: Args.string({description: 'run directory written by `pts run` (IOPS, TP, LAT, DIRTH, CBW or ECW: holds manifest.json, results.json, raw/), or a suite directory written by `pts run all` (holds suite.json)', required: true}),
  }
  static flags = {
    claims: Flags.string({char: 'c', description: 'datasheet claims file (JSON, schemas/claims.schema.json)', required: true}),
    tolerance: Flags.string({char: 't', description: 'how far below a claim (latency: above) a measurement may be and still meet it, in percent: 10 or 10% (0-100)', default: '10%'}),
    'fail-on-miss': Flags.boolean({description: 'exit 10 when any claim is below or not measured (the table is printed first; endurance claims, which no PTS test measures, do not count)', default: false}),
    report: Flags.boolean({description: 'render the "Claims vs measured" page(s): into the run\'s report, or into a suite\'s suite.pdf (--no-report: only write claims.json)', default: true, allowNo: true}),
  }

  async run(): Promise<VerifyResult> {
    const {args, flags} = await this.parse(Verify)
    const {parseTolerance, verifyRuns, anyMiss} = await import('../claims/match.js')
    const tolerancePct = parseTolerance(flags.tolerance)
    const {readClaimsFile, CLAIMS_RESULT_FILE, CLAIMS_PDF_FILE} = await import('../claims/load.js')
    const claims = readClaimsFile(flags.claims)
    const target = await loadTarget(args.runDir)
    const result = verifyRuns({
      claims: claims.claims,
      runs: target.runs,
      ...(target.suite ? {suite: {suiteId: target.suite.suiteId}} : {}),
      warnings: target.warnings,
      tolerancePct,
      generatedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      generatedBy: `pts ${this.config.version}`,
      claimsFile: claims.file,
    })

    if (!this.jsonEnabled()) {
      const {verifyText} = await import('../claims/text.js')
      this.log(verifyText(result))
    }

    const {join} = await import('node:path')
    const {writeJsonAtomic} = await import('../store/atomic.js')
    const out = join(target.dir, CLAIMS_RESULT_FILE)
    try {
      writeJsonAtomic(out, result)
    } catch (error) {
      const e = error as NodeJS.ErrnoException
      throw new PtsError(M.claims.cannotWriteResult(out, e, target.kind === 'suite' ? 'suite' : 'run'), EXIT.storage)
    }
    if (!this.jsonEnabled()) this.log(`\n${out}`)

    if (flags.report) {
      const files: string[] = []
      if (target.kind === 'run') {
        const {renderReport} = await import('../report/index.js')
        files.push(...(await renderReport(target.dir, {formats: ['pdf', 'html']})).files)
      } else {
        const {writeClaimsPdf} = await import('../report/claims-doc.js')
        files.push(await writeClaimsPdf(result, join(target.dir, CLAIMS_PDF_FILE), target.heading))
        if (target.suite) {
          const {renderSuiteReport, storedDetail} = await import('../app/suite.js')
          const s = target.suite
          const details = Object.fromEntries(s.tests.map(t => [t.test, storedDetail(join(target.dir, t.dir))]))
          files.push(await renderSuiteReport(target.dir, s, details))
        }
      }
      if (!this.jsonEnabled()) for (const f of files) this.log(f)
    }

    if (flags['fail-on-miss'] && anyMiss(result)) process.exitCode = EXIT.claimMissed
    return result
  }
}


/** The runs to verify against: one IOPS / TP / LAT run, or the IOPS, TP and LAT runs of a suite directory. */
async function loadTarget(dirArg: string): Promise<Target> {
  const {existsSync} = await import('node:fs')
  const {basename, join, resolve} = await import('node:path')
  const {assertFinished, readStoredRun} = await import('../store/read.js')
  const {VERIFY_TESTS} = await import('../claims/match.js')
  const {readWindowPercentiles, resultsSha256} = await import('../claims/load.js')
  const dir = resolve(dirArg)
  const deviceText = (m: VerifyRunInput['manifest']) => (m.target.kind === 'file' ? `file:${m.target.path}` : m.target.path)

  if (existsSync(join(dir, 'suite.json'))) {
    const {readSuite} = await import('../app/suite.js')
    const s = readSuite(dir)!
    if (s.status === 'running') {
      throw new RunDirError(M.claims.suiteRunning(dir, s.createdAt))
    }
    const runs: VerifyRunInput[] = []
    const warnings: string[] = []
    for (const t of s.tests) {
      if (!VERIFY_TESTS.includes(t.test)) continue
      const runDir = join(dir, t.dir)
      if (!existsSync(join(runDir, 'results.json'))) {
        warnings.push(`the suite's ${t.test} test (${t.dir}, ${t.status}) has no results: claims it would measure are not measured`)
        continue
      }
      const run = readStoredRun(runDir)
      if (run.results.status === 'running') {
        warnings.push(`the suite's ${t.test} test (${t.dir}) was cut while running (pts resume ${dir} continues it): its results are not used`)
        continue
      }
      if (t.status !== 'complete') warnings.push(`the suite's ${t.test} test (${t.dir}) is ${t.status}: its stored measurements are used as they are`)
      runs.push({dir: t.dir, results: run.results, manifest: run.manifest, resultsSha256: resultsSha256(runDir), percentiles: readWindowPercentiles(runDir, run.results)})
    }
    if (runs.length === 0) {
      throw new RunDirError(M.claims.suiteHasNoRuns(dir, s.tests))
    }
    return {kind: 'suite', dir, runs, suite: s, warnings, heading: `PTS test suite ${s.suiteId} - device ${s.device} - Claims vs measured (pts verify)`}
  }

  const {testTitle} = await import('../model/tests.js')
  const run = readStoredRun(dir)
  if (!VERIFY_TESTS.includes(run.results.test)) {
    throw new RunDirError(M.claims.notAClaimsTest(dir, run.results.test))
  }
  assertFinished(run, 'pts verify')
  return {
    kind: 'run', dir: run.runDir, warnings: [],
    runs: [{dir: basename(run.runDir), results: run.results, manifest: run.manifest, resultsSha256: resultsSha256(run.runDir), percentiles: readWindowPercentiles(run.runDir, run.results)}],
    heading: `${testTitle(run.results.test)} run ${run.results.runId} - device ${deviceText(run.manifest)} - Claims vs measured (pts verify)`,
  }
}
