/**
 * IOPS report pages (digest B §5.1 page list, §6.2, §6.3): convergence of every block size's
 * write IOPS, the measurement window of the tracking variables with a close-up and the
 * determination data of each, the block size x R/W mix tables, the 2D plot and the heat map.
 * Built from the run's loop phase (any run of the IOPS definition, also one stored by an earlier
 * pts and read as phases). Pure.
 */
import {blockSizeLabel, mixLabel} from '../../units.js'
import {fixed, fmtIops, fmtMBps, pointLabel} from '../format.js'
import {iopsChartSpecs} from '../charts/index.js'
import {determination, matrixTable, wipcWrittenText, type ConvergencePoint, type IopsData, type MatrixCell, type TrackingData} from '../page-kit.js'
import {loopView, type LoopView} from '../../analysis/loop-view.js'
import type {ProgramPageSpec, ProgramReportInput, ProgramSection} from '../model.js'

function rangeText(from: number | null, to: number | null): string {
  return from === null || to === null ? 'n/a' : `${from}-${to}`
}

/** "Rounds 2-6 (NOT ACHIEVED)" and friends (digest B §3.3, §6.1 "Steady State" cell). */
function steadyStateText(v: LoopView): {text: string; achieved: boolean; verdict: string} {
  const ss = v.steadyState
  const window = rangeText(ss.fromRound, ss.toRound)
  if (ss.verdict === 'steady') return {text: `Rounds ${window}`, achieved: true, verdict: `Steady state achieved in rounds ${window}`}
  if (ss.verdict === 'not-achieved') return {text: `Rounds ${window} (NOT ACHIEVED)`, achieved: false, verdict: 'Steady State NOT ACHIEVED'}
  // the rounds that completed (a cut round is not one of them)
  const complete = v.rounds.filter(x => x.finishedAt !== null && x.points.length === v.pointsPerRound).length
  return {
    text: ss.fromRound === null ? 'NOT ACHIEVED (run incomplete)' : `Rounds ${window} (NOT ACHIEVED, run incomplete)`,
    achieved: false,
    verdict: `Steady State NOT ACHIEVED (run ${v.status} ${complete === 0 ? 'before the end of round 1' : `after ${complete} complete round${complete === 1 ? '' : 's'}`})`,
  }
}

export function iopsPages(input: ProgramReportInput): ProgramSection {
  const v = loopView(input.results)
  if (!v) throw new Error('internal error: an IOPS run without its loop phase')
  const p = v.parameters
  const ss = steadyStateText(v)
  const complete = v.rounds.filter(x => x.finishedAt !== null && x.points.length === v.pointsPerRound)
  const lastRound = complete.at(-1)?.round ?? 0
  const findAverage = (rp: number, bs: number) => v.windowAverages.find(w => w.readPct === rp && w.blockSizeBytes === bs)

  const blockSizesSmallFirst = [...p.blockSizesBytes].sort((a, b) => a - b)
  const mixesWriteFirst = [...p.rwMixReadPct].sort((a, b) => a - b)

  // Convergence: the 0/100 (write) points per block size, every round with that point (digest B §5.1 page 1).
  const convergence: ConvergencePoint[] = []
  for (const round of v.rounds) {
    for (const pt of round.points) {
      if (pt.readPct !== 0 || pt.blockSizeBytes === null) continue
      convergence.push({round: round.round, blockSizeBytes: pt.blockSizeBytes, blockSize: blockSizeLabel(pt.blockSizeBytes), iops: pt.iops})
    }
  }
  const tracking: TrackingData[] = v.tracking.map(t => ({
    id: t.id, label: pointLabel(t.readPct, t.blockSizeBytes), readPct: t.readPct, blockSizeBytes: t.blockSizeBytes,
    series: t.series.map((value, i) => ({round: i + 1, value})),
  }))
  const determinations = v.steadyState.variables.map(x => {
    const t = v.tracking.find(y => y.id === x.id)
    return determination(x, t ? pointLabel(t.readPct, t.blockSizeBytes) : x.id, p.maxDataExcursionPct, p.maxSlopeExcursionPct, {decimals: 0})
  })
  const matrix: MatrixCell[] = []
  for (const rp of mixesWriteFirst) {
    for (const bs of blockSizesSmallFirst) {
      const w = findAverage(rp, bs)
      if (!w) continue
      matrix.push({readPct: rp, mix: mixLabel(rp), blockSizeBytes: bs, blockSize: blockSizeLabel(bs), iops: w.iops, mbPerSec: w.bwBytesPerSec / 1e6,
        latMeanMs: w.latMeanNs / 1e6, latMaxMs: w.latMaxNs / 1e6, latMaxAvgMs: w.latMaxAvgNs / 1e6})
    }
  }
  const data: IopsData = {rounds: v.rounds.map(x => x.round), windowFrom: v.steadyState.fromRound, windowTo: v.steadyState.toRound, convergence, tracking, determinations, matrix, mixesWriteFirst, blockSizesSmallFirst}
  const charts = iopsChartSpecs(data)

  const window = rangeText(v.steadyState.fromRound, v.steadyState.toRound)
  const windowNote = `Average over the measurement window, rounds ${window}${ss.achieved ? '' : ' (steady state NOT ACHIEVED)'}.`
  const headlineIops = (rp: number, bs: number) => { const w = findAverage(rp, bs); return w ? `${fmtIops(w.iops)} IOPS` : 'n/a (not measured)' }
  const headlineBw = (rp: number, bs: number) => { const w = findAverage(rp, bs); return w ? `${fmtMBps(w.bwBytesPerSec)} MB/s` : 'n/a (not measured)' }
  const toio = `TC ${p.threadCount} / QD ${p.queueDepth} (TOIO ${p.threadCount * p.queueDepth})`
  const wipc = v.wipc
  const wipcDone = wipc !== null && wipc.status === 'done'

  const pages: ProgramPageSpec[] = [
    {kind: 'chart', title: 'IOPS Steady State Convergence Plot - All Block Sizes', chart: charts.convergence, note: 'R/W 0/100 (write) IOPS of every block size, per round. Logarithmic IOPS axis.'},
    {kind: 'chart', title: 'IOPS Steady State Measurement Window', chart: charts['measurement-window'], note: `Tracking variables per round; the shaded band is the measurement window (rounds ${window}).`},
    ...determinations.map((d): ProgramPageSpec => ({kind: 'closeup', title: `IOPS Steady State Measurement Window - ${d.label}`, chart: charts[`window-${d.id}`], determination: d})),
    {kind: 'table', title: 'IOPS - All RW Mix & BS - Tabular Data',
      tables: [{heading: 'Window-average IOPS (read + write), rows: block size, columns: R/W mix %', ...matrixTable(matrix, mixesWriteFirst, blockSizesSmallFirst, c => fmtIops(c.iops), windowNote)}]},
    {kind: 'chart', title: 'IOPS - All RW Mix & BS - 2D Plot', chart: charts['iops-2d'], note: 'Window-average IOPS per block size, one line per R/W mix. Logarithmic IOPS axis.'},
    {kind: 'chart', title: 'IOPS - All RW Mix & BS - Heat Map', chart: charts['iops-matrix'],
      note: 'The block size x R/W mix matrix (the SNIA template draws it as 3D columns): colour and label give the window-average IOPS of each cell.'},
    {kind: 'tables', title: 'Bandwidth & Response Time - All RW Mix & BS - Tabular Data',
      tables: [
        {heading: 'Bandwidth, MB/s (10^6 B/s)', ...matrixTable(matrix, mixesWriteFirst, blockSizesSmallFirst, c => fmtMBps(c.mbPerSec * 1e6), '')},
        {heading: 'Mean response time, ms', ...matrixTable(matrix, mixesWriteFirst, blockSizesSmallFirst, c => fixed(c.latMeanMs, 3), '')},
        {heading: 'Maximum response time over the window, ms', ...matrixTable(matrix, mixesWriteFirst, blockSizesSmallFirst, c => fixed(c.latMaxMs, 3), '')},
      ],
      note: windowNote},
  ]
  return {
    subtitle: 'IOPS - Block Size x RW Mix Matrix',
    setup: [
      {label: 'Pre Condition 1', value: `SEQ ${blockSizeLabel(wipc?.blockSizeBytes ?? 131072)} W`},
      {label: 'TOIO - TC/QD', value: toio},
      {label: 'Duration', value: wipcDone ? wipcWrittenText([wipc], p) : 'not run'},
      {label: 'Pre Condition 2', value: 'IOPS Loop'},
      {label: 'SS Rounds', value: lastRound > 0 ? `1-${lastRound}` : 'none'},
    ],
    test: [
      {label: 'Test Stimulus 1', value: `IOPS Loop (${p.access === 'random' ? 'RND' : 'SEQ'})`},
      {label: 'RW Mix (Outer Loop)', value: p.rwMixReadPct.map(mixLabel).join(', ')},
      {label: 'Block Sizes (Inner Loop)', value: p.blockSizesBytes.map(blockSizeLabel).join(', ')},
      {label: 'TOIO - TC/QD', value: toio},
      {label: 'Point Duration', value: `${p.pointSeconds} s; max ${p.maxRounds} round${p.maxRounds === 1 ? '' : 's'}`},
    ],
    steadyState: {text: ss.text, achieved: ss.achieved},
    headline: [
      {label: 'RND 4KiB read (R/W 100/0)', value: headlineIops(100, 4096)},
      {label: 'RND 4KiB write (R/W 0/100)', value: headlineIops(0, 4096)},
      {label: 'RND 64KiB R/W 65/35', value: headlineIops(65, 65536)},
      {label: 'RND 1024KiB read (R/W 100/0)', value: headlineBw(100, 1048576)},
      {label: 'RND 1024KiB write (R/W 0/100)', value: headlineBw(0, 1048576)},
    ],
    verdict: ss.verdict,
    verdictDetail: ss.achieved
      ? `All ${determinations.length} tracking variable(s) met the data and slope excursion criteria in rounds ${window}.`
      : v.steadyState.fromRound === null
        ? `No measurement window: steady state needs ${p.windowRounds} complete rounds, and ${complete.length} ${complete.length === 1 ? 'was' : 'were'} run. The tables show no window averages.`
        : determinations.length === 0
          // the round limit ended the loop before the window's rounds: no criterion was evaluated
          ? `Measurement window rounds ${window}: the loop ended after ${complete.length} complete round${complete.length === 1 ? '' : 's'}, fewer than the ${p.windowRounds} a steady-state check needs, so no criterion was evaluated. Results are reported from ${complete.length === 1 ? 'this round' : 'these rounds'}.`
          : `Measurement window rounds ${window}: ${determinations.filter(d => !d.steady).map(d => d.label).join('; ') || 'every tracking variable met the criteria, but the run did not finish'}${determinations.some(d => !d.steady) ? ' did not meet the criteria' : ''}. Results are reported from this window.`,
    summaryRows: [{label: 'Rounds run', value: `${complete.length} complete of max ${p.maxRounds}${v.rounds.length > complete.length ? `; round ${v.rounds.find(x => !complete.includes(x))!.round} was cut by the ${v.status === 'interrupted' ? 'interruption' : 'failure'}` : ''}`}],
    pages,
  }
}
