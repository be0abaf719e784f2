/** `pts resume <run>`: continue one stored run of any test from its phases (or restart it from the purge). */
import type {KeyObject} from 'node:crypto'
import {join} from 'node:path'
import {exitFor, reportAfterRun, summaryText, type RunSummary} from './execute.js'
import {RunDirError, UnsafeTargetError, UsageError} from '../errors.js'
import * as M from '../messages.js'
import {findFio} from '../engine/fio.js'
import {parseTarget, resolveTarget} from '../device/target.js'
import {hostFacts, toolVersion} from '../host.js'
import {Progress} from '../progress.js'
import {planFor, purgeFor} from './prepare.js'
import type {ProfileId, Revision} from '../model/tests.js'
import {endLeftovers, liveHolder} from '../store/lock.js'
import {readStoredRun} from '../store/read.js'
import type {RunManifest} from '../model/manifest.js'
import type {ResolvedTarget} from '../device/target.js'
import {loadProgramSpec} from '../store/spec-files.js'
import {runProgram} from '../runner/run.js'

export async function resumeRun(runDirArg: string, opts: {restart: boolean; signKey: KeyObject | undefined; argv: string[]; log: ((text: string) => void) | null}): Promise<RunSummary> {
  const {runDir: dir, manifest, results} = readStoredRun(runDirArg)
  const restart = opts.restart
  mayResume(dir, results.status, restart)
  const fio = findFio()
  const target = sameDevice(manifest)
  const leftovers = await endLeftovers(dir)
  const spec = loadProgramSpec(results.test, results.revision)
  const p = results.parameters
  const firstPurge = results.phases.find(x => x.kind === 'purge') as {method: string} | undefined
  // the same purge method as the run chose
  const purge = purgeFor(target, firstPurge?.method === 'none' ? undefined : firstPurge?.method)
  if (purge?.refused && restart) throw new UnsafeTargetError(M.purge.refusedOnRestart(target.path, purge.refused))
  const plan = planFor(spec, {
    revision: results.revision as Revision, profile: results.profile as ProfileId, threadCount: p.threadCount, queueDepth: p.queueDepth,
    pointSeconds: p.pointSeconds, maxRounds: p.maxRounds, onNoSteadyState: p.onNoSteadyState ?? 'stop', roundCap: p.roundCap ?? p.maxRounds,
    wipcMultiple: p.wipcMultiple ?? null, timeScale: p.timeScale, ioengine: p.ioengine, seed: p.seed, workload: p.workload,
    ceilingMs: p.ceilingMs, maxSeconds: p.maxSeconds, maxWrittenBytes: p.maxWrittenBytes, steadyStateExit: p.steadyStateExit, perSecond: p.perSecond === true,
  }, target, purge)
  const lastActivityAt = [manifest.events.at(-1)?.at, manifest.finishedAt].filter((x): x is string => Boolean(x)).sort().at(-1) ?? manifest.createdAt
  const summary = await runProgram({
    plan, target, purge, fio, runId: manifest.runId, runDir: dir, argv: opts.argv, toolVersion: toolVersion(), host: hostFacts(),
    progress: new Progress(process.stderr, false, 10), signKey: opts.signKey,
    resume: {manifest, results, restartFromPurge: restart, interruption: {lastActivityAt, status: results.status, leftovers}},
  })
  const withReport = {...summary, report: await reportAfterRun(dir, false)}
  opts.log?.(summaryText(withReport))
  process.exitCode = exitFor(withReport)
  return withReport
}

/** Refuse a run that is still held by a live pts, or complete (nothing to resume). */
function mayResume(dir: string, status: string, restart: boolean): void {
  const holder = liveHolder(join(dir, 'lock.json'))
  if (holder) throw new RunDirError(M.runDir.resumeInProgress(dir, holder.pid))
  if (status === 'complete' && !restart) {
    throw new UsageError(M.runDir.alreadyComplete(dir))
  }
}

/** The device must be the same one (digest Part A 11: identity is part of the provenance); refuses before anything is written. */
function sameDevice(manifest: RunManifest): ResolvedTarget {
  const t = manifest.target
  const allowPartition = manifest.compliance.reasons.some(r => r.includes('is a partition'))
  const target = resolveTarget(parseTarget(t.kind === 'file' ? `file:${t.path}` : t.path), null, {allowPartition})
  const id = target.identity
  const was = t.identity
  const diffs: string[] = []
  if (target.sizeBytes !== t.sizeBytes) diffs.push(`capacity is ${target.sizeBytes} bytes, the run was on ${t.sizeBytes}`)
  if ((id.serial ?? '') !== (was.serial ?? '')) diffs.push(`serial is ${id.serial ?? 'none'}, the run was on ${was.serial ?? 'none'}`)
  if ((id.model ?? '') !== (was.model ?? '')) diffs.push(`model is ${id.model ?? 'none'}, the run was on ${was.model ?? 'none'}`)
  if (diffs.length > 0) throw new UnsafeTargetError(M.target.notTheRunDevice(t.path, diffs))
  if (target.device && target.device.safety.refusals.length > 0) throw new UnsafeTargetError(M.target.refused(t.path, target.device.safety.refusals))
  return target
}
