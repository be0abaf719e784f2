/** Checks a finished run directory the way an auditor would: schema, order, raw data, verdict. */
import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {check} from '../../src/validate.js'
import {parseFioJson} from '../../src/engine/parse.js'
import {expandPoints} from '../../src/spec/expand.js'
import {loadSpec} from '../../src/spec/load.js'
import {firstSteadyRound} from '../../src/steady-state/evaluate.js'
import type {RunManifest, RunResults} from '../../src/store/types.js'

export function verifyRun(dir: string, maxRounds: number): {results: RunResults; manifest: RunManifest} {
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResults
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RunManifest
  expect(check('run-result.schema.json', results)).to.deep.equal([])
  expect(check('run-manifest.schema.json', manifest)).to.deep.equal([])
  expect(results.status).to.equal('complete')
  expect(manifest.fio.version).to.match(/^fio-\d/)

  const spec = loadSpec(results.test, results.revision)
  const order = expandPoints(spec).map(p => [p.readPct, p.blockSizeBytes])
  expect(results.rounds.length).to.be.within(1, maxRounds)
  for (const r of results.rounds) {
    // 56 points per round, in the spec's order (mix outer, block size inner)
    expect(r.points.map(p => [p.readPct, p.blockSizeBytes])).to.deep.equal(order)
    for (const p of r.points) {
      // every number recomputes from the stored raw fio output, and the job text is there
      const raw = parseFioJson(readFileSync(join(dir, p.raw.json), 'utf8')).groups[0].measurement
      expect(p.iops).to.equal(raw.iops)
      expect(p.latMeanNs).to.equal(raw.latMeanNs)
      expect(existsSync(join(dir, p.raw.job))).to.equal(true)
      expect(readFileSync(join(dir, p.raw.job), 'utf8')).to.match(new RegExp(`^bs=${p.blockSizeBytes}$`, 'm'))
      expect(p.iops).to.be.greaterThan(0)
    }
  }
  // consecutive points never overlap
  const all = results.rounds.flatMap(r => r.points)
  for (let i = 1; i < all.length; i++) expect(BigInt(all[i].startNs) >= BigInt(all[i - 1].endNs)).to.equal(true)

  // the verdict recomputes from the stored per-round values: the run stopped at the first
  // steady window, or ran to the round limit without one
  const series = spec.steadyState.tracking.map(t => ({
    id: t.id,
    values: results.rounds.map(r => r.points.find(p => p.readPct === t.readPct && p.blockSizeBytes === t.blockSizeBytes)!.iops),
  }))
  const first = firstSteadyRound(series, spec.steadyState)
  if (first === null) {
    expect(results.steadyState.verdict).to.equal('not-achieved')
    expect(results.rounds).to.have.length(maxRounds)
  } else {
    expect(results.steadyState.verdict).to.equal('steady')
    expect(results.steadyState.toRound).to.equal(first)
    expect(results.rounds).to.have.length(first)
  }
  expect(results.windowAverages).to.have.length(56)
  // WIPC wrote exactly wipcMultiple x the ActiveRange
  expect(results.wipc!.writtenBytes).to.equal(results.parameters.preconditionActiveRangeBytes * results.parameters.wipcMultiple)
  return {results, manifest}
}
