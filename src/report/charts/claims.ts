/**
 * Plot: datasheet claims vs measured (the "Claims vs measured" page). Pure.
 *
 * Grouped horizontal bars, one pair per claim: the claimed value (grey) above the measured window
 * average (green when it meets the claim, red when below); each bar is labelled with its number,
 * the measured one with the ratio. One panel per unit, because IOPS, MB/s and response times
 * cannot share an axis; a panel switches to a log axis when its values span more than 2
 * decades, so a small measurement next to a large claim stays visible. Absolute bars were
 * chosen over normalised ratio bars: the reader checks the datasheet figure and the measured
 * figure at a glance, and "lower is better" for response times needs no inverted axis; the
 * ratio is printed on the bar and in the table. A claim that was not measured keeps its claimed
 * bar and says "not measured" in place of the measured one.
 */
import type {TopLevelSpec} from 'vega-lite'
import type {ClaimsBar} from '../page-kit.js'
import {CHART_CONFIG, VL_SCHEMA} from './common.js'

export const CLAIMS_COLORS = {claimed: '#bab0ac', meets: '#59a14f', below: '#e15759'}
const LEGEND = ['Claimed', 'Measured: meets the claim', 'Measured: below the claim']

/** A log axis when the values span more than 2 decades (max / min > 100). */
export function needsLogScale(values: number[]): boolean {
  const pos = values.filter(v => v > 0)
  if (pos.length < 2) return false
  return Math.max(...pos) / Math.min(...pos) > 100
}

/** x domain with room right of the longest bar for its label (the bar ends at about 2/3 of the width). */
export function claimsDomain(values: number[], log: boolean): [number, number] {
  const pos = values.filter(v => v > 0)
  const max = pos.length > 0 ? Math.max(...pos) : 1
  if (!log) return [0, max * 1.5]
  const lo = Math.min(...pos) / 2
  return [lo, lo * (max / lo) ** 1.5]
}

/** Long latency labels on two lines: "4 KiB random write" / "latency (99.999th percentile)". */
const SPLIT_LATENCY = "indexof(datum.label, ' latency') > 0 ? [substring(datum.label, 0, indexof(datum.label, ' latency')), substring(datum.label, indexof(datum.label, ' latency') + 1)] : datum.label"

const UNIT_TITLE: Record<string, string> = {IOPS: 'IOPS', 'MB/s': 'MB/s (10^6 B/s)', ms: 'Response time, ms (lower is better)', us: 'Response time, us (lower is better)'}

export function claimsSpec(bars: ClaimsBar[]): TopLevelSpec {
  // Unique row labels (two claims may name the same point, e.g. at two queue depths).
  const counts = new Map<string, number>()
  for (const b of bars) counts.set(b.label, (counts.get(b.label) ?? 0) + 1)
  const rowOf = (b: ClaimsBar) => ((counts.get(b.label) ?? 0) > 1 ? `${b.label} [${b.id}]` : b.label)
  const units = [...new Set(bars.map(b => b.unit))]

  const panels = units.map(unit => {
    const mine = bars.filter(b => b.unit === unit)
    const values = mine.flatMap(b => (b.measured === null ? [b.claimed] : [b.claimed, b.measured]))
    const log = needsLogScale(values)
    const domain = claimsDomain(values, log)
    const rows = mine.map(rowOf)
    const data = mine.flatMap(b => [
      {row: rowOf(b), series: 'claimed', legend: LEGEND[0], value: b.claimed, text: b.claimedText, nm: false},
      {row: rowOf(b), series: 'measured', legend: b.verdict === 'below' ? LEGEND[2] : LEGEND[1], value: b.measured, text: b.measuredText, nm: b.measured === null},
    ])
    return {
      title: {text: `${UNIT_TITLE[unit] ?? unit}${log ? ' - log scale' : ''}`, fontSize: 12},
      width: 400,
      height: {step: 40, for: 'position' as const},
      data: {values: data},
      encoding: {
        y: {field: 'row', type: 'nominal' as const, title: null, sort: rows, scale: {domain: rows, paddingInner: 0.2, paddingOuter: 0.1}, axis: {labelLimit: 260, labelFontSize: 11, labelExpr: SPLIT_LATENCY}},
        yOffset: {field: 'series', type: 'nominal' as const, sort: ['claimed', 'measured'], scale: {domain: ['claimed', 'measured']}},
      },
      layer: [
        {
          transform: [{filter: 'datum.value !== null'}],
          mark: {type: 'bar' as const, height: {band: 1}},
          encoding: {
            x: {field: 'value', type: 'quantitative' as const, title: null, scale: {type: log ? 'log' as const : 'linear' as const, domain, nice: false, zero: !log}, axis: {format: unit === 'IOPS' || unit === 'MB/s' ? ',.0f' : ',.3~f', tickCount: 5}},
            color: {field: 'legend', type: 'nominal' as const, title: null, scale: {domain: LEGEND, range: [CLAIMS_COLORS.claimed, CLAIMS_COLORS.meets, CLAIMS_COLORS.below]}, legend: {orient: 'top' as const, direction: 'horizontal' as const, labelLimit: 0}},
          },
        },
        {
          transform: [{filter: 'datum.value !== null'}],
          mark: {type: 'text' as const, align: 'left' as const, baseline: 'middle' as const, dx: 4, fontSize: 10.5},
          encoding: {x: {field: 'value', type: 'quantitative' as const}, text: {field: 'text', type: 'nominal' as const}},
        },
        {
          transform: [{filter: 'datum.nm'}],
          mark: {type: 'text' as const, align: 'left' as const, baseline: 'middle' as const, dx: 4, fontSize: 10.5, fontStyle: 'italic', color: '#666666'},
          encoding: {x: {value: 0}, text: {field: 'text', type: 'nominal' as const}},
        },
      ],
    }
  })

  return {
    $schema: VL_SCHEMA,
    config: {...CHART_CONFIG, concat: {spacing: 18}},
    vconcat: panels,
    resolve: {scale: {color: 'shared', x: 'independent', y: 'independent', yOffset: 'independent'}, legend: {color: 'shared'}},
  } as TopLevelSpec
}
