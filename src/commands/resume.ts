import {Args, Flags} from '@oclif/core'
import {join} from 'node:path'
import {BaseCommand} from '../cli/base.js'
import {exitFor, reportAfterRun, summaryText} from '../cli/execute.js'
import {RunDirError, UnsafeTargetError, UsageError} from '../errors.js'
import {findFio} from '../engine/fio.js'
import {parseTarget, resolveTarget} from '../device/target.js'
import {hostFacts, toolVersion} from '../host.js'
import {Progress} from '../progress.js'
import {runTest} from '../run/run-test.js'
import {planFor, purgeFor} from '../cli/prepare.js'
import {loadSpec} from '../spec/load.js'
import type {ProfileId, Revision} from '../spec/types.js'
import {endLeftovers, liveHolder} from '../store/lock.js'
import {readStoredProgram, readStoredRun, storedRunKind} from '../store/read.js'
import type {RunManifest} from '../store/types.js'
import type {ResolvedTarget} from '../device/target.js'
import type {KeyObject} from 'node:crypto'
import {loadProgramSpec} from '../spec/load.js'
import {programPlanFor, programSummaryText} from '../cli/program.js'
import {runProgram} from '../program/run.js'
import {readSuite, runSuite} from '../cli/suite.js'
import {loadSigningKey} from '../store/integrity.js'
import {signKeyFlag} from '../cli/options.js'
import type {RunJson} from './run.js'

export default class Resume extends BaseCommand {
  static summary = 'Continue an interrupted run or suite (after a crash, a reboot or Ctrl-C).'
  static description = `Continues a run from its stored state: completed rounds are kept, the round that was cut is re-run from its start (the points it had are set aside under raw/cut-<time>/), and the interruption (when, how long idle) is a recorded deviation shown in the report. With --restart-from purge everything measured is set aside and the run starts again from the purge: a clean, compliant run.

Before touching the device, resume ends any fio process that a killed pts left running (found by the pids recorded in lock.json), refuses while another pts holds the run or the device, and refuses when the device identity (serial, capacity) differs from the manifest. The run's old seal and signature are removed when it continues and written again when it ends (pass --sign-key again to sign).

The other tests (tp, lat, wsat, hir, xsr, cbw, ecw, dirth) continue from their stored phases: completed phases are kept, a cut loop round, HIR wait state or histogram run is re-run from its start, a cut series continues with its next sample. A suite directory (pts run all) continues the cut test, then runs the tests not yet started, and writes suite.pdf.`
  static examples = [
    '<%= config.bin %> resume reports/2026-12-01T101500Z-iops-nvme1n1',
    '<%= config.bin %> resume reports/2026-12-01T101500Z-iops-nvme1n1 --restart-from purge',
    '<%= config.bin %> resume reports/2026-12-01T101500Z-all-nvme1n1',
  ]
  static args = {runDir: Args.string({description: 'run directory written by pts run (or a suite directory of pts run all)', required: true})}
  static flags = {
    'restart-from': Flags.string({description: 'start again from this phase instead of continuing', options: ['purge']}),
    ...signKeyFlag,
  }

  async run(): Promise<RunJson> {
    const {args, flags} = await this.parse(Resume)
    const signKey = flags['sign-key'] === undefined ? undefined : loadSigningKey(flags['sign-key'])
    const suite = readSuite(args.runDir)
    if (suite) {
      if (flags['restart-from']) throw new UsageError('--restart-from applies to one test run, not a suite', `pass the test's directory, e.g. ${join(args.runDir, suite.tests[0].dir)}`)
      if (suite.status === 'complete') throw new UsageError(`the suite in ${args.runDir} is already complete`, 'its combined report is suite.pdf')
      const s = await runSuite({dir: args.runDir, tests: suite.tests.map(t => t.test), flags: suite.flags as never, argv: suite.argv, signKey, resume: suite,
        resumeTest: dir => this.config.runCommand('resume', [dir, ...(flags['sign-key'] ? ['--sign-key', flags['sign-key']] : [])])})
      if (!this.jsonEnabled()) this.log([`Suite ${s.suiteId}: ${s.status}`, ...s.tests.map(t => `  ${t.dir}: ${t.status}`), ...s.files.map(f => `Report: ${f}`)].join('\n'))
      return s
    }
    if (storedRunKind(args.runDir)?.kind === 'program') return this.resumeProgram(args.runDir, flags['restart-from'] !== undefined, signKey)
    const {runDir: dir, manifest, results} = readStoredRun(args.runDir)
    mayResume(dir, results.status, flags['restart-from'] !== undefined)
    const fio = findFio()
    const target = sameDevice(manifest)
    const leftovers = await endLeftovers(dir)
    const spec = loadSpec(results.test, results.revision)
    const p = results.parameters
    // the same purge method as the run chose (needed again only with --restart-from purge)
    const purge = purgeFor(target, results.purge.method)
    if (purge?.refused && flags['restart-from']) throw new UnsafeTargetError(target.path, [`purge: ${purge.refused}`], 'nothing was written')
    const plan = planFor(spec, {
      revision: results.revision as Revision, profile: results.profile as ProfileId, threadCount: p.threadCount, queueDepth: p.queueDepth,
      pointSeconds: p.pointSeconds, maxRounds: p.maxRounds, onNoSteadyState: p.onNoSteadyState, wipcMultiple: p.wipcMultiple, ioengine: p.ioengine, seed: p.seed,
    }, target, purge)
    const lastPoint = results.rounds.flatMap(r => r.points).at(-1)
    const lastActivityAt = [lastPoint?.finishedAt, results.wipc?.finishedAt, manifest.events.at(-1)?.at].filter((x): x is string => Boolean(x)).sort().at(-1) ?? manifest.createdAt
    const summary = await runTest({
      plan, target, purge, fio, runId: manifest.runId, runDir: dir, argv: ['pts', 'resume', ...this.argv], toolVersion: toolVersion(), host: hostFacts(),
      progress: new Progress(process.stderr, false, 10),
      signKey,
      resume: {manifest, results, restartFromPurge: flags['restart-from'] === 'purge', interruption: {lastActivityAt, status: results.status, leftovers}},
    })
    const withReport = {...summary, report: await reportAfterRun(dir, false)}
    if (!this.jsonEnabled()) this.log(summaryText(withReport))
    process.exitCode = exitFor(withReport)
    return withReport
  }

  /** A test-program run (tp, lat, wsat, hir, xsr, cbw, ecw, dirth): continue from its stored phases. */
  private async resumeProgram(runDirArg: string, restart: boolean, signKey: KeyObject | undefined): Promise<RunJson> {
    if (restart) throw new UsageError('--restart-from purge is supported for IOPS runs only', 'start a new run of this test instead')
    const {runDir: dir, manifest, results} = readStoredProgram(runDirArg)
    mayResume(dir, results.status, false)
    const fio = findFio()
    const target = sameDevice(manifest)
    const leftovers = await endLeftovers(dir)
    const spec = loadProgramSpec(results.test, results.revision)
    const p = results.parameters
    const firstPurge = results.phases.find(x => x.kind === 'purge') as {method: string} | undefined
    const purge = purgeFor(target, firstPurge?.method === 'none' ? undefined : firstPurge?.method)
    const plan = programPlanFor(spec, {
      revision: results.revision as Revision, profile: results.profile as ProfileId, threadCount: p.threadCount, queueDepth: p.queueDepth,
      pointSeconds: p.pointSeconds, maxRounds: p.maxRounds, timeScale: p.timeScale, ioengine: p.ioengine, seed: p.seed, workload: p.workload,
      ceilingMs: p.ceilingMs, maxSeconds: p.maxSeconds, maxWrittenBytes: p.maxWrittenBytes, steadyStateExit: p.steadyStateExit,
    }, target, purge)
    const lastActivityAt = [manifest.events.at(-1)?.at, manifest.finishedAt].filter((x): x is string => Boolean(x)).sort().at(-1) ?? manifest.createdAt
    const summary = await runProgram({
      plan, target, purge, fio, runId: manifest.runId, runDir: dir, argv: ['pts', 'resume', ...this.argv], toolVersion: toolVersion(), host: hostFacts(),
      progress: new Progress(process.stderr, false, 10), signKey,
      resume: {manifest, results, interruption: {lastActivityAt, status: results.status, leftovers}},
    })
    const withReport = {...summary, report: await reportAfterRun(dir, false)}
    if (!this.jsonEnabled()) this.log(programSummaryText(withReport))
    process.exitCode = exitFor(withReport)
    return withReport
  }
}

/** Refuse a run that is still held by a live pts, or complete (nothing to resume). */
function mayResume(dir: string, status: string, restart: boolean): void {
  const holder = liveHolder(join(dir, 'lock.json'))
  if (holder) throw new RunDirError(`the run in ${dir} is still in progress (pts pid ${holder.pid})`, 'wait for it, or stop it with Ctrl-C / kill, then resume')
  if (status === 'complete' && !restart) {
    throw new UsageError(`the run in ${dir} is already complete; there is nothing to resume`, `render its report with: pts report ${dir}`)
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
  if (diffs.length > 0) throw new UnsafeTargetError(t.path, [`this is not the device of the run: ${diffs.join('; ')}`], 'nothing was written')
  if (target.device && target.device.safety.refusals.length > 0) throw new UnsafeTargetError(t.path, target.device.safety.refusals, 'nothing was written')
  return target
}
