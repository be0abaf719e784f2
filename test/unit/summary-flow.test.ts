/**
 * The summary page's lists go on over continuation pages (report/layout-estimate.ts
 * paginateSummary): every line once, in order, a cut section under its heading "(continued)", no
 * heading left at a page's foot without a line; and the whole summary of a stored run that fits.
 */
import {expect} from 'chai'
import {paginateSummary, summarySections} from '../../src/report/layout-estimate.js'
import type {SummaryData} from '../../src/report/page-kit.js'

const line = (what: string, i: number) => `${what} ${i + 1}: ${'a line of about a hundred and twenty characters, long enough to take more than one line of the page '.repeat(1)}`

function summary(n: {reasons: number; timing: number; deviations: number; howTo: number}): SummaryData {
  return {
    verdict: 'Steady State NOT ACHIEVED', verdictDetail: 'Rounds 1-5 (NOT ACHIEVED)', steady: false,
    device: [{label: 'Vendor', value: 'none'}, {label: 'Model', value: 'regular file'}],
    headline: [{label: 'RND 4KiB W', value: '1,234 IOPS'}],
    compliance: 'NOT COMPLIANT', reasons: Array.from({length: n.reasons}, (_, i) => line('reason', i)),
    deviations: Array.from({length: n.deviations}, (_, i) => line('deviation', i)), runStatus: 'complete',
    timing: {ok: false, verdict: 'FAIL', lines: Array.from({length: n.timing}, (_, i) => line('timing', i))},
    howToRead: Array.from({length: n.howTo}, (_, i) => line('how to read', i)),
  }
}

describe('summary pages: the lists go on over continuation pages', () => {
  it('a summary that fits is one page with every section whole', () => {
    const s = summary({reasons: 3, timing: 3, deviations: 2, howTo: 5})
    const pages = paginateSummary(s, 400, 400)
    expect(pages).to.have.length(1)
    expect(pages[0].top).to.equal(true)
    expect(pages[0].sections).to.deep.equal(summarySections(s))
  })

  it('a long one: every line once and in order, a cut section continued under its heading, the top on the first page only', () => {
    const s = summary({reasons: 8, timing: 7, deviations: 12, howTo: 5})
    const pages = paginateSummary(s, 150, 120)
    expect(pages.length).to.be.at.least(2)
    expect(pages.map(p => p.top)).to.deep.equal([true, ...Array(pages.length - 1).fill(false)])
    for (const sec of summarySections(s)) {
      const parts = pages.flatMap(p => p.sections.filter(x => x.heading === sec.heading))
      expect(parts.flatMap(x => x.items), sec.heading).to.deep.equal(sec.items)
      expect(parts.map(x => x.continued), sec.heading).to.deep.equal([false, ...Array(parts.length - 1).fill(true)])
      for (const x of parts) expect(x.items.length, `${sec.heading}: a heading with no line under it`).to.be.greaterThan(0)
    }
    expect(pages.some(p => p.sections.some(x => x.continued)), 'some section is cut').to.equal(true)
  })

  it('an empty list keeps its sentence ("None.") on the page it falls on', () => {
    const s = summary({reasons: 0, timing: 2, deviations: 0, howTo: 2})
    const [page] = paginateSummary(s, 400, 400)
    expect(page.sections.map(x => [x.heading, x.items.length, x.empty])).to.deep.equal([
      ['Compliance: NOT COMPLIANT', 0, 'The run followed the specification\'s required parameters.'],
      ['Audit of run timing', 2, ''], ['Deviations', 0, 'None.'], ['How to read this report', 2, '']])
  })
})
