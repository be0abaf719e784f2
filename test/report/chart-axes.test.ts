/**
 * Chart axes an engineer reads values from, checked on the SVG that vega draws (no Chromium).
 */
import {expect} from 'chai'
import {histogramChart, lineChart} from '../../src/report/charts/generic.js'
import {renderSvg} from '../../src/report/svg.js'

/** The text of every axis label of the SVG's axis with this title (vega draws each axis as a group with role "axis"). */
function axisLabels(svg: string, title: string): string[] {
  const axes = svg.split('aria-roledescription="axis"').slice(1)
  const axis = axes.find(a => a.includes(`>${title}</text>`))
  expect(axis, `an axis titled ${title}`).to.not.equal(undefined)
  return [...axis!.split(`>${title}</text>`)[0].matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map(m => m[1])
}

describe('chart axes', function () {
  this.timeout(60_000)

  // Seen on the LAT report's histogram and four-corners' random-seek distribution: the IO-count axis
  // (symlog) was labelled 0, 40, 80, 120, 160, 200, the last four bunched at the top, so a bin of a
  // few IOs (the slow tail the chart is for) had no scale at all.
  it('histogram: the IO-count axis is labelled 0, 1, 2, 5, 10, 20, 50, 100, 200 (up to the largest bin, 200); from 1,000 IOs on, powers of ten', async () => {
    const bins = [0.02, 0.05, 0.1, 0.5, 2, 40].map((latMs, i) => ({latMs, count: [3, 200, 180, 40, 2, 1][i]}))
    const svg = await renderSvg(histogramChart(bins, {title: 'RND 4KiB W'}))
    expect(axisLabels(svg, 'IO count (log scale)')).to.deep.equal(['0', '1', '2', '5', '10', '20', '50', '100', '200'])
    const many = await renderSvg(histogramChart(bins.map(b => ({...b, count: b.count * 300})), {title: 'RND 4KiB W'}))
    expect(axisLabels(many, 'IO count (log scale)')).to.deep.equal(['0', '1', '10', '100', '1,000', '10,000'])
  })

  // Seen on the transfer-sizes report: the block-size axis read 512, 8192, 131072, 2097152, 33554432
  // (bytes, every fourth tick), beside a table in KiB.
  it('transfer sizes: every block-size tick is labelled as the table labels it (0.5KiB ... 65536KiB)', async () => {
    const sizes = Array.from({length: 18}, (_, i) => 512 * 2 ** i)
    const rows = sizes.flatMap(x => [{x, y: x / 1e5, series: 'SEQ W'}, {x, y: x / 2e5, series: 'SEQ R'}])
    const svg = await renderSvg(lineChart(rows, {xTitle: 'Block size', yTitle: 'MB/s', logX: true, xTicks: sizes, xBlockSizes: true, series: ['SEQ W', 'SEQ R'], points: true}))
    expect(axisLabels(svg, 'Block size')).to.deep.equal(sizes.map(b => `${b / 1024}KiB`))
  })
})
