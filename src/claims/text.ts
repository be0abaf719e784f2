/** The terminal output of `pts verify`: a table (claim, claimed, measured, ratio, verdict, note) and a summary. Pure. */
import {formatClaimed, formatMeasured, formatRatio} from './match.js'
import type {ClaimOutcome, VerifyResult} from './types.js'

const VERDICT_LABEL: Record<ClaimOutcome['verdict'], string> = {meets: 'meets', below: 'BELOW', 'not-measured': 'NOT MEASURED'}

export function verdictLabel(o: ClaimOutcome): string {
  return o.verdict === 'below' && o.metric === 'latency' ? 'WORSE' : VERDICT_LABEL[o.verdict]
}

/** The table cells of one outcome (also used by the report page). */
export function outcomeCells(o: ClaimOutcome): {claim: string; claimed: string; measured: string; ratio: string; verdict: string; note: string} {
  const tags: string[] = []
  if (o.threadCount !== null) tags.push(`TC ${o.threadCount}`)
  if (o.queueDepth !== null) tags.push(`QD${o.queueDepth}`)
  if (o.condition !== 'unspecified') tags.push(o.condition === 'fob' ? 'FOB' : 'steady state')
  return {
    claim: o.label,
    claimed: `${formatClaimed(o.claimed.value, o.claimed.unit)}${tags.length > 0 ? ` @${tags.join(', ')}` : ''}`,
    measured: o.measured ? formatMeasured(o.measured.value, o.measured.unit) : 'not measured',
    ratio: formatRatio(o.ratio),
    verdict: verdictLabel(o),
    note: o.notes.join('; '),
  }
}

export function summaryLine(r: Pick<VerifyResult, 'summary' | 'tolerancePct'>): string {
  const s = r.summary
  return `${s.meets} of ${s.total} claim(s) met within ${r.tolerancePct}%; ${s.below} below; ${s.notMeasured} not measured.`
}

export function verifyText(r: VerifyResult): string {
  const head = {claim: 'Claim', claimed: 'Claimed', measured: 'Measured', ratio: 'Ratio', verdict: 'Verdict', note: 'Note'}
  const rows = [head, ...r.claims.map(outcomeCells)]
  const keys = ['claim', 'claimed', 'measured', 'ratio', 'verdict'] as const
  const width = Object.fromEntries(keys.map(k => [k, Math.max(...rows.map(row => row[k].length))])) as Record<(typeof keys)[number], number>
  const right = new Set<string>(['measured', 'ratio'])
  const line = (row: typeof head) => [...keys.map(k => (right.has(k) ? row[k].padStart(width[k]) : row[k].padEnd(width[k]))), row.note].join('  ').trimEnd()
  const out: string[] = []
  const ss = r.run.steadyState === 'steady' ? `steady state, rounds ${r.run.fromRound}-${r.run.toRound}`
    : r.run.steadyState === 'not-achieved' ? `steady state NOT ACHIEVED, window rounds ${r.run.fromRound}-${r.run.toRound}` : 'run incomplete'
  out.push(`${r.datasheet.vendor} ${r.datasheet.model}${r.datasheet.partNumber ? ` (${r.datasheet.partNumber})` : ''} vs run ${r.runId}`)
  out.push(`Source: ${r.datasheet.source}`)
  out.push(`Run: ${r.run.test.toUpperCase()} test, ${r.run.access} access, TC ${r.run.threadCount} / QD ${r.run.queueDepth}, ${ss}; tolerance ${r.tolerancePct}%`)
  for (const w of r.warnings) out.push(`Warning: ${w}`)
  out.push('')
  out.push(line(head))
  out.push(keys.map(k => '-'.repeat(width[k])).join('  ') + '  ' + '-'.repeat(4))
  for (const row of rows.slice(1)) out.push(line(row))
  out.push('')
  for (const o of r.claims) out.push(`- ${o.text}`)
  out.push('')
  out.push(summaryLine(r))
  return out.join('\n')
}
