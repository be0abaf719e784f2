/** Throughput (TP) report pages, per block size (digest B §5.2, §6.2): convergence write and read, measurement window with the determination data, tabular data and 2D plot. Pure. */
import {blockSizeLabel} from '../../units.js'
import {fmtMBps} from '../format.js'
import {wipcWrittenText} from '../page-kit.js'
import {barChart, closeupChart, lineChart} from '../charts/generic.js'
import {loopDetermination, loopSteadyText, phasesOf, windowBand, type ProgramPageSpec, type ProgramReportInput, type ProgramSection} from '../model.js'

export function tpPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const p = r.parameters
  const loops = phasesOf(r, 'loop')
  const pages: ProgramPageSpec[] = []
  const rows: Array<{label: string; cells: string[]}> = []
  const bars: Array<{category: string; series: string; value: number}> = []
  const bsOf = (l: (typeof loops)[number]) => l.rounds[0]?.points[0]?.blockSizeBytes ?? Number(/(\d+)k/.exec(l.id)?.[1] ?? 0) * 1024
  const sizes = loops.map(l => blockSizeLabel(bsOf(l)))
  for (const l of loops) {
    const bs = blockSizeLabel(bsOf(l))
    const ss = loopSteadyText(l)
    const window = ss.text
    const series = (readPct: number) => l.rounds.filter(x => x.finishedAt).map(x => ({x: x.round, y: (x.points.find(q => q.readPct === readPct)?.bwBytesPerSec ?? 0) / 1e6, series: `SEQ ${bs} ${readPct === 0 ? 'W' : 'R'}`}))
    const band = windowBand(l)
    const ticks = l.rounds.map(x => x.round)
    pages.push({kind: 'chart', title: `TP - SS Convergence - Write ${bs}`, chart: lineChart(series(0), {xTitle: 'Round', yTitle: 'MB/s (SEQ write)', xTicks: ticks, band}),
      note: `SEQ ${bs} R/W 0/100 throughput per round (decimal MB/s); shaded: measurement window ${window}.`})
    pages.push({kind: 'chart', title: `TP - SS Convergence - Read ${bs}`, chart: lineChart(series(100), {xTitle: 'Round', yTitle: 'MB/s (SEQ read)', xTicks: ticks, band}),
      note: `SEQ ${bs} R/W 100/0 throughput per round (decimal MB/s).`})
    for (const v of l.steadyState.variables) {
      const d = loopDetermination(l, v, `SEQ ${bs} W`, 'MB/s', 1e-6, 1)
      pages.push({kind: 'closeup', title: `TP - Steady State Measurement Window - SEQ/${bs}`, chart: closeupChart(d, 'MB/s', 1e-6), determination: d})
    }
    const wa = (rp: number) => l.windowAverages.find(w => w.readPct === rp)
    rows.push({label: bs, cells: [wa(0) ? fmtMBps(wa(0)!.bwBytesPerSec) : 'n/a', wa(100) ? fmtMBps(wa(100)!.bwBytesPerSec) : 'n/a', window]})
    for (const rp of [0, 100]) if (wa(rp)) bars.push({category: bs, series: rp === 0 ? 'SEQ W (0/100)' : 'SEQ R (100/0)', value: wa(rp)!.bwBytesPerSec / 1e6})
  }
  pages.push({kind: 'table', title: 'TP - All Block Sizes - Tabular Data', tables: [{heading: 'Window-average throughput, MB/s (10^6 B/s)', columns: ['Block Size', 'R/W 0/100 (write)', 'R/W 100/0 (read)', 'Measurement window'], rows, note: 'Average over the 5-round measurement window of each block size.'}]})
  pages.push({kind: 'chart', title: 'TP - All Block Sizes - 2D Plot', chart: barChart(bars, {xTitle: 'Block size', yTitle: 'MB/s', categories: sizes}), note: 'Window-average sequential throughput per block size.'})
  const all = loops.map(loopSteadyText)
  const achieved = all.every(s => s.achieved)
  return {
    subtitle: `TP - SEQ ${sizes.join(' / ')}`,
    setup: [
      {label: 'Pre Condition 1', value: `SEQ W at the block size under test, ${wipcWrittenText(phasesOf(r, 'wipc'), p)}`},
      {label: 'TOIO - TC/QD', value: `TC ${p.threadCount} / QD ${p.queueDepth}`},
      {label: 'Pre Condition 2', value: 'TP loop (WDPC)'},
    ],
    test: [
      {label: 'Test Stimulus', value: `SEQ ${sizes.join(', ')}; R/W 100/0 then 0/100`},
      {label: 'TOIO - TC/QD', value: `TC ${p.threadCount} / QD ${p.queueDepth} (TOIO ${p.threadCount * p.queueDepth})`},
      {label: 'Point Duration', value: `${p.pointSeconds} s; max ${p.maxRounds} round${p.maxRounds === 1 ? '' : 's'} per block size`},
    ],
    steadyState: {text: loops.map((l, i) => `${sizes[i]}: ${all[i].text}`).join('; ') || 'n/a', achieved},
    headline: loops.flatMap((l, i) => [0, 100].map(rp => {
      const w = l.windowAverages.find(x => x.readPct === rp)
      return {label: `SEQ ${sizes[i]} ${rp === 0 ? 'write' : 'read'}`, value: w ? `${fmtMBps(w.bwBytesPerSec)} MB/s` : 'n/a'}
    })),
    verdict: tpVerdict(sizes, all.map(s => s.achieved)),
    verdictDetail: loops.map((l, i) => `${sizes[i]}: ${all[i].text}`).join('; '),
    pages,
  }
}

/** The TP verdict names the block sizes that missed steady state ("NOT ACHIEVED for 128KiB"), never "for every block size" when one passed. */
export function tpVerdict(sizes: string[], achieved: boolean[]): string {
  const failed = sizes.filter((_, i) => !achieved[i])
  if (sizes.length === 0) return 'Steady State NOT ACHIEVED (no block size was run)'
  if (failed.length === 0) return sizes.length === 1 ? `Steady state achieved for ${sizes[0]}` : `Steady state achieved for every block size (${sizes.join(', ')})`
  const passed = sizes.filter((_, i) => achieved[i])
  return `Steady State NOT ACHIEVED for ${failed.join(' and ')}${passed.length ? ` (achieved for ${passed.join(' and ')})` : ''}`
}
