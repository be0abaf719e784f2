/** The report's CSV export: one row per fio step of the run. Pure. */
import type {ProgramResults} from '../model/results.js'

/** One row per fio step: phase, round or sample, point, and fio's statistics (decimal MB/s, ms). Pure. */
export function programCsv(r: ProgramResults): string {
  const head = ['phase', 'kind', 'round', 'index', 'id', 'label', 'readPct', 'blockSizeBytes', 'threadCount', 'queueDepth', 'iops', 'mbPerSec', 'latMeanMs', 'latMaxMs', 'latP99999Ms', 'runtimeSec', 'startedAt', 'rawJson']
  const rows: string[][] = []
  const q = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s)
  const add = (phase: string, kind: string, round: number | '', s: {index: number; id: string; label: string; readPct: number; blockSizeBytes: number | null; threadCount: number; queueDepth: number; iops: number; bwBytesPerSec: number; latMeanNs: number; latMaxNs: number; latP99999Ns: number | null; runtimeSec: number; startedAt: string; raw: {json: string}}) => {
    rows.push([phase, kind, String(round), String(s.index), s.id, s.label, String(s.readPct), String(s.blockSizeBytes ?? ''), String(s.threadCount), String(s.queueDepth),
      s.iops.toFixed(3), (s.bwBytesPerSec / 1e6).toFixed(3), (s.latMeanNs / 1e6).toFixed(6), (s.latMaxNs / 1e6).toFixed(6), s.latP99999Ns === null ? '' : (s.latP99999Ns / 1e6).toFixed(6), String(s.runtimeSec), s.startedAt, s.raw.json])
  }
  for (const p of r.phases) {
    if (p.kind === 'loop') {
      for (const rd of p.rounds) { if (rd.preRound) add(p.id, 'pre-write', rd.round, rd.preRound); for (const pt of rd.points) add(p.id, 'point', rd.round, pt) }
      // the reported values: the measurement window's averages (rows of kind "window-average", round = the window)
      const ss = p.steadyState
      for (const w of p.windowAverages) {
        rows.push([p.id, `window-average (${ss.verdict})`, `${ss.fromRound}-${ss.toRound}`, String(w.index), w.id, w.label, String(w.readPct), String(w.blockSizeBytes ?? ''), String(w.threadCount), String(w.queueDepth),
          w.iops.toFixed(3), (w.bwBytesPerSec / 1e6).toFixed(3), (w.latMeanNs / 1e6).toFixed(6), (w.latMaxNs / 1e6).toFixed(6), w.latP99999Ns === null ? '' : (w.latP99999Ns / 1e6).toFixed(6), '', '', ''])
      }
    }
    if (p.kind === 'series') for (const s of p.samples) add(p.id, 'sample', '', s)
    if (p.kind === 'bursts' && p.job) add(p.id, 'bursts', '', p.job)
    if (p.kind === 'bursts') for (const s of p.steps ?? []) add(p.id, 'burst', '', s)
    if (p.kind === 'histogram' && p.job) add(p.id, 'histogram', '', p.job)
    if (p.kind === 'operating-points') for (const o of p.points) { if (o.prewrite) add(p.id, `${o.role} pre-write`, '', o.prewrite); for (const s of o.prewriteSamples ?? []) add(p.id, `${o.role} pre-write sample`, '', s); if (o.measure) add(p.id, `${o.role} histogram`, '', o.measure) }
  }
  return [head, ...rows].map(r => r.map(q).join(',')).join('\n') + '\n'
}
