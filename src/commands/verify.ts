import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base.js'
import {EXIT, PtsError, RunDirError} from '../errors.js'
import type {VerifyResult} from '../claims/types.js'

export default class Verify extends BaseCommand {
  static summary = 'Check a drive\'s datasheet claims against a stored run: claimed vs measured, ratio and verdict per claim.'
  static description = `Matches every claim of a datasheet claims file (schemas/claims.schema.json; example: specs/claims/crucial-mx100-256gb.json) to the run's measurement of the same access, block size and R/W mix: the window average of results.json (IOPS, MB/s = 10^6 B/s, mean response time). The ratio is measured / claimed; a claim "meets" when the measurement is within --tolerance of it or better (latency: lower is better, so it meets when measured <= claimed x (1 + tolerance)), else it is "below". A claim the run has no measurement for is "not measured", with the PTS test that measures it (sequential MB/s: the Throughput (tp) test; response time at other points: the Latency (lat) test). A claim's queue depth that differs from the run's, and a fresh-out-of-box (or unstated) claim measured at steady state, are noted.

Writes the outcome to <run>/claims.json (schemas/verify-result.schema.json, atomically) and re-renders report.pdf and report.html with a "Claims vs measured" page (unless --no-report). Prints a table; --json prints the outcome instead.

Exit codes: 0 done (also when claims are missed, unless --fail-on-miss); 2 bad usage (no --claims, claims file not found, bad --tolerance); 3 the claims file is not valid JSON or fails its schema (file, JSON pointer and what is expected are named), or results.json / manifest.json fail theirs; 7 the report cannot be rendered (claims.json is kept); 8 run directory missing, incomplete or still in progress; 9 claims.json cannot be written; 10 --fail-on-miss and at least one claim is below or not measured.`
  static examples = [
    {description: 'Check the Crucial MX100 datasheet against a run; write claims.json and re-render the report', command: '<%= config.bin %> verify reports/20261201-013109-iops-sda --claims specs/claims/crucial-mx100-256gb.json'},
    {description: 'In CI: fail (exit 10) when any claim is more than 20% below or not measured', command: '<%= config.bin %> verify reports/<run> --claims acme.json --tolerance 20% --fail-on-miss'},
    {description: 'Only the outcome as JSON, no report', command: '<%= config.bin %> verify reports/<run> --claims acme.json --no-report --json'},
  ]
  static args = {
    runDir: Args.string({description: 'run directory written by `pts run` (holds manifest.json, results.json, raw/)', required: true}),
  }
  static flags = {
    claims: Flags.string({char: 'c', description: 'datasheet claims file (JSON, schemas/claims.schema.json)', required: true}),
    tolerance: Flags.string({char: 't', description: 'how far below a claim (latency: above) a measurement may be and still meet it, in percent: 10 or 10% (0-100)', default: '10%'}),
    'fail-on-miss': Flags.boolean({description: 'exit 10 when any claim is below or not measured (the table is printed first)', default: false}),
    report: Flags.boolean({description: 're-render report.pdf and report.html with the "Claims vs measured" page (--no-report: only write claims.json)', default: true, allowNo: true}),
  }

  async run(): Promise<VerifyResult> {
    const {args, flags} = await this.parse(Verify)
    const {parseTolerance, verifyClaims, anyMiss} = await import('../claims/match.js')
    const tolerancePct = parseTolerance(flags.tolerance)
    const {readClaimsFile, resultsSha256, CLAIMS_RESULT_FILE} = await import('../claims/load.js')
    const claims = readClaimsFile(flags.claims)
    const {readStoredRun} = await import('../store/read.js')
    const run = readStoredRun(args.runDir)
    if (run.results.status === 'running' || run.manifest.status === 'running') {
      throw new RunDirError(`Run still in progress: ${run.runDir} (status "running", started ${run.manifest.createdAt}, pid ${run.manifest.pid})`,
        `wait for the run to finish, then run pts verify again; if that process is gone, continue the run with: pts resume ${run.runDir}`)
    }
    const result = verifyClaims({
      claims: claims.claims,
      results: run.results,
      manifest: run.manifest,
      tolerancePct,
      generatedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      generatedBy: `pts ${this.config.version}`,
      claimsFile: claims.file,
      resultsSha256: resultsSha256(run.runDir),
    })

    if (!this.jsonEnabled()) {
      const {verifyText} = await import('../claims/text.js')
      this.log(verifyText(result))
    }

    const {join} = await import('node:path')
    const {writeJsonAtomic} = await import('../store/atomic.js')
    const out = join(run.runDir, CLAIMS_RESULT_FILE)
    try {
      writeJsonAtomic(out, result)
    } catch (error) {
      const e = error as NodeJS.ErrnoException
      throw new PtsError(`Cannot write ${out}: ${e.code ?? 'error'}: ${e.message}`, EXIT.storage, 'free space or make the run directory writable, then run pts verify again')
    }
    if (!this.jsonEnabled()) this.log(`\n${out}`)

    if (flags.report) {
      const {renderReport} = await import('../report/index.js')
      const rendered = await renderReport(run.runDir, {formats: ['pdf', 'html']})
      if (!this.jsonEnabled()) for (const f of rendered.files) this.log(f)
    }

    if (flags['fail-on-miss'] && anyMiss(result)) process.exitCode = EXIT.claimMissed
    return result
  }
}
