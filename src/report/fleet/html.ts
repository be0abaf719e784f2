/** The fleet report as one self-contained HTML page, printed to PDF by Chromium (A4 landscape) (pure). */
import type {FleetReportModel, VariationRow} from './model.js'

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * Thousands separated, with `decimals` digits (the decimals the reports print the value with: a
 * sample-variation row shows min, median and max as precisely as its runs' reports, "283.9 MB/s"
 * not "284"); without them, three significant digits at least ("12,345", "1.23", "0.0456").
 */
export function fmtNumber(v: number, decimals?: number): string {
  const a = Math.abs(v)
  const digits = decimals ?? (a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3)
  return v.toLocaleString('en-US', {minimumFractionDigits: digits, maximumFractionDigits: digits})
}

const CSS = `@page { size: A4 landscape; margin: 12mm; }
body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 9pt; color: #111; margin: 0; }
h1 { font-size: 15pt; margin: 0 0 2mm 0; } h2 { font-size: 11.5pt; margin: 5mm 0 2mm 0; }
.meta { color: #444; margin-bottom: 3mm; }
table { border-collapse: collapse; width: 100%; margin-bottom: 3mm; }
th, td { border: 0.5pt solid #999; padding: 1.2mm 1.6mm; text-align: left; vertical-align: top; }
th { background: #dfe7f1; } td.num { text-align: right; white-space: nowrap; } td { overflow-wrap: anywhere; }
tr { page-break-inside: avoid; } .bad { color: #a00; font-weight: bold; } .ok { color: #060; font-weight: bold; }
ul.hl { margin: 0; padding-left: 3.5mm; } ul.notes { padding-left: 5mm; color: #333; }`

function variationTable(rows: readonly VariationRow[]): string {
  const body = rows.map(v => `<tr><td>${esc(v.model)}</td><td>${esc(v.test)}</td><td>${esc(v.label)}</td><td>${esc(v.unit)}</td><td class="num">${v.n}</td><td class="num">${fmtNumber(v.min, v.decimals)}</td><td class="num">${fmtNumber(v.median, v.decimals)}</td><td class="num">${fmtNumber(v.max, v.decimals)}</td><td class="num">${v.cvPct === null ? '-' : `${v.cvPct.toFixed(2)} %`}</td></tr>`).join('\n')
  return `<table><thead><tr><th>Model</th><th>Test</th><th>Headline value</th><th>Unit</th><th>Drives</th><th>Min</th><th>Median</th><th>Max</th><th>CV</th></tr></thead><tbody>${body}</tbody></table>`
}

export function fleetHtml(m: FleetReportModel): string {
  const rows = m.rows.map(r => {
    const ok = r.status === 'complete'
    const hl = r.headline.length ? `<ul class="hl">${r.headline.map(h => `<li>${esc(h.label)}: ${esc(h.value)}</li>`).join('')}</ul>` : '-'
    return `<tr><td class="num">${r.lane ?? '-'}</td><td>${esc(r.device)}</td><td>${esc(r.model)}</td><td>${esc(r.serial)}</td><td>${esc(r.firmware)}</td><td>${esc(r.test)}</td>`
      + `<td><span class="${ok ? 'ok' : 'bad'}">${esc(r.status)}</span>${ok && !r.compliant ? ' (non-compliant)' : ''}<br>${esc(r.verdict)}</td><td>${hl}</td></tr>`
  }).join('\n')
  const variation = m.variation.length ? variationTable(m.variation)
    : '<p>No model has two or more drives with results: there is no sample variation to show.</p>'
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(m.title)}</title><style>${CSS}</style></head><body>
<h1>${esc(m.title)}</h1>
<div class="meta">Host ${esc(m.host)} &middot; report generated ${esc(m.generatedAt)} &middot; ${m.rows.length} run${m.rows.length === 1 ? '' : 's'}</div>
<h2>Drives</h2>
<table><colgroup><col style="width:4%"><col style="width:15%"><col style="width:12%"><col style="width:11%"><col style="width:8%"><col style="width:5%"><col style="width:20%"><col style="width:25%"></colgroup>
<thead><tr><th>Lane</th><th>Target</th><th>Model</th><th>Serial</th><th>Firmware</th><th>Test</th><th>Status and verdict</th><th>Headline values</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Sample variation per model</h2>
${variation}
${m.single.length ? `<p>One drive only (no variation): ${esc(m.single.join(', '))}.</p>` : ''}
<ul class="notes">${m.notes.map(n => `<li>${esc(n)}</li>`).join('')}</ul>
</body></html>
`
}
