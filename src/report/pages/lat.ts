/**
 * Latency (LAT) report pages (digest B §5.3, §6.2, §6.3): SS convergence of the average and of the
 * maximum latency of the 100% write points, the measurement window of the tracking variable (ART of
 * RND 4KiB 0/100) with the determination data, the tabular data (PTS 2.0.2: "Ave, 5 9s, Max
 * Response Times & IOPS"; 1.x: ART and MRT only), and the two "3D" plots as labelled heat maps.
 * Every number comes from the loop phase of results.json: per-round points for the convergence
 * plots, `windowAverages` (average over the 5-round window, digest B §4) for tables and heat maps.
 * Pure.
 */
import {blockSizeLabel, mixLabel} from '../../units.js'
import {revisionLabel} from '../../model/tests.js'
import {fixed, fmtIops, fmtMs} from '../format.js'
import {wipcWrittenText} from '../page-kit.js'
import {closeupChart, heatmapChart, histogramChart, lineChart} from '../charts/generic.js'
import {loopDetermination, loopSteadyText, phasesOf, windowBand, type ProgramPageSpec, type ProgramReportInput, type ProgramSection} from '../model.js'
import type {LoopWindowAverage} from '../../model/results.js'
import {CAPPED_NOTE, cappedAtMax} from '../../model/latency.js'

/** Revisions whose LAT report has ART and MRT only (digest B §5.3 "Metrics per point", page 4). */
const ART_MRT_ONLY = new Set(['pts-e-1.1', 'pts-c-1.2'])
/** Fewer IOs than this per round: the round's 99.999th percentile has less than one IO above it (digest B §8 item 7). */
const FIVE_NINES_MIN_IOS = 100_000

const mixName = (rp: number): string => `R/W ${mixLabel(rp)}${rp === 0 ? ' (W)' : rp === 100 ? ' (R)' : ''}`
const ms = (ns: number | null | undefined): string => (ns === null || ns === undefined ? 'n/a' : fmtMs(ns))

export function latPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const p = r.parameters
  const full = !ART_MRT_ONLY.has(r.revision)
  const loop = phasesOf(r, 'loop')[0]
  const wipc = phasesOf(r, 'wipc')[0]
  const rounds = loop ? loop.rounds.filter(x => x.finishedAt !== null) : []
  const points = loop?.rounds[0]?.points ?? []
  const was = loop?.windowAverages ?? []
  // Loop order as run (outer R/W mix, inner block size) for the parameters; display order for tables and plots.
  const runMixes = [...new Set(points.map(q => q.readPct))]
  const runSizes = [...new Set(points.map(q => q.blockSizeBytes).filter((b): b is number => b !== null))]
  const mixes = [...runMixes].sort((a, b) => a - b) // write (0/100) first, digest B §6.3
  const sizes = [...runSizes].sort((a, b) => a - b) // small first, digest B §6.3
  const wa = (rp: number, bs: number): LoopWindowAverage | undefined => was.find(w => w.readPct === rp && w.blockSizeBytes === bs)
  const ss = loop ? loopSteadyText(loop) : {text: 'n/a (no LAT loop)', achieved: false}
  const window = ss.text
  const from = loop?.steadyState.fromRound ?? null
  const to = loop?.steadyState.toRound ?? null
  const band = windowBand(loop)
  const ticks = rounds.map(x => x.round)
  const tc = points[0]?.threadCount ?? 1
  const qd = points[0]?.queueDepth ?? 1
  const pages: ProgramPageSpec[] = []

  // 1-2. Convergence of the 100% write points, one series per block size (digest B §5.3 pages 1-2).
  const writeSeries = (metric: 'latMeanNs' | 'latMaxNs') => rounds.flatMap(rd => sizes.flatMap(bs => {
    const q = rd.points.find(x => x.readPct === 0 && x.blockSizeBytes === bs)
    return q ? [{x: rd.round, y: q[metric] / 1e6, series: `RND ${blockSizeLabel(bs)} W`}] : []
  }))
  const seriesNames = sizes.map(bs => `RND ${blockSizeLabel(bs)} W`)
  pages.push({kind: 'chart', title: 'LAT - SS Convergence Plot - Average Latency - 100% Writes',
    chart: lineChart(writeSeries('latMeanNs'), {xTitle: 'Round', yTitle: 'Average response time (ms)', series: seriesNames, xTicks: ticks, band}),
    note: `Average response time (ART) of each RND R/W 0/100 point per round, TC ${tc}/QD ${qd}, one line per block size; shaded: measurement window ${window}. ` +
      'The tracking variable is the ART of RND 4KiB 0/100.'})
  pages.push({kind: 'chart', title: 'LAT - SS Convergence Plot - Maximum Latency - 100% Writes',
    chart: lineChart(writeSeries('latMaxNs'), {xTitle: 'Round', yTitle: 'Maximum response time (ms)', series: seriesNames, xTicks: ticks, band}),
    note: `Maximum response time (MRT) of each RND R/W 0/100 point per round (the largest response time of the point: fio's maximum total latency, submission + completion), one line per block size; shaded: measurement window ${window}.`})

  // 3. Measurement window of the tracking variable, with the determination data (digest B §3.2).
  for (const v of loop?.steadyState.variables ?? []) {
    const t = loop!.tracking.find(x => x.id === v.id)
    const d = loopDetermination(loop!, v, t?.label ?? 'RND 4KiB R/W 0/100 ART', 'ms', 1e-6, 3)
    const bs = loop!.rounds[0]?.points[t?.pointIndex ?? -1]?.blockSizeBytes
    pages.push({kind: 'closeup', title: `LAT - Steady State Measurement Window - RND/${bs ? blockSizeLabel(bs) : '4KiB'}`, chart: closeupChart(d, 'ms', 1e-6), determination: d})
  }

  // 4. Tabular data: rows block size small -> large, columns R/W mix write -> read (digest B §6.3).
  const perMix = (f: (w: LoopWindowAverage) => string) => sizes.map(bs => ({label: blockSizeLabel(bs), cells: mixes.map(rp => { const w = wa(rp, bs); return w ? f(w) : 'n/a' })}))
  const perMix2 = (f: (w: LoopWindowAverage) => [string, string]) => sizes.map(bs => ({label: blockSizeLabel(bs), cells: mixes.flatMap(rp => { const w = wa(rp, bs); return w ? f(w) : ['n/a', 'n/a'] })}))
  const nRounds = from !== null && to !== null ? to - from + 1 : 0
  // pooled (new runs): the window's percentile is over all its IOs; else (older runs) the average of the per-round values
  const pooled = was.length > 0 && was.every(w => w.latP99999Basis === 'pooled')
  const few = (w: LoopWindowAverage) => w.latP99999Ns !== null && (pooled ? w.latPercentileSamples < FIVE_NINES_MIN_IOS : nRounds > 0 && w.latPercentileSamples / nRounds < FIVE_NINES_MIN_IOS)
  const fewIos = was.some(few)
  const p5 = (w: LoopWindowAverage) => cappedAtMax(w.latP99999Ns, w.latMaxNs)
  const anyCapped = was.some(w => p5(w).capped)
  const p5Text = (w: LoopWindowAverage) => { const c = p5(w); return c.ns === null ? 'n/a' : `${c.capped ? '≤ ' : ''}${fmtMs(c.ns)}` }
  const tArt = {heading: 'ART - Average Response Time (ms), window average', columns: ['Block Size', ...mixes.map(mixName)], rows: perMix(w => ms(w.latMeanNs)), note: ''}
  const tMrt = {heading: 'MRT - Maximum Response Time (ms): maximum over the window, and average of the per-round maxima',
    columns: ['Block Size', ...mixes.flatMap(rp => [`${mixLabel(rp)} max`, `${mixLabel(rp)} avg of max`])], rows: perMix2(w => [ms(w.latMaxNs), ms(w.latMaxAvgNs)]), note: ''}
  const t59 = {heading: pooled ? "5 9s - 99.999th percentile Response Time (ms) over the window's pooled IOs, and their count" : '5 9s - 99.999th percentile Response Time (ms), window average, and the IOs behind it',
    columns: ['Block Size', ...mixes.flatMap(rp => [`${mixLabel(rp)} 5 9s`, `${mixLabel(rp)} IOs`])],
    rows: perMix2(w => [p5Text(w), fixed(w.latPercentileSamples, 0) + (few(w) ? ' *' : '')]), note: ''}
  const tIops = {heading: 'IOPS (read + write completions per second), window average', columns: ['Block Size', ...mixes.map(mixName)], rows: perMix(w => fmtIops(w.iops)), note: ''}
  const tableNote = [
    `RND, TC ${tc}/QD ${qd}; every value is the average of the point over the ${nRounds || 5}-round measurement window (${from !== null ? `rounds ${from}-${to}` : 'n/a'}) except MRT "max", which is the maximum over the window${pooled ? ', and 5 9s, which is taken over the window\'s pooled IOs' : ''} ("avg of max" is the average of the ${nRounds || 5} per-round maxima, as some implementations report it).`,
    'Response time = fio\'s total latency (submission + completion) of each IO. Mixed R/W response times are IO-weighted over reads and writes (pts\'s choice: every IO counts once).',
    full
      ? (pooled
        ? `5 9s is the 99.999th percentile over all IOs of the ${nRounds || 5} window rounds pooled (the rounds' fio json+ latency buckets merged, then fio's percentile rule); "IOs" is that pooled count. Each round's own 5 9s is in report.csv.` +
          (fewIos ? ` * fewer than ${fixed(FIVE_NINES_MIN_IOS, 0)} IOs in the window: fewer than one IO lies above the 99.999th percentile, so it is close to the maximum and not a meaningful percentile.` : '')
        : `5 9s is fio's 99.999th percentile over all IOs of each round, averaged over the window (the derivation of the pts version that stored this run); "IOs" is the total number of IOs behind the ${nRounds || 5} values.` +
          (fewIos ? ` * fewer than ${fixed(FIVE_NINES_MIN_IOS, 0)} IOs per round: that round's 5 9s is close to its maximum and not a meaningful percentile.` : '')) +
        (anyCapped ? ` ${CAPPED_NOTE}` : '') +
        ' IOPS = read + write completions per second.'
      : `${revisionLabel(r.revision)} reports ART and MRT only; the 5 9s and IOPS of every point are in report.csv.`,
  ].join(' ')
  pages.push(full
    ? {kind: 'tables', title: 'LAT - Ave, 5 9s, Max Response Times & IOPS', tables: [tArt, t59, tMrt, tIops], note: tableNote}
    : {kind: 'tables', title: 'LAT - Ave & Max Response Times', tables: [tArt, tMrt], note: tableNote})

  // 5-6. "3D" plots: Vega-Lite has no 3D, so block size x R/W mix is a labelled heat map (as the IOPS 3D page).
  const heat = (metric: 'latMeanNs' | 'latMaxNs') => heatmapChart(
    sizes.flatMap(bs => mixes.flatMap(rp => { const w = wa(rp, bs); return w ? [{row: blockSizeLabel(bs), col: mixLabel(rp), value: w[metric] / 1e6}] : [] })),
    {rowTitle: 'Block size', colTitle: 'R/W mix % (read/write)', rows: sizes.map(blockSizeLabel), cols: mixes.map(mixLabel), valueTitle: metric === 'latMeanNs' ? 'ART (ms)' : 'MRT (ms)', rowHeight: 60})
  const heatNote = 'Vega-Lite cannot draw the SNIA 3D columns, so the block size x R/W mix matrix is a heat map with every cell labelled (darker = slower; log colour scale), as on the IOPS report\'s 3D page.'
  pages.push({kind: 'chart', title: 'LAT - 3D Plot - Average Latency', chart: heat('latMeanNs'),
    note: `Average response time (ms), the average over the measurement window; ${window}. ${heatNote}`})
  pages.push({kind: 'chart', title: 'LAT - 3D Plot - Maximum Latency', chart: heat('latMaxNs'),
    note: `Maximum response time (ms), the maximum over the measurement window; ${window}. The average of the per-round maxima is in the tabular data. ${heatNote}`})

  // The optional response-time histogram run (PTS 2.0, digest B §5.3): fio's json+ latency bins (total latency in new runs).
  for (const h of phasesOf(r, 'histogram')) {
    if (!h.job || !h.histogram) continue
    const total = h.histogram.reduce((a, b) => a + b.count, 0)
    const hc = cappedAtMax(h.job.latP99999Ns, h.job.latMaxNs)
    const p5 = hc.ns === null ? 'n/a' : `${hc.capped ? '≤ ' : ''}${fmtMs(hc.ns)} ms`
    pages.push({kind: 'chart', title: `LAT - Response Time Histogram (optional) - ${h.job.label} TC ${h.job.threadCount}/QD ${h.job.queueDepth}`,
      chart: histogramChart(h.histogram.map(b => ({latMs: b.latNs / 1e6, count: b.count})), {title: `${h.job.label}, ${fixed(h.job.runtimeSec, 1)} s`}),
      note: `Optional in PTS 2.0. ${fixed(total, 0)} IOs in fio's ${h.histogramBasis === 'lat' ? 'total-latency (response time, the basis of the ART, MRT and 5 9s here)' : "completion-latency (as stored by an earlier pts version: without the submission time that the ART, MRT and 5 9s here include)"} bins (json+), ART ${fmtMs(h.job.latMeanNs)} ms, 5 9s ${p5} (${fixed(h.job.latPercentileSamples, 0)} IOs), MRT ${fmtMs(h.job.latMaxNs)} ms, ${fmtIops(h.job.iops)} IOPS. Run after the loop, at the drive's steady state.${hc.capped ? ` 5 9s: ${CAPPED_NOTE}` : ''}`})
  }

  // Header and summary.
  const w4 = wa(0, 4096)
  const r4 = wa(100, 4096)
  const v0 = loop?.steadyState.variables[0]
  // Short labels: the summary page has room for about six headline rows.
  const headline = [
    {label: 'ART 4KiB W', value: w4 ? `${ms(w4.latMeanNs)} ms` : 'n/a'},
    ...(full ? [{label: '5 9s 4KiB W', value: w4 ? `${p5Text(w4)} ms (${fixed(w4.latPercentileSamples, 0)} IOs)` : 'n/a'}] : []),
    {label: 'MRT 4KiB W', value: w4 ? `${ms(w4.latMaxNs)} ms (window max)` : 'n/a'},
    {label: 'ART 4KiB R', value: r4 ? `${ms(r4.latMeanNs)} ms` : 'n/a'},
    ...(full ? [{label: '5 9s 4KiB R', value: r4 ? `${p5Text(r4)} ms (${fixed(r4.latPercentileSamples, 0)} IOs)` : 'n/a'}] : []),
    {label: 'MRT 4KiB R', value: r4 ? `${ms(r4.latMaxNs)} ms (window max)` : 'n/a'},
  ]
  return {
    subtitle: `LAT - RND ${sizes.map(blockSizeLabel).join(' / ') || 'n/a'} - TC ${tc}/QD ${qd}`,
    setup: [
      {label: 'Pre Condition 1', value: wipc ? `WIPC SEQ ${blockSizeLabel(wipc.blockSizeBytes)} W, ${wipcWrittenText([wipc], p)} (required 2X)` : 'none'},
      {label: 'TOIO - TC/QD', value: `TC ${p.threadCount} / QD ${p.queueDepth}`},
      {label: 'Pre Condition 2', value: 'LAT loop (WDPC)'},
      {label: 'TOIO - TC/QD', value: `TC ${tc} / QD ${qd}`},
      {label: 'SS Rounds', value: from !== null ? `${from}-${to}` : 'n/a'},
    ],
    test: [
      {label: 'Test Stimulus', value: 'LAT loop: RND, ART / MRT' + (full ? ' / 5 9s / IOPS' : '')},
      {label: 'RW Mix (Outer Loop)', value: runMixes.map(mixLabel).join(', ') || 'n/a'},
      {label: 'Block Sizes (Inner Loop)', value: runSizes.map(blockSizeLabel).join(', ') || 'n/a'},
      {label: 'TOIO - TC/QD', value: `TC ${tc} / QD ${qd} (TOIO ${tc * qd})`},
      {label: 'Point Duration', value: `${p.pointSeconds} s; max ${p.maxRounds} round${p.maxRounds === 1 ? '' : 's'} (${rounds.length} run)`},
    ],
    steadyState: ss,
    headline,
    // the window text carries its own "(NOT ACHIEVED...)": said once
    verdict: ss.achieved ? `Steady state achieved: ${window}` : `Steady State NOT ACHIEVED: ${window.replace(/ \(NOT ACHIEVED\)$/, '').replace(/^NOT ACHIEVED \((.*)\)$/, '$1')}`,
    verdictDetail: v0
      ? `Tracking variable ${loop!.tracking[0]?.label ?? 'RND 4KiB R/W 0/100 ART'}: window average ${fmtMs(v0.average)} ms; data excursion ${fmtMs(v0.dataExcursion)} ms (allowed ${fmtMs(v0.allowedDataExcursion)} ms, ${v0.dataExcursionOk ? 'pass' : 'FAIL'}); ` +
        `slope excursion ${fmtMs(v0.slopeExcursion)} ms (allowed ${fmtMs(v0.allowedSlopeExcursion)} ms, ${v0.slopeExcursionOk ? 'pass' : 'FAIL'}).`
      : from !== null && nRounds < (loop?.criteria.windowRounds ?? 5)
        ? `The loop ended after ${nRounds} complete round${nRounds === 1 ? '' : 's'}, fewer than the ${loop?.criteria.windowRounds ?? 5} a steady-state check needs, so no criterion was evaluated; the tables average rounds ${from}-${to}.`
        : 'No complete measurement window.',
    pages,
  }
}
