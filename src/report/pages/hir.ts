/**
 * Host Idle Recovery (HIR) report pages (digest B §5.5, §6.2, §8 item 14): the preconditioning
 * loop's tracking IOPS per round and its steady-state measurement window, IOPS against time over
 * all wait states (every write burst, and the continuous return-to-baseline
 * samples), and per wait state the mean burst IOPS against the preconditioning steady-state IOPS.
 * Pure.
 */
import type {PhaseResult} from '../../model/results.js'
import {formatDuration} from '../../units.js'
import {fixed, fmtIops} from '../format.js'
import {closeupChart, lineChart, segmentedLineChart, type SegmentRow} from '../charts/generic.js'
import {loopDetermination, loopSteadyText, phasesOf, windowBand, type ProgramPageSpec, type ProgramReportInput, type ProgramSection} from '../model.js'

type Bursts = Extract<PhaseResult, {kind: 'bursts'}>
type Series = Extract<PhaseResult, {kind: 'series'}>

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN)
const secs = (s: number): string => (s < 60 ? `${Number(s.toPrecision(3))} s` : formatDuration(s))

/** Each wait-state phase with the return-to-baseline series that follows it (the next series phase before the next wait state). */
export function hirSegments(phases: readonly PhaseResult[]): Array<{ws: Bursts; baseline: Series | null}> {
  const out: Array<{ws: Bursts; baseline: Series | null}> = []
  for (const p of phases) {
    if (p.kind === 'bursts') out.push({ws: p, baseline: null})
    else if (p.kind === 'series' && out.length > 0 && out.at(-1)!.baseline === null) out.at(-1)!.baseline = p
  }
  return out
}

/** The preconditioning steady-state IOPS: the window average of the tracked point (digest Part A 4). */
export function hirSteadyIops(loop: Extract<PhaseResult, {kind: 'loop'}> | undefined): number | null {
  const t = loop?.tracking[0]
  if (!loop || !t) return null
  return loop.windowAverages.find(w => w.index === t.pointIndex)?.iops ?? null
}

/**
 * How this run's burst IOPS were derived, for the page notes: one fio step per burst (IOs completed in the burst / its
 * length), or, for runs stored by older pts versions, fio's averaged IOPS log as those versions derived it.
 */
export function burstBasis(ws: readonly Bursts[]): string {
  const legacy = ws.some(w => w.method !== 'burst-jobs' && w.bursts.length > 0)
  const exact = 'each burst is a fio step of its own; its IOPS = the IOs it completed / its length (fio\'s IO count and runtime of the step); the host idle between bursts is measured from the end of one burst\'s IO to the start of the next'
  const old = 'this run was stored by an earlier pts version, whose burst IOPS are shown as it derived them: the mean of fio\'s averaged IOPS-log windows of one job with thinktime, grouped into bursts at idle gaps; windows that straddle the idle time count in whole, and with several threads the per-thread logs follow each other in one file, so more bursts can be found than were run'
  return legacy ? (ws.some(w => w.method === 'burst-jobs') ? `${exact}; wait states without that method: ${old}` : old) : exact
}

/** The host idle between consecutive bursts as run (end of one burst step's IO to the start of the next), or null for runs without burst steps. */
export function measuredIdle(ws: Bursts): {medianSec: number; maxSec: number} | null {
  const st = ws.steps ?? []
  if (st.length < 2) return null
  const gaps = st.slice(1).map((s, i) => Number(BigInt(s.startNs) - BigInt(st[i].endNs)) / 1e9).sort((a, b) => a - b)
  return {medianSec: gaps[Math.floor(gaps.length / 2)], maxSec: gaps.at(-1)!}
}

export function hirPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const p = r.parameters
  const loop = phasesOf(r, 'loop')[0]
  const segs = hirSegments(r.phases)
  const pages: ProgramPageSpec[] = []
  const ss = loop ? loopSteadyText(loop) : {text: 'n/a (no preconditioning loop)', achieved: false}
  const track = loop?.tracking[0]
  const trackLabel = track?.label ?? 'RND 4KiB W IOPS'
  /** Legend / axis label without the parenthesised detail (the note carries the full label). */
  const shortLabel = trackLabel.replace(/\s*\(.*\)\s*$/, '')
  const ssIops = hirSteadyIops(loop)
  const toio = `TC ${p.threadCount} / QD ${p.queueDepth} (TOIO ${p.threadCount * p.queueDepth})`
  const wsName = (b: Bursts) => `WS${b.waitState}`

  // Pre-conditioning: tracking IOPS per complete round (evaluations carry the round numbers of the tracking series).
  if (loop && track) {
    const rounds = loop.evaluations.map(e => e.round)
    const rows = track.series.map((y, i) => ({x: rounds[i] ?? i + 1, y, series: shortLabel}))
    const band = windowBand(loop)
    pages.push({kind: 'chart', title: 'HIR - Pre-Conditioning IOPS Plot', chart: lineChart(rows, {xTitle: 'Round', yTitle: 'IOPS', xTicks: rounds, band, yFormat: ',.0f'}),
      note: `Tracking variable: ${trackLabel}, one value per round of ${loop.rounds[0]?.points.length ?? 0} x ${p.pointSeconds} s; shaded: measurement window ${ss.text}.`})
    const v = loop.steadyState.variables[0]
    if (v) {
      const d = loopDetermination(loop, v, shortLabel.replace(/\s*IOPS$/, ''), 'IOPS', 1, 0)
      pages.push({kind: 'closeup', title: 'HIR - Pre-Conditioning Steady State Measurement Plot', chart: closeupChart(d, 'IOPS'), determination: d})
    }
  }

  // IOPS v Time: minutes from the start of the first wait state; bursts at the wait state's start + their offset, baseline samples at their end.
  const wsStart = (ws: Bursts): string | null => ws.job?.startNs ?? ws.steps?.[0]?.startNs ?? null
  const first = segs.map(s => wsStart(s.ws)).find(x => x !== null) ?? null
  const t0 = first !== null ? BigInt(first) : null
  const minutesOf = (ns: bigint) => (t0 === null ? 0 : Number(ns - t0) / 60e9)
  const rows: SegmentRow[] = []
  const base: SegmentRow[] = []
  for (const {ws, baseline} of segs) {
    const s0 = wsStart(ws)
    if (s0 !== null) {
      const start = BigInt(s0)
      for (const b of ws.bursts) rows.push({x: minutesOf(start) + b.startMs / 60000, y: b.iops, series: wsName(ws), segment: ws.id})
    }
    if (baseline) for (const q of baseline.samples) base.push({x: minutesOf(BigInt(q.endNs)), y: q.iops, series: 'Baseline', segment: baseline.id})
  }
  const series = [...segs.map(s => wsName(s.ws)), 'Baseline']
  if (segs.length > 0) {
    pages.push({kind: 'chart', title: 'HIR - IOPS v Time - All Wait States',
      chart: segmentedLineChart([...rows, ...base], {xTitle: 'Time (minutes from the start of Wait State 1)', yTitle: 'IOPS', series, yFormat: ',.0f', colors: ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#b07aa1', '#9c755f'].slice(0, series.length - 1).concat('#222222')}),
      note: `WSn: IOPS of each ${secs(segs[0].ws.burstSeconds)} RND 4KiB W burst, placed at its start (${burstBasis(segs.map(s => s.ws))}); Baseline: the ${segs[0].baseline ? `${segs[0].baseline.sampleSeconds} s` : ''} samples of the continuous return to baseline after each wait state, placed at their end.`})
  }

  // Table: per wait state.
  const tRows = segs.map(({ws, baseline}) => {
    const m = mean(ws.bursts.map(b => b.iops))
    const bm = baseline ? mean(baseline.samples.map(q => q.iops)) : NaN
    const idle = measuredIdle(ws)
    return {label: `WS${ws.waitState}`, cells: [
      `${secs(ws.burstSeconds)} / ${secs(ws.idleSeconds)}`,
      `${ws.bursts.length} / ${ws.repeats}`,
      Number.isFinite(m) ? fmtIops(m) : 'n/a',
      ssIops !== null && Number.isFinite(m) ? `${fixed(m / ssIops, 2)}x` : 'n/a',
      Number.isFinite(bm) ? fmtIops(bm) : 'n/a',
      idle ? `${secs(idle.medianSec)} / ${secs(idle.maxSec)}` : 'n/a (one fio job)',
    ]}
  })
  pages.push({kind: 'table', title: 'HIR - Wait States - Tabular Data', tables: [{
    heading: `Mean burst IOPS per wait state vs the preconditioning steady-state IOPS (${ssIops === null ? 'n/a' : fmtIops(ssIops)} IOPS, ${ss.text})`,
    columns: ['Wait State', 'Burst / idle', 'Bursts found / planned', 'Mean burst IOPS', 'vs PC steady state', 'Baseline mean IOPS after it', 'Idle measured (median / max)'],
    rows: tRows,
    note: `Mean burst IOPS = mean over the bursts of the wait state of each burst's IOPS (${burstBasis(segs.map(s => s.ws))}); ratio = mean burst IOPS / the window average of the tracked preconditioning point; baseline = mean IOPS of the continuous return-to-baseline samples that follow the wait state; idle measured = from the end of one burst's IO to the start of the next (at least the planned idle; at very short time scales fio's start-up between steps makes it longer).`,
  }]})

  const wsList = segs.map(s => s.ws.waitState).join(', ')
  const ratios = segs.map(s => (ssIops ? mean(s.ws.bursts.map(b => b.iops)) / ssIops : NaN))
  return {
    subtitle: `HIR - RND 4KiB W, Wait States ${wsList || 'n/a'}`,
    setup: [
      {label: 'Pre Condition 1', value: 'none (no WIPC)'},
      {label: 'Pre Condition 2', value: `RND 4KiB W loop, rounds of ${loop?.rounds[0]?.points.length ?? 0} x ${p.pointSeconds} s`},
      {label: 'TOIO - TC/QD', value: `TC ${p.threadCount} / QD ${p.queueDepth}`},
      {label: 'SS Rounds', value: ss.text},
    ],
    test: [
      {label: 'Test Stimulus', value: `RND 4KiB W bursts, Wait States ${wsList}`},
      {label: 'Burst / idle', value: segs.length ? `${secs(segs[0].ws.burstSeconds)} W, then WS x ${secs(segs[0].ws.idleSeconds / Math.max(1, segs[0].ws.waitState))} idle; ${segs[0].ws.repeats} bursts per wait state` : 'n/a'},
      {label: 'Return to baseline', value: segs[0]?.baseline ? `continuous RND 4KiB W, ${secs(segs[0].baseline.samples.length * segs[0].baseline.sampleSeconds)} after each wait state` : 'n/a'},
      {label: 'TOIO - TC/QD', value: toio},
    ],
    steadyState: ss,
    // Short values: the summary's headline column is half the page wide.
    headline: [
      {label: 'PC steady-state IOPS', value: ssIops === null ? 'n/a' : fmtIops(ssIops)},
      ...segs.map((s, i) => ({label: `WS${s.ws.waitState} mean burst IOPS`, value: `${fmtIops(mean(s.ws.bursts.map(b => b.iops)))} (${Number.isFinite(ratios[i]) ? fixed(ratios[i], 2) + 'x' : 'n/a'})`})),
    ],
    verdict: ss.achieved ? 'Preconditioning steady state achieved' : 'Preconditioning Steady State NOT ACHIEVED',
    verdictDetail: `Preconditioning ${ss.text}, steady-state IOPS ${ssIops === null ? 'n/a' : fmtIops(ssIops)}; mean burst IOPS in parentheses: ratio to it. ${segs.length} wait states run (${wsList || 'none'}), each followed by a continuous return to baseline.`,
    pages,
  }
}
