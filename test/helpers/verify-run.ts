/** Checks a finished IOPS run directory the way an auditor would: schema, order, raw data, verdict. */
import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {check} from '../../src/validate.js'
import {parseFioJson} from '../../src/engine/parse.js'
import {loadProgramSpec} from '../../src/store/spec-files.js'
import {firstSteadyRound} from '../../src/steady-state/evaluate.js'
import type {LoopPhase, WipcPhase} from '../../src/model/definition.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'
import type {RunManifest} from '../../src/model/manifest.js'

export type LoopResult = Extract<PhaseResult, {kind: 'loop'}>
export type WipcResult = Extract<PhaseResult, {kind: 'wipc'}>
export type PurgeResult = Extract<PhaseResult, {kind: 'purge'}>

/** The purge, WIPC and loop phases of an IOPS run (phases [purge, wipc, loop]). */
export function iopsPhases(results: ProgramResults): {purge: PurgeResult; wipc: WipcResult; loop: LoopResult} {
  expect(results.phases.map(p => p.kind)).to.deep.equal(['purge', 'wipc', 'loop'])
  return {
    purge: results.phases.find((p): p is PurgeResult => p.kind === 'purge')!,
    wipc: results.phases.find((p): p is WipcResult => p.kind === 'wipc')!,
    loop: results.phases.find((p): p is LoopResult => p.kind === 'loop')!,
  }
}

export function verifyRun(dir: string, maxRounds: number): {results: ProgramResults; manifest: RunManifest; loop: LoopResult; wipc: WipcResult; purge: PurgeResult} {
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ProgramResults
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RunManifest
  expect(check('program-result.schema.json', results)).to.deep.equal([])
  expect(check('run-manifest.schema.json', manifest)).to.deep.equal([])
  expect(results.kind).to.equal('program')
  expect(results.test).to.equal('iops')
  expect(results.status).to.equal('complete')
  expect(manifest.fio.version).to.match(/^fio-\d/)
  const {purge, wipc, loop} = iopsPhases(results)

  const spec = loadProgramSpec(results.test, results.revision)
  const loopSpec = spec.phases.find((p): p is LoopPhase => p.kind === 'loop')!
  const mixes = loopSpec.loops.find(l => l.dimension === 'readPct')!.values
  const sizes = loopSpec.loops.find(l => l.dimension === 'blockSizeBytes')!.values
  const order = mixes.flatMap(rp => sizes.map(bs => [rp, bs]))
  expect(order).to.have.length(56)
  expect(loop.rounds.length).to.be.within(1, maxRounds)
  for (const r of loop.rounds) {
    // 56 points per round, in the spec's order (mix outer, block size inner)
    expect(r.points.map(p => [p.readPct, p.blockSizeBytes])).to.deep.equal(order)
    expect(r.points.map(p => p.index)).to.deep.equal(order.map((_, i) => i))
    for (const p of r.points) {
      // every number recomputes from the stored raw fio output, and the job text is there
      const raw = parseFioJson(readFileSync(join(dir, p.raw.json), 'utf8')).measurement
      expect(p.iops).to.equal(raw.iops)
      expect(p.latMeanNs).to.equal(raw.latMeanNs)
      expect(existsSync(join(dir, p.raw.job))).to.equal(true)
      expect(readFileSync(join(dir, p.raw.job), 'utf8')).to.match(new RegExp(`^bs=${p.blockSizeBytes}$`, 'm'))
      expect(p.iops).to.be.greaterThan(0)
    }
  }
  // consecutive points never overlap
  const all = loop.rounds.flatMap(r => r.points)
  for (let i = 1; i < all.length; i++) expect(BigInt(all[i].startNs) >= BigInt(all[i - 1].endNs)).to.equal(true)

  // the verdict recomputes from the stored per-round values: the run stopped at the first
  // steady window, or ran to the round limit without one
  const series = loopSpec.steadyState.tracking.map(t => ({
    id: t.id,
    values: loop.rounds.map(r => r.points.find(p => p.readPct === t.select.readPct && p.blockSizeBytes === t.select.blockSizeBytes)![t.metric]),
  }))
  expect(loop.tracking.map(t => ({id: t.id, values: t.series}))).to.deep.equal(series)
  const first = firstSteadyRound(series, loopSpec.steadyState)
  if (first === null) {
    expect(loop.steadyState.verdict).to.equal('not-achieved')
    expect(loop.rounds).to.have.length(maxRounds)
  } else {
    expect(loop.steadyState.verdict).to.equal('steady')
    expect(loop.steadyState.toRound).to.equal(first)
    expect(loop.rounds).to.have.length(first)
  }
  expect(loop.windowAverages).to.have.length(56)
  // WIPC wrote exactly the WIPC multiple x the PC ActiveRange (null = the definition's multiple x the time scale)
  const wipcSpec = spec.phases.find((p): p is WipcPhase => p.kind === 'wipc')!
  const multiple = results.parameters.wipcMultiple ?? wipcSpec.capacityMultiple * results.parameters.timeScale
  expect(wipc.status).to.equal('done')
  expect(wipc.writtenBytes).to.equal(results.parameters.preconditionActiveRangeBytes * multiple)
  return {results, manifest, loop, wipc, purge}
}
