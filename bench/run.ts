/**
 * npm run bench: pts against raw fio, side by side (not part of the tests). Needs root (loop
 * device), fio, and a built pts (`npm run build`: it runs bin/run.js, as an installed pts would).
 *
 * (a) IOPS ratio: the IOPS of one test point (RND 4 KiB 0/100, TC 4/QD 32) measured through
 *     `pts run` vs the identical fio job run directly by fio, on four targets:
 *       null  fio's `null` ioengine (pts --ioengine null) on a small file target: no I/O at all,
 *             so the ratio shows only the runner's own cost (CPU pts takes from fio, gating).
 *       shm   a 256 MiB file target in /dev/shm (tmpfs): RAM-backed, and fio's libaio O_DIRECT I/O
 *             on tmpfs is a synchronous page-cache copy in fio's own thread (no loop device, no
 *             kernel workers), so the ratio is as quiet as on `null` but real data is copied.
 *       ram   a loop device backed by a file in /dev/shm, attached without --direct-io (buffered
 *             backing; fio opens the loop device with O_DIRECT as usual). RAM-backed, so the
 *             virtual disk's noise is gone but the whole block layer path is still measured.
 *             Why this one: `losetup --direct-io=on` over tmpfs is refused by kernels before 6.6
 *             (tmpfs had no O_DIRECT); on newer kernels it is accepted but tmpfs "direct" I/O is
 *             the same page-cache copy, so buffered backing is the same data path and works
 *             everywhere. brd (/dev/ram0) and null_blk need modprobe, often unavailable in VMs.
 *             The backing file is written once in full before the pairs (no page allocation
 *             during the measurement).
 *       file  a 256 MiB file target on the working directory's disk (BENCH_DIR, default tmpdir),
 *             written once in full first; the real but noisy case (virtual disk).
 *     Each pair runs both sides once, alternating which goes first (pts, fio | fio, pts | ...);
 *     each side runs the WIPC job and then the point, back to back, with the same seed (1000, the
 *     same for every pair of a target) and the same job text: the fio side takes its jobs from
 *     one `pts plan --json` with the same flags as the `pts run`s, and
 *     the job pts stored in raw/ is compared (minus any exec_ hooks: jobs stored by older pts carry them) with that text for every
 *     pair. Pairs are added until the 95 % confidence interval of the median pair ratio pts/fio
 *     has a half-width <= BENCH_CI_HALF_PCT (2 %) of the median, or the pair cap is hit; whether
 *     the goal was reached is printed. The CI is distribution-free: sorted ratios r(1) <= ... <=
 *     r(n), the interval [r(k), r(n+1-k)] with the largest k such that the Binomial(n, 1/2)
 *     probability of fewer than k ratios below the median is <= 2.5 % (exact coverage printed;
 *     needs n >= 6). The half-width is max(median - r(k), r(n+1-k) - median) / median.
 *     pts runs with CHROMIUM_PATH pointing nowhere: the report after the run then fails at once
 *     (exit 7, results kept) instead of taking ~8 s per run; it comes after the point, so it
 *     does not change what is measured. (If a later pts refuses to start without Chromium, the
 *     bench notices - no results.json - and runs with the real Chromium from then on.)
 * (b) Idle time between consecutive test points of one IOPS round (56 points, from the stored
 *     startNs/endNs) through pts's pipeline on the file target (target: median <= 50 ms); with
 *     BENCH_ROUND_COMPARE=1 also fio's own stonewall sequencing and one fio process per point.
 * (c) Start-up cost: CPU seconds (user + sys, the whole process tree, from bash's `time`, which
 *     reports getrusage(RUSAGE_CHILDREN)) of `pts --help` and `pts plan iops --device file:<a new file in the work dir>
 *     --size 64MiB` with the built bin/run.js, BENCH_STARTUP_RUNS (10) runs each, median
 *     (target 0.3 s).
 *
 * Format compatibility (the stored results and the test definitions are being redesigned): the
 * bench reads the first point from results.json's `rounds` or, in the new format, from the first
 * phase with rounds (`phases: [{kind: 'loop', rounds}]`); it edits specs/<rev>/iops.json either in
 * today's shape (stimulus.loops) or the phases shape (loop phase `loops`/`steadyState.tracking`);
 * and it finds the fio job texts in `pts plan --json` by jobTexts() below (jobs.wipc /
 * jobs.round1[0] today, else a search of the whole JSON for job text).
 *
 * Prints a table and writes bench/results/<date>-<label>.json (label: BENCH_LABEL-<commit>, or
 * <commit>). Takes about 10 minutes (less when the CI goal is reached early).
 * Env: BENCH_TARGETS (null,shm,ram,file), BENCH_FAST_POINT_SECONDS (null/shm/ram point, 1),
 * BENCH_POINT_SECONDS (file point, 2), BENCH_MIN_PAIRS (8), BENCH_MAX_PAIRS (null/shm/ram cap, 40),
 * BENCH_FILE_MAX_PAIRS (file cap, 10), BENCH_CI_HALF_PCT (2), BENCH_ROUND_POINT_SECONDS (b, 1),
 * BENCH_ROUND_COMPARE (b, 0), BENCH_STARTUP_RUNS (c, 10), BENCH_DIR, BENCH_LABEL,
 * BENCH_PTS_BIN (default bin/run.js; bin/dev.js runs src/ through tsx).
 */
import {spawn, spawnSync} from 'node:child_process'
import {cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {cpus, getPriority, loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const env = (name: string, dflt: number) => Number(process.env[name] ?? dflt)
const fastPointSec = env('BENCH_FAST_POINT_SECONDS', 1)
const filePointSec = env('BENCH_POINT_SECONDS', 2)
const minPairs = Math.max(6, env('BENCH_MIN_PAIRS', 8))
const maxPairs = env('BENCH_MAX_PAIRS', 40)
const fileMaxPairs = env('BENCH_FILE_MAX_PAIRS', 10)
const ciGoalPct = env('BENCH_CI_HALF_PCT', 2)
const roundPointSec = env('BENCH_ROUND_POINT_SECONDS', 1)
const roundCompare = process.env.BENCH_ROUND_COMPARE === '1'
const startupRuns = env('BENCH_STARTUP_RUNS', 10)
const targetsWanted = (process.env.BENCH_TARGETS ?? 'null,shm,ram,file').split(',').map(s => s.trim()).filter(Boolean)
const PTS_BIN = join(ROOT, process.env.BENCH_PTS_BIN ?? 'bin/run.js')
// set in main() (importing this module for its helpers creates nothing)
/**
 * The nice value the fio side runs at: the one the pts under test starts its fio at, so that both
 * sides get the same share of a CPU that fio shares with the loop device's kernel workers. pts
 * since 2026-12-04 starts fio at FIO_NICE (dist/engine/fio.js; -10 when pts runs at nice 0 as
 * root), older pts at its own (0). BENCH_FIO_NICE overrides it.
 */
function fioSideNice(): number {
  if (process.env.BENCH_FIO_NICE !== undefined) return Number(process.env.BENCH_FIO_NICE)
  let text = ''
  try { text = readFileSync(join(ROOT, 'dist/engine/fio.js'), 'utf8') } catch { return 0 }
  const m = /FIO_NICE = (-?\d+)/.exec(text)
  return m && process.getuid?.() === 0 && getPriority() === 0 ? Number(m[1]) : 0
}
const FIO_SIDE_NICE = fioSideNice()

let work = ''
let fileTarget = ''
let NO_CHROMIUM = ''
let shmFile = ''
let shmTarget = ''
let skipReport = true // see the header: flips to false if pts needs Chromium to run at all

// ---------------------------------------------------------------- statistics

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]
}
/** P(X <= j) for X ~ Binomial(n, 1/2). */
function binomCdfHalf(n: number, j: number): number {
  let term = 0.5 ** n // C(n,0) / 2^n
  let sum = 0
  for (let i = 0; i <= j; i++) {
    sum += term
    term = term * (n - i) / (i + 1)
  }
  return sum
}
interface MedianCi {n: number; median: number; lo: number | null; hi: number | null; coverage: number | null; halfWidthPct: number | null; ranks: [number, number] | null}
/**
 * Distribution-free CI of the median: [r(k), r(n+1-k)] (1-based order statistics) with the
 * largest k such that P(Binomial(n, 1/2) <= k-1) <= alpha/2; coverage = 1 - 2 P(B <= k-1).
 */
export function medianCi(xs: number[], alpha = 0.05): MedianCi {
  const s = [...xs].sort((a, b) => a - b)
  const n = s.length
  const m = median(s)
  let k = 0
  while (k + 1 <= n / 2 && binomCdfHalf(n, k) <= alpha / 2) k++ // k = largest with P(B <= k-1) <= alpha/2
  if (k < 1) return {n, median: m, lo: null, hi: null, coverage: null, halfWidthPct: null, ranks: null}
  const lo = s[k - 1]
  const hi = s[n - k]
  return {n, median: m, lo, hi, coverage: 1 - 2 * binomCdfHalf(n, k - 1), halfWidthPct: 100 * Math.max(m - lo, hi - m) / m, ranks: [k, n + 1 - k]}
}

// ---------------------------------------------------------------- processes

function sh(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, {encoding: 'utf8'})
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${(r.stderr ?? '').slice(-500)}${r.error ? r.error.message : ''}`)
  return r.stdout.trim()
}

/** pts's environment; `report: false` for `pts plan`, whose preflight fails (exit 12) when Chromium is missing. */
function ptsEnv(specs?: string, report = true): NodeJS.ProcessEnv {
  return {...process.env, ...(specs ? {PTS_SPECS_DIR: specs} : {}), ...(skipReport && report ? {CHROMIUM_PATH: NO_CHROMIUM} : {})}
}

/** `pts run ...`; exit 7 (only the report failed) is fine when results.json was written. */
function ptsRun(args: string[], out: string, specs?: string): unknown {
  const r = spawnSync(process.execPath, [PTS_BIN, 'run', ...args, '--out', out], {encoding: 'utf8', env: ptsEnv(specs)})
  const results = join(out, 'results.json')
  if (r.status === 0 || (r.status === 7 && existsSync(results))) return JSON.parse(readFileSync(results, 'utf8'))
  if (r.status === 7 && skipReport) {
    process.stderr.write('pts would not run without Chromium: running with the report from now on\n')
    skipReport = false
    rmSync(out, {recursive: true, force: true})
    return ptsRun(args, out, specs)
  }
  throw new Error(`pts run ${args.join(' ')} failed (${r.status}):\n${r.stderr.slice(-2000)}`)
}

function ptsPlan(args: string[], specs?: string): unknown {
  const r = spawnSync(process.execPath, [PTS_BIN, 'plan', ...args, '--json'], {encoding: 'utf8', env: ptsEnv(specs, false)})
  if (r.status !== 0) throw new Error(`pts plan ${args.join(' ')} failed (${r.status}):\n${r.stderr.slice(-2000)}`)
  return JSON.parse(r.stdout)
}

function fio(jobPath: string, outPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = ['--output-format=json', `--output=${outPath}`, jobPath]
    const c = FIO_SIDE_NICE === 0 ? spawn('fio', args, {cwd: work, stdio: 'ignore'}) : spawn('nice', ['-n', String(FIO_SIDE_NICE), 'fio', ...args], {cwd: work, stdio: 'ignore'})
    c.on('error', reject)
    c.on('exit', code => (code === 0 ? resolve() : reject(new Error(`fio ${jobPath} exit ${code}`))))
  })
}

// ---------------------------------------------------------------- format-tolerant readers

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any

/** IOPS of a fio JSON output (group_reporting: one job; read + write + trim, as pts reports). */
function fioIops(path: string): number {
  const text = readFileSync(path, 'utf8')
  const j = JSON.parse(text.slice(text.indexOf('{'))) as Json
  let iops = 0
  for (const job of j.jobs) for (const dir of ['read', 'write', 'trim']) iops += Number(job[dir]?.iops ?? 0)
  return iops
}
function fioRuntimeSec(path: string): number {
  const text = readFileSync(path, 'utf8')
  const j = JSON.parse(text.slice(text.indexOf('{'))) as Json
  return Math.max(...j.jobs.map((job: Json) => Math.max(job.read?.runtime ?? 0, job.write?.runtime ?? 0))) / 1000
}

/** The first round of the results: today `rounds[0]`, new format the first phase with rounds. */
export function firstRound(results: Json): {points: Json[]} {
  if (Array.isArray(results.rounds) && results.rounds.length > 0) return results.rounds[0]
  for (const ph of results.phases ?? []) if (Array.isArray(ph.rounds) && ph.rounds.length > 0) return ph.rounds[0]
  throw new Error('results.json has neither rounds nor a phase with rounds')
}
export function firstPointIops(results: Json): number {
  const iops = Number(firstRound(results).points[0]?.iops)
  if (!Number.isFinite(iops)) throw new Error('results.json: first point has no iops')
  return iops
}

/** Job files pts stored for its first round point: raw.job of the point, else the first non-WIPC *.fio under raw/. */
function storedPointJob(runDir: string, point: Json): {job: string | null; json: string | null} {
  if (point?.raw?.job && existsSync(join(runDir, point.raw.job))) return {job: join(runDir, point.raw.job), json: point.raw.json ? join(runDir, point.raw.json) : null}
  const found: string[] = []
  const walk = (d: string) => {
    for (const e of readdirSync(d, {withFileTypes: true}).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(join(d, e.name))
      else if (e.name.endsWith('.fio') && !/wipc|purge/i.test(e.name)) found.push(join(d, e.name))
    }
  }
  if (existsSync(join(runDir, 'raw'))) walk(join(runDir, 'raw'))
  const job = found[0] ?? null
  return {job, json: job && existsSync(job.replace(/\.fio$/, '.json')) ? job.replace(/\.fio$/, '.json') : null}
}

const stripHooks = (job: string) => job.split('\n').filter(l => !/^exec_(pre|post)run=/.test(l)).join('\n').trimEnd()

/**
 * The fio job texts of the WIPC and of the first test point in `pts plan --json` output.
 * Today they are `jobs.wipc` and `jobs.round1[0]`. Fallback for a changed shape: every string in
 * the JSON (depth first, in key order) that looks like a fio job file (a `[global]` section or an
 * `rw=` line); the point is the first such text that is time-based (time_based= or runtime=, as
 * every test point is), the WIPC the first one with a `[wipc` section or a sequential `rw=write`
 * that is not time-based. Throws when no point job is found.
 */
export function jobTexts(plan: Json): {wipc: string | null; point: string; how: string} {
  const isJob = (s: string) => /^\[global\]$/m.test(s) || /^rw=/m.test(s)
  if (typeof plan?.jobs?.round1?.[0] === 'string' && isJob(plan.jobs.round1[0])) {
    return {wipc: typeof plan.jobs.wipc === 'string' ? plan.jobs.wipc : null, point: plan.jobs.round1[0], how: 'jobs.round1[0]'}
  }
  const texts: string[] = []
  const walk = (v: Json) => {
    if (typeof v === 'string') { if (isJob(v)) texts.push(v) } else if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') Object.values(v).forEach(walk)
  }
  walk(plan)
  const timed = (s: string) => /^(time_based=1|runtime=)/m.test(s)
  const point = texts.find(timed)
  if (!point) throw new Error('pts plan --json: no fio job text for a test point found')
  const wipc = texts.find(s => !timed(s) && (/^\[wipc/m.test(s) || /^rw=write$/m.test(s))) ?? null
  return {wipc, point, how: 'search of the plan JSON'}
}

/** A spec folder whose IOPS test is the single point RND 4 KiB 0/100 (same engine path as a full run). */
function onePointSpecs(dir: string): string {
  cpSync(join(ROOT, 'specs'), dir, {recursive: true})
  const p = join(dir, 'pts-2.0.2', 'iops.json')
  writeFileSync(p, JSON.stringify(onePointDefinition(JSON.parse(readFileSync(p, 'utf8')))))
  return dir
}
/** The IOPS definition (today's stimulus.loops shape or the phases shape) cut to the one point. */
export function onePointDefinition(s: Json): Json {
  if (Array.isArray(s.phases)) {
    // new shape: [{kind:'purge'}, {kind:'wipc'}, {kind:'loop', loops:[{dimension, values}], steadyState:{tracking}}]
    const loopAt = s.phases.findIndex((ph: Json) => ph.kind === 'loop')
    if (loopAt < 0) throw new Error('iops.json: no loop phase')
    const loop = s.phases[loopAt]
    loop.loops = [{dimension: 'readPct', values: [0]}, {dimension: 'blockSizeBytes', values: [4096]}]
    const t0 = loop.steadyState.tracking[0]
    loop.steadyState.tracking = [{...t0, select: {readPct: 0, blockSizeBytes: 4096}}]
    // one point in all: later loop phases (and what precedes only them) go
    s.phases = s.phases.slice(0, loopAt + 1)
  } else {
    s.stimulus.loops = {rwMixReadPct: [0], blockSizesBytes: [4096]}
    s.steadyState.tracking = [s.steadyState.tracking[0]]
  }
  return s
}

// ---------------------------------------------------------------- (a) IOPS ratio

interface Target {name: 'null' | 'shm' | 'ram' | 'file'; device: string; confirm: string; extra: string[]; pointSec: number; cap: number; note: string}
interface Pair {pair: number; order: 'pts-first' | 'fio-first'; seed: number; pts: number; fio: number; ratio: number; sameJob: boolean | null}
interface TargetResult {target: string; note: string; pointSeconds: number; cap: number; pairs: Pair[]; ci: MedianCi; reached: boolean; jobsFrom: string; wallSec: number; parseCheckMaxDevPct: number | null}

async function fill(path: string, bytes: number): Promise<void> {
  const job = join(work, 'fill.fio')
  writeFileSync(job, `[fill]\nfilename=${path}\nrw=write\nbs=1M\ndirect=1\nioengine=libaio\niodepth=8\nsize=${bytes}\n`)
  await fio(job, join(work, 'fill.json'))
}

async function benchTarget(t: Target, specs: string): Promise<TargetResult> {
  const t0 = Date.now()
  const pairs: Pair[] = []
  const parseDev: number[] = []
  let jobsFrom = ''
  const args = (seed: number) => ['iops', '--device', t.device, '--yes-destroy-data', t.confirm, ...t.extra,
    '--point-seconds', String(t.pointSec), '--max-rounds', '1', '--wipc-multiple', '0.05', '--seed', String(seed)]
  const viaPts = (i: number, seed: number, planned: string): {iops: number; same: boolean | null} => {
    const out = join(work, `a-${t.name}-pts-${i}`)
    const results = ptsRun(args(seed), out, specs) as Json
    const iops = firstPointIops(results)
    const stored = storedPointJob(out, firstRound(results).points[0])
    const same = stored.job ? stripHooks(readFileSync(stored.job, 'utf8')) === stripHooks(planned) : null
    if (stored.json) parseDev.push(100 * Math.abs(fioIops(stored.json) / iops - 1)) // our fio parser vs pts's figure
    rmSync(out, {recursive: true, force: true})
    return {iops, same}
  }
  const viaFio = async (i: number, jobs: {wipc: string | null; point: string}): Promise<number> => {
    if (jobs.wipc) {
      const wipcPath = join(work, `a-${t.name}-fio-wipc-${i}.fio`)
      writeFileSync(wipcPath, jobs.wipc)
      await fio(wipcPath, `${wipcPath}.json`)
    }
    const jobPath = join(work, `a-${t.name}-fio-${i}.fio`)
    writeFileSync(jobPath, stripHooks(jobs.point) + '\n')
    await fio(jobPath, `${jobPath}.json`)
    return fioIops(`${jobPath}.json`)
  }
  let ci = medianCi([])
  // one seed for the target, so one `pts plan` gives the job text for every pair (both sides)
  const seed = 1000
  const jobs = jobTexts(ptsPlan(args(seed), specs))
  jobsFrom = jobs.how
  for (let i = 0; i < t.cap; i++) {
    let p: {iops: number; same: boolean | null}
    let f: number
    if (i % 2 === 0) { p = viaPts(i, seed, jobs.point); f = await viaFio(i, jobs) } else { f = await viaFio(i, jobs); p = viaPts(i, seed, jobs.point) }
    if (p.same === false) throw new Error(`${t.name} pair ${i + 1}: the job pts ran differs from the planned job the fio side runs`)
    pairs.push({pair: i + 1, order: i % 2 === 0 ? 'pts-first' : 'fio-first', seed, pts: p.iops, fio: f, ratio: p.iops / f, sameJob: p.same})
    ci = medianCi(pairs.map(x => x.ratio))
    process.stderr.write(`  ${t.name} pair ${i + 1}: pts ${p.iops.toFixed(0)} fio ${f.toFixed(0)} ratio ${(p.iops / f).toFixed(3)}; median ${ci.median.toFixed(3)}${ci.halfWidthPct === null ? '' : ` CI +/-${ci.halfWidthPct.toFixed(1)} %`}\n`)
    if (pairs.length >= minPairs && ci.halfWidthPct !== null && ci.halfWidthPct <= ciGoalPct) break
  }
  return {target: t.name, note: t.note, pointSeconds: t.pointSec, cap: t.cap, pairs, ci, reached: ci.halfWidthPct !== null && ci.halfWidthPct <= ciGoalPct,
    jobsFrom, wallSec: (Date.now() - t0) / 1000, parseCheckMaxDevPct: parseDev.length ? Math.max(...parseDev) : null}
}

// ---------------------------------------------------------------- (b) idle between points

interface Gaps {approach: string; points: number; idleMedianMs: number; idleP95Ms: number; idleMaxMs: number; roundWallSec: number; sumRuntimeSec: number; overheadPct: number}

function gapStats(approach: string, spans: Array<{startNs: bigint; endNs: bigint; runtimeSec: number}>): Gaps {
  const idle = spans.slice(1).map((s, i) => Number(s.startNs - spans[i].endNs) / 1e6)
  const wall = Number(spans.at(-1)!.endNs - spans[0].startNs) / 1e9
  const sum = spans.reduce((a, s) => a + s.runtimeSec, 0)
  return {approach, points: spans.length, idleMedianMs: median(idle), idleP95Ms: pct(idle, 0.95), idleMaxMs: Math.max(...idle), roundWallSec: wall, sumRuntimeSec: sum, overheadPct: 100 * (wall / sum - 1)}
}

/** pts's own round: timestamps from results.json. */
function roundThroughPts(): {gaps: Gaps; jobs: string[]} {
  const out = join(work, 'b-pts')
  const r = ptsRun(['iops', '--device', `file:${fileTarget}`, '--size', '256MiB', '--yes-destroy-data', fileTarget, '--point-seconds', String(roundPointSec), '--max-rounds', '1', '--wipc-multiple', '0.25', '--seed', '7'], out) as Json
  const points = firstRound(r).points as Json[]
  return {
    gaps: gapStats('pts', points.map(p => ({startNs: BigInt(p.startNs), endNs: BigInt(p.endNs), runtimeSec: Number(p.runtimeSec)}))),
    jobs: points.map(p => stripHooks(readFileSync(storedPointJob(out, p).job!, 'utf8'))),
  }
}

/** Timestamp-only hooks (no gate), so the alternatives are measured the same way. */
function stampHooks(job: string, i: number): string {
  return job.replace(/^numjobs=(\d+)$/m, m => `${m}\nexec_prerun=sh ${work}/stamp.sh ${work}/s-${i}\nexec_postrun=sh ${work}/stamp.sh ${work}/e-${i}`)
}
function readStamps(n: number): Array<{startNs: bigint; endNs: bigint}> {
  const rd = (f: string) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map(x => BigInt(x))
  return Array.from({length: n}, (_, i) => ({startNs: rd(`${work}/s-${i}`).reduce((a, b) => (b < a ? b : a)), endNs: rd(`${work}/e-${i}`).reduce((a, b) => (b > a ? b : a))}))
}
function clearStamps(): void {
  for (const f of readdirSync(work)) if (/^[se]-\d+$/.test(f)) rmSync(join(work, f))
}

async function roundProcessPerPoint(jobs: string[]): Promise<Gaps> {
  clearStamps()
  const runtimes: number[] = []
  for (let i = 0; i < jobs.length; i++) {
    const jp = join(work, `c-${i}.fio`)
    writeFileSync(jp, stampHooks(jobs[i], i))
    await fio(jp, `${jp}.json`)
    runtimes.push(fioRuntimeSec(`${jp}.json`))
  }
  return gapStats('one fio process per point', readStamps(jobs.length).map((s, i) => ({...s, runtimeSec: runtimes[i]})))
}

async function roundStonewall(jobs: string[]): Promise<Gaps> {
  clearStamps()
  const sectionAt = (j: string) => j.search(/^\[(?!global\])/m)
  const global = jobs[0].slice(0, sectionAt(jobs[0])).split('\n').filter(l => !/^(randseed|;)/.test(l))
  const sections = jobs.map((j, i) => {
    const withHooks = stampHooks(j, i)
    return `${withHooks.slice(sectionAt(withHooks)).trimEnd()}\nstonewall\n${(/^randseed=\d+$/m.exec(j) ?? [''])[0]}\n`
  })
  const jp = join(work, 'd-stonewall.fio')
  writeFileSync(jp, [...global, '', ...sections].join('\n'))
  await fio(jp, `${jp}.json`)
  const text = readFileSync(`${jp}.json`, 'utf8')
  const j = JSON.parse(text.slice(text.indexOf('{'))) as Json
  return gapStats('fio stonewall, one process', readStamps(jobs.length).map((s, i) => ({...s, runtimeSec: Math.max(j.jobs[i].read.runtime, j.jobs[i].write.runtime) / 1000})))
}

// ---------------------------------------------------------------- (c) start-up CPU

interface Startup {command: string; runs: number; cpuSec: number[]; medianCpuSec: number; medianWallSec: number; targetSec: number}

function startupCpu(label: string, args: string[]): Startup {
  const cpu: number[] = []
  const wall: number[] = []
  const quoted = [process.execPath, PTS_BIN, ...args].map(a => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  for (let i = 0; i < startupRuns; i++) {
    // bash's `time` reports the user/sys CPU of the command and every child it waited for
    const r = spawnSync('bash', ['-c', `TIMEFORMAT='%3R %3U %3S'; time ${quoted} >/dev/null 2>&1`], {encoding: 'utf8', env: {...process.env}})
    const m = /([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr)
    if (r.status !== 0 || !m) throw new Error(`${label} failed (${r.status}): ${r.stderr.slice(-500)}`)
    wall.push(Number(m[1]))
    cpu.push(Number(m[2]) + Number(m[3]))
  }
  return {command: label, runs: startupRuns, cpuSec: cpu, medianCpuSec: median(cpu), medianWallSec: median(wall), targetSec: 0.3}
}

// ---------------------------------------------------------------- main

let loopDev: string | null = null
function cleanup(): void {
  if (loopDev) spawnSync('losetup', ['-d', loopDev])
  loopDev = null
  if (shmFile) rmSync(shmFile, {force: true})
  if (shmTarget) rmSync(shmTarget, {force: true})
}

function staleBuild(): boolean {
  if (!PTS_BIN.endsWith('run.js') || !existsSync(join(ROOT, 'dist'))) return !existsSync(join(ROOT, 'dist'))
  const built = statSync(join(ROOT, 'dist')).mtimeMs
  const newer = (d: string): boolean => readdirSync(d, {withFileTypes: true}).some(e => (e.isDirectory() ? newer(join(d, e.name)) : statSync(join(d, e.name)).mtimeMs > built))
  return newer(join(ROOT, 'src'))
}

async function main(): Promise<void> {
  const started = Date.now()
  work = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'pts-bench-'))
  fileTarget = join(work, 'target.img')
  NO_CHROMIUM = join(work, 'no-chromium')
  shmFile = join('/dev/shm', `${work.split('/').pop()}-ram.img`)
  shmTarget = join('/dev/shm', `${work.split('/').pop()}-shm.img`)
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => { cleanup(); process.stderr.write(`bench interrupted (work dir kept: ${work})\n`); process.exit(130) })
  const load: Array<{at: string; loadavg1: number}> = []
  const noteLoad = (at: string) => load.push({at, loadavg1: loadavg()[0]})
  noteLoad('start')
  writeFileSync(join(work, 'stamp.sh'), 'date +%s%N >> "$1"\n')
  const fioVersion = sh('fio', ['--version'])
  const commit = spawnSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], {encoding: 'utf8'}).stdout.trim() || 'unknown'
  const dirty = spawnSync('git', ['-C', ROOT, 'status', '--porcelain', '--', 'src', 'specs', 'bin'], {encoding: 'utf8'}).stdout.trim() !== ''
  if (staleBuild()) process.stderr.write('WARNING: src/ is newer than dist/ (or no dist/): run `npm run build` first, or set BENCH_PTS_BIN=bin/dev.js\n')
  process.stderr.write(`bench in ${work} (${fioVersion}, pts ${commit}${dirty ? ' + uncommitted src' : ''}, ${PTS_BIN.slice(ROOT.length)}; the fio side runs at nice ${FIO_SIDE_NICE})\n`)

  const specs = onePointSpecs(join(work, 'specs'))
  // the file target is written once in full first: writes into unallocated file blocks are
  // slower, which would favour whichever side runs later (and (b) uses it too)
  writeFileSync(fileTarget, '')
  await fill(fileTarget, 256 * 2 ** 20)
  const nullFile = join(work, 'null-target.img')
  const targets: Target[] = []
  const skipped: Array<{target: string; why: string}> = []
  for (const name of targetsWanted) {
    if (name === 'null') {
      targets.push({name, device: `file:${nullFile}`, confirm: nullFile, extra: ['--size', '64MiB', '--ioengine', 'null'], pointSec: fastPointSec, cap: maxPairs,
        note: 'fio null ioengine, 64 MiB file target (no I/O: the runner\'s own cost)'})
    } else if (name === 'shm') {
      // a file target on tmpfs: fio's libaio O_DIRECT I/O on it is a synchronous page-cache copy
      // in fio's own thread (no loop device, no kernel workers), so the only CPU contention is
      // between the two sides' own processes: RAM-backed and as quiet as `null`
      targets.push({name, device: `file:${shmTarget}`, confirm: shmTarget, extra: ['--size', '256MiB'], pointSec: fastPointSec, cap: maxPairs,
        note: `256 MiB file target in /dev/shm (tmpfs), libaio O_DIRECT (a synchronous memory copy), written once first`})
      writeFileSync(shmTarget, '')
      await fill(shmTarget, 256 * 2 ** 20)
    } else if (name === 'ram') {
      try {
        writeFileSync(shmFile, '')
        sh('truncate', ['-s', '256M', shmFile])
        loopDev = sh('losetup', ['--find', '--show', shmFile])
        await fill(loopDev, 256 * 2 ** 20)
        targets.push({name, device: loopDev, confirm: loopDev, extra: ['--purge', 'none'], pointSec: fastPointSec, cap: maxPairs,
          note: `loop device ${loopDev} over a 256 MiB file in /dev/shm (buffered backing), libaio O_DIRECT, --purge none`})
      } catch (error) {
        skipped.push({target: 'ram', why: (error as Error).message})
        process.stderr.write(`ram target skipped: ${(error as Error).message}\n`)
      }
    } else if (name === 'file') {
      targets.push({name, device: `file:${fileTarget}`, confirm: fileTarget, extra: [], pointSec: filePointSec, cap: fileMaxPairs,
        note: `256 MiB file target in ${process.env.BENCH_DIR ?? tmpdir()} (virtual disk), written once first, libaio O_DIRECT`})
    } else throw new Error(`BENCH_TARGETS: unknown target ${name} (null, shm, ram, file)`)
  }

  process.stderr.write(`(a) pairs until the 95 % CI of the median ratio is within +/-${ciGoalPct} % (min ${minPairs}, cap ${maxPairs}; file cap ${fileMaxPairs})\n`)
  const a: TargetResult[] = []
  for (const t of targets) { a.push(await benchTarget(t, specs)); noteLoad(`after (a) ${t.name}`) }
  cleanup()

  process.stderr.write(`(b) one IOPS round, 56 points x ${roundPointSec} s${roundCompare ? ', then fio stonewall and one fio process per point' : ''}\n`)
  const tb = Date.now()
  const b1 = roundThroughPts()
  const gaps = [b1.gaps]
  if (roundCompare) gaps.push(await roundStonewall(b1.jobs), await roundProcessPerPoint(b1.jobs))
  const bWall = (Date.now() - tb) / 1000
  noteLoad('after (b)')

  process.stderr.write(`(c) start-up CPU, ${startupRuns} runs each\n`)
  // The plan target is a path that does not exist (inside the bench's own work dir): a fixed /tmp path may be anything on a shared machine.
  const planTarget = `file:${join(work, 'plan-target.img')}`
  const c = [startupCpu('pts --help', ['--help']), startupCpu('pts plan iops --device file:<new file> --size 64MiB', ['plan', 'iops', '--device', planTarget, '--size', '64MiB'])]
  const totalSec = (Date.now() - started) / 1000
  noteLoad('end')
  const busy = load.filter(l => l.loadavg1 > cpus().length)

  const f = (x: number | null, d = 1) => (x === null ? '-' : x.toFixed(d))
  const lines = [
    `pts ${commit}${dirty ? '+dirty' : ''}, ${fioVersion}, ${cpus().length} CPUs; bench took ${f(totalSec / 60, 1)} min; 1-min load average ${load.map(l => f(l.loadavg1)).join(' / ')} (${load.map(l => l.at).join(' / ')})`,
    ...(busy.length ? [`WARNING: the load average exceeded the CPU count (${busy.map(l => l.at).join(', ')}): other work on this machine adds noise`] : []),
    '',
    `(a) IOPS ratio pts/fio, RND 4KiB 0/100 TC 4/QD 32, each side WIPC 0.05x then the point, same job and seed, order alternated per pair`,
    '    target  point  pairs  median   95% CI (ranks, coverage)          +/-     goal +/-' + `${ciGoalPct}%   pts IOPS med   fio IOPS med`,
    ...a.map(r => `    ${r.target.padEnd(6)}  ${f(r.pointSeconds, 0).padStart(3)} s  ${String(r.pairs.length).padStart(3)}/${String(r.cap).padEnd(2)} ${f(r.ci.median, 3)}   ${r.ci.lo === null ? '-'.padEnd(33) : `[${f(r.ci.lo, 3)}, ${f(r.ci.hi, 3)}] (${r.ci.ranks![0]}-${r.ci.ranks![1]}, ${f(100 * r.ci.coverage!, 1)} %)`.padEnd(33)} ${f(r.ci.halfWidthPct).padStart(4)} %  ${(r.reached ? 'reached' : 'NOT reached (cap)').padEnd(17)}  ${f(median(r.pairs.map(p => p.pts)), 0).padStart(12)}   ${f(median(r.pairs.map(p => p.fio)), 0).padStart(12)}`),
    ...skipped.map(s => `    ${s.target.padEnd(6)}  skipped: ${s.why}`),
    '',
    `(b) one IOPS round (56 points x ${roundPointSec} s, file target)`,
    '    approach                       idle median   p95      max      round wall  sum runtimes  overhead',
    ...gaps.map(g => `    ${g.approach.padEnd(30)} ${f(g.idleMedianMs).padStart(8)} ms ${f(g.idleP95Ms).padStart(6)} ms ${f(g.idleMaxMs).padStart(6)} ms ${f(g.roundWallSec, 2).padStart(8)} s  ${f(g.sumRuntimeSec, 2).padStart(8)} s  ${f(g.overheadPct).padStart(6)}%`),
    `    pts median idle between points: ${f(b1.gaps.idleMedianMs)} ms (target <= 50 ms: ${b1.gaps.idleMedianMs <= 50 ? 'met' : 'NOT met'})`,
    '',
    `(c) start-up CPU (user+sys of the whole process tree, median of ${startupRuns}; built ${PTS_BIN.slice(ROOT.length)})`,
    ...c.map(s => `    ${s.command.padEnd(50)} ${f(s.medianCpuSec, 3)} s CPU (wall ${f(s.medianWallSec, 3)} s)   target ${s.targetSec} s: ${s.medianCpuSec <= s.targetSec ? 'met' : 'NOT met'}`),
  ]
  process.stdout.write(lines.join('\n') + '\n')

  mkdirSync(join(ROOT, 'bench/results'), {recursive: true})
  const label = `${process.env.BENCH_LABEL ? `${process.env.BENCH_LABEL}-` : ''}${commit}${dirty ? '-dirty' : ''}`
  const file = join(ROOT, 'bench/results', `${new Date().toISOString().slice(0, 10)}-${label}.json`)
  writeFileSync(file, JSON.stringify({
    date: new Date().toISOString(), commit, dirty, fio: fioVersion, fioSideNice: FIO_SIDE_NICE, node: process.version, host: {cpus: cpus().length}, benchSeconds: totalSec, loadavg: load,
    settings: {fastPointSec, filePointSec, minPairs, maxPairs, fileMaxPairs, ciGoalPct, roundPointSec, roundCompare, startupRuns, ptsBin: PTS_BIN.slice(ROOT.length), reportSkipped: skipReport},
    ciMethod: 'distribution-free order-statistic CI of the median of the pair ratios: [r(k), r(n+1-k)], largest k with P(Binomial(n,1/2) <= k-1) <= 0.025; half-width = max distance from the median / median',
    iops: a, skipped, idle: {wallSec: bWall, rounds: gaps}, startup: c,
  }, null, 2) + '\n')
  process.stdout.write(`written: ${file}\n`)
  rmSync(work, {recursive: true, force: true})
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch(error => {
    cleanup()
    process.stderr.write(`bench failed: ${error.message}\n(work dir kept: ${work})\n`)
    process.exitCode = 1
  })
}
