import {Flags} from '@oclif/core'
import {BaseCommand} from '../app/base-command.js'
import {defaultRunDir, num, runFlags, suiteFlags, testArg} from '../app/flags.js'
import * as M from '../messages.js'
import type {Preflight, WriteEstimate} from '../app/preflight.js'
import type {Prepared} from '../app/prepare.js'
import type {PurgeMethod} from '../device/purge-plan.js'
import type {ProgramPlan} from '../plan/expand.js'
import type {ProgramParameter} from '../model/definition.js'
import {userParameter} from '../model/wording.js'

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
  /** The test's constants as users see them (without the definition's internal `ref`). */
  parameters: Array<Omit<ProgramParameter, 'ref'>>
  /** fio job text of the first step of every phase, by phase id. */
  jobs: Record<string, string>
  /** What the run needs and costs: fio, Chromium, the purge tool, free space; WIPC time, bytes written, stored size. */
  preflight: Preflight
}

/** `pts plan all --json`: each test of the suite with its duration and safety verdict. */
export interface PlanSuiteJson {
  suite: true
  revision: string
  /** maxSec: null when a phase has no upper bound. */
  tests: Array<{test: string; minSec: number; maxSec: number | null; refusals: string[]; compliance: ProgramPlan['compliance']
    /** The test's WIPC volume (0: none). @integer @minimum 0 */
    wipcBytes: number
    writes: WriteEstimate
    /** @integer @minimum 0 */
    storedBytes: number
    /** Phases whose minimum is only the earliest possible stop (it depends on the device, e.g. WSAT's capacity stop). */
    minDependsOn?: string[]}>
  /** The suite's checks and totals (bytes written, WIPC, stored size: every test added up). */
  preflight: Preflight
}

/** What `pts plan --json` prints. */
export type PlanJson = PlanTestJson | PlanSuiteJson

export default class Plan extends BaseCommand {
  static summary = 'Print what a run would do, how long it takes and what it needs; check this host for it; touches nothing.'
  static description = `Prints every phase of the test (purge, WIPC, steady-state loops, series, ...) with its timeline, the safety verdict, compliance, the test's constants with their source, and the minimum and maximum duration; with --json also the fio job text of the first step of every phase. "all" prints every test's duration and the suite's totals. Takes the same flags as \`pts run\`; --yes-destroy-data only changes the printed safety verdict.

Preflight (checked on this host, each line PASS, FAIL, INFO or N/A): fio present and its version (PTS_FIO or PATH); Chromium present for report.pdf (CHROMIUM_PATH, default /usr/bin/chromium); the tool of the chosen purge, and only that one (when no purge can be chosen, the purge tools of the device's interface: NVMe: nvme-cli, SATA: hdparm, SAS/SCSI: sg3-utils; n/a for a file and for --purge none); free space on the file system of the run directory (--out, default reports/) against the run's estimated stored size at its longest (and a file target's size, which the run fills); the WIPC time; the bytes the run writes, in drive writes (bytes / capacity). WIPC's volume is exact; the other phases run for a time, so their bytes are their write time (duration x write share) at a write rate: --assume-write-mbps, else the interface's limit (SATA 600 MB/s, SAS 1,200 MB/s, NVMe the PCIe link when known), which gives the most the run can write and the shortest WIPC.

Exit codes: 0 the plan is printed and every preflight check passed; 2 bad usage; 12 the plan is printed but a preflight check FAILED (fio or Chromium missing, the purge tool missing, too little free space), so a CI job running pts plan before a long run stops there. A safety refusal (e.g. no --yes-destroy-data) is printed, not an error: pts run refuses with exit 4.`
  static examples = [
    '<%= config.bin %> plan iops --device /dev/nvme1n1',
    '<%= config.bin %> plan iops --device file:/scratch/pts.img --size 8GiB --point-seconds 5 --max-rounds 8',
    {description: 'The suite: every test\'s duration, the suite\'s bytes written and stored size, at a sustained write rate of 330 MB/s', command: '<%= config.bin %> plan all --device /dev/sdb --assume-write-mbps 330'},
    {description: 'In CI before a long run: exit 12 when fio, Chromium, the purge tool or free space is missing', command: '<%= config.bin %> plan all --device /dev/nvme1n1 --json > plan.json'},
  ]
  static args = testArg
  static flags = {
    ...runFlags, ...suiteFlags,
    'assume-write-mbps': Flags.string({description: 'pts plan only: the drive\'s sustained write rate in MB/s (10^6 B/s) for the WIPC time and bytes-written estimates (default: the interface\'s limit, an upper bound on bytes and a lower bound on WIPC time)'}),
  }

  async run(): Promise<PlanJson> {
    const {prepare} = await import('../app/prepare.js')
    const {planJobs, planText} = await import('../app/plan-text.js')
    const {chooseTests, revisionTests, suiteDurationText} = await import('../app/suite.js')
    const {probe} = await import('../app/preflight-probe.js')
    const pf = await import('../app/preflight.js')
    const {interfaceLimit} = await import('../claims/interface.js')
    const {args, flags} = await this.parse(Plan)
    const assumed = num('assume-write-mbps', flags['assume-write-mbps'], {minExclusive: 0}) ?? null
    const runDir = flags.out ?? defaultRunDir(new Date(), args.test, flags.device)
    const rateOf = (p: Prepared) => pf.writeRate(assumed, interfaceLimit({kind: p.target.kind, identity: p.target.identity}))
    if (args.test === 'all') {
      const tests = chooseTests(revisionTests(flags.revision), flags.tests, flags.revision)
      const prepared = tests.map(t => prepare(t, flags))
      const rate = rateOf(prepared[0])
      const parts = prepared.map((p, i) => ({
        test: tests[i], minSec: p.plan.durations.minSec, maxSec: p.plan.durations.maxSec, refusals: p.refusals, compliance: p.plan.compliance,
        wipcBytes: pf.wipcBytes(p.plan), writes: pf.writeEstimate(p.plan, rate), storedBytes: pf.storedBytes(p.plan),
        ...(dependentOf(p.plan).length ? {minDependsOn: dependentOf(p.plan)} : {}),
      }))
      const preflight = pf.preflight({
        facts: probe(prepared[0], runDir), writes: pf.sumWrites(parts.map(p => p.writes)), rateIsBound: rate.bound,
        wipcBytes: parts.reduce((a, p) => a + p.wipcBytes, 0), stored: parts.reduce((a, p) => a + p.storedBytes, 0),
      })
      const refusals = parts[0]?.refusals ?? []
      if (!this.jsonEnabled()) {
        this.log([`PTS suite, revision ${flags.revision}: ${tests.join(', ')} (in this order; each test starts from its own purge)`,
          `Safety: ${refusals.length === 0 ? 'would proceed' : `would REFUSE:\n${refusals.map(r => `  - ${r}`).join('\n')}`}`,
          'Duration per test (pts plan <test> prints each timeline):', suiteDurationText(parts),
          '', 'Writes and stored size per test:', pf.suiteWritesText(parts),
          '', `${pf.preflightText(preflight)}`].join('\n'))
      }
      if (!preflight.ok) process.exitCode = pf.PREFLIGHT_FAILED_EXIT
      return {suite: true, revision: flags.revision, tests: parts, preflight}
    }
    if (flags.tests !== undefined) throw new (await import('../errors.js')).UsageError(M.usage.testsOnlyForAll('plan'))
    const prepared = prepare(args.test, flags)
    const {plan, target, refusals, purge} = prepared
    const rate = rateOf(prepared)
    const preflight = pf.preflight({facts: probe(prepared, runDir), writes: pf.writeEstimate(plan, rate), rateIsBound: rate.bound, wipcBytes: pf.wipcBytes(plan), stored: pf.storedBytes(plan)})
    const label = target.kind === 'file' ? `file:${target.path}` : `${target.path} (${target.identity.model ?? '?'}, serial ${target.identity.serial ?? 'none'})`
    const purgeInfo: PlanTestJson['purge'] = purge ? {method: purge.method, deviation: purge.deviation, refused: purge.refused, steps: purge.steps.map(x => x.argv.join(' '))} : {method: 'none', deviation: plan.purge.deviation, refused: null, steps: []}
    if (!this.jsonEnabled()) this.log(planText(plan, label, refusals, purgeInfo, pf.preflightText(preflight)))
    if (!preflight.ok) process.exitCode = pf.PREFLIGHT_FAILED_EXIT
    return {
      test: plan.spec.id, revision: plan.spec.revision, profile: plan.options.profile, target: label,
      safety: {proceed: refusals.length === 0, refusals}, compliance: plan.compliance, deviations: plan.deviations,
      purge: purgeInfo,
      options: plan.options, activeRangeBytes: plan.activeRangeBytes, phases: plan.phases, timeline: plan.timeline, durations: plan.durations,
      parameters: plan.spec.parameters.map(userParameter), jobs: planJobs(plan), preflight,
    }
  }
}

/** The phases whose minimum duration is only the earliest possible stop (WSAT's capacity stop depends on the device). */
function dependentOf(plan: ProgramPlan): string[] {
  return plan.timeline.filter(x => x.minDependsOn).map(x => x.phase)
}
