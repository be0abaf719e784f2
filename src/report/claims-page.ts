/**
 * The report's "Claims vs measured" page(s), from a stored verify result (<run>/claims.json).
 * Pure: formats what `pts verify` decided, never re-judges it. A run without claims.json has no
 * such page, and its report model is exactly as before.
 */
import {formatClaimed, formatMeasured, formatRatio} from '../claims/match.js'
import {outcomeCells, runLine, summaryLine} from '../claims/text.js'
import type {VerifyResult} from '../claims/types.js'
import type {ClaimsPageData, KV} from './page-kit.js'

import {fmtInstant} from './format.js'

/** Claims per page: the table and the chart of 6 claims fit an A4 page under the SNIA header. */
export const CLAIMS_PER_PAGE = 6


export function claimsPages(v: VerifyResult): ClaimsPageData[] {
  const ds = v.datasheet
  const datasheet: KV[] = [
    {label: 'Drive', value: `${ds.vendor} ${ds.model}${ds.partNumber ? ` (${ds.partNumber})` : ''}, ${(ds.capacityBytes / 1e9).toFixed(1)} GB`},
    {label: 'Source', value: ds.source},
    {label: 'Claims file', value: `${v.claimsFile.name} (SHA-256 ${v.claimsFile.sha256.slice(0, 16)}…)`},
    {label: 'Verified', value: `${fmtInstant(v.generatedAt)} by ${v.generatedBy}`},
  ]
  if (ds.notes) datasheet.push({label: 'Notes', value: ds.notes})
  // A suite or a test-program run: which runs (and loops) the measurements come from.
  if (v.runs || v.run.phases) datasheet.push({label: 'Runs', value: (v.runs ?? [v.run]).map(runLine).join(' | ')})
  const parts = Math.max(1, Math.ceil(v.claims.length / CLAIMS_PER_PAGE))
  const pages: ClaimsPageData[] = []
  for (let i = 0; i < parts; i++) {
    const chunk = v.claims.slice(i * CLAIMS_PER_PAGE, (i + 1) * CLAIMS_PER_PAGE)
    pages.push({
      part: i + 1,
      parts,
      datasheet,
      summary: summaryLine(v),
      tolerance: `A claim is met when the measurement (a PTS run's window average${v.claims.some(c => c.measured?.condition === 'fob') ? '; a FOB-SS run\'s point' : ''}) is at least ${100 - v.tolerancePct}% of it (response time: at most ${100 + v.tolerancePct}% of it; lower is better). Ratio = measured / claimed.${v.claims.some(c => c.measured?.condition === 'fob') ? ' A claim matched to a FOB-SS run is judged by its FOB point (one fio step fresh out of box); the same point after preconditioning is shown beside it.' : ''}`,
      warnings: v.warnings,
      rows: chunk.map(o => {
        const c = outcomeCells(o)
        return {id: o.id, claim: c.claim, claimed: c.claimed, measured: c.measured, ratio: c.ratio, verdict: c.verdict, verdictClass: o.verdict === 'meets' ? 'ok' : o.verdict === 'below' ? 'bad' : 'nm', note: c.note}
      }),
      bars: chunk.map(o => ({
        id: o.id,
        label: o.label,
        unit: o.claimed.unit,
        claimed: o.claimed.value,
        claimedText: formatClaimed(o.claimed.value, o.claimed.unit),
        measured: o.measured?.value ?? null,
        // a FOB claim: each value with its own ratio to the claim ("FOB 35,893 IOPS (0.42x); steady state 6,771 IOPS (0.08x)")
        measuredText: !o.measured ? 'not measured' : o.measured.condition === 'fob'
          ? `FOB ${formatMeasured(o.measured.value, o.measured.unit)} (${formatRatio(o.ratio)})${o.steadyState ? `; steady state ${formatMeasured(o.steadyState.value, o.measured.unit)} (${formatRatio(o.steadyState.ratio)})` : ''}`
          : `${outcomeCells(o).measured} (${formatRatio(o.ratio)})`,
        ratio: o.ratio,
        verdict: o.verdict,
      })),
      texts: chunk.map(o => o.text),
    })
  }
  return pages
}
