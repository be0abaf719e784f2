/**
 * One PTS test run end to end (the I/O shell around the pure core): purge, WIPC, then WDPC
 * rounds in the spec's loop order until steady state or the round limit (digest B §4).
 * results.json is rewritten (atomically) after every test point; manifest.json at every phase.
 */
import {readdirSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {FioFailedError, PtsError, EXIT} from '../errors.js'
import {FioEngine, type StartedJob} from '../engine/fio.js'
import {pointJob, wipcJob} from '../engine/jobfile.js'
import {FioOutputError, parseFioJson} from '../engine/parse.js'
import {pointSeed, type Plan, type TestPoint} from '../spec/expand.js'
import {conclude} from '../store/results.js'
import {RunStore} from '../store/run-store.js'
import {removeSignature} from '../store/integrity.js'
import {identityText} from './identity.js'
import {applyWriteCache, openRun, recordInterruption, resumeHousekeeping, sealRun, stopOnSignals} from './session.js'
import type {KeyObject} from 'node:crypto'
import type {PointResult, RunManifest, RunResults} from '../store/types.js'
import type {ResolvedTarget} from '../device/target.js'
import {runPurge, type PurgeChoice} from '../device/purge.js'
import {Progress} from '../progress.js'
import {blockSizeLabel, formatBytes, formatDuration} from '../units.js'

export class InterruptedError extends PtsError {
  constructor(signal: string, runDir: string) {
    super(`interrupted by ${signal}; every completed test point is kept in ${runDir}`, EXIT.interrupted, `resume with: pts resume ${runDir}`)
  }
}

/** A stored run to continue (pts resume). */
export interface ResumeState {
  manifest: RunManifest
  results: RunResults
  /** Discard everything measured and start again from the purge (a clean, compliant run). */
  restartFromPurge: boolean
  /** What happened, for the deviation text and the event log. */
  interruption: {lastActivityAt: string; status: string; leftovers: string[]}
}

export interface RunInputs {
  plan: Plan
  target: ResolvedTarget
  fio: {path: string; version: string}
  runId: string
  runDir: string
  argv: string[]
  toolVersion: string
  host: RunManifest['host']
  progress: Progress
  /** The purge to run (null: the target is a file, nothing to purge). */
  purge: PurgeChoice | null
  resume?: ResumeState
  /** Private key: sign manifest.json when the run ends (manifest.sig; `pts audit --verify-key`). */
  signKey?: KeyObject
}

export interface RunSummary {
  runId: string
  runDir: string
  status: RunResults['status']
  test: string
  revision: string
  profile: string
  target: string
  verdict: RunResults['steadyState']['verdict']
  window: {fromRound: number | null; toRound: number | null}
  rounds: number
  pointsPerRound: number
  compliant: boolean
  nonCompliantReasons: string[]
  deviations: string[]
  tracking: Array<{id: string; label: string; windowAverage: number | null; steady: boolean | null}>
  files: {manifest: string; results: string; raw: string}
}

type Step = {seq: number; kind: 'wipc'} | {seq: number; kind: 'point'; round: number; point: TestPoint}

const iso = (d: Date) => d.toISOString()
const nsToIso = (ns: bigint) => new Date(Number(ns / 1_000_000n)).toISOString()
const pad = (n: number, w: number) => String(n).padStart(w, '0')

function initialResults(inp: RunInputs): RunResults {
  const {plan} = inp
  const s = plan.spec
  return {
    schemaVersion: 1,
    runId: inp.runId,
    test: s.id,
    revision: s.revision,
    profile: plan.options.profile,
    status: 'running',
    parameters: {
      threadCount: plan.options.threadCount,
      queueDepth: plan.options.queueDepth,
      pointSeconds: plan.options.pointSeconds,
      maxRounds: plan.options.maxRounds,
      onNoSteadyState: plan.options.onNoSteadyState,
      wipcMultiple: plan.options.wipcMultiple,
      ioengine: plan.options.ioengine,
      seed: plan.options.seed,
      activeRangePct: plan.profile.activeRangePct,
      activeRangeBytes: plan.activeRangeBytes,
      preconditionActiveRangePct: plan.profile.preconditionActiveRangePct,
      preconditionActiveRangeBytes: plan.preconditionActiveRangeBytes,
      writeCacheRequired: plan.profile.writeCache,
      dataPattern: s.stimulus.dataPattern,
      access: s.stimulus.access,
      rwMixReadPct: s.stimulus.loops.rwMixReadPct,
      blockSizesBytes: s.stimulus.loops.blockSizesBytes,
      windowRounds: s.steadyState.windowRounds,
      maxDataExcursionPct: s.steadyState.maxDataExcursionPct,
      maxSlopeExcursionPct: s.steadyState.maxSlopeExcursionPct,
    },
    purge: {method: plan.purge.method, status: 'skipped', deviation: plan.purge.deviation, startedAt: null, finishedAt: null, detail: ''},
    wipc: null,
    rounds: [],
    tracking: [],
    evaluations: [],
    steadyState: {verdict: 'pending', fromRound: null, toRound: null, variables: []},
    windowAverages: [],
  }
}

function initialManifest(inp: RunInputs): RunManifest {
  const {plan, target} = inp
  return {
    schemaVersion: 1,
    runId: inp.runId,
    test: plan.spec.id,
    revision: plan.spec.revision,
    profile: plan.options.profile,
    argv: inp.argv,
    cwd: process.cwd(),
    status: 'running',
    createdAt: iso(new Date()),
    finishedAt: null,
    pid: process.pid,
    tool: {name: 'pts', version: inp.toolVersion},
    fio: inp.fio,
    node: process.version,
    host: inp.host,
    target: {kind: target.kind, path: target.path, sizeBytes: target.sizeBytes, identity: target.identity},
    compliance: plan.compliance,
    deviations: plan.deviations,
    events: [],
    error: null,
  }
}

export function summarize(runDir: string, m: RunManifest, r: RunResults, pointsPerRound: number): RunSummary {
  return {
    runId: r.runId,
    runDir,
    status: r.status,
    test: r.test,
    revision: r.revision,
    profile: r.profile,
    target: m.target.kind === 'file' ? `file:${m.target.path}` : m.target.path,
    verdict: r.steadyState.verdict,
    window: {fromRound: r.steadyState.fromRound, toRound: r.steadyState.toRound},
    rounds: r.rounds.filter(x => x.finishedAt).length,
    pointsPerRound,
    compliant: m.compliance.compliant,
    nonCompliantReasons: m.compliance.reasons,
    deviations: m.deviations,
    tracking: r.tracking.map(t => {
      const v = r.steadyState.variables.find(x => x.id === t.id)
      return {id: t.id, label: t.label, windowAverage: v?.average ?? null, steady: v ? v.steady : null}
    }),
    files: {manifest: join(runDir, 'manifest.json'), results: join(runDir, 'results.json'), raw: join(runDir, 'raw')},
  }
}

export async function runTest(inp: RunInputs): Promise<RunSummary> {
  const {plan, progress} = inp
  const {store, lock} = openRun(inp.runDir, inp.target, inp.resume !== undefined)
  const manifest = inp.resume ? inp.resume.manifest : initialManifest(inp)
  const results = inp.resume ? inp.resume.results : initialResults(inp)
  const event = (name: string, detail: string) => {
    manifest.events.push({at: iso(new Date()), event: name, detail})
    store.saveManifest(manifest)
  }
  if (inp.resume) {
    // The files change from here on: the old seal and signature no longer apply.
    manifest.integrity = null
    removeSignature(inp.runDir)
    prepareResume(store, manifest, results, inp.resume, plan.points.length)
    if (inp.resume.restartFromPurge) {
      manifest.compliance = {...plan.compliance, reasons: [...plan.compliance.reasons]}
      manifest.deviations = [...plan.deviations]
    }
    store.saveResults(results)
    event('resume', `${inp.argv.join(' ')}; ${inp.resume.restartFromPurge ? 'restarting from the purge' : `continuing from ${results.wipc ? `round ${results.rounds.length + 1}` : 'WIPC'}`}${inp.resume.interruption.leftovers.length ? `; ${inp.resume.interruption.leftovers.join('; ')}` : ''}`)
  } else {
    store.saveResults(results)
    event('start', `${plan.spec.id} ${plan.spec.revision} ${plan.options.profile} on ${inp.target.kind === 'file' ? 'file:' : ''}${inp.target.path}`)
  }
  // The device identity as seen by this process (start and every resume): the audit checks it never changed.
  event('identity', identityText(inp.target))

  const engine = new FioEngine(inp.fio.path)
  engine.onProcesses = p => lock.update(p)
  let restoreCache = () => {}
  const live = new Set<StartedJob>()
  const signals = stopOnSignals(engine, live, () => restoreCache(), m => progress.note(m), 'points')
  const finish = (status: RunResults['status'], error: PtsError | null) => {
    const c = conclude(results, plan.spec, plan.points.length, status === 'complete')
    Object.assign(results, c)
    results.status = status
    manifest.status = status
    manifest.finishedAt = iso(new Date())
    manifest.error = error ? {message: error.message, exit: error.exit} : null
    store.saveResults(results)
    event('finish', `${status}; steady state ${results.steadyState.verdict}${results.steadyState.fromRound ? ` (window rounds ${results.steadyState.fromRound}-${results.steadyState.toRound})` : ''}`)
  }

  const seal = () => sealRun(store, manifest, inp.runDir, inp.signKey, m => progress.note(m))


  try {
    // 1. Purge (digest Part A 8): the chosen PTS method, or a fallback the operator asked for
    // (a recorded deviation). A purge that fails stops the run before any write.
    const purged = results.purge.finishedAt !== null && results.purge.status !== 'failed'
    if (!purged) {
      results.purge.startedAt = iso(new Date())
      if (inp.purge === null) {
        results.purge.status = 'skipped'
        results.purge.detail = 'none: the target is a regular file'
      } else {
        if (inp.purge.refused) throw new FioFailedError(`purge refused, nothing was written: ${inp.purge.refused}`)
        progress.update({phase: `purge: ${inp.purge.method} of ${inp.target.path}`}, true)
        const r = runPurge(inp.target.device!.purgeFacts, inp.purge, {sizeBytes: inp.target.sizeBytes, onProgress: (msg: string) => progress.update({phase: `purge: ${msg}`})})
        store.writeRaw('raw/purge.json', JSON.stringify(r, null, 2) + '\n')
        results.purge.method = r.method
        results.purge.deviation = r.deviation
        results.purge.status = r.ok ? 'done' : 'failed'
        results.purge.detail = `${r.detail}${r.verification ? `; verification: ${r.verification.outcome}` : ''} (tool output: raw/purge.json)`
        if (!r.ok) {
          results.purge.finishedAt = iso(new Date())
          throw new FioFailedError(`purge ${r.method} failed, nothing else was written: ${r.detail}`, `the tool output is in ${store.path('raw/purge.json')}`)
        }
      }
      results.purge.finishedAt = iso(new Date())
      store.saveResults(results)
      event('purge', `${results.purge.method}: ${results.purge.detail}`)
    }

    // Write cache per profile (digest B §2.6, Part A 6): set on the device, restored at the end.
    restoreCache = applyWriteCache(inp.target, plan.profile.writeCache, manifest, event)

    // 2. WIPC and 3. WDPC rounds, as one pipeline of fio jobs with no idle gap between points.
    const n = plan.points.length
    const maxRounds = plan.options.maxRounds
    const mayStartRound = (r: number) => r <= maxRounds || plan.options.onNoSteadyState === 'continue'
    const successor = (s: Step): Step | null => {
      if (s.kind === 'wipc') return {seq: s.seq + 1, kind: 'point', round: 1, point: plan.points[0]}
      if (s.point.index < n - 1) return {seq: s.seq + 1, kind: 'point', round: s.round, point: plan.points[s.point.index + 1]}
      return mayStartRound(s.round + 1) ? {seq: s.seq + 1, kind: 'point', round: s.round + 1, point: plan.points[0]} : null
    }
    // A point's end releases the next point of the same round directly; at round ends pts
    // evaluates steady state first, and after WIPC it stores the WIPC result first.
    const autoRelease = (s: Step) => s.kind === 'point' && s.point.index < n - 1
    const rel = (s: Step) => s.kind === 'wipc'
      ? 'raw/wipc'
      : `raw/round-${pad(s.round, 2)}/${pad(s.point.index + 1, 2)}-${s.point.id}`
    const launch = async (s: Step, gated: boolean): Promise<StartedJob> => {
      const hooks = engine.hooks(s.seq, autoRelease(s), plan.options.threadCount)
      const text = s.kind === 'wipc' ? wipcJob(plan, hooks) : pointJob(plan, s.point, s.round, hooks)
      if (s.kind === 'point') store.ensureDir(`raw/round-${pad(s.round, 2)}`)
      store.writeRaw(`${rel(s)}.fio`, text)
      const job = await engine.start(s.seq, store.path(`${rel(s)}.fio`), store.path(`${rel(s)}.json`), gated)
      live.add(job)
      void job.exited.then(() => live.delete(job))
      return job
    }
    const eta = (s: Step) => {
      if (s.kind === 'wipc') return undefined
      const left = (n - s.point.index) * plan.options.pointSeconds
      const r = plan.durations.roundSec
      const min = left + Math.max(0, plan.durations.minRounds - s.round) * r
      const max = plan.durations.maxRounds === null ? null : left + Math.max(0, plan.durations.maxRounds - s.round) * r
      return {min, max}
    }
    const trackingText = () => results.tracking.length === 0 || results.tracking[0].series.length === 0
      ? undefined
      : `last ${results.tracking.map(t => `${t.id} ${Math.round(t.series.at(-1)!)}`).join(', ')}`
    const steadyText = () => {
      const e = results.evaluations.at(-1)
      if (!e) return 'SS: no round yet'
      if (e.status === 'not-yet') return `SS: needs ${plan.spec.steadyState.windowRounds} rounds`
      if (e.status === 'steady') return `SS: steady in rounds ${e.fromRound}-${e.toRound}`
      const bad = e.variables.filter(v => !v.steady).map(v => `${v.id}${v.dataExcursionOk ? '' : ' range'}${v.slopeExcursionOk ? '' : ' slope'}`)
      return `SS: rounds ${e.fromRound}-${e.toRound} not steady (${bad.join(', ')})`
    }

    // Jobs are started LOOKAHEAD ahead of the running one, so each has finished its setup
    // (fork, open, buffer allocation; slow on a loaded 2-core host) before it is released.
    const LOOKAHEAD = 2
    // Where to start: WIPC, or (resumed) the round after the last complete one.
    const doneRounds = results.rounds.length
    if (results.wipc !== null) {
      Object.assign(results, conclude(results, plan.spec, n, false))
      if (results.evaluations.at(-1)?.status === 'steady' || !mayStartRound(doneRounds + 1)) {
        finish('complete', null)
        return summarize(inp.runDir, manifest, results, n)
      }
    }
    let step: Step = results.wipc === null ? {seq: 0, kind: 'wipc'} : {seq: 0, kind: 'point', round: doneRounds + 1, point: plan.points[0]}
    if (step.kind === 'wipc') progress.update({phase: `WIPC: SEQ ${blockSizeLabel(plan.wipc.blockSizeBytes)} writes, ${formatBytes(plan.wipc.totalBytes)} (${plan.options.wipcMultiple}x ActiveRange), TC ${plan.options.threadCount}/QD ${plan.options.queueDepth}`}, true)
    let current = await launch(step, false)
    const queue: Array<{step: Step; job: StartedJob}> = []
    // a job cancelled before it ran leaves no job file behind (it is not part of the run)
    const cancelQueued = async () => { for (const q of queue.splice(0)) { await q.job.cancel(); rmSync(store.path(`${rel(q.step)}.fio`), {force: true}) } }
    for (;;) {
      let last: Step = queue.at(-1)?.step ?? step
      while (queue.length < LOOKAHEAD) {
        const s2 = successor(last)
        if (!s2) break
        queue.push({step: s2, job: await launch(s2, true)})
        last = s2
      }
      const succ = queue[0]?.step ?? null
      const next = queue[0]?.job ?? null
      if (step.kind === 'point') {
        progress.update({
          phase: 'WDPC', round: step.round, maxRounds: plan.options.onNoSteadyState === 'continue' ? null : maxRounds,
          point: {index: step.point.index + 1, of: n, label: step.point.label}, etaSec: eta(step), tracking: trackingText(), steady: steadyText(),
        })
      }
      const exit = await current.exited
      if (signals.stopped()) {
        await cancelQueued()
        throw new InterruptedError(signals.stopped()!, inp.runDir)
      }
      if (exit.code !== 0) {
        await cancelQueued()
        const tail = exit.stderr.trim().split('\n').slice(-20).join('\n')
        throw new FioFailedError(`fio failed (${exit.code === null ? `signal ${exit.signal}` : `exit ${exit.code}`}) on ${rel(step)}.fio:\n${tail}`, `the job file is ${store.path(`${rel(step)}.fio`)}; every completed point is kept in ${inp.runDir}`)
      }
      let parsed
      try {
        parsed = parseFioJson(current.finish())
      } catch (error) {
        await cancelQueued()
        if (error instanceof FioOutputError) throw new FioFailedError(`${rel(step)}.json: ${error.message}`)
        throw error
      }
      const m = parsed.groups[0].measurement
      const ts = current.timestamps()
      const startNs = ts?.startNs ?? BigInt(parsed.timestampMs) * 1_000_000n - BigInt(Math.round(m.runtimeSec * 1e9))
      const endNs = ts?.endNs ?? BigInt(parsed.timestampMs) * 1_000_000n
      if (step.kind === 'wipc') {
        results.wipc = {
          blockSizeBytes: plan.wipc.blockSizeBytes,
          requiredBytes: plan.wipc.requiredBytes,
          plannedBytes: plan.wipc.totalBytes,
          writtenBytes: m.writeBytes,
          bwBytesPerSec: m.writeBwBytesPerSec,
          runtimeSec: m.runtimeSec,
          startedAt: nsToIso(startNs),
          finishedAt: nsToIso(endNs),
          raw: {json: `${rel(step)}.json`, job: `${rel(step)}.fio`},
        }
        store.saveResults(results)
        event('wipc', `${m.writeBytes} bytes written in ${m.runtimeSec} s (${(m.writeBwBytesPerSec / 1e6).toFixed(1)} MB/s)`)
        progress.note(`WIPC done: ${formatBytes(m.writeBytes)} in ${formatDuration(m.runtimeSec)} (${(m.writeBwBytesPerSec / 1e6).toFixed(1)} MB/s)`)
        if (m.writeBytes !== plan.wipc.totalBytes) {
          await cancelQueued()
          throw new FioFailedError(`WIPC wrote ${m.writeBytes} bytes, expected exactly ${plan.wipc.totalBytes}`)
        }
        next?.release()
      } else {
        const point: PointResult = {
          index: step.point.index,
          id: step.point.id,
          readPct: step.point.readPct,
          blockSizeBytes: step.point.blockSizeBytes,
          startedAt: nsToIso(startNs),
          finishedAt: nsToIso(endNs),
          startNs: startNs.toString(),
          endNs: endNs.toString(),
          seed: pointSeed(plan.options.seed, step.round, step.point.index),
          raw: {json: `${rel(step)}.json`, job: `${rel(step)}.fio`},
          ...m,
        }
        let round = results.rounds.find(r => r.round === (step as {round: number}).round)
        if (!round) {
          round = {round: step.round, startedAt: point.startedAt, finishedAt: null, points: []}
          results.rounds.push(round)
        }
        round.points.push(point)
        const lastOfRound = step.point.index === n - 1
        if (!lastOfRound) {
          store.saveResults(results)
          next?.release() // normally already released by this point's postrun hook
        } else {
          round.finishedAt = point.finishedAt
          Object.assign(results, conclude(results, plan.spec, n, false))
          store.saveResults(results)
          const e = results.evaluations.at(-1)!
          event('round', `round ${step.round} complete; ${steadyText()}`)
          progress.update({phase: 'WDPC', round: step.round, maxRounds: plan.options.onNoSteadyState === 'continue' ? null : maxRounds, point: {index: n, of: n, label: 'round complete'}, tracking: trackingText(), steady: steadyText()}, true)
          if (e.status === 'steady' || !next) {
            await cancelQueued()
            break
          }
          next.release() // the next round starts only after this round's evaluation
        }
      }
      queue.shift()
      step = succ!
      current = next!
    }
    finish('complete', null)
  } catch (error) {
    const e = error instanceof PtsError ? error : new PtsError(`internal error: ${(error as Error).stack ?? error}`, EXIT.internal)
    try {
      finish(error instanceof InterruptedError ? 'interrupted' : 'failed', e)
    } catch { /* keep the original error */ }
    throw e
  } finally {
    signals.remove()
    await engine.close()
    restoreCache()
    seal()
    lock.release()
    progress.done()
  }
  return summarize(inp.runDir, manifest, results, plan.points.length)
}

/**
 * Prepare a stored run for resumption (issue 4 item 5): the round that was cut is discarded and
 * re-run from its start (its raw files are kept under raw/cut-<time>/ for the audit trail); with
 * restartFromPurge everything measured is set aside and the run starts over, compliant again.
 * Otherwise the interruption is a recorded deviation (idle time changes what the drive does).
 */
export function prepareResume(store: RunStore, manifest: RunManifest, results: RunResults, r: ResumeState, pointsPerRound: number): void {
  const now = new Date()
  const {cutDir, setAside} = resumeHousekeeping(store, now)
  const pad2 = (x: number) => String(x).padStart(2, '0')
  if (r.restartFromPurge) {
    for (const round of results.rounds) setAside(`raw/round-${pad2(round.round)}`)
    if (results.wipc) { setAside('raw/wipc.fio'); setAside('raw/wipc.json') }
    // any round directory of a cut round that never reached results.json
    for (const d of readdirSync(store.path('raw'))) if (/^round-\d+$/.test(d)) setAside(`raw/${d}`)
    results.rounds = []
    results.wipc = null
    results.purge = {...results.purge, status: 'skipped', startedAt: null, finishedAt: null, detail: ''}
  } else {
    const complete = results.rounds.filter(x => x.finishedAt !== null && x.points.length === pointsPerRound)
    const cut = results.rounds.filter(x => !complete.includes(x))
    results.rounds = complete
    for (const d of readdirSync(store.path('raw'))) {
      const m = /^round-(\d+)$/.exec(d)
      if (m && !complete.some(x => x.round === Number(m[1]))) setAside(`raw/${d}`)
    }
    if (!results.wipc) { setAside('raw/wipc.fio'); setAside('raw/wipc.json') }
    const where = results.wipc ? `round ${complete.length + 1} re-run from its start${cut.length ? ` (${cut[0].points.length} points of the cut round set aside in ${cutDir})` : ''}` : 'WIPC re-run'
    recordInterruption(manifest, r.interruption, now, where, 'the run was interrupted and resumed (idle time between rounds)')
  }
  results.status = 'running'
  results.steadyState = {verdict: 'pending', fromRound: null, toRound: null, variables: []}
  results.windowAverages = []
  manifest.status = 'running'
  manifest.finishedAt = null
  manifest.error = null
  manifest.pid = process.pid
}
