import {expect} from 'chai'
import {downsampleGroups, downsampleMinMax} from '../../src/report/charts/downsample.js'
import {seriesSpec} from '../../src/report/charts/series.js'

describe('downsampleMinMax', () => {
  const y = (p: {x: number; y: number}) => p.y
  it('returns short series unchanged (a copy)', () => {
    const pts = [{x: 1, y: 5}, {x: 2, y: 3}]
    const out = downsampleMinMax(pts, y, 10)
    expect(out).to.deep.equal(pts)
    expect(out).not.to.equal(pts)
  })

  it('keeps at most maxPoints, in x order, with first, last and the global extremes', () => {
    const pts = Array.from({length: 100_000}, (_, i) => ({x: i, y: Math.sin(i / 500) * 1000 + (i % 7)}))
    pts[31_337].y = 99_999
    pts[77_777].y = -99_999
    const out = downsampleMinMax(pts, y, 2000)
    expect(out.length).to.be.at.most(2000)
    expect(out.length).to.be.at.least(1900)
    expect(out[0]).to.equal(pts[0])
    expect(out[out.length - 1]).to.equal(pts[pts.length - 1])
    expect(out).to.include(pts[31_337])
    expect(out).to.include(pts[77_777])
    for (let i = 1; i < out.length; i++) expect(out[i].x).to.be.greaterThan(out[i - 1].x)
  })

  it('keeps each bucket\'s min and max (a spike in every bucket survives)', () => {
    const pts = Array.from({length: 10_000}, (_, i) => ({x: i, y: i % 100 === 50 ? 10 : 0}))
    const out = downsampleMinMax(pts, y, 202) // 100 buckets of 100 points
    expect(out.filter(p => p.y === 10)).to.have.length(100)
  })

  it('downsamples groups separately and the series chart stays small', () => {
    const rows = [...Array.from({length: 5000}, (_, i) => ({k: 'a', x: i, y: i})), ...Array.from({length: 10}, (_, i) => ({k: 'b', x: i, y: i}))]
    const out = downsampleGroups(rows, r => r.k, r => r.y, 100)
    expect(out.filter(r => r.k === 'a').length).to.be.at.most(100)
    expect(out.filter(r => r.k === 'b')).to.have.length(10)
    const spec = seriesSpec({title: 't', xTitle: 's', yTitle: 'IOPS', points: Array.from({length: 100_000}, (_, i) => ({x: i, y: i % 13}))}) as {data: {values: unknown[]}}
    expect(spec.data.values.length).to.be.at.most(2000)
  })
})
