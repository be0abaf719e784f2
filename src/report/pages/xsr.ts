/**
 * Cross Stimulus Recovery (XSR) report pages (digest B §5.6, §6.2, §8 item 16): throughput of the
 * three access groups against time, throughput with ART and MRT against time (two stacked panels),
 * and per group its TOIO, final throughput, peak ART and peak MRT, with the recovery time (G-AD's
 * definition, recoveryTime in src/program/results.ts). Pure.
 */
import {type PhaseResult} from '../../model/results.js'
import {recoveryTime} from '../../analysis/derive.js'
import {fixed, fmtMBps, fmtMs} from '../format.js'
import {lineChart, stackedLineChart, type XYRow} from '../charts/generic.js'
import {phasesOf, type ProgramPageSpec, type ProgramReportInput, type ProgramSection} from '../model.js'

type Series = Extract<PhaseResult, {kind: 'series'}>

/** Samples averaged for a group's "final TP". */
export const XSR_FINAL_SAMPLES = 5

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN)
const groupName = (s: Series, i: number): string => `Group ${/(\d+)$/.exec(s.id)?.[1] ?? i + 1}`

/** Final throughput of a group: mean of its last XSR_FINAL_SAMPLES samples (fewer when it has fewer), bytes/s. */
export function xsrFinalBw(s: Series): number {
  return mean(s.samples.slice(-XSR_FINAL_SAMPLES).map(q => q.bwBytesPerSec))
}

/** The XSR recovery time of a run (null when it has fewer than three groups). */
export function xsrRecovery(groups: readonly Series[]): ReturnType<typeof recoveryTime> | null {
  if (groups.length < 3) return null
  return recoveryTime(groups[0].samples, groups[2].samples, groups[2].sampleSeconds)
}

export function xsrPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const p = r.parameters
  const m = input.manifest
  const groups = phasesOf(r, 'series')
  const pages: ProgramPageSpec[] = []
  const label = (s: Series) => s.samples[0]?.label ?? s.title
  const names = groups.map((g, i) => `${groupName(g, i)}: ${label(g)}`)
  const first = groups.find(g => g.samples.length > 0)?.samples[0]
  const t0 = first ? BigInt(first.startNs) : 0n
  const minutes = (ns: string) => Number(BigInt(ns) - t0) / 60e9
  const wc = p.writeCacheRequired === 'disabled' ? 'WCD' : 'WCE'
  const toioOf = (s: Series) => {
    const q = s.samples[0]
    const tc = q?.threadCount ?? p.threadCount
    const qd = q?.queueDepth ?? p.queueDepth
    return `TC ${tc} / QD ${qd} (TOIO ${tc * qd})`
  }

  const tp: XYRow[] = groups.flatMap((g, i) => g.samples.map(q => ({x: minutes(q.endNs), y: q.bwBytesPerSec / 1e6, series: names[i]})))
  pages.push({kind: 'chart', title: 'XSR - TP vs Time - All Access Groups', chart: lineChart(tp, {xTitle: 'Time (minutes from the start of Access Group 1)', yTitle: 'Throughput (MB/s)', series: names, yFormat: ',.0f'}),
    note: `Throughput (decimal MB/s) of each ${groups[0]?.sampleSeconds ?? ''} s sample, placed at its end (wall clock); the groups run back to back.`})

  const g2 = groups[1]
  const band = g2 && g2.samples.length > 0 ? {from: minutes(g2.samples[0].startNs), to: minutes(g2.samples.at(-1)!.endNs), label: groupName(g2, 1)} : undefined
  const all = groups.flatMap(g => g.samples)
  const tpRows: XYRow[] = all.map(q => ({x: minutes(q.endNs), y: q.bwBytesPerSec / 1e6, series: 'Throughput'}))
  const art: XYRow[] = all.map(q => ({x: minutes(q.endNs), y: q.latMeanNs / 1e6, series: 'ART'}))
  const mrt: XYRow[] = all.map(q => ({x: minutes(q.endNs), y: q.latMaxNs / 1e6, series: 'MRT'}))
  pages.push({kind: 'chart', title: 'XSR - Throughput, ART & MRT vs Time',
    chart: stackedLineChart([
      {rows: tpRows, options: {yTitle: 'Throughput (MB/s)', band, yFormat: ',.0f'}},
      {rows: [...art, ...mrt], options: {yTitle: 'Response time (ms, log scale)', series: ['ART', 'MRT'], logY: true, band, yFormat: '~g'}},
    ], {xTitle: 'Time (minutes from the start of Access Group 1)', panelHeight: 190}),
    note: `Top: throughput (MB/s); bottom: mean (ART) and maximum (MRT) response time of each sample, ms. Shaded: ${band ? `${groupName(g2, 1)} (${label(g2)})` : 'n/a'}.`})

  const rec = xsrRecovery(groups)
  const recText = rec === null ? 'n/a (fewer than three access groups)'
    : rec.recoverySeconds === null ? `not recovered: no ${groupName(groups[2], 2)} sample reached ${fmtMBps(rec.group1AverageBwBytesPerSec)} MB/s`
      : `${fixed(rec.recoverySeconds / 60, 3)} min (${fixed(rec.recoverySeconds, 1)} s: sample ${rec.recoveredAtSample} of ${groupName(groups[2], 2)}, ${fixed(minutes(groups[2].samples[rec.recoveredAtSample! - 1].endNs), 3)} min on the time axis)`
  const rows = groups.map((g, i) => ({label: names[i], cells: [
    toioOf(g),
    `${g.samples.length} x ${g.sampleSeconds} s`,
    g.samples.length ? fmtMBps(mean(g.samples.map(q => q.bwBytesPerSec))) : 'n/a',
    g.samples.length ? fmtMBps(xsrFinalBw(g)) : 'n/a',
    g.samples.length ? fmtMs(Math.max(...g.samples.map(q => q.latMeanNs))) : 'n/a',
    g.samples.length ? fmtMs(Math.max(...g.samples.map(q => q.latMaxNs))) : 'n/a',
  ]}))
  pages.push({kind: 'tables', title: 'XSR - Access Groups and Recovery - Tabular Data', tables: [
    {heading: `Per access group (${wc}, write cache ${m.target.identity.writeCache})`, columns: ['Access Group', 'TOIO', 'Samples', 'Average TP (MB/s)', `Final TP (MB/s, mean of last ${XSR_FINAL_SAMPLES} samples)`, 'Peak ART (ms)', 'Peak MRT (ms)'], rows,
      note: `Final TP = mean throughput of the last ${XSR_FINAL_SAMPLES} samples of the group; peak ART / MRT = the highest per-sample mean / maximum response time of the group.`},
    {heading: 'Recovery time', columns: ['Quantity', 'Value'], rows: [
      {label: 'Group 1 average TP', cells: [rec ? `${fmtMBps(rec.group1AverageBwBytesPerSec)} MB/s` : 'n/a']},
      {label: 'Recovery time (Group 3)', cells: [recText]},
    ], note: 'Recovery time = time into Access Group 3 until a sample\'s throughput reaches Access Group 1\'s average (sample count x sample length). This is the definition of ADATA\'s public PTS 2.0 implementation, not a confirmed PTS quantity.'},
  ]})

  return {
    subtitle: `XSR - ${groups.map(label).join(' / ') || 'n/a'}`,
    setup: [
      {label: 'Pre Condition', value: 'none: from FOB (purge, no WIPC)'},
      {label: 'Write cache', value: `${wc} (device: ${m.target.identity.writeCache})`},
      {label: 'TOIO - TC/QD', value: `TC ${p.threadCount} / QD ${p.queueDepth}`},
    ],
    test: groups.map((g, i) => ({label: `Access Group ${/(\d+)$/.exec(g.id)?.[1] ?? i + 1}`, value: `${label(g)}, ${g.samples.length} x ${g.sampleSeconds} s; ${toioOf(g)}`})),
    steadyState: {text: 'none (fixed-duration access groups)', achieved: true},
    // Short values: the summary's headline column is half the page wide.
    headline: [
      ...groups.map((g, i) => ({label: `${groupName(g, i)} final TP`, value: g.samples.length ? `${fmtMBps(xsrFinalBw(g))} MB/s` : 'n/a'})),
      {label: 'Recovery time', value: rec === null ? 'n/a' : rec.recoverySeconds === null ? 'not recovered' : `${fixed(rec.recoverySeconds / 60, 3)} min`},
    ],
    verdict: rec?.recoverySeconds != null ? `Throughput recovered ${fixed(rec.recoverySeconds / 60, 3)} min into Access Group 3` : rec ? 'Throughput did NOT recover to the Group 1 average in Access Group 3' : 'XSR incomplete',
    verdictDetail: `${groups.length} access groups back to back (${wc}); final TP = mean of the last ${XSR_FINAL_SAMPLES} samples of each group. Recovery time as ADATA's public PTS 2.0 implementation defines it (not a confirmed PTS quantity).`,
    pages,
  }
}
