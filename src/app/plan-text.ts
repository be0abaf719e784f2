/** `pts plan <test>`: the plan's text (every phase with its timeline and the test's constants) and its job texts. Pure. */
import type {ProgramPlan} from '../plan/expand.js'
import {perSecondJob, perSecondPrefix} from '../engine/jobfile.js'
import {burstComment, fillPieceJob, programJob, programWipcJob, seriesSampleJob, stepSeed} from '../engine/job.js'
import {firstStreamStarts} from '../plan/stream.js'
import {formatBytes, formatCapacity, formatDuration} from '../units.js'
import {REVIEW_SOURCE_LEGEND, sourceLabel, SOURCE_LEGEND} from '../model/wording.js'
import {reviewSource} from '../model/tests.js'

/** Human text of a plan: every phase with its timeline, and the minimum and maximum duration. Pure. */
export function planText(plan: ProgramPlan, targetLabel: string, refusals: string[], purge: {method: string; deviation: string | null; refused: string | null; steps: string[]} | null = null, preflight: string | null = null): string {
  const o = plan.options
  const s = plan.spec
  const review = reviewSource(s.id)
  const lines = [
    review === null ? `PTS ${s.title} test (${s.subtitle}), revision ${s.revision}, profile ${o.profile} (${s.clause})`
      : `${s.title} (${s.subtitle}): a review test, not part of the SNIA PTS; it comes from ${review} (${s.clause}); profile ${o.profile}`,
    `Target: ${targetLabel}, ${formatCapacity(plan.target.sizeBytes)}`,
    `Safety: ${refusals.length === 0 ? 'would proceed' : `would REFUSE:\n${refusals.map(r => `  - ${r}`).join('\n')}`}`,
    // A refused target is never run, so it has no compliance verdict of its own: say what it would be.
    `Compliance: ${refusals.length > 0 ? 'no run (the safety gate refuses this target); once the refusals are resolved the run would be ' : ''}${plan.compliance.compliant ? 'compliant' : `NON-COMPLIANT: ${plan.compliance.reasons.join('; ')}`}`,
    ...(purge ? [`Purge: ${purge.method}${purge.refused ? ` REFUSED: ${purge.refused}` : ''}${purge.deviation ? ` (deviation: ${purge.deviation})` : ''}`, ...purge.steps.map(c => `  $ ${c}`)] : []),
    ...(plan.deviations.length ? ['Deviations:', ...plan.deviations.map(d => `  - ${d}`)] : []),
    `Conditions: ActiveRange ${plan.profile.activeRangePct}% (${formatBytes(plan.activeRangeBytes)}), write cache ${plan.profile.writeCache}, TC ${o.threadCount}/QD ${o.queueDepth} unless a phase fixes its own, data pattern random, ioengine ${o.ioengine}, time scale ${o.timeScale}${plan.selectedWorkload ? `, workload ${plan.selectedWorkload.key}: ${plan.selectedWorkload.label}` : ''}`,
    '',
    'Timeline:',
  ]
  plan.timeline.forEach((t, i) => {
    const d = t.minSec === t.maxSec ? formatDuration(t.minSec) : `${formatDuration(t.minSec)} to ${formatDuration(t.maxSec)}`
    lines.push(`  ${String(i + 1).padStart(2)}. ${t.title} [${t.phase}]: ${t.detail}${t.maxSec > 0 ? ` (${d}${t.minDependsOn ? `; the minimum is the earliest possible stop: ${t.minDependsOn}` : ''})` : ''}`)
  })
  const dependent = plan.timeline.filter(t => t.minDependsOn).map(t => t.phase)
  lines.push('', `Duration: minimum ${formatDuration(plan.durations.minSec)}${dependent.length ? ` (the earliest possible stop of ${dependent.join(', ')}; the real length depends on the device)` : ''}, maximum ${formatDuration(plan.durations.maxSec)} (plus purges and WIPC, which depend on the device; the preflight estimates WIPC)`)
  if (preflight) lines.push('', preflight)
  lines.push('', `Parameters, each with its source in [brackets] (${review === null ? SOURCE_LEGEND : REVIEW_SOURCE_LEGEND}):`)
  for (const p of [...s.parameters, ...plan.choices]) lines.push(`  - ${p.name}: ${p.value} [${sourceLabel(p.source)}]${p.note ? ` ${p.note}` : ''}`)
  return lines.join('\n')
}

/** Job texts of the first step of every phase (pts plan --json). */
export function planJobs(plan: ProgramPlan): Record<string, string> {
  const jobs: Record<string, string> = {}
  plan.phases.forEach((ph, pi) => {
    // the seeds the run uses: round 1 point 1 of a loop, the first (or only) step of every other phase
    const seed = stepSeed(plan.options.seed, pi, ph.kind === 'loop' ? 1 : 0, 0)
    if (ph.kind === 'wipc') jobs[ph.id] = programWipcJob(plan, ph, seed)
    if (ph.kind === 'loop') jobs[ph.id] = programJob(plan, {comment: `${ph.id} round 1 point 1/${ph.points.length}: ${ph.points[0].label}`, section: ph.points[0].id, workload: ph.points[0], seconds: ph.pointSeconds, seed})
    // the comments are the run's (runner/run.ts), so that each text is byte-equal to the job the run stores
    const w = 'workload' in ph ? ph.workload : null
    if (ph.kind === 'histogram') jobs[ph.id] = programJob(plan, {comment: `${ph.id}: ${w!.label} TC ${w!.threadCount}/QD ${w!.queueDepth}, response-time histogram`, section: ph.id, workload: ph.workload, seconds: ph.seconds, seed})
    if (ph.kind === 'series') jobs[ph.id] = seriesSampleJob(plan, ph, 0, ph.stream ? firstStreamStarts(ph.stream.slices) : null, seed)
    if (ph.kind === 'sweep') jobs[ph.id] = programJob(plan, {comment: `${ph.id} point 1/${ph.points.length}: ${ph.points[0].label}`, section: ph.points[0].id, workload: ph.points[0], seconds: ph.pointSeconds, seed})
    if (ph.kind === 'fill') jobs[ph.id] = fillPieceJob(plan, ph, 1, 0, stepSeed(plan.options.seed, pi, 1, 0))
    if (ph.kind === 'bursts') jobs[ph.id] = programJob(plan, {comment: burstComment(ph, 0), section: ph.id, workload: ph.workload, seconds: ph.burstSeconds, seed})
    // --per-second: the log lines the run adds, named after the step's stored path (runner/run.ts)
    const base = `raw/${String(pi + 1).padStart(2, '0')}-${ph.id}`
    const rel = ph.kind === 'loop' ? `${base}/round-01/01-${ph.points[0].id}` : ph.kind === 'sweep' ? `${base}/001-${ph.points[0].id}` : ph.kind === 'fill' ? `${base}/pass-1/0001` : ph.kind === 'histogram' ? `${base}/histogram` : `${base}/0001`
    if (plan.options.perSecond === true && jobs[ph.id] !== undefined && ph.kind !== 'wipc') jobs[ph.id] = perSecondJob(jobs[ph.id], perSecondPrefix(rel))
  })
  return jobs
}

