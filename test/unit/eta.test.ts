/** The ETA from measured step times (src/analysis/eta.ts), table-driven; pure. */
import {expect} from 'chai'
import {addRemaining, ETA_WINDOW_STEPS, etaFromMeasured, phaseRemaining, stepOverheadSec, type StepWall} from '../../src/analysis/eta.js'
import type {PlannedPhase} from '../../src/plan/expand.js'

const steps = (n: number, plannedSec: number, wallSec: number): StepWall[] => Array.from({length: n}, () => ({plannedSec, wallSec}))

describe('ETA from measured time (pure)', () => {
  const overhead: Array<{name: string; steps: StepWall[]; want: number}> = [
    {name: 'no step measured yet: no overhead', steps: [], want: 0},
    {name: '0.1 s points that take 0.5 s each (fio start-up): 0.4 s per step', steps: steps(10, 0.1, 0.5), want: 0.4},
    {name: '60 s points with 20 ms hand-over', steps: steps(5, 60, 60.02), want: 0.02},
    {name: 'a step measured shorter than planned (clock granularity) never makes the overhead negative', steps: steps(3, 1, 0.998), want: 0},
    {name: 'only the recent steps count: an old slow phase is forgotten', steps: [...steps(100, 0.1, 2.1), ...steps(ETA_WINDOW_STEPS, 0.1, 0.3)], want: 0.2},
    {name: 'mixed lengths: the overhead is per step, not a ratio', steps: [{plannedSec: 0.1, wallSec: 0.4}, {plannedSec: 20, wallSec: 20.3}], want: 0.3},
  ]
  for (const c of overhead) it(`overhead: ${c.name}`, () => expect(stepOverheadSec(c.steps)).to.be.closeTo(c.want, 1e-9))

  const eta: Array<{name: string; rem: Parameters<typeof etaFromMeasured>[0]; overhead: number; want: {min: number; max: number}}> = [
    {name: '50 points of 0.1 s left, 0.4 s overhead each: 25 s, not the planned 5 s', rem: {minSec: 5, maxSec: 5, minSteps: 50, maxSteps: 50}, overhead: 0.4, want: {min: 25, max: 25}},
    {name: 'a loop that may stop after this round or run 20 more', rem: {minSec: 2, maxSec: 112, minSteps: 20, maxSteps: 1120}, overhead: 0.1, want: {min: 4, max: 224}},
    {name: 'no overhead measured: the plan', rem: {minSec: 300, maxSec: 900, minSteps: 5, maxSteps: 15}, overhead: 0, want: {min: 300, max: 900}},
    {name: 'nothing left', rem: {minSec: 0, maxSec: 0, minSteps: 0, maxSteps: 0}, overhead: 3, want: {min: 0, max: 0}},
  ]
  for (const c of eta) it(`eta: ${c.name}`, () => {
    const got = etaFromMeasured(c.rem, c.overhead)
    expect(got.min).to.be.closeTo(c.want.min, 1e-9)
    expect(got.max).to.be.closeTo(c.want.max, 1e-9)
  })

  it('addRemaining sums every field', () => {
    expect(addRemaining({minSec: 1, maxSec: 2, minSteps: 3, maxSteps: 4}, {minSec: 10, maxSec: 20, minSteps: 30, maxSteps: 40})).to.deep.equal({minSec: 11, maxSec: 22, minSteps: 33, maxSteps: 44})
    expect(addRemaining()).to.deep.equal({minSec: 0, maxSec: 0, minSteps: 0, maxSteps: 0})
  })

  const w = {access: 'random', readPct: 0, blockSizeBytes: 4096, bssplit: null, zones: null, threadCount: 1, queueDepth: 1, label: 'x'} as never
  const loop = (points: number, preRound: boolean, maxRounds: number, roundCap: number) => ({kind: 'loop', id: 'l', title: 'l', points: Array.from({length: points}, (_, i) => ({index: i})), pointSeconds: 1,
    preRound: preRound ? {workload: w, seconds: 5} : null, steadyState: {windowRounds: 5}, maxRounds, roundCap}) as unknown as PlannedPhase
  const phases: Array<{name: string; phase: PlannedPhase; t: {minSec: number; maxSec: number}; steps: [number, number]}> = [
    {name: 'purge: no fio step', phase: {kind: 'purge', id: 'p', title: 'p'}, t: {minSec: 0, maxSec: 0}, steps: [0, 0]},
    {name: 'WIPC: one step', phase: {kind: 'wipc'} as unknown as PlannedPhase, t: {minSec: 0, maxSec: 0}, steps: [1, 1]},
    {name: 'IOPS loop: 56 points, 5 to 25 rounds', phase: loop(56, false, 25, 25), t: {minSec: 280, maxSec: 1400}, steps: [280, 1400]},
    {name: 'loop with a pre-write per round, round limit 3', phase: loop(9, true, 3, 3), t: {minSec: 42, maxSec: 42}, steps: [30, 30]},
    {name: 'loop continuing to a round cap of 100', phase: loop(2, false, 25, 100), t: {minSec: 10, maxSec: 200}, steps: [10, 200]},
    {name: 'series of 1-minute samples that may stop after the first', phase: {kind: 'series', sampleSeconds: 60, maxSamples: 1440} as unknown as PlannedPhase, t: {minSec: 60, maxSec: 86400}, steps: [1, 1440]},
    {name: 'bursts: one step each', phase: {kind: 'bursts', repeats: 360} as unknown as PlannedPhase, t: {minSec: 2000, maxSec: 2000}, steps: [360, 360]},
    {name: 'histogram: one step', phase: {kind: 'histogram'} as unknown as PlannedPhase, t: {minSec: 1200, maxSec: 1200}, steps: [1, 1]},
    {name: 'operating points: 3 x (pre-write samples + histogram)', phase: {kind: 'operating-points', prewrite: {samples: 60}} as unknown as PlannedPhase, t: {minSec: 100, maxSec: 100}, steps: [183, 183]},
  ]
  for (const c of phases) it(`steps of a phase: ${c.name}`, () => {
    const r = phaseRemaining(c.phase, c.t)
    expect([r.minSteps, r.maxSteps]).to.deep.equal(c.steps)
    expect([r.minSec, r.maxSec]).to.deep.equal([c.t.minSec, c.t.maxSec])
  })
})
