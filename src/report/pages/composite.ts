/**
 * CBW (PTS 2.0.2), ECW (PTS-E 1.1) and DIRTH report pages (digest B §5.7-5.8, §6.2): P1-P14 plus
 * "IOPS and ART vs Total OIO" and the demand-variation tabular data. Pure: built from results.json.
 *
 * P1/P2 preconditioning loop (TC 32/QD 32, IOPS tracked) and its steady-state check; P3 the
 * between-round pre-writes; P4/P5 the demand-variation (DV) loop at the tracked TC and its check;
 * P6 Demand Variation (IOPS vs QD, one line per TC); P7 Demand Intensity (ART vs IOPS, one line per
 * TC, operating points and the response-time ceiling marked); P8 CPU utilisation (not recorded by
 * pts, said so); P9-P14 pre-write and response-time histogram of the Max, Mid and Min IOPS points.
 * TC = threads (fio numjobs), QD = outstanding IOs per thread (fio iodepth); never swapped
 * (digest Part A 6, B §8 item 12). The tracked TC/QD and the matrix come from the stored points,
 * never from literals here.
 */
import {blockSizeLabel, mixLabel} from '../../units.js'
import type {LoopWindowAverage, OperatingPoint, PhaseResult, StepResult} from '../../model/results.js'
import {fixed, fmtIops, fmtMBps, fmtMs} from '../format.js'
import {wipcWrittenText, type TableData} from '../page-kit.js'
import {closeupChart, demandIntensityChart, dualAxisChart, histogramChart, lineChart, type XYRow} from '../charts/generic.js'
import {testTitle} from '../../model/tests.js'
import {CAPPED_NOTE, cappedAtMax} from '../../model/latency.js'
import {loopSteadyText, phasesOf, loopDetermination, windowBand, type ProgramPageSpec, type ProgramReportInput, type ProgramSection} from '../model.js'

type Loop = Extract<PhaseResult, {kind: 'loop'}>
type OpPhase = Extract<PhaseResult, {kind: 'operating-points'}>

const ROLES: Array<{role: OperatingPoint['role']; name: string}> = [
  {role: 'max', name: 'Max IOPS'},
  {role: 'mid', name: 'Mid IOPS'},
  {role: 'min', name: 'Min IOPS'},
]

const tcqd = (x: {threadCount: number; queueDepth: number}) => `TC ${x.threadCount}/QD ${x.queueDepth}`
const uniq = (xs: number[]) => [...new Set(xs)]
const asc = (xs: number[]) => uniq(xs).sort((a, b) => a - b)
const desc = (xs: number[]) => uniq(xs).sort((a, b) => b - a)

/** "OLTP: RND 8KiB R/W 65/35" from "OLTP: RND 8KiB R/W 65/35 (default)". */
export function patternLabel(workloadLabel: string | null): string | null {
  if (!workloadLabel) return null
  return workloadLabel.replace(/\s*\((default|operator choice)\)\s*$/i, '').trim()
}



/** The stimulus of a step without its TC/QD: "RND 8KiB R/W 65/35", "CBW mix R/W 40/60". */
function stimulusOf(s: {readPct: number; blockSizeBytes: number | null}, mixName: string): string {
  return `${s.blockSizeBytes === null ? `${mixName} mix` : `RND ${blockSizeLabel(s.blockSizeBytes)}`} R/W ${mixLabel(s.readPct)}`
}

function stepRow(name: string, s: StepResult, mixName: string): {label: string; cells: string[]} {
  return {label: name, cells: [stimulusOf(s, mixName), tcqd(s), fixed(s.runtimeSec, 2), fmtIops(s.iops), fmtMBps(s.bwBytesPerSec), fmtMs(s.latMeanNs), fmtMs(s.latMaxNs)]}
}
const STEP_COLUMNS = ['Step', 'Stimulus', 'TC/QD', 'Runtime (s)', 'IOPS', 'MB/s', 'ART (ms)', 'MRT (ms)']

const band = windowBand
const doneRounds = (l: Loop) => l.rounds.filter(x => x.finishedAt !== null)

function noData(title: string, why: string): ProgramPageSpec {
  return {kind: 'table', title, tables: [{heading: 'No data', columns: ['Item', 'Status'], rows: [{label: title.split(' - ').at(-1)!, cells: ['not available']}], note: ''}], note: why}
}

/**
 * What a response-time histogram counts: total latency (fio lat_ns bins; the basis of the ART, MRT and 5 9s on the same
 * page) or, for runs stored by older versions, completion latency (fio clat_ns bins).
 */
export function histogramBasisNote(basis: 'lat' | undefined, n: number, ioCount: number): string {
  const what = basis === 'lat'
    ? "The histogram is fio's json+ total-latency (lat) bins, i.e. response time = submission + completion, the same basis as the ART, MRT and 5 9s above"
    : "The histogram is fio's json+ completion-latency (clat) bins, as stored by the pts version that ran this test: completion latency leaves out the submission time that the ART, MRT and 5 9s above include, so the histogram can sit slightly left of them"
  return `${what}; it counts every completed IO, reads and writes, ${fixed(n, 0)} in all (fio's IO count of the run: ${fixed(ioCount, 0)}); each bar is one of fio's latency buckets, at fio's bucket value in ms.`
}

/** Histogram IO count (fio json+ bins: every completed IO of the measured run, reads and writes). */
export function histogramIoCount(h: OperatingPoint['histogram']): number {
  return (h ?? []).reduce((a, b) => a + b.count, 0)
}

export function compositePages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const p = r.parameters
  const testName = testTitle(r.test)
  const pattern = patternLabel(p.workloadLabel)
  const prefix = r.test === 'dirth' && pattern ? `DIRTH - ${pattern} - ` : `${testName} - `
  const mixName = testName
  const loops = phasesOf(r, 'loop')
  const pc: Loop | undefined = loops.find(l => l.id === 'precondition') ?? loops[0]
  const dv: Loop | undefined = loops.find(l => l.id === 'dv') ?? loops.find(l => l !== pc)
  const op: OpPhase | undefined = phasesOf(r, 'operating-points')[0]
  const wipc = phasesOf(r, 'wipc')[0]
  const ceilingMs = op?.ceilingMs ?? p.ceilingMs
  const pages: ProgramPageSpec[] = []

  // What the loops run (from their stored points).
  const pcIdx = pc?.tracking[0]?.pointIndex ?? 0
  const pcPoint = pc ? doneRounds(pc)[0]?.points[pcIdx] ?? pc.rounds[0]?.points[pcIdx] : undefined
  const dvPoints = dv ? (doneRounds(dv)[0] ?? dv.rounds[0])?.points ?? [] : []
  const dvStim = dvPoints[0] ?? dv?.windowAverages[0]
  const stimulus = dvStim ? stimulusOf(dvStim, mixName) : (pattern ?? `${mixName} mix`)
  const pcStimulus = pcPoint ? stimulusOf(pcPoint, mixName) : 'n/a'
  const trackIdx = dv?.tracking[0]?.pointIndex
  const trackPoint = trackIdx !== undefined ? dvPoints[trackIdx] : dvPoints[0]
  const trackTc = trackPoint?.threadCount ?? Math.max(0, ...dvPoints.map(x => x.threadCount))
  const trackLabel = trackPoint ? tcqd(trackPoint) : 'n/a'
  const wa: LoopWindowAverage[] = dv?.windowAverages ?? []
  const tcs = desc([...dvPoints.map(x => x.threadCount), ...wa.map(w => w.threadCount)])
  const qds = asc([...dvPoints.map(x => x.queueDepth), ...wa.map(w => w.queueDepth)])
  const pcSs = pc ? loopSteadyText(pc) : {text: 'n/a (no preconditioning loop)', achieved: false}
  const dvSs = dv ? loopSteadyText(dv) : {text: 'n/a (no demand-variation loop)', achieved: false}

  // P1 PC IOPS vs Round
  const t1 = `${prefix}PC IOPS vs Round`
  if (pc && doneRounds(pc).length > 0) {
    const rows: XYRow[] = doneRounds(pc).map(x => ({x: x.round, y: x.points[pcIdx]?.iops ?? 0, series: `IOPS (${pcPoint ? tcqd(pcPoint) : 'n/a'})`}))
    pages.push({kind: 'chart', title: t1, chart: lineChart(rows, {xTitle: 'Round', yTitle: 'IOPS', xTicks: rows.map(x => x.x), band: band(pc), yFormat: ',.0f'}),
      note: `Preconditioning (Pre Condition 2): ${pcStimulus} at ${pcPoint ? tcqd(pcPoint) : 'n/a'}, one ${pcPoint ? fixed(pcPoint.runtimeSec, 2) : 'n/a'} s point per round, IOPS tracked; shaded: measurement window ${pcSs.text}.`})
  } else pages.push(noData(t1, 'The preconditioning loop has no complete round.'))

  // P2 PC steady-state check
  const t2 = `${prefix}PC Steady State Check - ${pcPoint ? tcqd(pcPoint) : 'n/a'}`
  const pcVar = pc?.steadyState.variables[0]
  if (pcVar) {
    const d = loopDetermination(pc!, pcVar, `${pcStimulus} ${pcPoint ? tcqd(pcPoint) : ''}`.trim(), 'IOPS', 1, 0)
    pages.push({kind: 'closeup', title: t2, chart: closeupChart(d, 'IOPS'), determination: d})
  } else pages.push(noData(t2, `No steady-state determination: the preconditioning loop has fewer complete rounds than the 5-round window (${pcSs.text}).`))

  // P3 between-round pre-writes
  const t3 = `${prefix}Between-Round Pre-Writes - IOPS vs Round`
  const pre = dv ? dv.rounds.filter(x => x.preRound).map(x => ({round: x.round, s: x.preRound!})) : []
  if (pre.length > 0) {
    const s0 = pre[0].s
    pages.push({kind: 'chart', title: t3, chart: lineChart(pre.map(x => ({x: x.round, y: x.s.iops, series: 'Pre-write IOPS'})), {xTitle: 'DV round (pre-write before the round)', yTitle: `IOPS (pre-write, ${tcqd(s0)})`, xTicks: pre.map(x => x.round), yFormat: ',.0f'}),
      note: `Each demand-variation round starts with one pre-write step (${stimulusOf(s0, mixName)}, ${tcqd(s0)}, ${fixed(s0.runtimeSec, 2)} s measured); its IOPS per round. Mean ${fmtIops(pre.reduce((a, x) => a + x.s.iops, 0) / pre.length)} IOPS over ${pre.length} pre-writes.`})
  } else pages.push(noData(t3, 'No between-round pre-write was stored.'))

  // P4 DV IOPS vs Round at the tracked TC, all QD
  const t4 = `${prefix}DV IOPS vs Round - TC = ${trackTc}, all QD`
  if (dv && doneRounds(dv).length > 0) {
    const series = desc(qds).map(q => `QD ${q}`)
    const rows: XYRow[] = doneRounds(dv).flatMap(x => x.points.filter(q => q.threadCount === trackTc).map(q => ({x: x.round, y: q.iops, series: `QD ${q.queueDepth}`})))
    pages.push({kind: 'chart', title: t4, chart: lineChart(rows, {xTitle: 'Round', yTitle: `IOPS (TC ${trackTc})`, series, xTicks: doneRounds(dv).map(x => x.round), band: band(dv), yFormat: ',.0f'}),
      note: `Demand variation: ${stimulus}; IOPS of the TC ${trackTc} points per round, one line per QD; the tracking variable is ${trackLabel}. Shaded: measurement window ${dvSs.text}.`})
  } else pages.push(noData(t4, 'The demand-variation loop has no complete round.'))

  // P5 DV steady-state check
  const t5 = `${prefix}DV Steady State Check - ${trackLabel}`
  const dvVar = dv?.steadyState.variables[0]
  if (dvVar) {
    const d = loopDetermination(dv!, dvVar, `${stimulus} ${trackLabel}`, 'IOPS', 1, 0)
    pages.push({kind: 'closeup', title: t5, chart: closeupChart(d, 'IOPS'), determination: d})
  } else pages.push(noData(t5, `No steady-state determination: the demand-variation loop has fewer complete rounds than the 5-round window (${dvSs.text}).`))

  // P6 Demand Variation: IOPS vs QD, series = TC
  const t6 = `${prefix}Demand Variation - IOPS vs QD`
  const tcSeries = tcs.map(t => `TC ${t}`)
  if (wa.length > 0) {
    pages.push({kind: 'chart', title: t6, chart: lineChart(wa.map(w => ({x: w.queueDepth, y: w.iops, series: `TC ${w.threadCount}`})), {xTitle: 'QD (outstanding IOs per thread, log scale)', yTitle: 'IOPS', series: tcSeries, logX: true, xTicks: qds, points: true, yFormat: ',.0f'}),
      note: `Window-average IOPS (${dvSs.text}) of each of the ${wa.length} demand-variation points, ${stimulus}; one line per thread count (TC = fio numjobs, QD = fio iodepth).`})
  } else pages.push(noData(t6, 'No demand-variation window averages (the loop did not finish).'))

  // P7 Demand Intensity: ART vs IOPS, series = TC
  const t7 = `${prefix}Demand Intensity - ART vs IOPS`
  const ops = op?.points ?? []
  const roleName = (role: OperatingPoint['role']) => ROLES.find(x => x.role === role)?.name ?? role
  if (wa.length > 0) {
    const marks = ops.map(o => ({iops: o.iops, artMs: o.latMeanNs / 1e6, label: `${roleName(o.role)} (${tcqd(o)})`}))
    pages.push({kind: 'chart', title: t7, chart: demandIntensityChart(wa.map(w => ({iops: w.iops, artMs: w.latMeanNs / 1e6, series: `TC ${w.threadCount}`, order: w.queueDepth})), {series: tcSeries, marks, ceilingMs}),
      note: `Window-average IOPS and mean response time (ART) of each point; each TC line runs through QD ${qds.join(', ')}. Circled: the operating points (${marks.map(m => m.label).join('; ') || 'none'}); dashed: the response-time ceiling ${ceilingMs ?? 'n/a'} ms for Max IOPS.`})
  } else pages.push(noData(t7, 'No demand-variation window averages (the loop did not finish).'))

  // P8 CPU utilisation: not recorded
  const t8 = `${prefix}System CPU Utilisation by TC x QD`
  const exampleRaw = dvPoints[0]?.raw.json
  pages.push({kind: 'table', title: t8, tables: [{heading: 'System CPU utilisation (3D by TC x QD)', columns: ['Item', 'Status'], rows: [
    {label: 'CPU utilisation per TC x QD point', cells: ['not recorded by pts']},
    {label: 'Where the data is', cells: ["fio's usr/sys CPU per job is in each raw JSON"]},
    {label: 'Example raw JSON (first DV point)', cells: [exampleRaw ?? 'n/a']},
  ], note: 'pts builds this report from results.json only and does not record host CPU utilisation, so the 3D CPU plot of the SNIA template is not drawn. fio reports usr_cpu and sys_cpu (percent) for every job in its JSON output; those files are under raw/, sealed with their SHA-256 in manifest.json (see the appendix).'}]})

  // P9-P14 per operating point: pre-write, histogram
  for (const {role, name} of ROLES) {
    const o = ops.find(x => x.role === role)
    const at = o ? ` (${tcqd(o)})` : ''
    const tPre = `${prefix}${name}${at} - Pre-Write`
    const samples = o?.prewriteSamples ?? []
    if (o && samples.length > 0) {
      // The pre-write as back-to-back samples (e.g. 60 x 1 min): IOPS over time, to show whether it settled.
      const s0 = samples[0]
      const t0 = BigInt(s0.startNs)
      const rows: XYRow[] = samples.map(s => ({x: Number(BigInt(s.endNs) - t0) / 60e9, y: s.iops, series: 'Pre-write IOPS'}))
      const iops = samples.map(s => s.iops)
      const meanIops = iops.reduce((a, x) => a + x, 0) / iops.length
      const lastN = samples.slice(-Math.max(1, Math.round(samples.length / 6)))
      const sampleSec = samples.reduce((a, s) => a + s.runtimeSec, 0) / samples.length
      pages.push({kind: 'chart', title: `${tPre} - IOPS vs Time`, chart: lineChart(rows, {xTitle: 'Time (minutes from the start of the pre-write)', yTitle: `IOPS (pre-write, ${tcqd(s0)})`, yFormat: ',.0f'}),
        note: `The ${name} pre-write (${stimulusOf(s0, mixName)}, ${tcqd(s0)}) as ${samples.length} back-to-back samples of ${fixed(sampleSec, 2)} s each, every point one sample placed at its end: mean ${fmtIops(meanIops)} IOPS, min ${fmtIops(Math.min(...iops))}, max ${fmtIops(Math.max(...iops))}; mean of the last ${lastN.length} samples ${fmtIops(lastN.reduce((a, s) => a + s.iops, 0) / lastN.length)} IOPS. ` +
          `pts runs the pre-write as samples so that the report shows whether it settled before the histogram run (raw: ${s0.raw.json} and the ${samples.length - 1} that follow).`})
      pages.push({kind: 'tables', title: tPre, tables: [
        {heading: `Pre-write before the ${name} histogram run (${samples.length} samples)`, columns: STEP_COLUMNS, rows: [
          stepRow('First sample', s0, mixName), stepRow('Last sample', samples.at(-1)!, mixName),
        ], note: `Started ${s0.startedAt}; every sample is in report.csv.`},
        opTable(o, name, ceilingMs),
      ]})
    } else if (o?.prewrite) {
      const s = o.prewrite
      pages.push({kind: 'tables', title: tPre, tables: [
        {heading: `Pre-write before the ${name} histogram run (one fio step)`, columns: STEP_COLUMNS, rows: [stepRow('Pre-write', s, mixName)], note: `Started ${s.startedAt}; raw ${s.raw.json}.`},
        opTable(o, name, ceilingMs),
      ]})
    } else pages.push({kind: 'tables', title: tPre, tables: [
      {heading: `Pre-write before the ${name} histogram run`, columns: ['Step', 'Status'], rows: [{label: 'Pre-write', cells: ['not run (operating-points phase incomplete)']}], note: ''},
      ...(o ? [opTable(o, name, ceilingMs)] : []),
    ]})

    const m = o?.measure
    const mrt = m ? `MRT ${fmtMs(m.latMaxNs)} ms` : 'MRT n/a'
    // fio's 5 9s is a bucket value and can exceed the measured maximum: shown capped, and said so
    const p5c = m ? cappedAtMax(m.latP99999Ns, m.latMaxNs) : {ns: null, capped: false}
    const p5 = m ? `5 9s ${p5c.ns === null ? 'n/a' : `${p5c.capped ? '≤ ' : ''}${fmtMs(p5c.ns)} ms`}` : '5 9s n/a'
    const tH = `${prefix}${name}${at} - Response Time Histogram - ${mrt}, ${p5}`
    if (o && m && o.histogram && o.histogram.length > 0) {
      const n = histogramIoCount(o.histogram)
      pages.push({kind: 'chart', title: tH, chart: histogramChart(o.histogram.map(b => ({latMs: b.latNs / 1e6, count: b.count})), {title: `${name}, ${tcqd(o)}`}),
        note: `${name}: ${tcqd(o)}, chosen because: ${o.reason}. Measured run: ${stimulus}, ${fixed(m.runtimeSec, 2)} s, ${fmtIops(m.iops)} IOPS, ART ${fmtMs(m.latMeanNs)} ms, ${mrt} (maximum total latency), ${p5} over ${fixed(m.latPercentileSamples, 0)} IOs. `
          + histogramBasisNote(o.histogramBasis, n, m.ioCount) + (p5c.capped ? ` 5 9s: ${CAPPED_NOTE}` : '')})
    } else pages.push(noData(tH, o ? `No histogram was stored for the ${name} point (${o.reason}).` : `No ${name} operating point (the operating-points phase did not run).`))
  }

  // Extra: IOPS and ART vs Total OIO
  const tOio = `${prefix}IOPS and ART vs Total OIO`
  if (wa.length > 0) {
    const oio = asc(wa.map(w => w.threadCount * w.queueDepth))
    const ticks = oio.filter(v => [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024].includes(v) || v === oio.at(-1))
    pages.push({kind: 'chart', title: tOio, chart: dualAxisChart(wa.map(w => ({x: w.threadCount * w.queueDepth, left: w.iops, right: w.latMeanNs / 1e6})), {xTitle: 'Total OIO = TC x QD (log scale)', leftTitle: 'IOPS', rightTitle: 'ART (ms, log scale)', logX: true, xTicks: ticks, rightLog: true}),
      note: `Window-average IOPS (circles, left axis) and mean response time (squares, right axis) of all ${wa.length} demand-variation points against total outstanding IOs; several TC x QD pairs share one total OIO.`})
  } else pages.push(noData(tOio, 'No demand-variation window averages (the loop did not finish).'))

  // Extra: the window averages as tables (TC rows x QD columns)
  const tTab = `${prefix}Demand Variation - Tabular Data`
  if (wa.length > 0) {
    const cell = (tc: number, qd: number, f: (w: LoopWindowAverage) => string) => { const w = wa.find(x => x.threadCount === tc && x.queueDepth === qd); return w ? f(w) : '-' }
    const grid = (heading: string, f: (w: LoopWindowAverage) => string, note: string): TableData & {heading: string} => ({
      heading, columns: ['TC \\ QD', ...qds.map(q => `QD ${q}`)], rows: tcs.map(tc => ({label: `TC ${tc}`, cells: qds.map(q => cell(tc, q, f))})), note,
    })
    pages.push({kind: 'tables', title: tTab, tables: [
      grid('IOPS (window average)', w => fmtIops(w.iops), ''),
      grid('Mean response time ART, ms (window average)', w => fmtMs(w.latMeanNs), ''),
      grid('Maximum response time MRT, ms (maximum over the window)', w => fmtMs(w.latMaxNs), `${stimulus}; measurement window ${dvSs.text}. TC = threads (fio numjobs), QD = outstanding IOs per thread (fio iodepth).`),
    ]})
  } else pages.push(noData(tTab, 'No demand-variation window averages (the loop did not finish).'))

  // Header, headline, verdict
  const achieved = pcSs.achieved && dvSs.achieved
  const wipcX = wipc ? wipcWrittenText([wipc], p) : 'not run'
  const preRoundStep = pre[0]?.s
  const stimText = r.test === 'dirth' ? pattern ?? stimulus : `${stimulus} (block-size mix and LBA zones: see the parameters page)`
  const ssText = `PC: ${pcSs.text}; DV: ${dvSs.text}`
  // Max/Mid/Min as chosen (DV window averages), then the MRT of each histogram run.
  const headline = ROLES.map(({role, name}) => {
    const o = ops.find(x => x.role === role)
    return {label: name, value: o ? `${fmtIops(o.iops)} IOPS at ${tcqd(o)}, ART ${fmtMs(o.latMeanNs)} ms` : 'n/a'}
  })
  const mrts = ROLES.map(({role}) => ops.find(x => x.role === role)?.measure)
  headline.push({label: 'MRT Max/Mid/Min', value: mrts.some(Boolean) ? `${mrts.map(m => (m ? fmtMs(m.latMaxNs) : 'n/a')).join(' / ')} ms (histogram runs)` : 'n/a'})
  headline.push({label: 'Ceiling', value: ceilingMs === null ? 'n/a' : `${ceilingMs} ms mean response time`})
  return {
    subtitle: r.test === 'dirth' ? `DIRTH - ${pattern ?? 'Demand Intensity / Response Time Histogram'}` : `${testName} - ${r.test === 'ecw' ? 'Enterprise Composite Workload' : 'Composite Block Size Workload'}`,
    setup: [
      {label: 'Pre Condition 1', value: `WIPC SEQ ${wipc ? blockSizeLabel(wipc.blockSizeBytes) : 'n/a'} W ${wipcX}`},
      {label: 'TOIO - TC/QD', value: `TC ${p.threadCount} / QD ${p.queueDepth}`},
      {label: 'Pre Condition 2', value: `${pcStimulus} loop, ${pcPoint ? tcqd(pcPoint) : 'n/a'}`},
      {label: 'SS Rounds', value: pcSs.text},
    ],
    test: [
      {label: 'Test Stimulus', value: stimText},
      {label: 'DV Loop', value: tcs.length > 0 ? `TC ${tcs[0]}..${tcs.at(-1)} x QD ${qds.at(-1)}..${qds[0]} (TC = threads, QD = outstanding IOs per thread)` : 'n/a'},
      {label: 'Pre-write per Round', value: preRoundStep ? `R/W ${mixLabel(preRoundStep.readPct)} ${tcqd(preRoundStep)}, ${fixed(preRoundStep.runtimeSec, 2)} s` : 'n/a'},
      {label: 'Ceiling', value: ceilingMs === null ? 'n/a' : `${ceilingMs} ms (Max IOPS)`},
      {label: 'Point Duration', value: `${p.pointSeconds} s; max ${p.maxRounds} round${p.maxRounds === 1 ? '' : 's'}`},
    ],
    steadyState: {text: ssText, achieved},
    headline,
    verdict: achieved ? 'Steady state achieved (preconditioning and demand variation)' : 'Steady State NOT ACHIEVED',
    verdictDetail: `${ssText}. Operating points (chosen from the DV window averages): ${ops.map(o => `${roleName(o.role)} ${tcqd(o)}`).join(', ') || 'none'}.`,
    pages,
  }
}

function opTable(o: OperatingPoint, name: string, ceilingMs: number | null): TableData & {heading: string} {
  const m = o.measure
  return {
    heading: `${name} operating point`,
    columns: ['Item', 'Value'],
    rows: [
      {label: 'TC / QD (total OIO)', cells: [`${tcqd(o)} (${o.threadCount * o.queueDepth})`]},
      {label: 'Why chosen', cells: [o.reason]},
      {label: 'DV window-average IOPS', cells: [fmtIops(o.iops)]},
      {label: 'DV window-average ART (ms)', cells: [fmtMs(o.latMeanNs)]},
      {label: 'Response-time ceiling (ms)', cells: [ceilingMs === null ? 'n/a' : String(ceilingMs)]},
      {label: 'Histogram run IOPS', cells: [m ? fmtIops(m.iops) : 'n/a']},
      {label: 'Histogram run ART / MRT (ms)', cells: [m ? `${fmtMs(m.latMeanNs)} / ${fmtMs(m.latMaxNs)}` : 'n/a']},
      {label: 'Histogram run 5 9s (ms, IOs)', cells: [m ? (() => { const c = cappedAtMax(m.latP99999Ns, m.latMaxNs); return `${c.ns === null ? 'n/a' : `${c.capped ? '≤ ' : ''}${fmtMs(c.ns)}`} (${fixed(m.latPercentileSamples, 0)} IOs)${c.capped ? '; fio\'s bucket value is above the maximum, so the maximum is shown' : ''}` })() : 'n/a']},
      {label: `Histogram IOs (${o.histogramBasis === 'lat' ? 'total-latency' : 'completion-latency'} bins) / fio IO count`, cells: [m ? `${fixed(histogramIoCount(o.histogram), 0)} / ${fixed(m.ioCount, 0)}` : 'n/a']},
    ],
    note: '',
  }
}
