/**
 * One test-program run end to end (TP, LAT, WSAT, HIR, XSR, CBW/ECW, DIRTH): the phases of the
 * plan in order, each through the same fio engine, store and steady-state module as IOPS. Within a
 * phase, fio jobs are started ahead and released by the previous job's end (no idle gap; digest
 * Part A 7); a loop round's end is evaluated before the next round is released; a series stops on
 * its first limit (duration, capacity written, operator limit, optional steady state).
 *
 * results.json is rewritten atomically after every step; completed steps survive a crash, and
 * `pts resume` continues from the stored state (a cut loop round or bursts phase is re-run from
 * its start; a cut series continues with its next sample; the interruption is a deviation).
 */
import type {KeyObject} from 'node:crypto'
import {existsSync, readdirSync, rmSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {EXIT, FioFailedError, FioOutputError, InterruptedError, PtsError} from '../errors.js'
import * as M from '../messages.js'
import {FioEngine, gateNote, GATE_NOTE, type StartedJob} from '../engine/fio.js'
import {perSecondJob, perSecondPrefix, stripHooks} from '../engine/jobfile.js'
import {jobBytes, jobRuntimeSec, parseFioJson, perSecondTrace, type ParsedFio} from '../engine/parse.js'
import {type Measurement} from '../model/results.js'
import type {ResolvedTarget} from '../device/target.js'
import {runPurge} from '../device/purge.js'
import type {PurgeChoice} from '../device/purge-plan.js'
import {Progress} from '../progress.js'
import {identityText} from './identity.js'
import {DEFAULT_HEALTH_INTERVAL_SEC, HealthMonitor, healthSourceOf, newHealthRecord} from './health.js'
import {applyWriteCache, openRun, recordInterruption, resumeHousekeeping, sealRun, stopOnSignals} from './session.js'
import {removeSignature} from '../store/integrity.js'
import {RunStore} from '../store/run-store.js'
import type {RunManifest, RunMetadata} from '../model/manifest.js'
import {blockSizeLabel, formatBytes, formatDuration} from '../units.js'
import type {PlannedPhase, ProgramPlan, ResolvedWorkload} from '../plan/expand.js'
import {burstComment, fillPieceJob, programJob, programWipcJob, seriesSampleJob, stepSeed} from '../engine/job.js'
import {firstStreamStarts, nextStreamStarts, streamAdvance} from '../plan/stream.js'
import {type PerSecondTrace, type PhaseResult, type ProgramResults, type SeriesSample, type StepResult, type StepTiming} from '../model/results.js'
import {userParameter} from '../model/wording.js'
import {DEFAULT_MAX_GAP_MS, durationText, gapMs, gapText, runTimingReview, spanSec, startAhead, stepTiming, timingFindings} from '../analysis/timing.js'
import {stepsOf} from '../analysis/steps.js'
import {concludeLoop} from '../steady-state/conclude.js'
import {burstsFromSteps, chooseOperatingPoints, histogramFromBins, seriesStop} from '../analysis/derive.js'
import {binsOf} from '../model/latency.js'
import {drivesThatRan, startCpuSampling, type RunConcurrencyInput} from './concurrency.js'
import {healthView} from '../analysis/health.js'
import {addRemaining, etaFromMeasured, phaseRemaining, stepOverheadSec, type Remaining, type StepWall} from '../analysis/eta.js'

export interface ProgramRunInputs {
  plan: ProgramPlan
  target: ResolvedTarget
  fio: {path: string; version: string}
  runId: string
  runDir: string
  argv: string[]
  toolVersion: string
  host: RunManifest['host']
  progress: Progress
  purge: PurgeChoice | null
  signKey?: KeyObject
  /** The operator's report metadata (--operator, --vendor, --notes), stored in the manifest. */
  metadata?: RunMetadata
  /** A lane of a multi-drive run: the fleet and the drives tested at the same time (recorded in the manifest with the host's CPU use). */
  concurrency?: RunConcurrencyInput
  /** Seconds between drive temperature samples (--health-interval; default 60; a resumed run keeps its own). */
  healthIntervalSec?: number
  resume?: {manifest: RunManifest; results: ProgramResults
    /** Set aside everything measured and start again from the first phase (a clean, compliant run). */
    restartFromPurge: boolean
    interruption: {lastActivityAt: string; status: string; leftovers: string[]}}
}

export interface ProgramSummary {
  runId: string
  runDir: string
  status: ProgramResults['status']
  test: string
  revision: string
  profile: string
  target: string
  compliant: boolean
  nonCompliantReasons: string[]
  deviations: string[]
  phases: Array<{id: string; kind: string; status: string; detail: string}>
  /** Each loop's tracking variables with their window average (in the variable's unit: IOPS, B/s or ns; rounded to 0.001) and verdict. */
  tracking: Array<{phase: string; id: string; label: string; windowAverage: number | null; steady: boolean | null}>
  files: {manifest: string; results: string; raw: string}
  /** The run's timing against the bounds of pts audit (analysis/timing.ts): ok, and one line each on durations and idle gaps. */
  timing: {ok: boolean; durations: string; gaps: string}
  /** Drive health and temperature in one line (analysis/health.ts); warning: the drive throttled or raised a critical warning. */
  health: {warning: boolean; text: string}
}

type Step =
  | {kind: 'wipc'}
  | {kind: 'pre'; round: number}
  | {kind: 'point'; round: number; index: number}
  | {kind: 'sample'; index: number}
  /** The one fio job of a bursts or histogram phase. */
  | {kind: 'single'}
  /** Pre-write of operating point op; sample k of it when the pre-write runs as samples (else 0). */
  | {kind: 'op-pre'; op: number; sample: number}
  | {kind: 'burst'; index: number}
  | {kind: 'op-measure'; op: number}
  /** A point of a sweep (review tests). */
  | {kind: 'sweep'; index: number}
  /** Piece k of fill pass `pass` (1-based). */
  | {kind: 'fill'; pass: number; index: number}

/** A step's I/O start and end (ns since the epoch) and its timing (absent for a job that is not time-based). */
interface StepTimes { startNs: bigint; endNs: bigint; timing?: StepTiming; perSecond?: PerSecondTrace }

const iso = (d: Date) => d.toISOString()
const nsToIso = (ns: bigint) => new Date(Number(ns / 1_000_000n)).toISOString()
const pad = (n: number, w: number) => String(n).padStart(w, '0')

export function initialProgramResults(plan: ProgramPlan, runId: string): ProgramResults {
  const o = plan.options
  return {
    schemaVersion: 1,
    kind: 'program',
    runId,
    test: plan.spec.id,
    revision: plan.spec.revision,
    profile: o.profile,
    status: 'running',
    parameters: {
      threadCount: o.threadCount, queueDepth: o.queueDepth, pointSeconds: o.pointSeconds, maxRounds: o.maxRounds,
      onNoSteadyState: o.onNoSteadyState, roundCap: o.roundCap, wipcMultiple: o.wipcMultiple, timeScale: o.timeScale,
      ioengine: o.ioengine, seed: o.seed, workload: plan.selectedWorkload?.key ?? null, workloadLabel: plan.selectedWorkload?.label ?? null,
      ceilingMs: plan.phases.find(p => p.kind === 'operating-points') ? (plan.phases.find(p => p.kind === 'operating-points') as {ceilingMs: number}).ceilingMs : null,
      maxSeconds: o.maxSeconds, maxWrittenBytes: o.maxWrittenBytes, steadyStateExit: o.steadyStateExit, ...(o.perSecond ? {perSecond: true} : {}),
      activeRangePct: plan.profile.activeRangePct, activeRangeBytes: plan.activeRangeBytes,
      preconditionActiveRangePct: plan.profile.preconditionActiveRangePct, preconditionActiveRangeBytes: plan.preconditionActiveRangeBytes,
      writeCacheRequired: plan.profile.writeCache, dataPattern: 'random', capacityBytes: plan.target.sizeBytes,
      specParameters: [...plan.spec.parameters, ...plan.choices].map(userParameter), // without `ref`: internal provenance stays in the definition file
    },
    phases: plan.phases.map(p => emptyPhase(p, plan)),
  }
}

function emptyPhase(p: PlannedPhase, plan: ProgramPlan): PhaseResult {
  switch (p.kind) {
    case 'purge': return {kind: 'purge', id: p.id, title: p.title, status: 'pending', method: plan.purge.method, deviation: plan.purge.deviation, startedAt: null, finishedAt: null, detail: ''}
    case 'wipc': return {kind: 'wipc', id: p.id, title: p.title, status: 'pending', blockSizeBytes: p.blockSizeBytes, requiredBytes: p.requiredBytes, plannedBytes: p.totalBytes, writtenBytes: 0, bwBytesPerSec: 0, runtimeSec: 0, startedAt: null, finishedAt: null, raw: null}
    case 'loop': return {kind: 'loop', id: p.id, title: p.title, status: 'pending',
      criteria: {windowRounds: p.steadyState.windowRounds, maxDataExcursionPct: p.steadyState.maxDataExcursionPct, maxSlopeExcursionPct: p.steadyState.maxSlopeExcursionPct, maxRounds: p.maxRounds, pointSeconds: p.pointSeconds},
      rounds: [], tracking: [], evaluations: [], steadyState: {verdict: 'pending', fromRound: null, toRound: null, variables: []}, windowAverages: []}
    case 'series': return {kind: 'series', id: p.id, title: p.title, status: 'pending', sampleSeconds: p.sampleSeconds, samples: [], writtenBytes: 0, stopReason: null, steadyState: null}
    case 'bursts': return {kind: 'bursts', id: p.id, title: p.title, status: 'pending', waitState: p.waitState, burstSeconds: p.burstSeconds, idleSeconds: p.idleSeconds, repeats: p.repeats, job: null, bursts: [], log: null}
    case 'operating-points': return {kind: 'operating-points', id: p.id, title: p.title, status: 'pending', ceilingMs: p.ceilingMs, fromPhase: p.fromPhase, points: []}
    case 'histogram': return {kind: 'histogram', id: p.id, title: p.title, status: 'pending', optional: p.optional, job: null, histogram: null}
    case 'sweep': return {kind: 'sweep', id: p.id, title: p.title, status: 'pending', pointSeconds: p.pointSeconds, points: []}
    case 'fill': return {kind: 'fill', id: p.id, title: p.title, status: 'pending', passes: p.passes, steps: []}
  }
}

function initialManifest(inp: ProgramRunInputs): RunManifest {
  const {plan, target} = inp
  return {
    schemaVersion: 1, runId: inp.runId, test: plan.spec.id, revision: plan.spec.revision, profile: plan.options.profile, argv: inp.argv, cwd: process.cwd(),
    status: 'running', createdAt: iso(new Date()), finishedAt: null, pid: process.pid, tool: {name: 'pts', version: inp.toolVersion}, fio: inp.fio,
    node: process.version, host: inp.host, target: {kind: target.kind, path: target.path, sizeBytes: target.sizeBytes, identity: target.identity},
    ...(inp.metadata ? {metadata: inp.metadata} : {}),
    compliance: {...plan.compliance, reasons: [...plan.compliance.reasons]}, deviations: [...plan.deviations], events: [], error: null,
  }
}

/** The lane's fleet in the manifest, and concurrent testing as a recorded deviation (a test condition the report shows). */
function recordConcurrency(manifest: RunManifest, c: RunConcurrencyInput, target: ResolvedTarget): void {
  manifest.concurrency = {fleet: c.fleet, lane: c.lane, drives: c.drives, hostCpu: manifest.concurrency?.hostCpu ?? []}
  const me = target.kind === 'file' ? `file:${target.path}` : target.path
  const others = c.drives.filter(d => d !== me)
  const lead = 'tested at the same time as '
  manifest.deviations = manifest.deviations.filter(d => !d.startsWith(lead))
  if (others.length === 0) return
  manifest.deviations.push(`${lead}${others.length} other drive${others.length === 1 ? '' : 's'} on this host (${others.join(', ')}), one fio process each: they share the host's CPU, memory and I/O paths`)
}

/** One line per phase for the summary and the progress notes (pure). */
export function phaseDetail(r: PhaseResult): string {
  switch (r.kind) {
    case 'purge': return `${r.method}: ${r.status}${r.detail ? ` (${r.detail})` : ''}${r.writeCache ? `; write cache ${r.writeCache.readBack}${r.writeCache.meets ? '' : ` (required: ${r.writeCache.required})`}` : ''}`
    case 'wipc': return r.status === 'done' ? `${formatBytes(r.writtenBytes)} in ${formatDuration(r.runtimeSec)}` : r.status
    case 'loop': return r.steadyState.verdict === 'steady' ? `steady state in rounds ${r.steadyState.fromRound}-${r.steadyState.toRound}`
      : r.steadyState.verdict === 'not-achieved' ? `steady state NOT ACHIEVED (window rounds ${r.steadyState.fromRound}-${r.steadyState.toRound})` : `${r.rounds.length} rounds, ${r.status}`
    case 'series': return `${r.samples.length} samples, ${formatBytes(r.writtenBytes)} written${r.stopReason ? `; ended by ${r.stopReason}` : ''}`
    case 'bursts': return `${r.bursts.length} bursts${r.bursts.length ? `, mean ${Math.round(r.bursts.reduce((a, b) => a + b.iops, 0) / r.bursts.length)} IOPS` : ''}`
    case 'histogram': return r.histogram ? `${r.histogram.reduce((a, b) => a + b.count, 0)} IOs in the histogram` : r.status
    case 'sweep': return `${r.points.length} points${r.points.length ? `, ${Math.round(Math.min(...r.points.map(x => x.iops)))}-${Math.round(Math.max(...r.points.map(x => x.iops)))} IOPS` : ''}`
    case 'fill': return `${r.steps.length} pieces, ${formatBytes(r.steps.reduce((a, x) => a + x.writeBytes, 0))} written`
    case 'operating-points': return r.points.map(p => `${p.role} TC ${p.threadCount}/QD ${p.queueDepth}${p.histogram ? ` (${p.histogram.reduce((a, b) => a + b.count, 0)} IOs in the histogram)` : ''}`).join(', ') || r.status
  }
}

export function summarizeProgram(runDir: string, m: RunManifest, r: ProgramResults): ProgramSummary {
  return {
    runId: r.runId, runDir, status: r.status, test: r.test, revision: r.revision, profile: r.profile,
    target: m.target.kind === 'file' ? `file:${m.target.path}` : m.target.path,
    compliant: m.compliance.compliant, nonCompliantReasons: m.compliance.reasons, deviations: m.deviations,
    phases: r.phases.map(p => ({id: p.id, kind: p.kind, status: p.status, detail: phaseDetail(p)})),
    tracking: r.phases.flatMap(p => (p.kind !== 'loop' ? [] : p.tracking.map(t => {
      const v = p.steadyState.variables.find(x => x.id === t.id)
      // rounded at output (to 0.001 of its unit): the average itself stays exact in results.json
      return {phase: p.id, id: t.id, label: t.label, windowAverage: v ? Math.round(v.average * 1000) / 1000 : null, steady: v ? v.steady : null}
    }))),
    files: {manifest: join(runDir, 'manifest.json'), results: join(runDir, 'results.json'), raw: join(runDir, 'raw')},
    timing: (() => {
      const t = runTimingReview(r, m.events.filter(e => e.event === 'resume').map(e => Date.parse(e.at)))
      return {ok: t.ok, durations: durationText(t), gaps: gapText(t)}
    })(),
    health: (() => {
      const v = healthView(r)
      return {warning: v.warnings.length > 0, text: v.summary}
    })(),
  }
}

export async function runProgram(inp: ProgramRunInputs): Promise<ProgramSummary> {
  const {plan, progress} = inp
  if (inp.resume && !inp.resume.restartFromPurge) {
    // A run stored under another definition of the test (e.g. TP's block sizes in the other order) cannot be continued phase by phase.
    const was = inp.resume.results.phases.map(p => `${p.kind}:${p.id}`).join(', ')
    const now = plan.phases.map(p => `${p.kind}:${p.id}`).join(', ')
    if (was !== now) throw new PtsError(M.runDir.phasesChanged(was, now, plan.spec.id, plan.spec.revision, inp.runDir), EXIT.usage)
  }
  const {store, lock} = openRun(inp.runDir, inp.target, inp.resume !== undefined)
  const manifest = inp.resume ? inp.resume.manifest : initialManifest(inp)
  const results = inp.resume && !inp.resume.restartFromPurge ? inp.resume.results : initialProgramResults(plan, inp.runId)
  const save = () => store.saveProgramResults(results)
  const cpuUse = inp.concurrency ? startCpuSampling() : null
  if (inp.concurrency) recordConcurrency(manifest, inp.concurrency, inp.target)
  /** Events recorded in one write of manifest.json: pts killed at any moment leaves all of them or none. */
  const record = (...events: Array<[name: string, detail: string]>) => {
    const at = iso(new Date())
    for (const [name, detail] of events) manifest.events.push({at, event: name, detail})
    store.saveManifest(manifest)
  }
  const event = (name: string, detail: string) => record([name, detail])
  // The start and each resume are written together with the identity of the device they run on
  // (pts audit checks every identity record; a SIGKILL between two writes left a resume without one)
  const identity: [string, string] = ['identity', identityText(inp.target)]
  if (inp.resume) {
    manifest.integrity = null
    removeSignature(inp.runDir)
    if (inp.resume.restartFromPurge) restartFromPurge(store, manifest, plan)
    else prepareProgramResume(store, manifest, results, inp.resume.interruption)
    save()
    record(['resume', `${inp.argv.join(' ')}${inp.resume.restartFromPurge ? '; restarting from the purge' : ''}${inp.resume.interruption.leftovers.length ? `; ${inp.resume.interruption.leftovers.join('; ')}` : ''}`], identity)
  } else {
    save()
    record(['start', `${plan.spec.id} ${plan.spec.revision} ${plan.options.profile} on ${inp.target.kind === 'file' ? 'file:' : ''}${inp.target.path}`], identity)
  }
  // Drive health: the SMART / health log before and after the test, the temperature sampled during it (runner/health.ts).
  const healthSource = healthSourceOf(inp.target)
  results.health = results.health ?? newHealthRecord(healthSource, inp.healthIntervalSec ?? DEFAULT_HEALTH_INTERVAL_SEC)
  const health = new HealthMonitor({store, health: results.health, source: healthSource, note: m => progress.note(m), event})

  const engine = new FioEngine(inp.fio.path)
  if (!existsSync(store.path(GATE_NOTE))) store.writeRaw(GATE_NOTE, gateNote())
  engine.onProcesses = p => lock.update(p)
  let seq = 0
  /** Every time-based step's planned length and measured wall time (the ETA's overhead per step, analysis/eta.ts). */
  const walls: StepWall[] = []
  let restoreCache = () => {}
  const live = new Set<StartedJob>()
  const signals = stopOnSignals(engine, live, () => restoreCache(), m => progress.note(m), 'steps')
  const finish = (status: ProgramResults['status'], error: PtsError | null) => {
    results.status = status
    manifest.status = status
    manifest.finishedAt = iso(new Date())
    manifest.error = error ? {message: error.message, exit: error.exit} : null
    const use = cpuUse?.()
    if (use && manifest.concurrency) manifest.concurrency.hostCpu.push(use)
    // the lanes refused by their safety gate did not run: only the drives that ran are recorded
    if (inp.concurrency) recordConcurrency(manifest, {...inp.concurrency, drives: drivesThatRan(inp.concurrency)}, inp.target)
    save()
    event('finish', `${status}; ${results.phases.map(p => `${p.id}: ${phaseDetail(p)}`).join('; ')}`)
  }
  const seal = () => sealRun(store, manifest, inp.runDir, inp.signKey, m => progress.note(m))


  /**
   * Run the steps of one phase as a pipeline: each step's successor is started ahead (gated)
   * and released by the step's end (autoRelease) or after onDone decided to go on.
   */
  const pipeline = async (first: Step, successor: (s: Step) => Step | null, autoRelease: (s: Step) => boolean,
    job: (s: Step) => {rel: string; text: (hooks: ReturnType<FioEngine['hooks']>) => string; threads: number; format?: 'json' | 'json+'},
    onDone: (s: Step, m: Measurement, parsed: ParsedFio, t: StepTimes, rel: string) => 'continue' | 'stop',
    /** Idle gaps are recorded from this end (the phase's last stored step; null: none yet); null: not recorded in this phase. */
    gaps: {prevEndNs: bigint | null} | null = null,
    /** Host idle before the successor of s: its release waits until this many ms after s's IO ended (HIR bursts); 0 = at once. */
    idleAfterMs: (s: Step) => number = () => 0,
    /** Steps started ahead, at least (2; more for short steps, analysis/timing.ts startAhead); 0: each step's job is written and started only after the step before has ended (its job depends on that step's output). */
    lookahead = 2) => {
    const LOOKAHEAD = lookahead
    const launch = async (s: Step, gated: boolean, sync = true) => {
      const my = ++seq
      const j = job(s)
      const hooks = engine.hooks(my, autoRelease(s), j.threads)
      store.ensureDir(dirname(j.rel))
      // fio runs the job with the gate hooks; the run stores it without them, byte for byte
      // otherwise, so that plain `fio <job>` repeats the step (the hooks: raw/fio-gate.txt)
      // --per-second: fio logs every second of the step (not WIPC) in its working folder, under a name unique in the run
      const logs = plan.options.perSecond === true && s.kind !== 'wipc' ? perSecondPrefix(j.rel) : null
      const ran = logs === null ? j.text(hooks) : perSecondJob(j.text(hooks), logs)
      store.writeRaw(`${j.rel}.fio`, stripHooks(ran), sync)
      const started = await engine.start(my, ran, store.path(`${j.rel}.json`), gated, j.format ?? 'json')
      live.add(started)
      void started.exited.then(() => live.delete(started))
      return {step: s, job: started, rel: j.rel, plannedSec: jobRuntimeSec(ran), logs}
    }
    /** Where the current step's wall time is measured from: the pipeline's start, the previous step's end, or the end of the host idle after it. */
    let mark = Date.now()
    let cur = await launch(first, false)
    health.stepStarted()
    let firstOfPipeline = true
    const queue: Array<Awaited<ReturnType<typeof launch>>> = []
    // a job cancelled before it ran leaves no job file behind (it is not part of the run)
    const cancelQueued = async () => { for (const q of queue.splice(0)) { await q.job.cancel(); rmSync(store.path(`${q.rel}.fio`), {force: true}) } }
    for (;;) {
      let last = queue.at(-1)?.step ?? cur.step
      while (startAhead(LOOKAHEAD, cur.plannedSec, queue.map(q => q.plannedSec))) {
        const n = successor(last)
        if (!n) break
        queue.push(await launch(n, true))
        last = n
      }
      const exit = await cur.job.exited
      health.stepEnded()
      if (signals.stopped()) { await cancelQueued(); throw new InterruptedError(M.runDir.interrupted(signals.stopped()!, inp.runDir)) }
      if (exit.code !== 0) {
        await cancelQueued()
        const tail = exit.stderr.trim().split('\n').slice(-20).join('\n')
        throw new FioFailedError(M.fio.failed(exit, cur.rel, tail, store.path(`${cur.rel}.fio`), inp.runDir))
      }
      let parsed: ParsedFio
      let m: Measurement
      let tsMs: number
      try {
        // the one parse of this output (measurement, json+ bins and timestamps all come from it)
        parsed = parseFioJson(cur.job.finish())
        m = parsed.measurement
        tsMs = parsed.timestampMs
      } catch (error) {
        await cancelQueued()
        if (error instanceof FioOutputError) throw new FioFailedError(M.fio.badOutput(`${cur.rel}.json`, error.message))
        throw error
      }
      const nowMs = Date.now()
      if (cur.plannedSec !== null) walls.push({plannedSec: cur.plannedSec, wallSec: (nowMs - mark) / 1000})
      if (walls.length > 256) walls.splice(0, walls.length - 256)
      mark = nowMs
      const ts = cur.job.timestamps()
      const startNs = ts?.startNs ?? BigInt(tsMs) * 1_000_000n - BigInt(Math.round(m.runtimeSec * 1e9))
      const endNs = ts?.endNs ?? BigInt(tsMs) * 1_000_000n
      // Timing against its bounds (analysis/timing.ts), stored with the step and reported now when beyond them.
      const gapBefore = gaps && gaps.prevEndNs !== null ? gapMs(gaps.prevEndNs, startNs) : null
      const timing = cur.plannedSec === null ? undefined : stepTiming(cur.plannedSec, m, gapBefore)
      if (gaps) gaps.prevEndNs = endNs
      // the first step of a pipeline that continues a stored phase follows an interruption: that gap is a disclosed deviation
      const judged = timing && firstOfPipeline ? {...timing, gapBeforeMs: null} : timing
      firstOfPipeline = false
      if (judged) for (const f of timingFindings(judged, `${cur.rel}.json`, DEFAULT_MAX_GAP_MS, spanSec({startNs, endNs}))) progress.note(`timing: ${f.text}; pts audit will fail this run`)
      // the per-second logs fio wrote: stored beside the step's job (<step>_iops.1.log, ...) and read once
      let perSecond: PerSecondTrace | undefined
      const prefix = cur.logs
      if (prefix !== null) {
        const files = engine.takeLogs(prefix).map(f => ({name: `${cur.rel.split('/').at(-1)}${f.name.slice(prefix.length)}`, text: f.text}))
        for (const f of files) store.writeRaw(`${dirname(cur.rel)}/${f.name}`, f.text, false)
        perSecond = {logs: files.map(f => `${dirname(cur.rel)}/${f.name}`), seconds: perSecondTrace(files)}
      }
      const decision = onDone(cur.step, m, parsed, {startNs, endNs, timing, ...(perSecond ? {perSecond} : {})}, cur.rel)
      if (LOOKAHEAD === 0) {
        // the next job depends on this step's output: start it first and make its job file and
        // results.json durable while it runs, so that the disk's fsync latency does not add to
        // the idle time between the two steps
        const n = decision === 'continue' ? successor(cur.step) : null
        if (n) {
          const next = await launch(n, false, false)
          await next.job.ioStarted()
          health.stepStarted()
          save()
          store.syncRaw(`${next.rel}.fio`)
          cur = next
          continue
        }
        save()
        return
      }
      save()
      const next = queue.shift()
      if (decision === 'stop' || !next) {
        if (next) { await next.job.cancel(); rmSync(store.path(`${next.rel}.fio`), {force: true}) }
        await cancelQueued()
        return
      }
      const idleMs = idleAfterMs(cur.step)
      if (idleMs > 0) { await waitUntil(Number(endNs / 1_000_000n) + idleMs); mark = Date.now() }
      if (signals.stopped()) { await next.job.cancel(); rmSync(store.path(`${next.rel}.fio`), {force: true}); await cancelQueued(); throw new InterruptedError(M.runDir.interrupted(signals.stopped()!, inp.runDir)) }
      next.job.release()
      cur = next
      health.stepStarted()
    }
  }
  /** Sleep until a wall-clock instant (ms since the epoch), waking early on a stop signal. */
  const waitUntil = async (atMs: number) => {
    for (;;) {
      const left = atMs - Date.now()
      if (left <= 0 || signals.stopped()) return
      await new Promise(resolve => setTimeout(resolve, Math.min(left, 200)))
    }
  }

  /** End of the last stored step of a phase (where a resumed phase's first gap is measured from), null when it has none. */
  const lastEndNs = (p: PhaseResult): bigint | null => {
    const last = stepsOf(results).filter(x => x.phase === p).at(-1)
    return last ? BigInt(last.step.endNs) : null
  }

  const stepResult = (index: number, id: string, w: ResolvedWorkload & {label: string}, m: Measurement, t: StepTimes, seed: number, rel: string): StepResult => ({
    index, id, label: w.label, readPct: w.readPct, blockSizeBytes: w.blockSizeBytes, threadCount: w.threadCount, queueDepth: w.queueDepth,
    startedAt: nsToIso(t.startNs), finishedAt: nsToIso(t.endNs), startNs: t.startNs.toString(), endNs: t.endNs.toString(), seed,
    raw: {json: `${rel}.json`, job: `${rel}.fio`}, ...m, ...(t.timing ? {timing: t.timing} : {}), ...(t.perSecond ? {perSecond: t.perSecond} : {}),
  })

  try {
    await health.start()
    save()
    // Write cache per profile: set on the device and read back before the first phase and again
    // after every purge phase (recorded with that phase), restored at the end.
    const cache = applyWriteCache(inp.target, plan.profile.writeCache, manifest, event, undefined, () => store.saveManifest(manifest))
    restoreCache = cache.restore

    for (let pi = 0; pi < plan.phases.length; pi++) {
      const phase = plan.phases[pi]
      const res = results.phases[pi]
      if (res.status === 'done' || res.status === 'skipped') continue
      res.status = 'running'
      save()
      const base = `raw/${pad(pi + 1, 2)}-${phase.id}`
      const stepNote = (s: string) => progress.update({phase: `${plan.spec.id} ${phase.id}: ${s}`})
      // ETA: what is left of this phase plus the planned minimum / maximum of the phases after it,
      // each fio step with the overhead measured on the recent steps (analysis/eta.ts).
      const later = plan.phases.slice(pi + 1).map((p, k) => phaseRemaining(p, plan.timeline[pi + 1 + k] ?? {minSec: 0, maxSec: 0}))
      const eta = (cur: Remaining) => etaFromMeasured(addRemaining(cur, ...later), stepOverheadSec(walls))
      const whole = eta(phaseRemaining(phase, plan.timeline[pi] ?? {minSec: 0, maxSec: 0}))

      if (phase.kind === 'purge' && res.kind === 'purge') {
        res.startedAt = iso(new Date())
        if (inp.purge === null) {
          res.status = 'skipped'
          res.detail = 'none: the target is a regular file'
        } else {
          if (inp.purge.refused) throw new FioFailedError(M.purge.refused(inp.purge.refused))
          progress.update({phase: `${phase.id}: ${inp.purge.method} of ${inp.target.path}`}, true)
          const r = runPurge(inp.target.device!.purgeFacts, inp.purge, {sizeBytes: inp.target.sizeBytes, onProgress: (msg: string) => stepNote(msg)})
          store.writeRaw(`${base}.purge.json`, JSON.stringify(r, null, 2) + '\n')
          res.log = `${base}.purge.json`
          res.method = r.method
          res.deviation = r.deviation
          res.detail = `${r.detail}${r.verification ? `; verification: ${r.verification.outcome}` : ''} (tool output: ${base}.purge.json)`
          if (!r.ok) {
            res.status = 'failed'
            res.finishedAt = iso(new Date())
            throw new FioFailedError(M.purge.failed(r.method, r.detail, store.path(`${base}.purge.json`)))
          }
          res.status = 'done'
        }
        res.finishedAt = iso(new Date())
        save()
        event('purge', `${phase.id}: ${res.method}: ${res.detail}`)
        res.writeCache = cache.reapply(phase.id)
        save()
        continue
      }

      if (phase.kind === 'wipc' && res.kind === 'wipc') {
        Object.assign(res, {blockSizeBytes: phase.blockSizeBytes, plannedBytes: phase.totalBytes, requiredBytes: phase.requiredBytes})
        progress.update({phase: `${phase.id}: SEQ ${blockSizeLabel(phase.blockSizeBytes)} writes, ${formatBytes(phase.totalBytes)}`, etaSec: whole}, true)
        await pipeline({kind: 'wipc'}, () => null, () => false,
          () => ({rel: base, threads: phase.slices.length, text: h => programWipcJob(plan, phase, stepSeed(plan.options.seed, pi, 0, 0), h)}),
          (_s, m, _parsed, t, rel) => {
            Object.assign(res, {writtenBytes: m.writeBytes, bwBytesPerSec: m.writeBwBytesPerSec, runtimeSec: m.runtimeSec, startedAt: nsToIso(t.startNs), finishedAt: nsToIso(t.endNs), raw: {json: `${rel}.json`, job: `${rel}.fio`}})
            return 'stop'
          })
        if (res.writtenBytes !== phase.totalBytes) throw new FioFailedError(M.fio.wrongByteCount(phase.id, res.writtenBytes, phase.totalBytes))
        res.status = 'done'
        save()
        event('wipc', `${phase.id}: ${res.writtenBytes} bytes in ${res.runtimeSec} s`)
        continue
      }

      if (phase.kind === 'loop' && res.kind === 'loop') {
        const n = phase.points.length
        const done = () => Object.assign(res, concludeLoop(phase, res.rounds, false))
        done()
        const startRound = res.rounds.length + 1
        if (res.evaluations.at(-1)?.status === 'steady' || startRound > phase.roundCap) {
          Object.assign(res, concludeLoop(phase, res.rounds, true))
        } else {
          const firstOf = (round: number): Step => (phase.preRound ? {kind: 'pre', round} : {kind: 'point', round, index: 0})
          const successor = (s: Step): Step | null => {
            if (s.kind === 'pre') return {kind: 'point', round: s.round, index: 0}
            if (s.kind !== 'point') return null
            if (s.index < n - 1) return {kind: 'point', round: s.round, index: s.index + 1}
            return s.round < phase.roundCap ? firstOf(s.round + 1) : null
          }
          const autoRelease = (s: Step) => s.kind === 'pre' || (s.kind === 'point' && s.index < n - 1)
          const job = (s: Step) => {
            if (s.kind === 'pre') {
              const w = phase.preRound!.workload
              return {rel: `${base}/round-${pad(s.round, 2)}/00-prewrite`, threads: w.threadCount,
                text: (h: ReturnType<FioEngine['hooks']>) => programJob(plan, {comment: `${phase.id} round ${s.round} pre-write: ${w.label} TC ${w.threadCount}/QD ${w.queueDepth}`, section: 'prewrite', workload: w, seconds: phase.preRound!.seconds, seed: stepSeed(plan.options.seed, pi, s.round, 999)}, h)}
            }
            const p = phase.points[(s as {index: number}).index]
            const round = (s as {round: number}).round
            return {rel: `${base}/round-${pad(round, 2)}/${pad(p.index + 1, 2)}-${p.id}`, threads: p.threadCount, format: phase.latencyBins ? 'json+' as const : 'json' as const,
              text: (h: ReturnType<FioEngine['hooks']>) => programJob(plan, {comment: `${phase.id} round ${round} point ${p.index + 1}/${n}: ${p.label}`, section: p.id, workload: p, seconds: phase.pointSeconds, seed: stepSeed(plan.options.seed, pi, round, p.index)}, h)}
          }
          progress.update({phase: `${phase.id}: ${phase.title}`, etaSec: whole}, true)
          await pipeline(firstOf(startRound), successor, autoRelease, job, (s, m, parsed, t, rel) => {
            const round = (s as {round: number}).round
            let r = res.rounds.find(x => x.round === round)
            if (!r) { r = {round, startedAt: nsToIso(t.startNs), finishedAt: null, preRound: null, points: []}; res.rounds.push(r) }
            if (s.kind === 'pre') {
              const w = phase.preRound!.workload
              r.preRound = stepResult(0, 'prewrite', w, m, t, stepSeed(plan.options.seed, pi, round, 999), rel)
              return 'continue'
            }
            const p = phase.points[(s as {index: number}).index]
            const bins = phase.latencyBins ? binsOf(parsed.groups[0].latBins) : null
            r.points.push({...stepResult(p.index, p.id, p, m, t, stepSeed(plan.options.seed, pi, round, p.index), rel), ...(bins ? {latBins: bins} : {})})
            const roundSec = n * phase.pointSeconds + (phase.preRound?.seconds ?? 0)
            const roundSteps = n + (phase.preRound ? 1 : 0)
            const leftSteps = n - p.index - 1
            const left = leftSteps * phase.pointSeconds
            const minRounds = Math.max(0, Math.min(phase.steadyState.windowRounds, phase.maxRounds) - round)
            const maxRounds = phase.roundCap - round
            progress.update({phase: `${plan.spec.id} ${phase.id}`, round, maxRounds: phase.roundCap, point: {index: p.index + 1, of: n, label: p.label},
              etaSec: eta({minSec: left + minRounds * roundSec, maxSec: left + maxRounds * roundSec, minSteps: leftSteps + minRounds * roundSteps, maxSteps: leftSteps + maxRounds * roundSteps})})
            if (p.index < n - 1) return 'continue'
            r.finishedAt = nsToIso(t.endNs)
            done()
            const e = res.evaluations.at(-1)!
            const ssText = e.status === 'steady' ? `steady in rounds ${e.fromRound}-${e.toRound}` : e.status === 'not-yet' ? `needs ${phase.steadyState.windowRounds} rounds` : 'not steady'
            event('round', `${phase.id} round ${round} complete; ${ssText}`)
            progress.update({phase: `${plan.spec.id} ${phase.id}`, round, maxRounds: phase.roundCap, point: {index: n, of: n, label: 'round complete'}, steady: `SS: ${ssText}`}, true)
            return e.status === 'steady' || round >= phase.roundCap ? 'stop' : 'continue'
          }, {prevEndNs: lastEndNs(res)})
          Object.assign(res, concludeLoop(phase, res.rounds, true))
        }
        res.status = 'done'
        save()
        event('loop', `${phase.id}: ${phaseDetail(res)}`)
        continue
      }

      if (phase.kind === 'series' && res.kind === 'series') {
        const stopNow = seriesStop(phase, res.samples, {maxWrittenBytes: plan.options.maxWrittenBytes})
        if (!stopNow) {
          const w = phase.workload
          const stream = phase.stream
          if (stream) res.stream = {slices: stream.slices.map(x => ({...x}))}
          // A sequential series continues each thread's stream: sample i starts where sample i-1 ended (plan/stream.ts).
          const startsOf = (i: number): number[] | null => {
            if (!stream) return null
            const prev = res.samples[i - 1]?.stream
            return i === 0 || !prev ? firstStreamStarts(stream.slices) : nextStreamStarts(stream.slices, prev.startOffsets, prev.advancedBytes)
          }
          const job = (s: Step) => {
            const i = (s as {index: number}).index
            const starts = startsOf(i)
            return {rel: `${base}/${pad(i + 1, 4)}`, threads: w.threadCount, format: stream ? 'json+' as const : 'json' as const,
              text: (h: ReturnType<FioEngine['hooks']>) => seriesSampleJob(plan, phase, i, starts, stepSeed(plan.options.seed, pi, 0, i), h)}
          }
          progress.update({phase: `${phase.id}: ${phase.title}`, etaSec: whole}, true)
          await pipeline({kind: 'sample', index: res.samples.length}, s => ((s as {index: number}).index + 1 < phase.maxSamples ? {kind: 'sample', index: (s as {index: number}).index + 1} : null), () => !stream, job,
            (s, m, parsed, t, rel) => {
              const i = (s as {index: number}).index
              res.writtenBytes += m.writeBytes
              const sample: SeriesSample = {...stepResult(i, pad(i + 1, 4), w, m, t, stepSeed(plan.options.seed, pi, 0, i), rel), cumulativeWrittenBytes: res.writtenBytes}
              if (stream) {
                const bytes = jobBytes(parsed)
                const advancedBytes = stream.slices.map((_, k) => {
                  const b = bytes.get(`${phase.id}-t${k + 1}`)
                  if (!b) throw new FioFailedError(M.fio.threadBytesUnknown(`${rel}.json`, `${phase.id}-t${k + 1}`))
                  return streamAdvance(b.readBytes, b.writeBytes)
                })
                sample.stream = {startOffsets: startsOf(i)!, advancedBytes}
              }
              res.samples.push(sample)
              const leftSteps = phase.maxSamples - i - 1
              const left = leftSteps * phase.sampleSeconds
              const mayStop = phase.stopAtBytes !== null || phase.steadyStateExit !== null
              progress.update({phase: `${plan.spec.id} ${phase.id}`, point: {index: i + 1, of: phase.maxSamples, label: `${Math.round(m.iops)} IOPS, ${formatBytes(res.writtenBytes)} written`},
                etaSec: eta({minSec: mayStop ? 0 : left, maxSec: left, minSteps: mayStop ? 0 : leftSteps, maxSteps: leftSteps})})
              const stop = seriesStop(phase, res.samples, {maxWrittenBytes: plan.options.maxWrittenBytes})
              if (stop) { res.stopReason = stop.reason; res.steadyState = stop.steadyState }
              return stop ? 'stop' : 'continue'
            }, {prevEndNs: lastEndNs(res)}, () => 0, stream ? 0 : 2)
        } else {
          res.stopReason = stopNow.reason
          res.steadyState = stopNow.steadyState
        }
        res.status = 'done'
        save()
        event('series', `${phase.id}: ${phaseDetail(res)}`)
        continue
      }

      if (phase.kind === 'bursts' && res.kind === 'bursts') {
        // Each burst is one fio step; the next is released idleSeconds after its IO ended (digest Part A 12: burst IOPS =
        // IOs completed in the burst / the burst's length, i.e. fio's IO count / runtime of the step).
        const w = phase.workload
        res.method = 'burst-jobs'
        res.steps = res.steps ?? []
        res.job = null
        res.log = null
        progress.update({phase: `${phase.id}: ${phase.title}: ${phase.repeats} x (${formatDuration(phase.burstSeconds)} writes + ${formatDuration(phase.idleSeconds)} idle)`, etaSec: whole}, true)
        const job = (s: Step) => {
          const k = (s as {index: number}).index
          return {rel: `${base}/${pad(k + 1, 4)}`, threads: w.threadCount,
            text: (h: ReturnType<FioEngine['hooks']>) => programJob(plan, {comment: burstComment(phase, k), section: phase.id, workload: w, seconds: phase.burstSeconds, seed: stepSeed(plan.options.seed, pi, 0, k)}, h)}
        }
        await pipeline({kind: 'burst', index: 0}, s => ((s as {index: number}).index + 1 < phase.repeats ? {kind: 'burst', index: (s as {index: number}).index + 1} : null), () => false, job,
          (s, m, _parsed, t, rel) => {
            const k = (s as {index: number}).index
            res.steps!.push(stepResult(k, pad(k + 1, 4), w, m, t, stepSeed(plan.options.seed, pi, 0, k), rel))
            res.bursts = burstsFromSteps(res.steps!)
            const leftSteps = phase.repeats - k - 1
            const left = leftSteps * (phase.burstSeconds + phase.idleSeconds)
            progress.update({phase: `${plan.spec.id} ${phase.id}`, point: {index: k + 1, of: phase.repeats, label: `burst ${Math.round(res.bursts.at(-1)!.iops)} IOPS`}, etaSec: eta({minSec: left, maxSec: left, minSteps: leftSteps, maxSteps: leftSteps})})
            return 'continue'
          },
          // the idle between bursts is the test's planned host idle, checked by pts audit against that plan
          null, () => phase.idleSeconds * 1000)
        // the last burst is followed by its host idle too (360 x (burst, idle)), before the return to baseline
        const last = res.steps.at(-1)
        if (last) await waitUntil(Number(BigInt(last.endNs) / 1_000_000n) + phase.idleSeconds * 1000)
        if (signals.stopped()) throw new InterruptedError(M.runDir.interrupted(signals.stopped()!, inp.runDir))
        res.status = 'done'
        save()
        event('bursts', `${phase.id}: ${phaseDetail(res)}`)
        continue
      }

      if (phase.kind === 'sweep' && res.kind === 'sweep') {
        // Review tests: each point once (no steady state); a resumed sweep continues with its next point.
        const n = phase.points.length
        const idx = (s: Step) => (s as {index: number}).index
        if (res.points.length < n) {
          progress.update({phase: `${phase.id}: ${phase.title}`, etaSec: whole}, true)
          const job = (s: Step) => {
            const p = phase.points[idx(s)]
            return {rel: `${base}/${pad(p.index + 1, 3)}-${p.id}`, threads: p.threadCount, format: phase.latencyBins ? 'json+' as const : 'json' as const,
              text: (h: ReturnType<FioEngine['hooks']>) => programJob(plan, {comment: `${phase.id} point ${p.index + 1}/${n}: ${p.label}`, section: p.id, workload: p, seconds: phase.pointSeconds, seed: stepSeed(plan.options.seed, pi, 0, p.index)}, h)}
          }
          await pipeline({kind: 'sweep', index: res.points.length}, s => (idx(s) + 1 < n ? {kind: 'sweep', index: idx(s) + 1} : null), () => true, job,
            (s, m, parsed, t, rel) => {
              const p = phase.points[idx(s)]
              const bins = phase.latencyBins ? binsOf(parsed.groups[0].latBins) : null
              res.points.push({...stepResult(p.index, p.id, p, m, t, stepSeed(plan.options.seed, pi, 0, p.index), rel), ...(bins ? {latBins: bins} : {})})
              const left = (n - p.index - 1) * phase.pointSeconds
              progress.update({phase: `${plan.spec.id} ${phase.id}`, point: {index: p.index + 1, of: n, label: `${p.label}: ${Math.round(m.iops)} IOPS`}, etaSec: eta({minSec: left, maxSec: left, minSteps: n - p.index - 1, maxSteps: n - p.index - 1})})
              return 'continue'
            }, {prevEndNs: lastEndNs(res)})
        }
        res.status = 'done'
        save()
        event('sweep', `${phase.id}: ${phaseDetail(res)}`)
        continue
      }

      if (phase.kind === 'fill' && res.kind === 'fill') {
        // Review test fill: piece by piece in LBA order, each a size-based fio step; a resumed pass continues with its next piece.
        const n = phase.pieces.length
        const w = phase.workload
        const at = (k: number): Step => ({kind: 'fill', pass: Math.floor(k / n) + 1, index: k % n})
        const total = n * phase.passes
        const ord = (s: Step) => ((s as {pass: number}).pass - 1) * n + (s as {index: number}).index
        if (res.steps.length < total) {
          progress.update({phase: `${phase.id}: ${phase.title}`, etaSec: whole}, true)
          const job = (s: Step) => {
            const {pass, index} = s as {pass: number; index: number}
            return {rel: `${base}/pass-${pass}/${pad(index + 1, 4)}`, threads: 1,
              text: (h: ReturnType<FioEngine['hooks']>) => fillPieceJob(plan, phase, pass, index, stepSeed(plan.options.seed, pi, pass, index), h)}
          }
          await pipeline(at(res.steps.length), s => (ord(s) + 1 < total ? at(ord(s) + 1) : null), () => true, job,
            (s, m, _parsed, t, rel) => {
              const {pass, index} = s as {pass: number; index: number}
              const piece = phase.pieces[index]
              if (m.writeBytes !== piece.sizeBytes) throw new FioFailedError(M.fio.wrongByteCount(`${phase.id} pass ${pass} piece ${index + 1}`, m.writeBytes, piece.sizeBytes))
              res.steps.push({...stepResult(index, `p${pass}-${pad(index + 1, 4)}`, w, m, t, stepSeed(plan.options.seed, pi, pass, index), rel), pass, offsetBytes: piece.offsetBytes, sizeBytes: piece.sizeBytes})
              progress.update({phase: `${plan.spec.id} ${phase.id}`, point: {index: ord(s) + 1, of: total, label: `pass ${pass}: ${Math.round((piece.offsetBytes + piece.sizeBytes) / Math.max(1, plan.activeRangeBytes) * 100)} % written, ${(m.writeBwBytesPerSec / 1e6).toFixed(1)} MB/s`}})
              return 'continue'
            }, {prevEndNs: lastEndNs(res)})
        }
        res.status = 'done'
        save()
        event('fill', `${phase.id}: ${phaseDetail(res)}`)
        continue
      }

      if (phase.kind === 'histogram' && res.kind === 'histogram') {
        const w = phase.workload
        progress.update({phase: `${phase.id}: ${phase.title}`, etaSec: whole}, true)
        await pipeline({kind: 'single'}, () => null, () => false,
          () => ({rel: `${base}/histogram`, threads: w.threadCount, format: 'json+' as const,
            text: h => programJob(plan, {comment: `${phase.id}: ${w.label} TC ${w.threadCount}/QD ${w.queueDepth}, response-time histogram`, section: phase.id, workload: w, seconds: phase.seconds, seed: stepSeed(plan.options.seed, pi, 0, 0)}, h)}),
          (_s, m, parsed, t, rel) => {
            res.job = stepResult(0, 'histogram', w, m, t, stepSeed(plan.options.seed, pi, 0, 0), rel)
            // total latency, the basis of the ART/MRT/5 9s beside it (digest Part A 12)
            res.histogram = histogramFromBins(parsed.groups[0].latBins)
            res.histogramBasis = 'lat'
            return 'stop'
          })
        res.status = 'done'
        save()
        event('histogram', `${phase.id}: ${phaseDetail(res)}`)
        continue
      }

      if (phase.kind === 'operating-points' && res.kind === 'operating-points') {
        const from = results.phases.find(p => p.id === phase.fromPhase)
        if (!from || from.kind !== 'loop') throw new PtsError(M.internal.missingLoopPhase(phase.id, phase.fromPhase), EXIT.internal)
        if (res.points.length === 0) {
          res.points = chooseOperatingPoints(from.windowAverages, phase.ceilingMs).map(p => ({...p, prewrite: null, measure: null, histogram: null}))
          save()
          event('operating-points', res.points.map(p => `${p.role}: TC ${p.threadCount}/QD ${p.queueDepth} (${Math.round(p.iops)} IOPS, ${(p.latMeanNs / 1e6).toFixed(3)} ms; ${p.reason})`).join('; '))
        }
        const loopPhase = plan.phases.find(p => p.id === phase.fromPhase) as Extract<PlannedPhase, {kind: 'loop'}>
        const workloadOf = (op: number): ResolvedWorkload => {
          const p = res.points[op]
          const pt = loopPhase.points.find(q => q.threadCount === p.threadCount && q.queueDepth === p.queueDepth)!
          return pt
        }
        const firstOp = res.points.findIndex(p => p.measure === null)
        // The pre-write as one step, or as back-to-back samples (e.g. 60 x 1 min) stored and plotted per sample.
        const nPre = phase.prewrite.samples
        const preSeconds = phase.prewrite.seconds / nPre
        const preSeed = (op: number, k: number) => stepSeed(plan.options.seed, pi, op, k === 0 ? 0 : 1000 + k)
        if (firstOp >= 0) {
          if (nPre > 1) res.points[firstOp].prewriteSamples = [] // a cut pre-write is re-run from its first sample
          const job = (s: Step) => {
            const op = (s as {op: number}).op
            const role = res.points[op].role
            if (s.kind === 'op-pre') {
              const w = phase.prewrite.workload
              const k = s.sample
              return {rel: nPre > 1 ? `${base}/${role}-prewrite/${pad(k + 1, 2)}` : `${base}/${role}-prewrite`, threads: w.threadCount,
                text: (h: ReturnType<FioEngine['hooks']>) => programJob(plan, {comment: `${phase.id} ${role} IOPS point: pre-write${nPre > 1 ? ` sample ${k + 1}/${nPre}` : ''} ${w.label} TC ${w.threadCount}/QD ${w.queueDepth}`, section: `${role}-prewrite`, workload: w, seconds: preSeconds, seed: preSeed(op, k)}, h)}
            }
            const w = workloadOf(op)
            return {rel: `${base}/${role}-histogram`, threads: w.threadCount, format: 'json+' as const,
              text: (h: ReturnType<FioEngine['hooks']>) => programJob(plan, {comment: `${phase.id} ${role} IOPS point: ${w.label}, response-time histogram`, section: `${role}-histogram`, workload: w, seconds: phase.measureSeconds, seed: stepSeed(plan.options.seed, pi, op, 1)}, h)}
          }
          await pipeline({kind: 'op-pre', op: firstOp, sample: 0},
            s => (s.kind === 'op-pre' ? (s.sample + 1 < nPre ? {kind: 'op-pre', op: s.op, sample: s.sample + 1} : {kind: 'op-measure', op: s.op})
              : s.kind === 'op-measure' && s.op + 1 < res.points.length ? {kind: 'op-pre', op: s.op + 1, sample: 0} : null),
            s => s.kind === 'op-pre', job,
            (s, m, parsed, t, rel) => {
              const op = (s as {op: number}).op
              const p = res.points[op]
              if (s.kind === 'op-pre') {
                if (nPre > 1) {
                  const k = s.sample
                  p.prewriteSamples = [...(p.prewriteSamples ?? []), stepResult(k, `${p.role}-prewrite-${pad(k + 1, 2)}`, phase.prewrite.workload, m, t, preSeed(op, k), rel)]
                } else p.prewrite = stepResult(0, `${p.role}-prewrite`, phase.prewrite.workload, m, t, preSeed(op, 0), rel)
                return 'continue'
              }
              p.measure = stepResult(1, `${p.role}-histogram`, workloadOf(op), m, t, stepSeed(plan.options.seed, pi, op, 1), rel)
              // total latency, the basis of the ART/MRT/5 9s beside it (digest Part A 12)
              p.histogram = histogramFromBins(parsed.groups[0].latBins)
              p.histogramBasis = 'lat'
              event('histogram', `${phase.id} ${p.role}: TC ${p.threadCount}/QD ${p.queueDepth}, ${Math.round(m.iops)} IOPS, MRT ${(m.latMaxNs / 1e6).toFixed(3)} ms`)
              return 'continue'
            })
        }
        res.status = 'done'
        save()
        continue
      }
    }
    finish('complete', null)
  } catch (error) {
    const e = error instanceof PtsError ? error : new PtsError(M.internal.inRun(`${(error as Error).stack ?? error}`), EXIT.internal)
    try { finish(error instanceof InterruptedError ? 'interrupted' : 'failed', e) } catch { /* keep the original error */ }
    throw e
  } finally {
    signals.remove()
    await engine.close()
    restoreCache()
    try {
      await health.finish()
      save()
    } catch (error) {
      progress.note(`drive health: the log after the test could not be stored (${(error as Error).message})`)
    }
    seal()
    lock.release()
    progress.done()
  }
  return summarizeProgram(inp.runDir, manifest, results)
}

/**
 * pts resume --restart-from purge: everything measured is set aside under raw/cut-<time>/ (kept
 * for the audit trail, outside the run's results) and the run starts again from its first phase;
 * the compliance verdict and deviations are the plan's again (a clean run).
 */
export function restartFromPurge(store: RunStore, manifest: RunManifest, plan: ProgramPlan): void {
  const {setAside} = resumeHousekeeping(store, new Date())
  if (existsSync(store.path('raw'))) for (const d of readdirSync(store.path('raw'))) if (!d.startsWith('cut-')) setAside(`raw/${d}`)
  manifest.compliance = {...plan.compliance, reasons: [...plan.compliance.reasons]}
  manifest.deviations = [...plan.deviations]
  manifest.status = 'running'
  manifest.finishedAt = null
  manifest.error = null
  manifest.pid = process.pid
}

/**
 * Resume a stored program run: the first unfinished phase restarts where its data allows (a loop
 * from its last complete round, a series from its next sample); the partial step files of a cut
 * round or bursts phase are set aside under raw/cut-<time>/; the interruption is a deviation.
 */
export function prepareProgramResume(store: RunStore, manifest: RunManifest, results: ProgramResults, interruption: {lastActivityAt: string; status: string}): void {
  const now = new Date()
  const {setAside} = resumeHousekeeping(store, now)
  let where = 'at the start of the next phase'
  results.phases.forEach((r, pi) => {
    if (r.status !== 'running' && r.status !== 'failed') return
    const base = `raw/${pad(pi + 1, 2)}-${r.id}`
    r.status = 'pending'
    if (r.kind === 'loop') {
      r.rounds = r.rounds.filter(x => x.finishedAt !== null)
      // every round directory that is not a complete round: the cut one, and any started ahead
      // (an IOPS run stored by an earlier pts keeps its rounds directly under raw/)
      for (const dir of [base, 'raw']) {
        if (!existsSync(store.path(dir))) continue
        for (const d of readdirSync(store.path(dir))) {
          const m = /^round-(\d+)$/.exec(d)
          if (m && !r.rounds.some(x => x.round === Number(m[1]) && x.points.some(p => p.raw.json.startsWith(`${dir}/${d}/`)))) setAside(`${dir}/${d}`)
        }
      }
      where = `${r.id}: round ${r.rounds.length + 1} re-run from its start`
    } else if (r.kind === 'series') {
      where = `${r.id}: continuing with sample ${r.samples.length + 1}`
    } else if (r.kind === 'sweep') {
      where = `${r.id}: continuing with point ${r.points.length + 1}`
    } else if (r.kind === 'fill') {
      where = `${r.id}: continuing with piece ${r.steps.length + 1}`
    } else if (r.kind === 'bursts' || r.kind === 'histogram') {
      setAside(`${base}`)
      if (r.kind === 'histogram') Object.assign(r, {job: null, histogram: null})
      if (r.kind === 'bursts') Object.assign(r, {job: null, bursts: [], log: null, ...(r.steps ? {steps: []} : {})})
      where = `${r.id} re-run from its start`
    } else if (r.kind === 'operating-points') {
      where = `${r.id}: unfinished histogram points re-run`
    } else if (r.kind === 'wipc' || r.kind === 'purge') {
      where = `${r.id} re-run`
    }
  })
  recordInterruption(manifest, interruption, now, where, 'the run was interrupted and resumed (idle time between steps)')
  results.status = 'running'
  manifest.status = 'running'
  manifest.finishedAt = null
  manifest.error = null
  manifest.pid = process.pid
}
