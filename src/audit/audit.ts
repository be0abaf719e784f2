/**
 * `pts audit` of a test-program run (TP, LAT, WSAT, HIR, XSR, CBW/ECW, DIRTH). Pure, like the IOPS
 * audit (checks.ts): every step is recomputed from its raw fio JSON, every loop's steady-state
 * determination and window averages from the recomputed steps with the criteria the run recorded,
 * series byte counts and stop reasons, HIR burst IOPS from fio's IOPS log, CBW/DIRTH operating
 * points and histograms from the json+ bins; then the report model, the seal and signature, purge,
 * WIPC volume, step durations, loop order, idle gaps within phases, device identity and job
 * parameters. A departure passes only when the run disclosed it.
 */
import type {FileHash} from '../model/manifest.js'
import type {RunManifest} from '../model/manifest.js'
import {type PhaseResult, type ProgramResults, type StepResult} from '../model/results.js'
import {concludeLoop} from '../steady-state/conclude.js'
import {burstIops, burstsFromSteps, chooseOperatingPoints, histogramFromBins, histogramSource} from '../analysis/derive.js'
import {binsOf} from '../model/latency.js'
import type {PlannedPhase, ProgramPoint} from '../plan/expand.js'
import {purgeLog, stepsOf} from '../analysis/steps.js'
import {jobBytes, jobRuntimeSec, jobValue, parseIopsLog, parseJobFile, perSecondTrace} from '../engine/parse.js'
import {perSecondLines, perSecondPrefix} from '../engine/jobfile.js'
import {firstStreamStarts, nextStreamStarts, streamAdvance, streamWrapped} from '../plan/stream.js'
import {acrossResume, durationText, gapMs, gapText, reviewTiming, spanSec, stepTiming, type TimedStep} from '../analysis/timing.js'
import {check, disclosed, healthCheck, MEASUREMENT_KEYS, measureRaw, identityCheck, integrityCheck, jsonDiff, parseRaw, signatureCheck, type AuditCheck, type ParsedRaw, type AuditResult, type SignatureState} from './checks.js'

export interface ProgramAuditInput {
  manifest: RunManifest
  results: ProgramResults
  raw: ReadonlyMap<string, string | null>
  sealNow: FileHash[]
  signature: SignatureState
  buildModel: (results: ProgramResults) => unknown
  storedModel: {file: string; model: unknown} | null
  maxGapMs: number
}


/** The loop phase as planned, rebuilt from what results.json recorded (points from round 1, criteria, tracking). */
function plannedLoop(p: Extract<PhaseResult, {kind: 'loop'}>): Extract<PlannedPhase, {kind: 'loop'}> | null {
  const first = p.rounds[0]
  if (!first) return null
  const points: ProgramPoint[] = first.points.map(s => ({access: 'random', readPct: s.readPct, blockSizeBytes: s.blockSizeBytes, bssplit: null, zones: null, threadCount: s.threadCount, queueDepth: s.queueDepth, label: s.label, index: s.index, id: s.id}))
  const c = p.criteria
  return {
    kind: 'loop', id: p.id, title: p.title, points, pointSeconds: c.pointSeconds, preRound: null, maxRounds: c.maxRounds, roundCap: c.maxRounds, dimensions: [],
    latencyBins: first.points.some(s => s.latBins !== undefined),
    steadyState: {windowRounds: c.windowRounds, maxDataExcursionPct: c.maxDataExcursionPct, maxSlopeExcursionPct: c.maxSlopeExcursionPct, maxRounds: c.maxRounds,
      tracking: p.tracking.map(t => ({id: t.id, label: t.label, metric: t.metric, select: {pointIndex: t.pointIndex}}))},
  }
}


export function runProgramAudit(inp: ProgramAuditInput): AuditResult {
  const {manifest: m, results} = inp
  const checks: AuditCheck[] = [integrityCheck(m, inp.sealNow), signatureCheck(inp.signature)]
  const r = structuredClone(results)
  const steps = stepsOf(r)
  /** Every raw fio output parsed once, whichever check reads it. */
  const parsed: ParsedRaw = new Map()
  /** The steps of each phase, in order (for time order and idle gaps). */
  const byPhase = new Map<PhaseResult, StepResult[]>()
  for (const s of steps) {
    const list = byPhase.get(s.phase) ?? []
    list.push(s.step)
    byPhase.set(s.phase, list)
  }

  // Measurements: every step from its raw fio JSON.
  const mProblems: string[] = []
  for (const s of steps) {
    const mm = measureRaw(inp.raw, s.step.raw.json, s.what, mProblems, parsed)
    if (!mm) continue
    for (const k of MEASUREMENT_KEYS) {
      if (!Object.is(s.step[k], mm[k])) mProblems.push(`results.json ${s.pointer}/${k} (${s.what}): stored ${JSON.stringify(s.step[k])}, raw ${s.step.raw.json} gives ${JSON.stringify(mm[k])}`)
    }
    Object.assign(s.step, mm)
    // the latency bins a loop keeps (LAT: window percentiles over pooled IOs) against the json+ output
    if (s.step.latBins !== undefined) {
      const pj = parseRaw(inp.raw, s.step.raw.json, parsed)
      const bins = pj && !(pj instanceof Error) ? binsOf(pj.groups[0].latBins) : null
      for (const d of jsonDiff(s.step.latBins, bins, `${s.pointer}/latBins`)) mProblems.push(`results.json ${d} (${s.what}: recomputed from the json+ total-latency bins of ${s.step.raw.json})`)
      s.step.latBins = bins ?? undefined
    }
  }
  for (const [pi, p] of r.phases.entries()) {
    if (p.kind !== 'wipc' || !p.raw) continue
    const mm = measureRaw(inp.raw, p.raw.json, p.id, mProblems, parsed)
    if (!mm) continue
    for (const [k, v] of [['writtenBytes', mm.writeBytes], ['bwBytesPerSec', mm.writeBwBytesPerSec], ['runtimeSec', mm.runtimeSec]] as const) {
      if (!Object.is(p[k], v)) mProblems.push(`results.json /phases/${pi}/${k}: stored ${JSON.stringify(p[k])}, raw ${p.raw.json} gives ${v}`)
    }
    Object.assign(p, {writtenBytes: mm.writeBytes, bwBytesPerSec: mm.writeBwBytesPerSec, runtimeSec: mm.runtimeSec})
  }
  checks.push(check('measurements', 'Every step recomputed from its raw fio JSON', mProblems,
    `${steps.length} fio steps and ${r.phases.filter(p => p.kind === 'wipc').length} WIPC jobs: every stored IOPS, bandwidth, byte count and latency equals the value recomputed from raw/`))

  // Timing (analysis/timing.ts, the functions pts run records with each step): every step's fio
  // runtime (recomputed from raw/ above) against its job's runtime= and its overrun bound (its
  // maximum response time, the drain of the I/O in flight, + 10 ms), and the idle gap before it
  // within its phase; a stored timing must equal the recomputed one.
  const resumesMs = m.events.filter(e => e.event === 'resume').map(e => Date.parse(e.at))
  const timed: TimedStep[] = []
  const storedTimingProblems: string[] = []
  {
    const prevOf = new Map<PhaseResult, StepResult>()
    for (const s of steps) {
      const prev = prevOf.get(s.phase) ?? null
      prevOf.set(s.phase, s.step)
      const job = inp.raw.get(s.step.raw.job)
      const plannedSec = job ? jobRuntimeSec(job) : null
      const gapChecked = prev !== null && s.phase.kind !== 'operating-points' && s.phase.kind !== 'bursts'
      const t = plannedSec === null ? null : stepTiming(plannedSec, s.step, gapChecked ? gapMs(prev.endNs, s.step.startNs) : null)
      const stored = s.step.timing
      if (stored && t) for (const d of jsonDiff(stored, t, `${s.pointer}/timing`)) storedTimingProblems.push(`results.json ${d} (${s.what}: recomputed from ${s.step.raw.json} and ${s.step.raw.job})`)
      // the report model is rebuilt from the recomputed timing (a run stored before pts recorded it keeps none)
      if (stored && t) s.step.timing = t
      if (stored && !t) storedTimingProblems.push(`results.json ${s.pointer}/timing (${s.what}): stored, but ${s.step.raw.job} ${job ? 'is not a time-based job' : 'is missing'}`)
      timed.push({what: `${s.step.raw.json} (${s.what})`, timing: t, spanSec: spanSec(s.step), gapExcused: gapChecked && acrossResume(resumesMs, prev.endNs, s.step.startNs)})
    }
  }
  const review = reviewTiming(timed, inp.maxGapMs)

  // Derived values: loop verdicts and window averages, series bytes, bursts, operating points.
  const dProblems: string[] = []
  const finished = results.status === 'complete'
  r.phases.forEach((p, pi) => {
    if (p.kind === 'loop') {
      const plan = plannedLoop(p)
      if (!plan) return
      const c = concludeLoop(plan, p.rounds, finished || p.status === 'done')
      for (const key of ['tracking', 'evaluations', 'steadyState', 'windowAverages'] as const) {
        for (const d of jsonDiff(p[key], c[key], `/phases/${pi}/${key}`)) dProblems.push(`results.json ${d.replace(/: /, ': stored ').replace(' ≠ ', ', recomputed ')}`)
      }
      Object.assign(p, c)
    }
    if (p.kind === 'series') {
      let cum = 0
      p.samples.forEach((x, k) => {
        cum += x.writeBytes
        if (x.cumulativeWrittenBytes !== cum) dProblems.push(`results.json /phases/${pi}/samples/${k}/cumulativeWrittenBytes: stored ${x.cumulativeWrittenBytes}, recomputed ${cum}`)
        x.cumulativeWrittenBytes = cum
      })
      if (p.writtenBytes !== cum) dProblems.push(`results.json /phases/${pi}/writtenBytes: stored ${p.writtenBytes}, recomputed ${cum}`)
      p.writtenBytes = cum
    }
    if (p.kind === 'bursts' && p.method === 'burst-jobs') {
      // one fio step per burst: IOPS = the step's IOs / its runtime (the steps were recomputed from raw/ above)
      const b = burstsFromSteps(p.steps ?? [])
      for (const d of jsonDiff(p.bursts, b, `/phases/${pi}/bursts`)) dProblems.push(`results.json ${d} (recomputed from the burst steps)`)
      if ((p.steps ?? []).length !== p.repeats && p.status === 'done') dProblems.push(`${p.id}: ${(p.steps ?? []).length} bursts stored, the phase has ${p.repeats}`)
      p.bursts = b
    } else if (p.kind === 'bursts' && p.job) {
      const job = inp.raw.get(p.job.raw.job)
      const logAvg = job ? Number(jobValue(parseJobFile(job), 'log_avg_msec')) : NaN
      const log = p.log ? inp.raw.get(p.log) : null
      if (!p.log || log === null || log === undefined) dProblems.push(`${p.id}: the IOPS log ${p.log ?? '(none recorded)'} is missing`)
      else {
        const b = burstIops(parseIopsLog(log), p.idleSeconds, logAvg)
        for (const d of jsonDiff(p.bursts, b, `/phases/${pi}/bursts`)) dProblems.push(`results.json ${d} (recomputed from ${p.log})`)
        p.bursts = b
      }
    }
    if (p.kind === 'histogram' && p.job) {
      const parsedJob = parseRaw(inp.raw, p.job.raw.json, parsed)
      if (parsedJob && !(parsedJob instanceof Error)) {
        const h = histogramFromBins(histogramSource(parsedJob.groups[0], p.histogramBasis))
        for (const d of jsonDiff(p.histogram, h, `/phases/${pi}/histogram`)) dProblems.push(`results.json ${d} (recomputed from the json+ bins of ${p.job.raw.json})`)
        p.histogram = h
      }
    }
    if (p.kind === 'operating-points') {
      const dv = r.phases.find(x => x.kind === 'loop' && x.id === (p.fromPhase ?? 'dv')) as Extract<PhaseResult, {kind: 'loop'}> | undefined
      if (dv) {
        const chosen = chooseOperatingPoints(dv.windowAverages, p.ceilingMs)
        const stored = p.points.map(o => ({role: o.role, threadCount: o.threadCount, queueDepth: o.queueDepth, iops: o.iops, latMeanNs: o.latMeanNs, reason: o.reason}))
        for (const d of jsonDiff(stored, chosen, `/phases/${pi}/points`)) dProblems.push(`results.json ${d} (operating points re-chosen from the recomputed DV window averages)`)
      }
      p.points.forEach((o, k) => {
        if (!o.measure) return
        const parsedJob = parseRaw(inp.raw, o.measure.raw.json, parsed)
        if (!parsedJob || parsedJob instanceof Error) return
        const h = histogramFromBins(histogramSource(parsedJob.groups[0], o.histogramBasis))
        for (const d of jsonDiff(o.histogram, h, `/phases/${pi}/points/${k}/histogram`)) dProblems.push(`results.json ${d} (recomputed from the json+ bins of ${o.measure.raw.json})`)
        o.histogram = h
      })
    }
  })
  checks.push(check('steady-state', 'Steady state, window averages, series totals, bursts and operating points recomputed', dProblems,
    r.phases.filter(p => p.kind === 'loop').map(p => `${p.id}: ${(p as Extract<PhaseResult, {kind: 'loop'}>).steadyState.verdict}`).join('; ') + ' - equal to the recomputation from raw/ (steady state as PTS 2.0.2 §2.1.24 defines it)'))

  // Report model: rebuilt from the recomputed results.
  const rebuilt = inp.buildModel(r) as Record<string, unknown>
  const rp: string[] = []
  // report-model.json written by a pts before the one-pipeline format has the IOPS model's shape
  // (a `data` block, no `charts`): it cannot equal today's model, so the model built from
  // results.json is compared with the rebuilt one instead, and the check says so.
  const oldShape = inp.storedModel !== null && typeof inp.storedModel.model === 'object' && inp.storedModel.model !== null &&
    'data' in inp.storedModel.model && !('charts' in inp.storedModel.model)
  if (inp.storedModel && !oldShape) {
    const stored = inp.storedModel.model as Record<string, unknown>
    for (const d of jsonDiff({...stored, generatedAt: rebuilt.generatedAt, generatedBy: rebuilt.generatedBy}, rebuilt)) rp.push(`${inp.storedModel.file} ${d}`)
  } else {
    for (const d of jsonDiff(inp.buildModel(results), rebuilt)) rp.push(`report model from results.json ${d}`)
  }
  checks.push(check('report', 'Report model equals the one rebuilt from raw data', rp, inp.storedModel && !oldShape ? `${inp.storedModel.file} equals the model rebuilt from the raw data`
    : `the report model built from results.json equals the one rebuilt from the raw data${oldShape ? ` (${inp.storedModel!.file} was written by an earlier pts in another model format and is not compared)` : ''}`))

  // Purge before the test (and before each TP block size).
  {
    const problems: string[] = []
    const purges = r.phases.map((p, pi) => ({p, pi})).filter((x): x is {p: Extract<PhaseResult, {kind: 'purge'}>; pi: number} => x.p.kind === 'purge')
    for (const {p, pi} of purges) {
      const after = r.phases.slice(pi + 1).some(q => q.status !== 'pending')
      if (p.status === 'failed' && after) problems.push(`results.json /phases/${pi}: ${p.id} failed yet the device was written afterwards`)
      if (m.target.kind === 'file' && p.status !== 'skipped' && p.status !== 'pending') problems.push(`results.json /phases/${pi}: a file target is never purged, but ${p.id} says ${p.method} ${p.status}`)
      if (m.target.kind === 'block' && p.status === 'done') {
        const log = inp.raw.get(purgeLog(p, pi))
        if (!log) problems.push(`${purgeLog(p, pi)} (the purge tool output) is missing`)
        else {
          try {
            const j = JSON.parse(log) as {ok?: boolean; method?: string}
            if (j.ok !== true || j.method !== p.method) problems.push(`${p.id}: the purge tool output says ok=${j.ok} method=${j.method}, results.json says ${p.method} done`)
          } catch { problems.push(`${p.id}: the purge tool output is not valid JSON`) }
        }
      }
      if (p.deviation && !m.deviations.includes(p.deviation) && !disclosed(m, /purge/)) problems.push(`${p.id}: the purge deviation "${p.deviation}" is not disclosed`)
    }
    if (m.target.kind === 'file' && !disclosed(m, /regular file/)) problems.push('manifest.json /compliance: a file target must be marked non-compliant')
    checks.push(check('purge', 'Purge method and outcome', problems, `${purges.length} purge${purges.length === 1 ? '' : 's'}: ${[...new Set(purges.map(x => `${x.p.method} (${x.p.status})`))].join(', ') || 'none in this test'}`))
  }

  // WIPC volume (fio's byte count) against the required multiple.
  {
    const problems: string[] = []
    const w = r.phases.filter((p): p is Extract<PhaseResult, {kind: 'wipc'}> => p.kind === 'wipc' && p.status === 'done')
    for (const p of w) {
      if (p.writtenBytes !== p.plannedBytes) problems.push(`${p.id}: wrote ${p.writtenBytes} bytes, the plan was ${p.plannedBytes}`)
      if (p.writtenBytes < p.requiredBytes && !disclosed(m, /WIPC/)) problems.push(`${p.id}: wrote ${p.writtenBytes} bytes, the spec requires ${p.requiredBytes}, and the run is not marked non-compliant for it`)
    }
    checks.push(check('wipc', 'WIPC volume written', problems, w.length ? w.map(p => `${p.id}: ${p.writtenBytes} of ${p.requiredBytes} required bytes${p.writtenBytes < p.requiredBytes ? ' (disclosed as non-compliant)' : ''}`).join('; ') : 'this test has no WIPC'))
  }


  // Step durations: none shorter than its length, every overrun within its bound.
  {
    const problems = [...review.short, ...review.overruns, ...storedTimingProblems]
    for (const p of r.phases) if (p.kind === 'loop' && p.criteria.pointSeconds < 60 && p.rounds.length > 0 && !disclosed(m, /test points of|time scale/)) problems.push(`${p.id}: points of ${p.criteria.pointSeconds} s (spec 60 s) and the run is not marked non-compliant for it`)
    checks.push(check('durations', 'Step durations', problems, durationText(review)))
  }

  // Loop order within rounds; time forward within each phase.
  {
    const problems: string[] = []
    r.phases.forEach((p, pi) => {
      if (p.kind !== 'loop') return
      const ref = p.rounds[0]?.points.map(x => x.id) ?? []
      p.rounds.forEach((rd, ri) => {
        if (rd.round !== ri + 1) problems.push(`results.json /phases/${pi}/rounds/${ri}: round ${rd.round}, expected ${ri + 1}`)
        rd.points.forEach((x, k) => { if (x.index !== k || x.id !== ref[k]) problems.push(`results.json /phases/${pi}/rounds/${ri}/points/${k}: ${x.id} (index ${x.index}), round 1 has ${ref[k]} here`) })
      })
    })
    for (const [p, ss] of byPhase) for (let i = 1; i < ss.length; i++) if (BigInt(ss[i].startNs) < BigInt(ss[i - 1].endNs)) problems.push(`${p.id}: ${ss[i].raw.json} started before ${ss[i - 1].raw.json} ended`)
    checks.push(check('loop-order', 'Loop order and time order', problems, 'every loop round in the spec\'s order (as round 1), every step after the previous one'))
  }

  // Idle gaps between consecutive steps within a phase (a phase boundary starts a new fio pipeline and
  // is not checked; nor is the hand-over between the Max/Mid/Min IOPS points of CBW/DIRTH; HIR bursts
  // have planned host idle between them, checked below against that idle instead).
  {
    const burstGaps: string[] = []
    for (const [p, ss] of byPhase) {
      if (p.kind !== 'bursts') continue
      for (let i = 1; i < ss.length; i++) {
        const gapMs = Number(BigInt(ss[i].startNs) - BigInt(ss[i - 1].endNs)) / 1e6
        const idleMs = p.idleSeconds * 1000
        if (gapMs < idleMs - 1 || gapMs > idleMs + inp.maxGapMs) burstGaps.push(`${gapMs.toFixed(0)} ms between bursts ${ss[i - 1].raw.json} and ${ss[i].raw.json}: the planned host idle is ${idleMs.toFixed(0)} ms (limit +${inp.maxGapMs} ms)`)
      }
    }
    checks.push(check('idle-gaps', 'Idle gaps between steps within each phase', [...review.gaps, ...burstGaps], gapText(review)))
  }

  // Device identity.
  checks.push(identityCheck(m, [...r.phases.flatMap(p => (p.kind === 'wipc' && p.raw ? [p.raw.job] : [])), ...steps.map(s => s.step.raw.job)], inp.raw))

  // Job parameters: TC = numjobs, QD = iodepth, block size and mix as stored.
  {
    const problems: string[] = []
    let n = 0
    for (const s of steps) {
      const text = inp.raw.get(s.step.raw.job)
      if (!text) continue
      n++
      const j = parseJobFile(text)
      const want: Record<string, string> = {numjobs: String(s.step.threadCount), iodepth: String(s.step.queueDepth), direct: '1'}
      if (s.step.blockSizeBytes !== null) want.bs = String(s.step.blockSizeBytes)
      for (const [k, v] of Object.entries(want)) {
        // TC = the threads of the job: numjobs of its one section, or the sections of a per-thread job (continuous streams)
        const got = k === 'numjobs' ? jobThreads(j) : jobValue(j, k)
        if (got !== v) problems.push(`${s.step.raw.job} (${s.what}): ${k}=${got ?? '(none)'}, expected ${v}`)
      }
      const rw = jobValue(j, 'rw')
      const readPct = rw === 'randread' || rw === 'read' ? 100 : rw === 'randwrite' || rw === 'write' ? 0 : Number(jobValue(j, 'rwmixread'))
      if (readPct !== s.step.readPct) problems.push(`${s.step.raw.job} (${s.what}): rw=${rw} is R/W ${readPct}, the step is ${s.step.readPct}`)
    }
    checks.push(check('job-parameters', 'fio job parameters match each step', problems, `${n} job files: block size (or bssplit), R/W mix, numjobs = TC, iodepth = QD, direct=1`))
  }

  checks.push(continuityCheck(r, inp.raw, parsed))
  checks.push(healthCheck(r, inp.raw))
  checks.push(perSecondCheck(r, inp.raw))

  return {schemaVersion: 1, runId: m.runId, test: m.test, revision: m.revision, ok: checks.every(c => c.status !== 'fail'), checks}
}

/** The threads of a job file: numjobs summed over its job sections (a section without numjobs inherits [global]'s, else 1); as text. */
export function jobThreads(j: Map<string, Map<string, string>>): string | undefined {
  const g = j.get('global')
  let n = 0
  let any = false
  for (const [name, kv] of j) {
    if (name === 'global') continue
    any = true
    n += Number(kv.get('numjobs') ?? g?.get('numjobs') ?? '1')
  }
  return any ? String(n) : undefined
}

/**
 * Sequential series stream continuously (plan/stream.ts): recomputed from the raw outputs alone,
 * sample 1 starts every thread at its slice's start and every later sample starts each thread where
 * its stream ended (its leading direction's bytes in fio's per-job output of the sample before,
 * back to the slice start at its end); the stored offsets and each job section's fio offset and size
 * must be exactly that. Runs stored before pts kept stream offsets: not applicable.
 */
export function continuityCheck(r: ProgramResults, raw: ReadonlyMap<string, string | null>, cache: ParsedRaw = new Map()): AuditCheck {
  const title = 'Sequential streams continue from sample to sample'
  const series = r.phases.map((p, pi) => ({p, pi})).filter((x): x is {p: Extract<PhaseResult, {kind: 'series'}>; pi: number} => x.p.kind === 'series')
  const streamed = series.filter(x => x.p.stream)
  const sequentialOld = series.filter(x => !x.p.stream && x.p.samples.length > 0 && isSequentialJob(raw.get(x.p.samples[0].raw.job)))
  if (streamed.length === 0) {
    return {id: 'continuity', title, status: 'skip', problems: [], reason: sequentialOld.length > 0
      ? `not applicable: ${sequentialOld.map(x => x.p.id).join(', ')} ${sequentialOld.length === 1 ? 'was' : 'were'} stored by an earlier pts, whose samples each started at the start of the slices (no stream offsets recorded)`
      : 'this test has no sequential series'}
  }
  const problems: string[] = []
  const summary: string[] = []
  for (const {p, pi} of streamed) {
    const slices = p.stream!.slices
    const threads = slices.length
    for (let k = 1; k < threads; k++) if (slices[k].offsetBytes < slices[k - 1].offsetBytes + slices[k - 1].sizeBytes) problems.push(`results.json /phases/${pi}/stream/slices/${k}: overlaps the slice before`)
    const end = Math.max(...slices.map(x => x.offsetBytes + x.sizeBytes))
    if (end > r.parameters.activeRangeBytes) problems.push(`results.json /phases/${pi}/stream/slices: end at byte ${end}, beyond the ActiveRange of ${r.parameters.activeRangeBytes} bytes`)
    let expected = firstStreamStarts(slices)
    let wraps = 0
    let checked = 0
    for (const [k, x] of p.samples.entries()) {
      const where = `${p.id} sample ${k + 1}`
      const ptr = `results.json /phases/${pi}/samples/${k}/stream`
      const parsedJob = parseRaw(raw, x.raw.json, cache)
      const job = raw.get(x.raw.job)
      if (!parsedJob || parsedJob instanceof Error || !job) { problems.push(`${where}: ${!job ? x.raw.job : x.raw.json} is missing or not fio output; the stream cannot be followed past it`); break }
      const bytes = jobBytes(parsedJob)
      const sections = parseJobFile(job)
      const advanced: number[] = []
      for (let t = 0; t < threads; t++) {
        const name = `${p.id}-t${t + 1}`
        const b = bytes.get(name)
        const sec = sections.get(name)
        if (!b || !sec) { problems.push(`${where}: ${!b ? `${x.raw.json} has no job ${name}` : `${x.raw.job} has no section [${name}]`}`); continue }
        advanced[t] = streamAdvance(b.readBytes, b.writeBytes)
        const off = Number(sec.get('offset'))
        const size = Number(sec.get('size'))
        const sliceEnd = slices[t].offsetBytes + slices[t].sizeBytes
        if (off !== expected[t]) problems.push(`${x.raw.job} [${name}]: offset=${sec.get('offset')}, but the stream of thread ${t + 1} ended at byte ${expected[t]}${k === 0 ? ' (the start of its slice)' : ' in the sample before'}`)
        if (size !== sliceEnd - off) problems.push(`${x.raw.job} [${name}]: size=${sec.get('size')}, expected ${sliceEnd - off} (to the end of the thread's slice at byte ${sliceEnd})`)
        if (streamWrapped(slices[t], expected[t], advanced[t])) wraps++
      }
      if (!x.stream) problems.push(`${ptr}: absent (a sample of a sequential series must record its stream offsets)`)
      else {
        for (const d of jsonDiff(x.stream.startOffsets, expected, `${ptr}/startOffsets`)) problems.push(d.replace(/: /, ': stored ').replace(' ≠ ', ', recomputed '))
        for (const d of jsonDiff(x.stream.advancedBytes, advanced, `${ptr}/advancedBytes`)) problems.push(`${d.replace(/: /, ': stored ').replace(' ≠ ', ', from raw ')} (${x.raw.json})`)
      }
      checked++
      if (advanced.length !== threads || advanced.some(a => a === undefined)) break
      expected = nextStreamStarts(slices, expected, advanced)
    }
    summary.push(`${p.id}: ${checked} samples x ${threads} thread${threads === 1 ? '' : 's'}${wraps ? `, ${wraps} wrap${wraps === 1 ? '' : 's'} at a slice end` : ''}`)
  }
  const old = sequentialOld.length ? `; ${sequentialOld.map(x => x.p.id).join(', ')}: stored by an earlier pts, not applicable` : ''
  return check('continuity', title, problems, `${summary.join('; ')}: every sample started each thread where its stream ended in the sample before (recomputed from fio's per-job bytes)${old}`)
}

function isSequentialJob(text: string | null | undefined): boolean {
  if (!text) return false
  const rw = jobValue(parseJobFile(text), 'rw')
  return rw === 'write' || rw === 'read' || rw === 'rw' || rw === 'readwrite'
}

/**
 * Per-second traces (pts run --per-second): every traced step's values recomputed from the raw
 * fio logs it lists (engine/parse.ts perSecondTrace, the function pts run used), and its job file
 * asks fio for exactly those logs; in a run with traces, every step but WIPC has one. Runs without
 * traces: not applicable.
 */
export function perSecondCheck(r: ProgramResults, raw: ReadonlyMap<string, string | null>): AuditCheck {
  const title = 'Per-second traces recomputed from the raw fio logs'
  const steps = stepsOf(r)
  const traced = steps.filter(s => s.step.perSecond !== undefined)
  if (r.parameters.perSecond !== true && traced.length === 0) return {id: 'per-second', title, status: 'skip', problems: [], reason: 'the run has no per-second traces (pts run --per-second)'}
  const problems: string[] = []
  let seconds = 0
  for (const s of steps) {
    const t = s.step.perSecond
    if (!t) { problems.push(`results.json ${s.pointer} (${s.what}): no per-second trace, though the run has per-second traces on (--per-second, or a test that always has them)`); continue }
    const files: Array<{name: string; text: string}> = []
    for (const rel of t.logs) {
      const text = raw.get(rel)
      if (text === undefined || text === null) problems.push(`${s.what}: the log ${rel} is missing`)
      else files.push({name: rel.split('/').at(-1)!, text})
    }
    if (t.logs.length === 0) problems.push(`results.json ${s.pointer}/perSecond/logs (${s.what}): no logs listed`)
    for (const d of jsonDiff(t.seconds, perSecondTrace(files), `${s.pointer}/perSecond/seconds`)) problems.push(`results.json ${d.replace(/: /, ': stored ').replace(' ≠ ', ', recomputed ')} (${s.what}, from ${t.logs[0]?.replace(/_[a-z_]+\.\d+\.log$/, '_*.log') ?? 'no logs'})`)
    const job = raw.get(s.step.raw.job)
    if (job) {
      const want = perSecondLines(perSecondPrefix(s.step.raw.json.replace(/\.json$/, '')))
      const lines = new Set(job.split('\n'))
      for (const l of want) if (!lines.has(l)) problems.push(`${s.step.raw.job} (${s.what}): has no ${l}`)
    }
    seconds += t.seconds.length
  }
  return check('per-second', title, problems, `${traced.length} steps, ${seconds} seconds: every stored per-second value equals the one recomputed from its fio logs`)
}
