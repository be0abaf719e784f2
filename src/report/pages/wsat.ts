/**
 * Write Saturation (WSAT) report pages (digest B §5.4, §6.2, §8 item 13): IOPS against time, against
 * total GB written (TGBW) and (PTS 2.0.2) against normalized capacity (drive fills), response times
 * against time (2.0.2, optional in the spec), the optional steady-state exit's determination when it
 * was used, and a table of summary figures. One 1-minute sample per point (fio's own statistics).
 * Pure.
 */
import type {PhaseResult, SeriesSample} from '../../model/results.js'
import {formatBytes, formatDuration} from '../../units.js'
import {fixed, fmtIops, fmtMs} from '../format.js'
import {closeupChart, lineChart, type XYRow} from '../charts/generic.js'
import {phasesOf, programDetermination, type ProgramPageSpec, type ProgramReportInput, type ProgramSection} from '../model.js'

type Series = Extract<PhaseResult, {kind: 'series'}>

/** Minutes from the start of the first sample to the end of each sample (wall clock, fio's start/end stamps). */
export function sampleMinutes(samples: readonly SeriesSample[], t0Ns?: bigint): number[] {
  if (samples.length === 0) return []
  const t0 = t0Ns ?? BigInt(samples[0].startNs)
  return samples.map(s => Number(BigInt(s.endNs) - t0) / 60e9)
}

/** Decimal GB (10^9 B), 3 decimals: TGBW (digest Part A 5). */
const gb = (bytes: number): string => `${fixed(bytes / 1e9, 3)} GB`

/** The capacity multiple that ends WSAT (spec parameter "Stop at capacity", e.g. "4x the user capacity written"). */
function capacityMultiple(input: ProgramReportInput): number | null {
  const p = input.results.parameters.specParameters.find(x => /^stop at capacity/i.test(x.name))
  const m = p ? /(\d+(?:\.\d+)?)\s*x/i.exec(p.value) : null
  return m ? Number(m[1]) : null
}

/** What ended the series, in words (digest B §8 item 13: report which limit ended the run). */
export function wsatStopText(input: ProgramReportInput, s: Series | undefined): string {
  const p = input.results.parameters
  if (!s) return 'no series (run incomplete)'
  const f = p.timeScale
  const scaled = f < 1 ? `, time scale ${f}` : ''
  switch (s.stopReason) {
    case 'duration': return `duration: the time limit (${formatDuration(s.samples.length * s.sampleSeconds)} of ${s.sampleSeconds} s samples${scaled})`
    case 'capacity': {
      const m = capacityMultiple(input)
      const mult = m === null ? 'the capacity multiple' : `${m}x user capacity`
      return `capacity: ${mult} written${f < 1 && m !== null ? ` (scaled by time scale ${f} to ${fixed(m * f, 4)}x)` : ''}`
    }
    case 'operator-time': return `operator time limit${p.maxSeconds !== null ? ` (${formatDuration(p.maxSeconds)})` : ''}`
    case 'operator-bytes': return `operator limit of bytes written${p.maxWrittenBytes !== null ? ` (${formatBytes(p.maxWrittenBytes)})` : ''}`
    case 'steady-state': return 'steady state (optional steady-state exit)'
    default: return `not ended (series ${s.status})`
  }
}

export function wsatPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const p = r.parameters
  const s = phasesOf(r, 'series')[0] as Series | undefined
  const samples = s?.samples ?? []
  const is202 = r.revision === '2.0.2'
  const workload = p.workloadLabel ?? samples[0]?.label ?? 'RND 4KiB W'
  const name = 'IOPS'
  const minutes = sampleMinutes(samples)
  const written = samples.at(-1)?.cumulativeWrittenBytes ?? 0
  const fills = (b: number) => b / p.capacityBytes
  const stop = wsatStopText(input, s)
  const toio = `TC ${p.threadCount} / QD ${p.queueDepth} (TOIO ${p.threadCount * p.queueDepth})`
  const iopsRows = (x: (i: number) => number): XYRow[] => samples.map((q, i) => ({x: x(i), y: q.iops, series: workload}))
  const pages: ProgramPageSpec[] = []
  const n = samples.length
  const sampleNote = `${n} samples of ${s?.sampleSeconds ?? p.pointSeconds} s; IOPS = read + write completions per second of each sample (fio).`

  pages.push({kind: 'chart', title: 'WSAT - IOPS vs Time', chart: lineChart(iopsRows(i => minutes[i]), {xTitle: 'Time (minutes)', yTitle: name, yFormat: ',.0f'}),
    note: `${sampleNote} x: minutes from the start of the first sample to the end of each sample (wall clock).`})
  pages.push({kind: 'chart', title: 'WSAT - IOPS vs TGBW', chart: lineChart(iopsRows(i => samples[i].cumulativeWrittenBytes / 1e9), {xTitle: 'Total GB written (TGBW, 10^9 B)', yTitle: name, yFormat: ',.0f'}),
    note: `x: bytes written by the series up to the end of each sample, decimal GB. Total ${gb(written)}.`})
  if (is202) {
    pages.push({kind: 'chart', title: 'WSAT - IOPS vs Normalized Capacity', chart: lineChart(iopsRows(i => fills(samples[i].cumulativeWrittenBytes)), {xTitle: 'Normalized capacity (drive fills = TGBW / user capacity)', yTitle: name, yFormat: ',.0f'}),
      note: `Drive fills = bytes written / user capacity (${formatBytes(p.capacityBytes)}). Total ${fixed(fills(written), 3)} drive fills.`})
    const rt: XYRow[] = []
    samples.forEach((q, i) => {
      rt.push({x: minutes[i], y: q.latMeanNs / 1e6, series: 'ART'})
      if (q.latP99999Ns !== null) rt.push({x: minutes[i], y: q.latP99999Ns / 1e6, series: '5 9s'})
      rt.push({x: minutes[i], y: q.latMaxNs / 1e6, series: 'MRT'})
    })
    const close = samples.filter(q => q.latP99999Ns !== null && Math.abs(q.latP99999Ns - q.latMaxNs) <= 0.01 * q.latMaxNs).length
    // 5 9s drawn last: with few IOs per sample it equals MRT and would hide under it.
    const rows = [...rt.filter(x => x.series === 'ART'), ...rt.filter(x => x.series === 'MRT'), ...rt.filter(x => x.series === '5 9s')]
    pages.push({kind: 'chart', title: 'WSAT - Response Times vs Time', chart: lineChart(rows, {xTitle: 'Time (minutes)', yTitle: 'Response time (ms, log scale)', series: ['ART', '5 9s', 'MRT'], logY: true, yFormat: '~g'}),
      note: 'Per sample: response time = fio total latency (submission + completion); ART = its IO-weighted mean; 5 9s = 99.999th percentile over the IOs of the sample (with fewer than 10^5 IOs it is about the maximum); MRT = maximum. ' +
        `${close > 0 ? `In ${close} of ${n} samples 5 9s is within 1% of MRT, so the two lines overlap there. ` : ''}Optional in PTS 2.0.2.`})
  }

  const sse = s?.steadyState ?? null
  if (sse && sse.variables.length > 0) {
    const v = sse.variables[0]
    const d = programDetermination(v, 'IOPS of every tracking sample', 'IOPS', 1, 20, 10, 0)
    pages.push({kind: 'closeup', title: 'WSAT - Optional Steady State Exit - Measurement Window', chart: closeupChart(d, 'IOPS'), determination: d,
      note: '"Round" = tracking point: the IOPS of every n-th sample of the series (the alternate steady-state check, as cloudharmony\'s public PTS-E 1.1 implementation runs it).'})
  }

  const iops = samples.map(q => q.iops)
  const iMin = iops.length ? iops.indexOf(Math.min(...iops)) : -1
  const iMax = iops.length ? iops.indexOf(Math.max(...iops)) : -1
  const span = minutes.at(-1) ?? 0
  const fmtMin = (m: number) => fixed(m, span < 1 ? 3 : span < 100 ? 2 : 1)
  const at = (i: number) => (i < 0 ? 'n/a' : `${fmtIops(iops[i])} (sample ${i + 1}, minute ${fmtMin(minutes[i])})`)
  const tableRows = [
    {label: 'Samples', cells: [`${n} x ${s?.sampleSeconds ?? p.pointSeconds} s (${fmtMin(span)} minutes wall clock)`]},
    {label: 'First sample IOPS (FOB)', cells: [n ? at(0) : 'n/a']},
    {label: 'Last sample IOPS', cells: [n ? at(n - 1) : 'n/a']},
    {label: 'Maximum IOPS', cells: [at(iMax)]},
    {label: 'Minimum IOPS', cells: [at(iMin)]},
    {label: 'Total written (TGBW)', cells: [`${gb(written)} (${formatBytes(written)})`]},
    {label: 'Drive fills (TGBW / user capacity)', cells: [`${fixed(fills(written), 3)} (user capacity ${formatBytes(p.capacityBytes)})`]},
    {label: 'Ended by', cells: [stop]},
  ]
  if (is202 && n) {
    tableRows.push({label: 'ART of the last sample', cells: [`${fmtMs(samples[n - 1].latMeanNs)} ms`]})
    tableRows.push({label: 'Peak MRT', cells: [`${fmtMs(Math.max(...samples.map(q => q.latMaxNs)))} ms`]})
  }
  pages.push({kind: 'table', title: 'WSAT - Summary Figures', tables: [{heading: `WSAT ${workload}, ${toio}`, columns: ['Figure', 'Value'], rows: tableRows,
    note: 'IOPS as integers; GB decimal (10^9 B); drive fills = bytes written / user capacity.'}]})

  const steadyState = sse === null
    ? {text: 'not required (FOB to write saturation)', achieved: true}
    : sse.verdict === 'steady'
      ? {text: `optional exit: steady at tracking points ${sse.fromRound}-${sse.toRound}`, achieved: true}
      : {text: 'optional exit: steady state NOT reached', achieved: false}
  return {
    subtitle: `WSAT - ${workload}`,
    setup: [
      {label: 'Pre Condition', value: 'none: from FOB (purge, no WIPC)'},
      {label: 'TOIO - TC/QD', value: `TC ${p.threadCount} / QD ${p.queueDepth}`},
    ],
    test: [
      {label: 'Test Stimulus', value: `${workload}, continuous`},
      {label: 'TOIO - TC/QD', value: toio},
      {label: 'Sample Length', value: `${s?.sampleSeconds ?? p.pointSeconds} s`},
      {label: 'Ended by', value: `${stop}; ${gb(written)} written`},
    ],
    steadyState,
    // Short values: the summary's headline column is half the page wide.
    headline: [
      {label: 'First sample (FOB)', value: n ? `${fmtIops(iops[0])} IOPS` : 'n/a'},
      {label: 'Last sample', value: n ? `${fmtIops(iops[n - 1])} IOPS` : 'n/a'},
      {label: 'Maximum', value: n ? `${fmtIops(iops[iMax])} IOPS` : 'n/a'},
      {label: 'Minimum', value: n ? `${fmtIops(iops[iMin])} IOPS` : 'n/a'},
      {label: 'Total written (TGBW)', value: gb(written)},
      {label: 'Drive fills', value: fixed(fills(written), 3)},
      {label: 'Ended by', value: s?.stopReason ?? 'not ended'},
    ],
    verdict: s?.stopReason ? `Write saturation series complete: ${n} samples` : `Write saturation series incomplete: ${n} samples`,
    verdictDetail: `${workload}: IOPS ${n ? `${fmtIops(iops[0])} at FOB to ${fmtIops(iops[n - 1])} after ${gb(written)} written` : 'n/a'}; ended by ${stop}.`,
    pages,
  }
}
