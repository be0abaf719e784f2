import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../app/base-command.js'
import {EXIT, UsageError} from '../errors.js'
import * as M from '../messages.js'
import type {AuditResult} from '../audit/checks.js'
import {DEFAULT_MAX_GAP_MS} from '../analysis/timing.js'

export default class Audit extends BaseCommand {
  static summary = 'Recompute a run from its raw fio outputs and check its integrity and compliance.'
  static description = `Recomputes every reported number from the raw fio JSON alone (each point's IOPS, bandwidth, byte counts and latencies; the tracking series, the steady-state determination and the window averages; the report model) and compares them with results.json and report-model.json. Checks the seal: manifest.json lists the SHA-256 of results.json and of every file under raw/ (written by pts run when the run ends), and any changed, missing or added file is named. With --verify-key, checks the signature manifest.sig (pts run --sign-key). Checks the compliance rules visible in the data: purge method and outcome, WIPC volume (fio's byte count) against the required multiple of the user capacity, step durations (no step that ended before its length; an overrun, fio completing the I/O in flight after the time is up, at most the step's maximum response time + 10 ms), loop order and idle gaps between steps (from the timestamps; at most --max-gap-ms), fio job parameters (TC = numjobs, QD = iodepth), the device identity across start and resumes, and that the sequential series (XSR groups 1 and 3, WSAT VOD and meta data) stream continuously: every sample starts each thread where its stream ended in the sample before, recomputed from fio's per-job bytes (not applicable to runs stored before pts kept the offsets). A departure from the spec passes only when the run disclosed it (marked non-compliant with that reason, or a recorded deviation).

The other tests (tp, lat, wsat, hir, xsr, cbw, ecw, dirth) get the same checks over their phases: every fio step recomputed; every loop's steady state and window averages (with the criteria the run recorded); series byte totals; HIR burst IOPS from fio's IOPS log; CBW/DIRTH operating points re-chosen and histograms rebuilt from the json+ bins; purges, WIPC, step durations, order and idle gaps within each phase, identity and job parameters.

Prints PASS, FAIL or SKIP per check with the reason and every problem found (file and JSON pointer).

Exit codes: 0 every check passed (or was skipped); 11 at least one check failed; 2 bad flags or key file; 3 manifest.json or results.json fails its schema; 8 run directory missing, incomplete or still running.`
  static examples = [
    '<%= config.bin %> audit reports/2026-12-01T101500Z-iops-nvme1n1',
    '<%= config.bin %> audit reports/<run> --verify-key pts-signing.pub --json',
  ]
  static args = {runDir: Args.string({description: 'run directory written by pts run', required: true})}
  static flags = {
    'verify-key': Flags.string({description: 'PEM public key (or the private key): check manifest.sig with it; a missing or wrong signature then fails'}),
    'max-gap-ms': Flags.string({description: 'idle time between consecutive steps of a phase above which the audit fails (the PTS runs test points back to back; pts hands over in about 5 ms on an idle host and a few hundred ms on a busy one; pts run warns beyond the default)', default: String(DEFAULT_MAX_GAP_MS)}),
  }

  async run(): Promise<AuditResult> {
    const {args, flags} = await this.parse(Audit)
    const maxGapMs = Number(flags['max-gap-ms'])
    if (!Number.isFinite(maxGapMs) || maxGapMs <= 0) throw new UsageError(M.audit.maxGapNotPositive(flags['max-gap-ms']))
    const {loadVerifyKey} = await import('../store/integrity.js')
    const verifyKey = flags['verify-key'] === undefined ? undefined : loadVerifyKey(flags['verify-key'])
    const {auditRun} = await import('../audit/load.js')
    const result = auditRun(args.runDir, {verifyKey, maxGapMs})
    if (!this.jsonEnabled()) this.log(auditText(result))
    if (!result.ok) process.exitCode = EXIT.auditFailed
    return result
  }
}

export function auditText(r: AuditResult): string {
  const lines = [`Audit of run ${r.runId} (${r.test}, ${r.revision})`]
  for (const c of r.checks) {
    lines.push(`${c.status.toUpperCase().padEnd(4)}  ${c.title}: ${c.reason}`)
    if (c.status === 'fail') for (const p of c.problems.slice(0, 20)) lines.push(`        - ${p}`)
    if (c.status === 'fail' && c.problems.length > 20) lines.push(`        ... and ${c.problems.length - 20} more (--json lists all)`)
  }
  const failed = r.checks.filter(c => c.status === 'fail')
  lines.push(failed.length === 0 ? 'Result: PASS' : `Result: FAIL (${failed.map(c => c.id).join(', ')})`)
  return lines.join('\n')
}
