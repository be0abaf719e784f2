/**
 * Report pages of the review tests (specs/reviews/: fob-ss, consistency, consistency-128k,
 * four-corners, transfer-sizes, fill). Not part of the SNIA PTS: every section says so and names
 * the review the test comes from. Pure.
 */
import {blockSizeLabel, formatBytes, formatDecimalVolume, formatDuration, mixLabel} from '../../units.js'
import {multipleLabel} from '../../plan/expand.js'
import {pointTraces} from '../../analysis/traces.js'
import {stepsOf} from '../../analysis/steps.js'
import {fmtMBps, timeAxisInSeconds} from '../format.js'
import {barChart, histogramChart, lineChart, type XYRow} from '../charts/generic.js'
import {phasesOf, type ProgramPageSpec, type ProgramReportInput, type ProgramSection} from '../model.js'
import {fobSsRows, fobSsSweeps, traceStats} from '../../analysis/reviews.js'
import {percentileFromBins} from '../../model/latency.js'
import {reviewSource, testName} from '../../model/tests.js'
import type {ProgramResults, StepResult} from '../../model/results.js'

const ms = (ns: number) => (ns / 1e6).toFixed(3)
const int = (x: number) => Math.round(x).toLocaleString('en-US')
const mixName = (readPct: number) => (readPct === 100 ? 'R' : readPct === 0 ? 'W' : `R/W ${mixLabel(readPct)}`)

/** The sentence every review report carries (summary, first page note). */
export function reviewNotice(test: string): string {
  return `${testName(test)}: a review test, not part of the SNIA PTS. It comes from ${reviewSource(test) ?? 'a drive review'}; its results are not PTS results and have no steady-state verdict.`
}

const steadyNone = {text: 'not applicable (review test)', achieved: true}

/**
 * How the run prepared the drive, as it was done: the purges that ran ("purge (discard)") or why
 * there was none (a file cannot be purged); the review tests' text says "purge" only when one ran.
 */
export function purgeDone(r: ProgramResults): {done: boolean; text: string} {
  const ps = phasesOf(r, 'purge')
  if (ps.length > 0 && ps.every(p => p.status === 'done')) return {done: true, text: `purge (${[...new Set(ps.map(p => p.method))].join(', ')})`}
  const why = ps.find(p => p.status !== 'done')
  return {done: false, text: why ? (why.deviation ?? `no purge: ${why.detail}`) : 'no purge'}
}

/**
 * A sequential fill as written: "the capacity twice" when it wrote the definition's 2x of `ofBytes`
 * (the capacity, or a fill level's share of it), else the multiple and volume fio wrote, e.g.
 * "0.002X the capacity (131072 B; the review writes it twice)" of a run shortened by --time-scale.
 */
export function fillVolumeText(writtenBytes: number, ofBytes: number, of: string): string {
  const m = writtenBytes / Math.max(1, ofBytes)
  if (Math.abs(m - 2) < 0.01) return `${of} twice`
  return `${multipleLabel(m)} ${of} (${formatDecimalVolume(writtenBytes)}; the review writes it twice)`
}

/**
 * Review tests keep fio's per-second logs in every run; when no step ran a whole second, fio logged
 * none and the report has no trace pages: one how-to-read line says so. Null when there are traces.
 */
export function noTraceText(r: ProgramResults): string | null {
  if (!r.parameters.perSecond || pointTraces(r).some(t => t.rows.length > 0)) return null
  const longest = Math.max(0, ...stepsOf(r).map(s => s.step.runtimeSec))
  return `Per-second traces were on, but fio logs a second only when it is complete and no step of this run ran a whole second (the longest ran ${+longest.toFixed(3)} s): the report has no per-second trace pages.`
}

/** The how-to-read lines every review report shares, after the test's own. */
const HOW_TO_READ_COMMON = [
  'No result here is a PTS result, and the run is never SNIA compliant (the header says why on every page): there are no rounds, no measurement window and no steady-state check; each point is measured once.',
  'IOPS: read + write completions per second. MB/s is decimal (10^6 B/s); block sizes are binary (KiB = 1024 B); response times are fio\'s total latency (submission + completion) in ms.',
  'The parameters table lists every constant of the test and its source (the review, or pts\'s choice); the appendix gives the seal of the raw data and how to check it.',
]

function base(input: ProgramReportInput, subtitle: string, pages: ProgramPageSpec[], headline: ProgramSection['headline'], test: ProgramSection['test'], setup: ProgramSection['setup'], howToRead: string[]): ProgramSection {
  const r = input.results
  const notice = reviewNotice(r.test)
  if (pages[0]) pages[0].note = `${notice} ${pages[0].note ?? ''}`.trim()
  return {
    subtitle, setup: [{label: 'Test Kind', value: 'review test, not SNIA PTS'}, ...setup], test, steadyState: steadyNone, headline,
    review: {issuer: ['pts review test', 'not part of the SNIA PTS'], profile: '', headlineHeading: 'Headline results (each point measured once)', howToRead: [...howToRead, ...(noTraceText(r) ? [noTraceText(r)!] : []), ...HOW_TO_READ_COMMON]},
    verdict: r.status === 'complete' ? 'Review test complete (not a SNIA PTS result)' : `Review test ${r.status} (not a SNIA PTS result)`,
    verdictDetail: notice, pages,
  }
}

export function fobSsPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const {fob, ss} = fobSsSweeps(r.phases)
  const rows = fobSsRows(fob, ss)
  const purge = purgeDone(r)
  const fill = phasesOf(r, 'wipc')[0]
  const fillText = fill ? fillVolumeText(fill.writtenBytes, r.parameters.capacityBytes, 'the capacity') : 'the capacity twice (not run)'
  const pages: ProgramPageSpec[] = []
  const mixes = [...new Set(rows.map(x => x.readPct))]
  for (const rp of mixes) {
    const rs = rows.filter(x => x.readPct === rp)
    const name = `RND ${blockSizeLabel(rs[0].blockSizeBytes ?? 4096)} ${mixName(rp)}`
    const data: XYRow[] = rs.flatMap(x => [...(x.fob ? [{x: x.queueDepth, y: x.fob.iops, series: 'FOB'}] : []), ...(x.ss ? [{x: x.queueDepth, y: x.ss.iops, series: 'Steady state'}] : [])])
    pages.push({kind: 'chart', title: `FOB-SS - ${name} - IOPS vs QD`, chart: lineChart(data, {xTitle: 'Queue depth (TC 1)', yTitle: 'IOPS', logX: true, xTicks: rs.map(x => x.queueDepth), series: ['FOB', 'Steady state'], points: true}),
      note: `${name} IOPS at each queue depth: fresh out of the box (${purge.done ? `right after the ${purge.text}` : purge.text}; no preconditioning) and in steady state (after the preconditioning).`})
    pages.push({kind: 'table', title: `FOB-SS - ${name} - Tabular Data`, tables: [{heading: `${name}: FOB and steady state per queue depth`,
      columns: ['QD', 'FOB IOPS', 'FOB mean ms', 'Steady-state IOPS', 'Steady-state mean ms', 'Steady state / FOB'],
      rows: rs.map(x => ({label: String(x.queueDepth), cells: [x.fob ? int(x.fob.iops) : 'n/a', x.fob ? ms(x.fob.latMeanNs) : 'n/a', x.ss ? int(x.ss.iops) : 'n/a', x.ss ? ms(x.ss.latMeanNs) : 'n/a', x.ratio === null ? 'n/a' : `${x.ratio.toFixed(2)}x`]})),
      note: 'Mean response time: fio total latency. Ratio: steady-state IOPS / FOB IOPS at the same workload and queue depth.'}]})
  }
  const pre = phasesOf(r, 'series')[0]
  if (pre) {
    // minutes, as the review's hours of preconditioning; seconds when it lasted under 5 minutes (a shortened run)
    const perMin = !timeAxisInSeconds(pre.samples.length * pre.sampleSeconds)
    pages.push({kind: 'chart', title: 'FOB-SS - Preconditioning - RND 4KiB W IOPS per sample', chart: lineChart(pre.samples.map((s, i) => ({x: (i + 1) * pre.sampleSeconds / (perMin ? 60 : 1), y: s.iops, series: 'RND 4KiB W'})), {xTitle: perMin ? 'Time (min)' : 'Time (s)', yTitle: 'IOPS'}),
      note: `The random-write preconditioning between the two sweeps: ${pre.samples.length} samples of ${formatDuration(pre.sampleSeconds)}.`})
  }
  const w = rows.find(x => x.readPct === 0 && x.queueDepth === 32) ?? rows.find(x => x.readPct === 0)
  const qds = [...new Set(rows.map(x => x.queueDepth))]
  const point = formatDuration(phasesOf(r, 'sweep')[0]?.pointSeconds ?? 0)
  const howTo = [
    `The FOB sweep (RND 4KiB ${mixes.map(mixName).join(', ')}, TC 1, QD ${qds.join(', ')}; each point once for ${point}) ${purge.done ? `right after the ${purge.text}` : `on the target as it was (${purge.text})`}, then preconditioning (SEQ 128KiB W of ${fillText}, then RND 4KiB W${pre ? ` for ${formatDuration(pre.samples.length * pre.sampleSeconds)}` : ''}), then the same sweep again.`,
    '"Steady state" here is the review\'s name for the drive after that preconditioning, not a PTS steady state. Ratio: steady-state IOPS / FOB IOPS at the same point; below 1.00x the drive is slower once written over.',
  ]
  return base(input, 'FOB-SS - RND 4KiB QD sweep, FOB and steady state', pages,
    w ? [{label: `RND 4KiB W QD ${w.queueDepth} FOB`, value: w.fob ? `${int(w.fob.iops)} IOPS` : 'n/a'}, {label: `RND 4KiB W QD ${w.queueDepth} steady state`, value: w.ss ? `${int(w.ss.iops)} IOPS${w.ratio !== null ? ` (${w.ratio.toFixed(2)}x FOB)` : ''}` : 'n/a'}] : [],
    [{label: 'Test Stimulus', value: `RND 4KiB ${mixes.map(mixName).join(', ')}; TC 1, QD ${qds.join(', ')}`}, {label: 'Point Duration', value: `${point} per point, each point once`}],
    [{label: 'Pre Condition', value: `FOB: none; steady state: SEQ 128KiB W ${fill ? multipleLabel(fill.writtenBytes / Math.max(1, r.parameters.capacityBytes)) : '2X'}, then RND 4KiB W`}], howTo)
}

export function consistencyPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const series = phasesOf(r, 'series')
  const mbps = r.test === 'consistency-128k'
  const value = (s: StepResult) => (mbps ? s.writeBwBytesPerSec / 1e6 : s.iops)
  const unit = mbps ? 'MB/s' : 'IOPS'
  const levelOf = (id: string) => /(\d+)$/.exec(id)?.[1] ?? id
  const sec = series[0]?.sampleSeconds ?? 1
  const per = sec === 1 ? 'per second' : `per ${formatDuration(sec)} sample`
  const purge = purgeDone(r)
  const fills = phasesOf(r, 'wipc')
  const traced = pointTraces(r).some(t => t.rows.length > 0)
  const pages: ProgramPageSpec[] = []
  const traces = series.flatMap(p => p.samples.map((s, i) => ({x: (i + 1) * p.sampleSeconds, y: value(s), series: `${levelOf(p.id)} % fill`})))
  pages.push({kind: 'chart', title: `${r.test.toUpperCase()} - ${unit} ${per}`, chart: lineChart(traces, {xTitle: 'Time (s)', yTitle: unit, points: false}),
    note: `Source: fio's own statistics (its JSON output) of each ${formatDuration(sec)} sample, each sample its own fio step; not fio's per-second logs${traced ? ' (the per-second trace pages chart those)' : ''}. ${unit} of every sample, ${purge.done ? `each fill level from its own ${purge.text}` : `each fill level in turn on the same target (${purge.text})`}; the levels side by side on one time axis.`})
  for (const p of series) {
    const lat = p.samples.flatMap((s, i) => [{x: (i + 1) * p.sampleSeconds, y: Math.max(1e-3, s.latMeanNs / 1e6), series: 'mean'}, {x: (i + 1) * p.sampleSeconds, y: Math.max(1e-3, s.latMaxNs / 1e6), series: 'max'}])
    pages.push({kind: 'chart', title: `${r.test.toUpperCase()} - ${levelOf(p.id)} % fill - response time ${per}`, chart: lineChart(lat, {xTitle: 'Time (s)', yTitle: 'Response time (ms)', logY: true, points: false, series: ['mean', 'max']}),
      note: `Source: fio's own statistics (its JSON output) of each ${formatDuration(sec)} sample (its own fio step), not fio's per-second logs. Mean and maximum response time (fio total latency) of every sample: the maximum is the slowest IO of that sample.`})
  }
  const stats = series.map(p => ({p, s: traceStats(p.samples.map(value))}))
  pages.push({kind: 'table', title: `${r.test.toUpperCase()} - Statistics`, tables: [{heading: `${unit} ${per}, each fill level`,
    columns: ['Fill level', 'Samples', 'Min', 'P1', 'Median', 'P99', 'Max', 'Mean', 'CV', 'Floor', 'Floor reached at'],
    rows: stats.map(({p, s}) => ({label: `${levelOf(p.id)} %`, cells: [String(s.samples), ...[s.min, s.p1, s.p50, s.p99, s.max, s.mean].map(x => (mbps ? fmtMBps(x * 1e6) : int(x))), s.cv === null ? 'n/a' : `${(s.cv * 100).toFixed(1)} %`,
      mbps ? fmtMBps(s.floor * 1e6) : int(s.floor), s.floorFrom === null ? 'n/a' : `${+((s.floorFrom + 1) * p.sampleSeconds).toFixed(3)} s`]})),
    note: 'CV: standard deviation / mean. Floor: the mean of the last tenth of the samples. Floor reached at: the first time from which every rolling average (over a twentieth of the samples) stays within 10 % above the floor.'}]})
  const howTo = [
    `Per fill level (${series.map(p => `${levelOf(p.id)} %`).join(', ')} of the capacity): ${purge.done ? purge.text : `no purge (${purge.text.replace(/^no purge: /, '')})`}, ${mbps ? '' : `SEQ 128KiB W of ${fillsText(fills, r.parameters.capacityBytes)}, `}then RND ${mbps ? '128KiB' : '4KiB'} W at TC 1/QD 32 over that share for a fixed time, in samples of ${formatDuration(sec)} (each its own fio step).`,
    'The traces show how far the drive falls once its spare area is used and how evenly it writes after that; the floor (mean of the last tenth) describes the end of the trace, not a PTS steady state.',
  ]
  return base(input, r.test === 'consistency-128k' ? 'CONSISTENCY-128K - RND 128KiB W QD 32 per second' : 'CONSISTENCY - RND 4KiB W QD 32 per second', pages,
    stats.map(({p, s}) => ({label: `${levelOf(p.id)} % fill: mean / floor`, value: `${mbps ? fmtMBps(s.mean * 1e6) : int(s.mean)} / ${mbps ? fmtMBps(s.floor * 1e6) : int(s.floor)} ${unit}`})),
    [{label: 'Test Stimulus', value: `${mbps ? 'RND 128KiB W' : 'RND 4KiB W'}, TC 1/QD 32`}, {label: 'Duration', value: `${series.map(p => `${levelOf(p.id)} %: ${formatDuration(p.samples.length * p.sampleSeconds)}`).join(', ')} in samples of ${formatDuration(sec)}`}],
    [{label: 'Pre Condition', value: `${purge.done ? `${purge.text} per fill level` : 'no purge'}${mbps ? '' : `, then SEQ 128KiB W of ${fillsText(fills, r.parameters.capacityBytes)}`}`}], howTo)
}

/**
 * The sequential fills of the consistency levels as written: "that share twice", or each level's
 * multiple of its share and the volume fio wrote, e.g. "0.0026X (75 %) and 0.002X (100 %) of that
 * share (131072 B each; the review writes it twice)" of a run shortened by --time-scale.
 */
function fillsText(fills: ReadonlyArray<{id: string; writtenBytes: number}>, capacityBytes: number): string {
  if (fills.length === 0) return 'that share twice (not run)'
  const level = (id: string) => Number(/(\d+)$/.exec(id)?.[1] ?? 100)
  if (fills.every(f => fillVolumeText(f.writtenBytes, capacityBytes * level(f.id) / 100, 'that share') === 'that share twice')) return 'that share twice'
  const multiples = fills.map(f => `${multipleLabel(f.writtenBytes / Math.max(1, capacityBytes * level(f.id) / 100))} (${level(f.id)} %)`)
  const volumes = [...new Set(fills.map(f => formatDecimalVolume(f.writtenBytes)))]
  return `${multiples.join(' and ')} of that share (${volumes.length === 1 && fills.length > 1 ? `${volumes[0]} each` : volumes.join(' and ')}; the review writes it twice)`
}

/** A corner as the summary names it: "RND 4KiB W QD 3, 50 % compressible" (the step's access, block size, direction, queue depth and data), not its id. */
export function cornerName(p: StepResult): string {
  const access = p.label.startsWith('SEQ') ? 'SEQ' : 'RND'
  return `${access} ${p.blockSizeBytes === null ? '' : `${blockSizeLabel(p.blockSizeBytes)} `}${p.readPct === 100 ? 'R' : p.readPct === 0 ? 'W' : `R/W ${mixLabel(p.readPct)}`} QD ${p.queueDepth}${/(\d+ % compressible|incompressible) data/.exec(p.label)?.[1].replace(/^/, ', ') ?? ''}`
}

export function fourCornersPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const sweeps = phasesOf(r, 'sweep')
  const corners = sweeps.filter(p => p.id !== 'seeks').flatMap(p => p.points)
  const seeks = sweeps.find(p => p.id === 'seeks')?.points[0]
  const pages: ProgramPageSpec[] = []
  pages.push({kind: 'table', title: 'FOUR-CORNERS - Tabular Data', tables: [{heading: 'Each corner: MB/s, IOPS and mean response time',
    columns: ['Corner', 'MB/s', 'IOPS', 'Mean ms', 'Max ms'], rows: corners.map(p => ({label: p.label, cells: [fmtMBps(p.bwBytesPerSec), int(p.iops), ms(p.latMeanNs), ms(p.latMaxNs)]})),
    note: 'MB/s is decimal (10^6 B/s). Compressible vs incompressible: the same RND 4KiB W at QD 3 with fio buffer compression on and off.'}]})
  const compressible = (p: StepResult) => /\d+ % compressible data/.test(p.label)
  const short = (p: StepResult) => `${p.label.slice(0, 3)} ${p.readPct === 100 ? 'R' : 'W'} QD${p.queueDepth}${compressible(p) ? ' comp.' : ''}`
  pages.push({kind: 'chart', title: 'FOUR-CORNERS - MB/s', chart: barChart(corners.map(p => ({category: short(p), series: 'MB/s', value: p.bwBytesPerSec / 1e6})), {xTitle: 'Corner', yTitle: 'MB/s', labelAngle: -30}),
    note: corners.map(p => `${short(p)}: ${p.label}`).join('; ')})
  if (seeks) {
    const bins = seeks.latBins ?? []
    const pct = (q: number) => percentileFromBins(bins, q)
    pages.push({kind: 'table', title: 'FOUR-CORNERS - Random Seeks', tables: [{heading: `Random seeks: ${seeks.label}, TC 1/QD 1`, columns: ['Statistic', 'Value'],
      rows: [{label: 'Accesses per second', cells: [int(seeks.iops)]}, {label: 'Mean response time', cells: [`${ms(seeks.latMeanNs)} ms`]},
        ...[50, 99, 99.9].map(q => ({label: `P${q}`, cells: [pct(q) ? `${ms(pct(q)!.latNs)} ms` : 'n/a']})), {label: 'Max', cells: [`${ms(seeks.latMaxNs)} ms`]}, {label: 'IOs', cells: [int(seeks.ioCount)]}],
      note: 'Bonnie++-style random seeks: one 4KiB read at a time anywhere on the device; percentiles from fio\'s latency histogram of every IO.'}]})
    pages.push({kind: 'chart', title: 'FOUR-CORNERS - Random Seeks - Response-Time Distribution', chart: histogramChart(bins.map(b => ({latMs: b.latNs / 1e6, count: b.count})), {title: 'Random seeks'}),
      note: 'IOs per response-time bucket (fio total latency).'})
  }
  const clamped = corners.find(p => p.label.includes('clamped'))
  const howTo = [
    'Each corner is one fio step of fixed time on the drive as it is (no purge, no preconditioning): RND 4KiB W and R over an 8 GiB span (the whole target if smaller), SEQ 128KiB R and W over the capacity.',
    `Compressible vs incompressible: the same writes with other data; a gap shows a drive that compresses.${seeks ? ' Random seeks: one 4KiB read at a time anywhere on the device, with percentiles and the distribution.' : ''}`,
  ]
  const comp = corners.map(p => /(\d+ %) compressible data/.exec(p.label)?.[1]).find(x => x !== undefined)
  return {...base(input, 'FOUR-CORNERS - RND 4KiB and SEQ 128KiB, random seeks', pages,
    [...corners.map(p => ({label: cornerName(p), value: `${fmtMBps(p.bwBytesPerSec)} MB/s`})), ...(seeks ? [{label: 'Random seeks', value: `${int(seeks.iops)} per second`}] : [])],
    [{label: 'Test Stimulus', value: 'RND 4KiB QD 3/32, SEQ 128KiB QD 1, seeks QD 1'}, {label: 'Span', value: clamped ? /8 GiB span clamped to [^,]*/.exec(clamped.label)?.[0] ?? 'clamped' : '8 GiB (random corners)'}], [], howTo),
  ...(comp ? {dataPattern: `RND (one RND 4KiB W corner: ${comp} compressible)`} : {})}
}

export function transferSizesPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const pts = phasesOf(r, 'sweep').flatMap(p => p.points)
  const row = (p: StepResult) => ({x: p.blockSizeBytes ?? 0, y: p.bwBytesPerSec / 1e6, series: p.readPct === 100 ? 'SEQ R' : 'SEQ W'})
  const sizes = [...new Set(pts.map(p => p.blockSizeBytes ?? 0))]
  const pages: ProgramPageSpec[] = [
    {kind: 'chart', title: 'TRANSFER-SIZES - MB/s vs block size', chart: lineChart(pts.map(row), {xTitle: 'Block size', yTitle: 'MB/s', logX: true, xTicks: sizes, xBlockSizes: true, series: ['SEQ W', 'SEQ R'], points: true}), note: 'Sequential MB/s at each transfer size (decimal MB/s; block sizes binary).'},
    {kind: 'table', title: 'TRANSFER-SIZES - Tabular Data', tables: [{heading: 'MB/s per block size', columns: ['Block size', 'Write MB/s', 'Read MB/s'],
      rows: sizes.map(bs => ({label: blockSizeLabel(bs), cells: [0, 100].map(rp => { const p = pts.find(q => q.blockSizeBytes === bs && q.readPct === rp); return p ? fmtMBps(p.bwBytesPerSec) : 'n/a' })})), note: ''}]},
  ]
  const best = (rp: number) => pts.filter(p => p.readPct === rp).sort((a, b) => b.bwBytesPerSec - a.bwBytesPerSec)[0]
  const q = pts[0]
  const howTo = [
    `At each of ${sizes.length} block sizes: SEQ W, then SEQ R, from LBA 0 at ${q ? `TC ${q.threadCount}/QD ${q.queueDepth}` : 'one queue depth'}, each one fio step of ${formatDuration(phasesOf(r, 'sweep')[0]?.pointSeconds ?? 0)}, on the drive as it is (no purge, no preconditioning); the chart shows where MB/s reaches the drive's sequential limit.`,
  ]
  return base(input, 'TRANSFER-SIZES - SEQ R/W, 0.5KiB to 64MiB', pages,
    [0, 100].flatMap(rp => (best(rp) ? [{label: `Best SEQ ${rp === 0 ? 'write' : 'read'}`, value: `${fmtMBps(best(rp).bwBytesPerSec)} MB/s at ${blockSizeLabel(best(rp).blockSizeBytes ?? 0)}`}] : [])),
    [{label: 'Test Stimulus', value: `SEQ W and R, ${sizes.length} block sizes`}, {label: 'TC/QD', value: q ? `TC ${q.threadCount} / QD ${q.queueDepth}` : 'n/a'}], [], howTo)
}

export function fillPages(input: ProgramReportInput): ProgramSection {
  const r = input.results
  const fill = phasesOf(r, 'fill')[0]
  const steps = fill?.steps ?? []
  const cap = Math.max(1, r.parameters.activeRangeBytes)
  const rows = steps.map(s => ({x: (s.offsetBytes + s.sizeBytes) / cap * 100, y: s.writeBwBytesPerSec / 1e6, series: `pass ${s.pass}`}))
  const stats = traceStats(steps.map(s => s.writeBwBytesPerSec / 1e6))
  const slowest = steps.reduce<(typeof steps)[number] | null>((a, s) => (!a || s.writeBwBytesPerSec < a.writeBwBytesPerSec ? s : a), null)
  const pages: ProgramPageSpec[] = [
    {kind: 'chart', title: 'FILL - MB/s vs % of capacity written', chart: lineChart(rows, {xTitle: '% of the capacity written', yTitle: 'MB/s (SEQ write)', points: rows.length <= 200}),
      note: `Each point is one piece of ${steps[0] ? formatBytes(steps[0].sizeBytes) : 'n/a'} written sequentially in LBA order (its own fio step); a drop shows where a write cache ran out or a slow region begins.`},
    {kind: 'table', title: 'FILL - Statistics', tables: [{heading: 'SEQ write MB/s of the pieces', columns: ['Statistic', 'Value'],
      rows: [{label: 'Pieces', cells: [String(steps.length)]}, {label: 'Min', cells: [stats.min.toFixed(1)]}, {label: 'Mean', cells: [stats.mean.toFixed(1)]}, {label: 'Max', cells: [stats.max.toFixed(1)]},
        {label: 'Slowest piece at', cells: [slowest ? `${((slowest.offsetBytes) / cap * 100).toFixed(1)} % of the capacity (pass ${slowest.pass})` : 'n/a']}], note: ''}]},
  ]
  const passes = fill?.passes ?? 0
  const pieces = passes > 0 ? steps.length / passes : steps.length
  const howTo = [
    `The whole capacity is written sequentially in LBA order, ${passes === 1 ? 'once' : `${passes} times`}, in ${Math.round(pieces)} pieces${steps[0] ? ` of about ${formatBytes(steps[0].sizeBytes)}` : ''} (each its own fio step of exactly its bytes), on the drive as it is; each piece's MB/s is plotted at its position: a drop shows where a write cache ran out or a slower region begins.`,
  ]
  return base(input, 'FILL - SEQ W over the whole capacity, MB/s by position', pages,
    [{label: 'Mean SEQ write', value: `${stats.mean.toFixed(1)} MB/s`}, {label: 'Min / max', value: `${stats.min.toFixed(1)} / ${stats.max.toFixed(1)} MB/s`}],
    [{label: 'Test Stimulus', value: steps[0] ? `${steps[0].label}, QD ${steps[0].queueDepth}` : 'n/a'}, {label: 'Passes', value: String(passes)}], [], howTo)
}
