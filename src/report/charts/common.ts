/** Shared Vega-Lite settings for report charts: print-legible fonts and sizes (A4 portrait). Pure. */
import type {Config} from 'vega-lite'

export const VL_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json'

/** Plot area of a full-width chart, in CSS px (A4 content width is about 718 px at 96 dpi). */
export const CHART_WIDTH = 540
export const CHART_HEIGHT = 330

export const CHART_CONFIG: Config = {
  font: 'DejaVu Sans',
  background: 'white',
  padding: 8,
  axis: {labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'bold', gridColor: '#dddddd', labelOverlap: true},
  legend: {labelFontSize: 11, titleFontSize: 12, symbolSize: 80, labelLimit: 220},
  title: {fontSize: 13, anchor: 'start'},
  header: {labelFontSize: 12, titleFontSize: 12},
  view: {stroke: '#999999'},
  line: {strokeWidth: 1.8},
  point: {size: 40, filled: true},
}

/** Tableau 10: distinguishable in print; shapes are added as a second channel. */
export const SERIES_COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac']
export const SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'cross', 'triangle-down', 'triangle-right', 'triangle-left']
