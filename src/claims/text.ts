/** The terminal output of `pts verify`: a table (claim, claimed, measured, ratio, verdict, flags, note) and a summary. Pure. */
import {formatClaimed, formatMeasured, formatRatio} from './match.js'
import type {ClaimOutcome, VerifiedRun, VerifyResult} from './types.js'

const VERDICT_LABEL: Record<ClaimOutcome['verdict'], string> = {meets: 'meets', below: 'BELOW', 'not-measured': 'NOT MEASURED', 'not-measurable': 'NOT MEASURABLE'}

/**
 * The short flags of an outcome: "NOT LIKE FOR LIKE (32 vs 128 IOs)" when the measurement ran at
 * another load, "IMPLAUSIBLE (> SATA limit)" above the interface's limit, "NOT A DRIVE" for a
 * file target. Empty when there is nothing to flag (or the verify result predates the checks).
 */
export function outcomeFlags(o: Pick<ClaimOutcome, 'load' | 'plausibility'>): string[] {
  const flags: string[] = []
  const l = o.load
  if (l && l.likeForLike === false) {
    flags.push(l.claimed.outstandingIos !== null && l.claimed.outstandingIos !== l.measured.outstandingIos
      ? `NOT LIKE FOR LIKE (${l.claimed.outstandingIos} vs ${l.measured.outstandingIos} IOs)`
      : `NOT LIKE FOR LIKE (TC ${l.measured.threadCount} x QD ${l.measured.queueDepth})`)
  }
  if (o.plausibility?.status === 'implausible') flags.push('IMPLAUSIBLE (above interface limit)')
  if (o.plausibility?.status === 'not-a-drive') flags.push('NOT A DRIVE')
  return flags
}

export function verdictLabel(o: ClaimOutcome): string {
  return o.verdict === 'below' && o.metric === 'latency' ? 'WORSE' : VERDICT_LABEL[o.verdict]
}

/** The table cells of one outcome (also used by the report page). */
export function outcomeCells(o: ClaimOutcome): {claim: string; claimed: string; measured: string; ratio: string; verdict: string; flags: string; note: string} {
  const tags: string[] = []
  if (o.threadCount !== null) tags.push(`TC ${o.threadCount}`)
  if (o.queueDepth !== null) tags.push(`QD${o.queueDepth}`)
  if (o.condition !== 'unspecified') tags.push(o.condition === 'fob' ? 'FOB' : 'steady state')
  return {
    claim: o.label,
    claimed: `${formatClaimed(o.claimed.value, o.claimed.unit)}${tags.length > 0 ? ` @${tags.join(', ')}` : ''}`,
    measured: !o.measured ? 'not measured' : o.measured.condition === 'fob'
      ? `FOB ${formatMeasured(o.measured.value, o.measured.unit)}${o.steadyState ? `; steady state ${formatMeasured(o.steadyState.value, o.measured.unit)} (${formatRatio(o.steadyState.ratio)})` : ''}`
      : formatMeasured(o.measured.value, o.measured.unit),
    ratio: formatRatio(o.ratio),
    verdict: verdictLabel(o),
    flags: outcomeFlags(o).join(', '),
    note: o.notes.join('; '),
  }
}

export function summaryLine(r: Pick<VerifyResult, 'summary' | 'tolerancePct'>): string {
  const s = r.summary
  const extra = [
    ...(s.notMeasurable ? [`${s.notMeasurable} not measurable by pts`] : []),
    ...(s.flagged ? [`${s.flagged} flagged (not like for like, above the interface's limit, or not a drive)`] : []),
  ]
  return `${s.meets} of ${s.total} claim(s) met within ${r.tolerancePct}%; ${s.below} below; ${s.notMeasured} not measured${extra.map(e => `; ${e}`).join('')}.`
}

function windowText(v: VerifiedRun['steadyState'], from: number | null, to: number | null): string {
  return v === 'steady' ? `steady state, rounds ${from}-${to}` : v === 'not-achieved' ? `steady state NOT ACHIEVED, window rounds ${from}-${to}` : 'run incomplete'
}

/** "TP test, sequential access, TC 1 / QD 4, loop-128k: steady state, rounds 3-7; ..." (a run's directory first when known). */
export function runLine(run: VerifiedRun): string {
  // a fob-ss review run has sweeps, not steady-state loops: each point measured once, FOB and after preconditioning
  if (run.test === 'fob-ss') return `${run.dir ? `${run.dir}: ` : ''}FOB-SS review test (not part of the SNIA PTS), random access, a queue-depth sweep: each point once fresh out of box (before any preconditioning) and once after preconditioning`
  const head = `${run.dir ? `${run.dir}: ` : ''}${run.test.toUpperCase()} test, ${run.access} access, TC ${run.threadCount} / QD ${run.queueDepth}`
  const ss = run.phases && run.phases.length > 1
    ? run.phases.map(p => `${p.id}: ${windowText(p.steadyState, p.fromRound, p.toRound)}`).join('; ')
    : windowText(run.steadyState, run.fromRound, run.toRound)
  return `${head}, ${ss}`
}

export function verifyText(r: VerifyResult): string {
  const head = {claim: 'Claim', claimed: 'Claimed', measured: 'Measured', ratio: 'Ratio', verdict: 'Verdict', flags: 'Flags', note: 'Note'}
  const rows = [head, ...r.claims.map(outcomeCells)]
  const keys = ['claim', 'claimed', 'measured', 'ratio', 'verdict', 'flags'] as const
  const width = Object.fromEntries(keys.map(k => [k, Math.max(...rows.map(row => row[k].length))])) as Record<(typeof keys)[number], number>
  const right = new Set<string>(['measured', 'ratio'])
  const line = (row: typeof head) => [...keys.map(k => (right.has(k) ? row[k].padStart(width[k]) : row[k].padEnd(width[k]))), row.note].join('  ').trimEnd()
  const out: string[] = []
  out.push(`${r.datasheet.vendor} ${r.datasheet.model}${r.datasheet.partNumber ? ` (${r.datasheet.partNumber})` : ''} vs ${r.suite ? 'suite' : 'run'} ${r.runId}`)
  out.push(`Claimed figures from: ${r.datasheet.source}`)
  if (r.runs) {
    out.push(`Runs (tolerance ${r.tolerancePct}%):`)
    for (const run of r.runs) out.push(`  ${runLine(run)}`)
  } else {
    out.push(`Run: ${runLine(r.run)}; tolerance ${r.tolerancePct}%`)
  }
  for (const w of r.warnings) out.push(`Warning: ${w}`)
  out.push('')
  out.push(line(head))
  out.push(keys.map(k => '-'.repeat(width[k])).join('  ') + '  ' + '-'.repeat(4))
  for (const row of rows.slice(1)) out.push(line(row))
  out.push('')
  for (const o of r.claims) {
    out.push(`- ${o.text}`)
    // The reasons beyond the sentence: the comparison with the threshold, like for like, the interface check.
    if (o.measured) for (const reason of o.verdictReasons ?? []) if (!o.text.includes(reason)) out.push(`    ${reason}`)
  }
  out.push('')
  out.push(summaryLine(r))
  return out.join('\n')
}
