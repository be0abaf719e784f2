/**
 * Types of a PTS test definition (the data in specs/<revision>/<test>.json, validated by
 * schemas/test-spec.schema.json). Thresholds, matrices and orders live in the data, never
 * in code (digest Part A 1).
 */

export const TEST_IDS = ['iops'] as const
export type TestId = (typeof TEST_IDS)[number]
export const REVISIONS = ['2.0.2', 'pts-e-1.1', 'pts-c-1.2'] as const
export type Revision = (typeof REVISIONS)[number]
export const PROFILES = ['enterprise', 'client'] as const
export type ProfileId = (typeof PROFILES)[number]

export function isTestId(s: string): s is TestId {
  return (TEST_IDS as readonly string[]).includes(s)
}

/** How reports name a revision ("PTS-E 1.1"). */
export const REVISION_LABELS: Record<Revision, string> = {'2.0.2': 'PTS 2.0.2', 'pts-e-1.1': 'PTS-E 1.1', 'pts-c-1.2': 'PTS-C 1.2'}
export const revisionLabel = (rev: string): string => REVISION_LABELS[rev as Revision] ?? rev

export function isRevision(s: string): s is Revision {
  return (REVISIONS as readonly string[]).includes(s)
}

/** Per-profile parameters (digest B §2.6). */
export interface ProfileParams {
  /** Device volatile write cache required by the profile. */
  writeCache: 'enabled' | 'disabled'
  /** ActiveRange, percent of the addressable LBAs used by the test stimulus. @exclusiveMinimum 0 @maximum 100 */
  activeRangePct: number
  /** ActiveRange used for preconditioning (PTS-C 1.x PC AR). @exclusiveMinimum 0 @maximum 100 */
  preconditionActiveRangePct: number
  /** Recommended thread count (fio numjobs). @integer @minimum 1 */
  threadCount: number
  /** Recommended outstanding IOs per thread (fio iodepth). @integer @minimum 1 */
  queueDepth: number
}

/** One steady-state tracking variable (digest B §3.4). */
export interface TrackingVariable {
  id: string
  label: string
  readPct: number
  blockSizeBytes: number
  metric: 'iops'
}

export interface SteadyStateCriteria {
  /** Rounds in the measurement window (x-4..x = 5; digest Part A 2). */
  windowRounds: number
  /** Max data excursion, percent of the window average (20; digest B §3.1). */
  maxDataExcursionPct: number
  /** Max slope excursion, percent of the window average (10; digest B §3.1). */
  maxSlopeExcursionPct: number
}

export interface TestSpec {
  $schema?: string
  id: TestId
  revision: Revision
  title: string
  /** Spec clause the definition follows, e.g. "PTS 2.0.2 §7 (digest B §5.1)". */
  clause: string
  profiles: Partial<Record<ProfileId, ProfileParams>>
  defaultProfile: ProfileId
  purge: {required: boolean}
  /** Workload independent preconditioning (digest Part A 9, B §2.1). */
  wipc: {access: 'sequential'; readPct: 0; blockSizeBytes: number; capacityMultiple: number}
  stimulus: {
    access: 'random' | 'sequential'
    dataPattern: 'random'
    /** Loops from outer to inner; the order of values is the spec's order (digest Part A 7). */
    loops: {rwMixReadPct: number[]; blockSizesBytes: number[]}
    loopOrder: ['rwMixReadPct', 'blockSizesBytes']
    pointSeconds: number
  }
  steadyState: SteadyStateCriteria & {
    maxRounds: number
    tracking: TrackingVariable[]
  }
}
