/**
 * Summary wording of a loop that ended (its round limit) before the rounds a steady-state check
 * needs: e.g. `pts run iops --max-rounds 1`, as the device lab's end-to-end runs do. The stored
 * golden runs (test/fixtures/runs/golden-iops, golden-lat; real short fio runs) are cut to their
 * first round in memory, with the verdict pts gives such a loop (not achieved, window 1-1, no
 * criterion evaluated: fewer than 5 rounds).
 */
import {expect} from 'chai'
import {join} from 'node:path'
import {loadRun} from '../../src/report/load.js'
import {buildProgramReportModel} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import type {PhaseResult} from '../../src/model/results.js'
import {GENERATED_AT, ROOT} from './helpers.js'

type Loop = Extract<PhaseResult, {kind: 'loop'}>

function oneRoundSummary(test: 'iops' | 'lat') {
  const run = loadRun(join(ROOT, 'test/fixtures/runs', `golden-${test}`))
  const results = structuredClone(run.results)
  const loop = results.phases.find((p): p is Loop => p.kind === 'loop')!
  loop.rounds = loop.rounds.slice(0, 1)
  loop.evaluations = loop.evaluations.slice(0, 1)
  loop.criteria = {...loop.criteria, maxRounds: 1}
  results.parameters = {...results.parameters, maxRounds: 1}
  loop.steadyState = {verdict: 'not-achieved', fromRound: 1, toRound: 1, variables: []}
  const model = buildProgramReportModel({manifest: run.manifest, results, rawFiles: run.rawFiles, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS[test]!)
  return {...model.pages[0].summary!, text: JSON.stringify(model)}
}

describe('report summary of a loop cut short by its round limit (fewer rounds than the window)', () => {
  it('IOPS: says no criterion was evaluated (never "every tracking variable met the criteria, but the run did not finish")', () => {
    const s = oneRoundSummary('iops')
    expect(s.verdict).to.equal('Steady State NOT ACHIEVED')
    expect(s.verdictDetail).to.equal('Measurement window rounds 1-1: the loop ended after 1 complete round, fewer than the 5 a steady-state check needs, so no criterion was evaluated. Results are reported from this round.')
    expect(s.text).to.include('s; max 1 round"').and.not.include('max 1 rounds')
  })

  it('LAT: says NOT ACHIEVED once, and why there is no determination (not "No complete measurement window" beside window averages)', () => {
    const s = oneRoundSummary('lat')
    expect(s.verdict).to.equal('Steady State NOT ACHIEVED: Rounds 1-1')
    expect(s.verdictDetail).to.equal('The loop ended after 1 complete round, fewer than the 5 a steady-state check needs, so no criterion was evaluated; the tables average rounds 1-1.')
    expect(s.text).to.include('s; max 1 round (1 run)').and.not.include('max 1 rounds')
  })
})
