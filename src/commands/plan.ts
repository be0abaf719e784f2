import {BaseCommand} from '../cli/base.js'
import {runFlags, testArg} from '../cli/options.js'
import {iopsFlags, prepare} from '../cli/prepare.js'
import {planText} from '../cli/plan-text.js'
import {pointJob, wipcJob} from '../engine/jobfile.js'
import {prepareProgram, programFlags, programPlanJobs, programPlanText} from '../cli/program.js'
import {chooseTests, revisionTests, suiteDurationText} from '../cli/suite.js'
import {suiteFlags} from '../cli/options.js'
import type {Plan as IopsPlan} from '../spec/expand.js'
import type {ProgramPlan} from '../program/expand.js'
import type {PurgeMethod} from '../device/purge.js'

/** `pts plan iops --json`: the plan of an IOPS run. */
export interface PlanIopsJson {
  test: IopsPlan['spec']['id']
  revision: IopsPlan['spec']['revision']
  profile: IopsPlan['options']['profile']
  /** file:<path>, or the block device with its model and serial. */
  target: string
  safety: {proceed: boolean; refusals: string[]}
  compliance: IopsPlan['compliance']
  deviations: IopsPlan['deviations']
  purge: {method: PurgeMethod | 'none'; deviation: string | null; refused: string | null; steps: string[]}
  options: IopsPlan['options']
  activeRangeBytes: IopsPlan['activeRangeBytes']
  wipc: IopsPlan['wipc']
  pointsPerRound: number
  points: IopsPlan['points']
  durations: IopsPlan['durations']
  /** fio job files: the WIPC job and each point of round 1. */
  jobs: {wipc: string; round1: string[]}
}

/** `pts plan <tp|lat|wsat|hir|xsr|cbw|ecw|dirth> --json`: the plan of a test program. */
export interface PlanProgramJson {
  test: ProgramPlan['spec']['id']
  revision: ProgramPlan['spec']['revision']
  profile: ProgramPlan['options']['profile']
  target: string
  safety: {proceed: boolean; refusals: string[]}
  compliance: ProgramPlan['compliance']
  deviations: ProgramPlan['deviations']
  options: ProgramPlan['options']
  activeRangeBytes: ProgramPlan['activeRangeBytes']
  phases: ProgramPlan['phases']
  timeline: ProgramPlan['timeline']
  durations: ProgramPlan['durations']
  parameters: ProgramPlan['spec']['parameters']
  /** fio job text by step. */
  jobs: Record<string, string>
}

/** `pts plan all --json`: each test of the suite with its duration and safety verdict. */
export interface PlanSuiteJson {
  suite: true
  revision: string
  /** maxSec: null when a phase has no upper bound. */
  tests: Array<{test: string; minSec: number; maxSec: number | null; refusals: string[]; compliance: IopsPlan['compliance'] | ProgramPlan['compliance']}>
}

/** What `pts plan --json` prints. */
export type PlanJson = PlanIopsJson | PlanProgramJson | PlanSuiteJson

export default class Plan extends BaseCommand {
  static summary = 'Print what a run would do and how long it takes; touches nothing.'
  static description = 'Prints every phase (purge, WIPC, WDPC rounds), the safety verdict, compliance, the fio job text of one round, the number of test points and the minimum and maximum duration. Takes the same flags as `pts run`; --yes-destroy-data only changes the printed safety verdict.'
  static examples = [
    '<%= config.bin %> plan iops --device /dev/nvme1n1',
    '<%= config.bin %> plan iops --device file:/scratch/pts.img --size 8GiB --point-seconds 5 --max-rounds 8',
  ]
  static args = testArg
  static flags = {...runFlags, ...programFlags, ...suiteFlags}

  async run(): Promise<PlanJson> {
    const {args, flags} = await this.parse(Plan)
    if (args.test === 'all') {
      const tests = chooseTests(revisionTests(flags.revision), flags.tests, flags.revision)
      const parts = tests.map(t => {
        if (t === 'iops') {
          const p = prepare('iops', iopsFlags(flags))
          return {test: t, minSec: p.plan.durations.minSec, maxSec: p.plan.durations.maxSec, refusals: p.refusals, compliance: p.plan.compliance}
        }
        const p = prepareProgram(t, flags)
        return {test: t, minSec: p.plan.durations.minSec, maxSec: p.plan.durations.maxSec, refusals: p.refusals, compliance: p.plan.compliance}
      })
      const refusals = parts[0]?.refusals ?? []
      if (!this.jsonEnabled()) {
        this.log([`PTS suite, revision ${flags.revision}: ${tests.join(', ')} (in this order; each test starts from its own purge)`,
          `Safety: ${refusals.length === 0 ? 'would proceed' : `would REFUSE:\n${refusals.map(r => `  - ${r}`).join('\n')}`}`,
          'Duration per test (pts plan <test> prints each timeline):', suiteDurationText(parts)].join('\n'))
      }
      return {suite: true, revision: flags.revision, tests: parts}
    }
    if (args.test !== 'iops') {
      const p = prepareProgram(args.test, flags)
      const t = p.target
      const label = t.kind === 'file' ? `file:${t.path}` : `${t.path} (${t.identity.model ?? '?'}, serial ${t.identity.serial ?? 'none'})`
      if (!this.jsonEnabled()) this.log(programPlanText(p.plan, label, p.refusals))
      return {
        test: p.plan.spec.id, revision: p.plan.spec.revision, profile: p.plan.options.profile, target: label,
        safety: {proceed: p.refusals.length === 0, refusals: p.refusals}, compliance: p.plan.compliance, deviations: p.plan.deviations,
        options: p.plan.options, activeRangeBytes: p.plan.activeRangeBytes, phases: p.plan.phases, timeline: p.plan.timeline, durations: p.plan.durations,
        parameters: p.plan.spec.parameters, jobs: programPlanJobs(p.plan),
      }
    }
    const {plan, target, refusals, purge} = prepare(args.test, iopsFlags(flags))
    const label = target.kind === 'file' ? `file:${target.path}` : `${target.path} (${target.identity.model ?? '?'}, serial ${target.identity.serial ?? 'none'})`
    if (!this.jsonEnabled()) this.log(planText(plan, label, refusals, purge))
    return {
      test: plan.spec.id, revision: plan.spec.revision, profile: plan.options.profile, target: label,
      safety: {proceed: refusals.length === 0, refusals},
      compliance: plan.compliance, deviations: plan.deviations,
      purge: purge ? {method: purge.method, deviation: purge.deviation, refused: purge.refused, steps: purge.steps.map(x => x.argv.join(' '))} : {method: 'none', deviation: plan.purge.deviation, refused: null, steps: []},
      options: plan.options, activeRangeBytes: plan.activeRangeBytes, wipc: plan.wipc,
      pointsPerRound: plan.points.length, points: plan.points,
      durations: plan.durations,
      jobs: {wipc: wipcJob(plan), round1: plan.points.map(p => pointJob(plan, p, 1))},
    }
  }
}
