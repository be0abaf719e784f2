import {expect} from 'chai'
import {evaluateVariable, evaluateWindow, firstSteadyRound, leastSquares} from '../../src/steady-state/evaluate.js'

const C = {windowRounds: 5, maxDataExcursionPct: 20, maxSlopeExcursionPct: 10}
const win = (values: number[], from = 1) => values.map((value, i) => ({round: from + i, value}))

describe('steady state (digest Part A 2, B §3)', () => {
  describe('data excursion <= 20% of the average, inclusive', () => {
    const cases: Array<{name: string; values: number[]; ok: boolean}> = [
      {name: 'range exactly 20% passes', values: [90, 110, 100, 100, 100], ok: true},
      {name: 'range 20.1% fails', values: [89.9, 110, 100, 100, 100.1], ok: false},
      {name: 'a constant series passes', values: [5, 5, 5, 5, 5], ok: true},
      {name: 'range 19.9% passes', values: [90.05, 109.95, 100, 100, 100], ok: true},
    ]
    for (const c of cases) {
      it(c.name, () => {
        const e = evaluateVariable('v', win(c.values), C)
        expect(e.dataExcursionOk).to.equal(c.ok)
        expect(e.dataExcursion).to.be.closeTo(Math.max(...c.values) - Math.min(...c.values), 1e-9)
      })
    }
  })

  describe('slope excursion |b| x (n-1) <= 10% of the average, inclusive', () => {
    const cases: Array<{name: string; slope: number; ok: boolean}> = [
      {name: 'exactly 10% passes', slope: 2.5, ok: true},
      {name: 'exactly 10% falling passes', slope: -2.5, ok: true},
      {name: '10.04% fails', slope: 2.51, ok: false},
      {name: 'flat passes', slope: 0, ok: true},
    ]
    for (const c of cases) {
      it(c.name, () => {
        // y = 100 + slope * (R - 3): average 100, range 4|slope| <= 20 (data criterion passes)
        const e = evaluateVariable('v', win([1, 2, 3, 4, 5].map(r => 100 + c.slope * (r - 3))), C)
        expect(e.slopeExcursionOk).to.equal(c.ok)
        expect(e.slopeExcursion).to.be.closeTo(Math.abs(c.slope) * 4, 1e-9)
        expect(e.allowedSlopeExcursion).to.be.closeTo(10, 1e-9)
        expect(e.dataExcursionOk).to.equal(true)
      })
    }
  })

  it('a linear ramp recovers its slope and intercept exactly', () => {
    const rounds = [11, 12, 13, 14, 15]
    const fit = leastSquares(rounds, rounds.map(r => 3 * r + 7))
    expect(fit.slope).to.equal(3)
    expect(fit.intercept).to.equal(7)
    expect(fit.rSquared).to.equal(1)
    const e = evaluateVariable('v', rounds.map(r => ({round: r, value: -250 * r + 40000})), C)
    expect(e.slope).to.equal(-250)
    expect(e.intercept).to.equal(40000)
  })

  it('reproduces the digest worked example (fit -6.4 R + 11746, slope excursion 25.6 against 1172.68)', () => {
    // Fitted values 11746 - 6.4 R for R = 1..5 plus residuals (0, x, -2x, x, 0), which sum to zero
    // and are orthogonal to R, so the fit is unchanged; x makes the range exactly 300.
    const x = (300 - 6.4) / 3
    const resid = [0, x, -2 * x, x, 0]
    const values = [1, 2, 3, 4, 5].map((r, i) => 11746 - 6.4 * r + resid[i])
    const e = evaluateVariable('rnd-4k-w', win(values), C)
    expect(e.slope).to.be.closeTo(-6.4, 1e-9)
    expect(e.intercept).to.be.closeTo(11746, 1e-9)
    expect(e.average).to.be.closeTo(11726.8, 1e-9)
    expect(e.allowedDataExcursion).to.be.closeTo(2345.36, 1e-9)
    expect(e.dataExcursion).to.be.closeTo(300, 1e-9)
    expect(e.allowedSlopeExcursion).to.be.closeTo(1172.68, 1e-9)
    expect(e.slopeExcursion).to.be.closeTo(25.6, 1e-9)
    expect(e.steady).to.equal(true)
  })

  it('returns every number of the determination, including R squared', () => {
    const e = evaluateVariable('v', win([100, 104, 98, 103, 101], 3), C)
    expect(e).to.include.keys('window', 'fromRound', 'toRound', 'average', 'min', 'max', 'dataExcursion', 'allowedDataExcursion', 'slope', 'intercept', 'slopeExcursion', 'allowedSlopeExcursion', 'rSquared')
    expect(e.fromRound).to.equal(3)
    expect(e.toRound).to.equal(7)
    expect(e.average).to.equal(101.2)
    expect(e.rSquared).to.be.within(0, 1)
    expect(evaluateVariable('c', win([7, 7, 7, 7, 7]), C).rSquared).to.equal(null)
  })

  describe('windows over several tracking variables', () => {
    const good = [100, 101, 99, 100, 100, 100]
    it('fewer than 5 rounds is "not yet"', () => {
      const e = evaluateWindow([{id: 'a', values: good.slice(0, 4)}], 4, C)
      expect(e.status).to.equal('not-yet')
      expect(e.fromRound).to.equal(null)
    })
    it('all three passing in the same window is steady', () => {
      const e = evaluateWindow([{id: 'a', values: good}, {id: 'b', values: good}, {id: 'c', values: good}], 5, C)
      expect(e.status).to.equal('steady')
      expect([e.fromRound, e.toRound]).to.deep.equal([1, 5])
    })
    it('one of three variables failing fails the window', () => {
      const bad = [100, 150, 60, 100, 100, 100]
      const e = evaluateWindow([{id: 'a', values: good}, {id: 'b', values: bad}, {id: 'c', values: good}], 5, C)
      expect(e.status).to.equal('not-steady')
      expect(e.variables.map(v => v.steady)).to.deep.equal([true, false, true])
    })
    it('the window is the last 5 rounds x-4..x', () => {
      const series = [{id: 'a', values: [10, 500, 100, 100, 100, 100, 100]}]
      expect(evaluateWindow(series, 5, C).status).to.equal('not-steady')
      expect(evaluateWindow(series, 6, C).status).to.equal('not-steady')
      const e7 = evaluateWindow(series, 7, C)
      expect(e7.status).to.equal('steady')
      expect([e7.fromRound, e7.toRound]).to.deep.equal([3, 7])
      expect(firstSteadyRound(series, C)).to.equal(7)
    })
    it('variables must pass in the same window, not in different ones', () => {
      // a is steady only in 1..5, b only in 2..6
      const a = [100, 100, 100, 100, 100, 300]
      const b = [300, 100, 100, 100, 100, 100]
      expect(firstSteadyRound([{id: 'a', values: a}, {id: 'b', values: b}], C)).to.equal(null)
    })
  })
})
