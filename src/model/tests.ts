/**
 * The one registry of the tests pts runs: id, title, full name, suite order and what claims a
 * test's loops can measure. Every other list of test ids in src/ derives from this one. Pure.
 */

export interface TestEntry {
  /** Short title used in page titles ("IOPS", "TP"). */
  title: string
  /** Full name as the spec's report pages give it. */
  name: string
  /**
   * Access of the test's steady-state loops, when `pts verify` matches datasheet claims against
   * them (IOPS: random IOPS and MB/s; TP: sequential; LAT: random response time); null otherwise.
   */
  claimAccess: 'random' | 'sequential' | null
  /**
   * The test has a random TC x QD loop (DIRTH, CBW, ECW): `pts verify` uses its points only when
   * one is at a claim's exact thread count and queue depth.
   */
  loadSweep: boolean
  /**
   * A review test (specs/reviews/): not part of the SNIA PTS. The review or source it comes from,
   * in plain words, printed by pts plan and on every report page.
   */
  review?: string
}

/** In the spec's suite order: each test purges first, so the order sets no write history. */
export const TESTS = {
  iops: {title: 'IOPS', name: 'IOPS Test', claimAccess: 'random', loadSweep: false},
  tp: {title: 'TP', name: 'Throughput (TP) Test', claimAccess: 'sequential', loadSweep: false},
  lat: {title: 'LAT', name: 'Latency (LAT) Test', claimAccess: 'random', loadSweep: false},
  wsat: {title: 'WSAT', name: 'Write Saturation (WSAT) Test', claimAccess: null, loadSweep: false},
  hir: {title: 'HIR', name: 'Host Idle Recovery (HIR) Test', claimAccess: null, loadSweep: false},
  xsr: {title: 'XSR', name: 'Cross Stimulus Recovery (XSR) Test', claimAccess: null, loadSweep: false},
  cbw: {title: 'CBW', name: 'Composite Block Size Workload (CBW) Test', claimAccess: null, loadSweep: true},
  ecw: {title: 'ECW', name: 'Enterprise Composite Workload (ECW) Test', claimAccess: null, loadSweep: true},
  dirth: {title: 'DIRTH', name: 'Demand Intensity / Response Time Histogram (DIRTH) Test', claimAccess: null, loadSweep: true},
  // The review tests (specs/reviews/): what drive reviews measure beside the PTS. Not part of it.
  'fob-ss': {title: 'FOB-SS', name: 'Fresh-Out-of-Box vs Steady State QD Sweep (review test)', claimAccess: null, loadSweep: false,
    review: 'the Crucial MX100 review\'s fresh-out-of-box and steady-state queue-depth sweeps'},
  consistency: {title: 'CONSISTENCY', name: '4KiB Random Write Consistency (review test)', claimAccess: null, loadSweep: false,
    review: 'AnandTech\'s performance consistency test (4 KiB random writes, IOPS every second)'},
  'consistency-128k': {title: 'CONSISTENCY-128K', name: '128KiB Random Write Consistency (review test)', claimAccess: null, loadSweep: false,
    review: 'AnandTech\'s performance consistency test, run with 128 KiB random writes'},
  'four-corners': {title: 'FOUR-CORNERS', name: 'Four Corners and Random Seeks (review test)', claimAccess: null, loadSweep: false,
    review: 'AnandTech\'s four-corners tests (random 4 KiB and sequential 128 KiB, read and write) and Bonnie++\'s random seeks'},
  'transfer-sizes': {title: 'TRANSFER-SIZES', name: 'Transfer Sizes (review test)', claimAccess: null, loadSweep: false,
    review: 'diglloyd\'s ATTO-style transfer-size test'},
  fill: {title: 'FILL', name: 'Fill by Position (review test)', claimAccess: null, loadSweep: false,
    review: 'diglloyd\'s fill-volume test'},
} as const satisfies Record<string, TestEntry>

export type TestId = keyof typeof TESTS
export const TEST_IDS = Object.keys(TESTS) as TestId[]

export function isTestId(s: string): s is TestId {
  return Object.hasOwn(TESTS, s)
}

/** "IOPS", or the id upper-cased for a test this pts does not know (a run written by a newer one). */
export const testTitle = (id: string): string => (isTestId(id) ? TESTS[id].title : id.toUpperCase())

/** "Host Idle Recovery (HIR) Test", or "<ID> Test" for a test this pts does not know (a run written by a newer one). */
export const testName = (id: string): string => (isTestId(id) ? TESTS[id].name : `${id.toUpperCase()} Test`)

/** The review tests (specs/reviews/), not part of the SNIA PTS. */
export const REVIEW_TEST_IDS: readonly TestId[] = TEST_IDS.filter(t => (TESTS[t] as TestEntry).review !== undefined)

/** The review or source a review test comes from (plain words), or null for a PTS test. */
export const reviewSource = (id: string): string | null => (isTestId(id) ? (TESTS[id] as TestEntry).review ?? null : null)

/** The tests whose loops `pts verify` matches claims against. */
export const CLAIM_TESTS: readonly TestId[] = TEST_IDS.filter(t => TESTS[t].claimAccess !== null)

/** The tests with a random TC x QD loop, used by `pts verify` only at a claim's exact load. */
export const LOAD_SWEEP_TESTS: readonly TestId[] = TEST_IDS.filter(t => TESTS[t].loadSweep)

export const REVISIONS = ['2.0.2', 'pts-e-1.1', 'pts-c-1.2'] as const
/**
 * A PTS revision, or 'reviews': the folder of the review tests (specs/reviews/), which are not
 * part of any PTS revision and are run whatever --revision says.
 */
export type Revision = (typeof REVISIONS)[number] | 'reviews'
export const REVIEWS_REVISION = 'reviews' as const
export const PROFILES = ['enterprise', 'client'] as const
export type ProfileId = (typeof PROFILES)[number]

export function isRevision(s: string): s is Revision {
  return (REVISIONS as readonly string[]).includes(s)
}

/** How reports name a revision ("PTS-E 1.1"). */
export const REVISION_LABELS: Record<Revision, string> = {'2.0.2': 'PTS 2.0.2', 'pts-e-1.1': 'PTS-E 1.1', 'pts-c-1.2': 'PTS-C 1.2', reviews: 'Review test, not SNIA PTS'}
export const revisionLabel = (rev: string): string => REVISION_LABELS[rev as Revision] ?? rev

/** Per-profile parameters, written once per revision in specs/<rev>/revision.json. */
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

/** specs/<rev>/revision.json: what every test of a revision shares. */
export interface RevisionSpec {
  $schema?: string
  revision: Revision
  /** @minLength 1 */
  label: string
  /** @minProperties 1 */
  profiles: Partial<Record<ProfileId, ProfileParams>>
  defaultProfile: ProfileId
}
