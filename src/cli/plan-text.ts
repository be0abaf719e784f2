/** Human text of a plan (pts plan). Pure. */
import {pointJob, wipcJob} from '../engine/jobfile.js'
import type {Plan} from '../spec/expand.js'
import type {PurgeChoice} from '../device/purge.js'
import {blockSizeLabel, formatBytes, formatDecimalGB, formatDuration, mixLabel} from '../units.js'

export function planText(plan: Plan, targetLabel: string, refusals: string[], purge: PurgeChoice | null = null): string {
  const o = plan.options
  const s = plan.spec
  const d = plan.durations
  const lines: string[] = []
  lines.push(`PTS ${s.title} test, revision ${s.revision}, profile ${o.profile} (${s.clause})`)
  lines.push(`Target: ${targetLabel}, ${formatBytes(plan.target.sizeBytes)} (${formatDecimalGB(plan.target.sizeBytes)})`)
  lines.push(`Safety: ${refusals.length === 0 ? 'would proceed' : `would REFUSE:\n${refusals.map(r => `  - ${r}`).join('\n')}`}`)
  lines.push(`Compliance: ${plan.compliance.compliant ? 'compliant' : `NON-COMPLIANT: ${plan.compliance.reasons.join('; ')}`}`)
  lines.push('', 'Phases:')
  lines.push(purge?.refused
    ? `  1. Purge: REFUSED: ${purge.refused}`
    : `  1. Purge: ${plan.purge.method}${plan.purge.deviation ? ` (deviation: ${plan.purge.deviation})` : ' (a PTS purge)'}`)
  for (const step of purge?.steps ?? []) lines.push(`     $ ${step.argv.join(' ')}${step.poll ? '   (polled until done)' : ''}   # ${step.why}`)
  lines.push(`     write cache: set to ${plan.profile.writeCache} before WIPC (as the ${o.profile} profile requires), restored at the end; a deviation where it cannot be set`)
  lines.push(`  2. WIPC: SEQ ${blockSizeLabel(plan.wipc.blockSizeBytes)} writes, ${formatBytes(plan.wipc.totalBytes)} in total = ${o.wipcMultiple}x the PC ActiveRange of ${formatBytes(plan.preconditionActiveRangeBytes)} (${plan.profile.preconditionActiveRangePct}%), TC ${o.threadCount}/QD ${o.queueDepth}; its duration depends on the device's write speed`)
  lines.push(`  3. WDPC + test: RND, ActiveRange ${plan.profile.activeRangePct}% (${formatBytes(plan.activeRangeBytes)}), TC ${o.threadCount}/QD ${o.queueDepth} (TOIO ${o.threadCount * o.queueDepth}), write cache required ${plan.profile.writeCache}, data pattern random, ioengine ${o.ioengine}`)
  lines.push(`     R/W mix outer loop: ${s.stimulus.loops.rwMixReadPct.map(mixLabel).join(', ')}`)
  lines.push(`     block size inner loop: ${s.stimulus.loops.blockSizesBytes.map(blockSizeLabel).join(', ')}`)
  lines.push(`     ${plan.points.length} points per round x ${o.pointSeconds} s = ${formatDuration(d.roundSec)} per round`)
  lines.push(`     steady state: window ${s.steadyState.windowRounds} rounds, data excursion <= ${s.steadyState.maxDataExcursionPct}%, slope excursion <= ${s.steadyState.maxSlopeExcursionPct}% of the window average; tracking ${s.steadyState.tracking.map(t => t.label).join(' + ')}`)
  lines.push(`     rounds: at least ${d.minRounds}, at most ${d.maxRounds ?? 'unlimited (continue until steady state)'} (${o.onNoSteadyState} at the limit)`)
  lines.push('', `Test points: ${plan.points.length} per round; ${d.minRounds * plan.points.length} to ${d.maxRounds === null ? 'unlimited' : d.maxRounds * plan.points.length} in total`)
  lines.push(`Duration of the rounds: minimum ${formatDuration(d.minSec)}, maximum ${d.maxSec === null ? 'unlimited' : formatDuration(d.maxSec)} (plus purge and WIPC)`)
  lines.push('', 'Deviations:', ...plan.deviations.map(x => `  - ${x}`))
  lines.push('', '--- fio job: WIPC ---', wipcJob(plan))
  lines.push('--- fio jobs of one round (round 1; later rounds differ only in randseed) ---')
  for (const p of plan.points) lines.push(pointJob(plan, p, 1))
  return lines.join('\n')
}
