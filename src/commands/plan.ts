import {BaseCommand} from '../app/base-command.js'
import {runFlags, suiteFlags, testArg} from '../app/flags.js'
import type {PurgeMethod} from '../device/purge.js'
import type {ProgramPlan} from '../plan/expand.js'

/** `pts plan <test> --json`: the plan of one test. */
export interface PlanTestJson {
  test: ProgramPlan['spec']['id']
  revision: ProgramPlan['spec']['revision']
  profile: ProgramPlan['options']['profile']
  /** file:<path>, or the block device with its model and serial. */
  target: string
  safety: {proceed: boolean; refusals: string[]}
  compliance: ProgramPlan['compliance']
  deviations: ProgramPlan['deviations']
  purge: {method: PurgeMethod | 'none'; deviation: string | null; refused: string | null; steps: string[]}
  options: ProgramPlan['options']
  activeRangeBytes: ProgramPlan['activeRangeBytes']
  phases: ProgramPlan['phases']
  timeline: ProgramPlan['timeline']
  durations: ProgramPlan['durations']
  parameters: ProgramPlan['spec']['parameters']
  /** fio job text of the first step of every phase, by phase id. */
  jobs: Record<string, string>
}

/** `pts plan all --json`: each test of the suite with its duration and safety verdict. */
export interface PlanSuiteJson {
  suite: true
  revision: string
  /** maxSec: null when a phase has no upper bound. */
  tests: Array<{test: string; minSec: number; maxSec: number | null; refusals: string[]; compliance: ProgramPlan['compliance']
    /** Phases whose minimum is only the earliest possible stop (it depends on the device, e.g. WSAT's capacity stop). */
    minDependsOn?: string[]}>
}

/** What `pts plan --json` prints. */
export type PlanJson = PlanTestJson | PlanSuiteJson

export default class Plan extends BaseCommand {
  static summary = 'Print what a run would do and how long it takes; touches nothing.'
  static description = 'Prints every phase of the test (purge, WIPC, steady-state loops, series, ...) with its timeline, the safety verdict, compliance, the test\'s constants with their source, and the minimum and maximum duration; with --json also the fio job text of the first step of every phase. "all" prints every test\'s duration and the suite\'s total. Takes the same flags as `pts run`; --yes-destroy-data only changes the printed safety verdict.'
  static examples = [
    '<%= config.bin %> plan iops --device /dev/nvme1n1',
    '<%= config.bin %> plan iops --device file:/scratch/pts.img --size 8GiB --point-seconds 5 --max-rounds 8',
    '<%= config.bin %> plan all --device /dev/nvme1n1',
  ]
  static args = testArg
  static flags = {...runFlags, ...suiteFlags}

  async run(): Promise<PlanJson> {
    const {prepare} = await import('../app/prepare.js')
    const {planJobs, planText} = await import('../app/plan-text.js')
    const {chooseTests, revisionTests, suiteDurationText} = await import('../app/suite.js')
    const {args, flags} = await this.parse(Plan)
    if (args.test === 'all') {
      const tests = chooseTests(revisionTests(flags.revision), flags.tests, flags.revision)
      const parts = tests.map(t => {
        const p = prepare(t, flags)
        const dependent = p.plan.timeline.filter(x => x.minDependsOn).map(x => x.phase)
        return {test: t, minSec: p.plan.durations.minSec, maxSec: p.plan.durations.maxSec, refusals: p.refusals, compliance: p.plan.compliance, ...(dependent.length ? {minDependsOn: dependent} : {})}
      })
      const refusals = parts[0]?.refusals ?? []
      if (!this.jsonEnabled()) {
        this.log([`PTS suite, revision ${flags.revision}: ${tests.join(', ')} (in this order; each test starts from its own purge)`,
          `Safety: ${refusals.length === 0 ? 'would proceed' : `would REFUSE:\n${refusals.map(r => `  - ${r}`).join('\n')}`}`,
          'Duration per test (pts plan <test> prints each timeline):', suiteDurationText(parts)].join('\n'))
      }
      return {suite: true, revision: flags.revision, tests: parts}
    }
    if (flags.tests !== undefined) throw new (await import('../errors.js')).UsageError('--tests applies to pts plan all')
    const {plan, target, refusals, purge} = prepare(args.test, flags)
    const label = target.kind === 'file' ? `file:${target.path}` : `${target.path} (${target.identity.model ?? '?'}, serial ${target.identity.serial ?? 'none'})`
    const purgeInfo: PlanTestJson['purge'] = purge ? {method: purge.method, deviation: purge.deviation, refused: purge.refused, steps: purge.steps.map(x => x.argv.join(' '))} : {method: 'none', deviation: plan.purge.deviation, refused: null, steps: []}
    if (!this.jsonEnabled()) this.log(planText(plan, label, refusals, purgeInfo))
    return {
      test: plan.spec.id, revision: plan.spec.revision, profile: plan.options.profile, target: label,
      safety: {proceed: refusals.length === 0, refusals}, compliance: plan.compliance, deviations: plan.deviations,
      purge: purgeInfo,
      options: plan.options, activeRangeBytes: plan.activeRangeBytes, phases: plan.phases, timeline: plan.timeline, durations: plan.durations,
      parameters: plan.spec.parameters, jobs: planJobs(plan),
    }
  }
}
