/** Run a prepared plan after the safety gate (shared by `pts run` and `pts demo`). */
import {resolve} from 'node:path'
import {UnsafeTargetError} from '../errors.js'
import {prepareFileTarget} from '../device/target.js'
import {findFio} from '../engine/fio.js'
import {hostFacts, toolVersion} from '../host.js'
import {Progress} from '../progress.js'
import {runTest, type RunSummary} from '../run/run-test.js'
import type {Prepared} from './prepare.js'

export async function execute(p: Prepared, runDir: string, argv: string[], quiet: boolean): Promise<RunSummary> {
  const fio = findFio() // before anything is written: a missing fio changes nothing
  if (p.refusals.length > 0) {
    throw new UnsafeTargetError(p.target.kind === 'file' ? `file:${p.target.path}` : p.target.path, p.refusals, 'nothing was written')
  }
  prepareFileTarget(p.target)
  const dir = resolve(runDir)
  return runTest({
    plan: p.plan,
    target: p.target,
    fio,
    runId: dir.split('/').pop()!,
    runDir: dir,
    argv,
    toolVersion: toolVersion(),
    host: hostFacts(),
    progress: new Progress(process.stderr, quiet, 10),
  })
}

export function summaryText(s: RunSummary): string {
  const lines = [
    `Run ${s.runId}: ${s.status}`,
    `Steady state: ${s.verdict === 'steady' ? `reached, window rounds ${s.window.fromRound}-${s.window.toRound}` : s.verdict === 'not-achieved' ? `NOT ACHIEVED (window rounds ${s.window.fromRound}-${s.window.toRound})` : 'pending'}`,
    ...s.tracking.map(t => `  ${t.label}: window average ${t.windowAverage === null ? '-' : Math.round(t.windowAverage)}${t.steady === null ? '' : t.steady ? ' (steady)' : ' (not steady)'}`),
    `Compliance: ${s.compliant ? 'compliant' : `NON-COMPLIANT (${s.nonCompliantReasons.join('; ')})`}`,
    `Results: ${s.files.results}`,
  ]
  return lines.join('\n')
}
