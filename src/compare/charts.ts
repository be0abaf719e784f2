/**
 * Vega-Lite specs of the comparison report, keyed by the chart ids its pages refer to. Pure.
 * - convergence-<id>: one tracking variable, one line per run (x = round, y = IOPS); filled
 *   markers and a dashed segment at the window average mark each run's measurement window.
 * - trace-<phase id>: a series phase (WSAT, XSR access group, HIR baseline), IOPS of every sample,
 *   one line per run (x = minutes since the phase start, WSAT: TGBW); downsampled per run.
 * - bursts-<phase id>: a HIR wait state, IOPS of each burst by burst index, one line per run
 *   (markers only for up to 60 bursts; downsampled per run).
 * - variation-cv: the coefficient of variation per point as a labelled heat map (block size x
 *   R/W mix, table order of digest B §6.3).
 */
import type {TopLevelSpec} from 'vega-lite'
import {blockSizeLabel, mixLabel} from '../units.js'
import {CHART_CONFIG, CHART_HEIGHT, CHART_WIDTH, SERIES_COLORS, SHAPES, VL_SCHEMA} from '../report/charts/common.js'
import {downsampleGroups} from '../report/charts/downsample.js'
import type {CompareModel, ConvergenceData} from './model.js'
import type {BurstsPhaseCompare, LoopPhaseCompare, SeriesPhaseCompare} from './phases.js'

const color = (i: number) => SERIES_COLORS[i % SERIES_COLORS.length]
const shape = (i: number) => SHAPES[i % SHAPES.length]

export function convergenceSpec(model: CompareModel, c: ConvergenceData): TopLevelSpec {
  const names = model.runs.map(r => `${r.key}: ${r.label}`)
  const colorScale = {domain: names, range: names.map((_, i) => color(i))}
  const shapeScale = {domain: names, range: names.map((_, i) => shape(i))}
  const maxRound = Math.max(1, ...c.rounds)
  const roundAxis = c.rounds.length <= 30 ? {values: c.rounds, format: 'd'} : {tickMinStep: 1, format: 'd'}
  const x = {field: 'round', type: 'quantitative' as const, title: 'Round', scale: {domain: [0.5, maxRound + 0.5], nice: false}, axis: roundAxis}
  const y = {field: 'iops', type: 'quantitative' as const, title: `IOPS (${c.label})`, scale: {zero: false}, axis: {format: ',.0f', tickCount: 6}}
  const points = downsampleGroups(c.points, p => p.run, p => p.iops)
  return {
    $schema: VL_SCHEMA,
    width: CHART_WIDTH,
    height: CHART_HEIGHT + 90,
    config: {...CHART_CONFIG, legend: {...CHART_CONFIG.legend, orient: 'bottom', direction: 'vertical', labelLimit: 640, columns: 1}},
    layer: [
      {
        data: {values: points},
        mark: {type: 'line', strokeWidth: 1.6},
        encoding: {x, y, color: {field: 'run', type: 'nominal', title: 'Run', scale: colorScale, sort: names}},
      },
      // Markers: filled inside the run's measurement window, hollow outside it.
      ...[true, false].map(inWindow => ({
        data: {values: points},
        transform: [{filter: inWindow ? 'datum.inWindow' : '!datum.inWindow'}],
        mark: {type: 'point' as const, size: 70, strokeWidth: 1.6, filled: inWindow, opacity: 1},
        encoding: {
          x, y,
          color: {field: 'run', type: 'nominal' as const, title: 'Run', scale: colorScale, sort: names},
          shape: {field: 'run', type: 'nominal' as const, title: 'Run', scale: shapeScale, sort: names},
        },
      })),
      {
        data: {values: c.windows.map(w => ({run: w.run, from: w.from - 0.25, to: w.to + 0.25, iops: w.average}))},
        mark: {type: 'rule', strokeDash: [6, 3], strokeWidth: 2.2},
        encoding: {
          x: {field: 'from', type: 'quantitative'},
          x2: {field: 'to'},
          y,
          color: {field: 'run', type: 'nominal', title: 'Run', scale: colorScale, sort: names},
        },
      },
    ],
  } as TopLevelSpec
}

export function variationCvSpec(model: CompareModel): TopLevelSpec {
  const sizes = model.data.blockSizesSmallFirst.map(blockSizeLabel)
  const mixes = model.data.mixesWriteFirst.map(mixLabel)
  const values = (model.data.variation ?? []).map(v => ({blockSize: v.blockSize, mix: v.mix, cv: Number.isFinite(v.stats.cvPct) ? v.stats.cvPct : null}))
  const cvs = values.map(v => v.cv).filter((v): v is number => v !== null)
  const maxCv = cvs.length > 0 ? Math.max(...cvs) : 0
  const enc = {
    x: {field: 'mix', type: 'ordinal' as const, title: 'R/W mix % (read/write)', sort: mixes, scale: {domain: mixes}, axis: {labelAngle: 0, orient: 'top' as const}},
    y: {field: 'blockSize', type: 'ordinal' as const, title: 'Block size', sort: sizes, scale: {domain: sizes}},
  }
  return {
    $schema: VL_SCHEMA,
    width: CHART_WIDTH,
    height: 40 * sizes.length,
    config: CHART_CONFIG,
    data: {values},
    layer: [
      {
        mark: {type: 'rect', stroke: 'white', strokeWidth: 1.5},
        encoding: {
          ...enc,
          color: {field: 'cv', type: 'quantitative', title: 'CV, % of mean IOPS', scale: {scheme: 'oranges', domainMin: 0}, legend: {format: '.1f', orient: 'bottom', direction: 'horizontal', gradientLength: 360}},
        },
      },
      {
        mark: {type: 'text', fontSize: 12, fontWeight: 'bold'},
        encoding: {
          ...enc,
          text: {field: 'cv', type: 'quantitative', format: '.1f'},
          color: {condition: {test: `datum.cv !== null && datum.cv >= ${maxCv > 0 ? maxCv * 0.6 : 1e300}`, value: 'white'}, value: '#111111'},
        },
      },
    ],
  } as TopLevelSpec
}

function runScales(model: CompareModel) {
  const names = model.runs.map(r => `${r.key}: ${r.label}`)
  return {
    names,
    color: {domain: names, range: names.map((_, i) => color(i))},
    shape: {domain: names, range: names.map((_, i) => shape(i))},
  }
}

const overlayConfig = {...CHART_CONFIG, legend: {...CHART_CONFIG.legend, orient: 'bottom', direction: 'vertical', labelLimit: 640, columns: 1}}

/**
 * IOPS over x, one line per run (the rows downsampled per run); filled markers too when every run
 * has at most 60 points. Series traces and HIR bursts.
 */
function overlaidTracesSpec(model: CompareModel, values: ReadonlyArray<{run: string; iops: number}>, o: {x: object; yTitle: string; few: boolean; pointSize: number}): TopLevelSpec {
  const sc = runScales(model)
  const enc = {
    x: o.x,
    y: {field: 'iops', type: 'quantitative' as const, title: o.yTitle, scale: {zero: false}, axis: {format: ',.0f', tickCount: 6}},
    color: {field: 'run', type: 'nominal' as const, title: 'Run', scale: sc.color, sort: sc.names},
  }
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: CHART_HEIGHT + 60, config: overlayConfig,
    data: {values},
    layer: [
      {mark: {type: 'line', strokeWidth: 1.4}, encoding: enc},
      ...(o.few ? [{mark: {type: 'point' as const, size: o.pointSize, filled: true, opacity: 1}, encoding: {...enc, shape: {field: 'run', type: 'nominal' as const, title: 'Run', scale: sc.shape, sort: sc.names}}}] : []),
    ],
  } as TopLevelSpec
}

export function traceSpec(model: CompareModel, c: SeriesPhaseCompare): TopLevelSpec {
  const rows = c.runs.flatMap(r => (r === null ? [] : r.trace.map(t => ({run: r.name, x: c.x === 'tgbw' ? t.tgbw : c.x === 'seconds' ? Math.round(t.minutes * 60 * 1e6) / 1e6 : t.minutes, iops: t.iops}))))
  return overlaidTracesSpec(model, downsampleGroups(rows, p => p.run, p => p.iops), {
    x: {field: 'x', type: 'quantitative' as const, title: c.x === 'tgbw' ? 'TGBW, GB (10^9 B written by the phase)' : `Time since the phase start, ${c.x}`, scale: {zero: true}},
    yTitle: `IOPS (${c.id})`,
    few: c.runs.every(r => r === null || r.trace.length <= 60),
    pointSize: 30,
  })
}

export function burstsSpec(model: CompareModel, c: BurstsPhaseCompare): TopLevelSpec {
  const rows = c.runs.flatMap(r => (r === null ? [] : r.bursts.map(b => ({run: r.name, burst: b.index + 1, iops: b.iops}))))
  const values = downsampleGroups(rows, p => p.run, p => p.iops)
  const maxBurst = Math.max(1, ...values.map(v => v.burst))
  return overlaidTracesSpec(model, values, {
    x: {field: 'burst', type: 'quantitative' as const, title: 'Burst', scale: {domain: [0.5, maxBurst + 0.5], nice: false}, axis: maxBurst <= 30 ? {values: Array.from({length: maxBurst}, (_, i) => i + 1), format: 'd'} : {tickMinStep: 1, format: 'd'}},
    yTitle: `Burst IOPS (Wait State ${c.waitState})`,
    few: c.runs.every(r => r === null || r.bursts.length <= 60),
    pointSize: 50,
  })
}

/** IOPS against queue depth (log scale), one line per run and workload: the overlaid QD curves of a sweep. */
export function qdCurveSpec(model: CompareModel, c: LoopPhaseCompare): TopLevelSpec {
  const sc = runScales(model)
  const keys = model.runs.map(r => `${r.key}: ${r.label}`)
  const values = (c.qdCurves ?? []).flatMap(q => {
    const p = c.points.find(x => x.id === q.id)
    return p ? p.runs.flatMap((v, k) => (v ? [{run: keys[k], workload: q.workload, qd: q.queueDepth, iops: v.iops}] : [])) : []
  })
  const qds = [...new Set(values.map(v => v.qd))].sort((a, b) => a - b)
  const enc = {
    x: {field: 'qd', type: 'quantitative' as const, title: 'Queue depth (TC 1)', scale: {type: 'log' as const, base: 2}, axis: {values: qds, format: 'd'}},
    y: {field: 'iops', type: 'quantitative' as const, title: `IOPS (${c.id})`, scale: {zero: false}, axis: {format: ',.0f', tickCount: 6}},
    color: {field: 'run', type: 'nominal' as const, title: 'Run', scale: sc.color, sort: sc.names},
    strokeDash: {field: 'workload', type: 'nominal' as const, title: 'Workload'},
    detail: {field: 'workload', type: 'nominal' as const},
  }
  return {
    $schema: VL_SCHEMA, width: CHART_WIDTH, height: CHART_HEIGHT + 60, config: overlayConfig,
    data: {values},
    layer: [
      {mark: {type: 'line', strokeWidth: 1.4}, encoding: enc},
      {mark: {type: 'point', size: 30, filled: true, opacity: 1}, encoding: {...enc, shape: {field: 'workload', type: 'nominal' as const, title: 'Workload'}}},
    ],
  } as TopLevelSpec
}

export function buildCompareChartSpecs(model: CompareModel): Record<string, TopLevelSpec> {
  const specs: Record<string, TopLevelSpec> = {}
  for (const c of model.data.convergence) specs[`convergence-${c.id}`] = convergenceSpec(model, c)
  if (model.data.variation) specs['variation-cv'] = variationCvSpec(model)
  for (const c of model.data.phases ?? []) {
    if (c.kind === 'loop' && c.qdCurves) specs[`qd-${c.id}`] = qdCurveSpec(model, c)
    else if (c.kind === 'series') specs[`trace-${c.id}`] = traceSpec(model, c)
    else if (c.kind === 'bursts') specs[`bursts-${c.id}`] = burstsSpec(model, c)
  }
  return specs
}
