/** Run a prepared plan after the safety gate (shared by `pts run`, `pts demo` and the suite), and the run's closing text. */
import {resolve} from 'node:path'
import type {KeyObject} from 'node:crypto'
import {EXIT, UnsafeTargetError} from '../errors.js'
import * as M from '../messages.js'
import {prepareFileTarget} from '../device/target.js'
import {findFio} from '../engine/fio.js'
import {hostFacts, toolVersion} from '../host.js'
import {Progress, type SuitePosition} from '../progress.js'
import {runProgram, type ProgramSummary} from '../runner/run.js'
import {lanePeers, type RunConcurrencyInput} from '../runner/concurrency.js'
import type {Prepared} from './prepare.js'

export type RunSummary = ProgramSummary & {report: RunReport}

export async function execute(p: Prepared, runDir: string, argv: string[], quiet: boolean, opts: {signKey?: KeyObject; suite?: SuitePosition; concurrency?: RunConcurrencyInput} = {}): Promise<RunSummary> {
  const fio = findFio() // before anything is written: a missing fio changes nothing
  if (p.refusals.length > 0) throw new UnsafeTargetError(M.target.refused(p.target.kind === 'file' ? `file:${p.target.path}` : p.target.path, p.refusals))
  prepareFileTarget(p.target)
  const dir = resolve(runDir)
  const summary = await runProgram({
    plan: p.plan, target: p.target, purge: p.purge, fio, runId: dir.split('/').pop()!, runDir: dir, argv, toolVersion: toolVersion(), host: hostFacts(),
    progress: new Progress(process.stderr, quiet, 10, opts.suite), signKey: opts.signKey, metadata: p.metadata, concurrency: opts.concurrency ?? lanePeers(), healthIntervalSec: p.healthIntervalSec,
  })
  return {...summary, report: await reportAfterRun(dir, quiet)}
}

export interface RunReport {
  files: string[]
  error: string | null
}

/**
 * The run ends with its report (built from the stored files, like `pts report`). A report
 * failure never loses the results: the message says how to render it again.
 */
export async function reportAfterRun(dir: string, quiet: boolean): Promise<RunReport> {
  if (!quiet) process.stderr.write('Rendering the report (report.pdf, report.html)...\n')
  try {
    const {renderReport} = await import('../report/index.js')
    const {files} = await renderReport(dir, {formats: ['pdf', 'html']})
    return {files, error: null}
  } catch (error) {
    const message = `the report could not be rendered: ${(error as Error).message}. The results are kept in ${dir}; render the report again with: pts report ${dir}`
    return {files: [], error: message}
  }
}

/** Exit code of a finished run: 0, or 7 when only the report failed. */
export function exitFor(s: {report: RunReport}): number {
  return s.report.error ? EXIT.report : EXIT.ok
}

export function summaryText(s: RunSummary): string {
  return [
    `Run ${s.runId}: ${s.test} ${s.revision} ${s.profile}, ${s.status}`,
    ...s.phases.map(p => `  ${p.id} (${p.kind}): ${p.detail}`),
    ...s.tracking.map(t => `    ${t.phase} ${t.label}: window average ${t.windowAverage === null ? '-' : Math.round(t.windowAverage)}${t.steady === null ? '' : t.steady ? ' (steady)' : ' (not steady)'}`),
    `Compliance: ${s.compliant ? 'compliant' : `NON-COMPLIANT (${s.nonCompliantReasons.join('; ')})`}`,
    `Timing: ${s.timing.ok ? 'within the bounds pts audit checks' : 'BEYOND the bounds pts audit checks (the audit will fail)'}: ${s.timing.durations}; ${s.timing.gaps}`,
    `Drive health and temperature: ${s.health.text}`,
    `Results: ${s.files.results}`,
    ...(s.report.error ? [`Report: FAILED: ${s.report.error}`] : s.report.files.map(f => `Report: ${f}`)),
  ].join('\n')
}
