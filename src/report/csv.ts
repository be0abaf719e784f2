/**
 * CSV export (pure): one row per (round, mix, block size) in run order, then a blank line and the
 * window-average table. MB/s is decimal (10^6 B/s), latencies in ms (digest Part A 5).
 */
import type {RunResults} from '../store/types.js'

const num = (v: number, decimals: number): string => (Number.isFinite(v) ? String(Number(v.toFixed(decimals))) : '')

export function reportCsv(r: RunResults): string {
  const lines: string[] = ['round,read_pct,block_size_bytes,iops,mb_per_s,lat_mean_ms,lat_max_ms']
  for (const round of r.rounds) {
    for (const p of round.points) {
      lines.push([round.round, p.readPct, p.blockSizeBytes, num(p.iops, 6), num(p.bwBytesPerSec / 1e6, 6),
        num(p.latMeanNs / 1e6, 6), num(p.latMaxNs / 1e6, 6)].join(','))
    }
  }
  lines.push('')
  lines.push('window_from_round,window_to_round,steady_state,read_pct,block_size_bytes,iops,read_iops,write_iops,mb_per_s,lat_mean_ms,lat_max_ms_over_window,lat_max_avg_ms')
  const ss = r.steadyState
  for (const w of r.windowAverages) {
    lines.push([ss.fromRound ?? '', ss.toRound ?? '', ss.verdict, w.readPct, w.blockSizeBytes, num(w.iops, 6), num(w.readIops, 6),
      num(w.writeIops, 6), num(w.bwBytesPerSec / 1e6, 6), num(w.latMeanNs / 1e6, 6), num(w.latMaxNs / 1e6, 6),
      num(w.latMaxAvgNs / 1e6, 6)].join(','))
  }
  return lines.join('\n') + '\n'
}
