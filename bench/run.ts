/**
 * npm run bench: pts against raw fio, side by side on the same file target (not part of the tests).
 *  (a) IOPS of one test point measured through `pts run` vs the same fio job run directly,
 *      alternated 5 times; median ratio (target >= 0.98).
 *  (b) idle time between consecutive test points (from the stored I/O timestamps) and round wall
 *      time vs the sum of point runtimes, for pts's gated pipeline and, for comparison, fio's own
 *      stonewall sequencing and one fio process started per point (target: median idle <= 50 ms).
 * Prints a table and writes bench/results/<date>.json.
 * Env: BENCH_POINT_SECONDS (a, default 5), BENCH_ROUND_POINT_SECONDS (b, default 1), BENCH_DIR.
 */
import {spawn, spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parseFioJson} from '../src/engine/parse.js'
import {stripHooks} from '../src/engine/jobfile.js'
import type {RunResults} from '../src/store/types.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const pointSec = Number(process.env.BENCH_POINT_SECONDS ?? 5)
const roundPointSec = Number(process.env.BENCH_ROUND_POINT_SECONDS ?? 1)
const work = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'pts-bench-'))
const target = join(work, 'target.img')

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]
}

function pts(args: string[], env: NodeJS.ProcessEnv = {}): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/dev.js'), ...args], {encoding: 'utf8', env: {...process.env, ...env}})
  if (r.status !== 0) throw new Error(`pts ${args.join(' ')} failed (${r.status}):\n${r.stderr.slice(-2000)}`)
}

function fio(jobPath: string, outPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = spawn('fio', ['--output-format=json', `--output=${outPath}`, jobPath], {cwd: work, stdio: 'ignore'})
    c.on('exit', code => (code === 0 ? resolve() : reject(new Error(`fio ${jobPath} exit ${code}`))))
  })
}

/** A spec folder whose IOPS test is the single point RND 4 KiB 0/100 (same engine path as a full run). */
function onePointSpecs(): string {
  const dir = join(work, 'specs')
  cpSync(join(ROOT, 'specs'), dir, {recursive: true})
  const p = join(dir, 'pts-2.0.2', 'iops.json')
  const s = JSON.parse(readFileSync(p, 'utf8'))
  s.stimulus.loops = {rwMixReadPct: [0], blockSizesBytes: [4096]}
  s.steadyState.tracking = [s.steadyState.tracking[0]]
  writeFileSync(p, JSON.stringify(s))
  return dir
}

async function benchIops(): Promise<{pts: number[]; direct: number[]; ratios: number[]; medianRatio: number}> {
  const specs = onePointSpecs()
  const ptsIops: number[] = []
  const direct: number[] = []
  // Write the whole (sparse) target once first: writes into unallocated file blocks are slower,
  // which would favour whichever side runs later.
  const fill = join(work, 'fill.fio')
  writeFileSync(fill, `[fill]\nfilename=${target}\nrw=write\nbs=1M\ndirect=1\nioengine=libaio\niodepth=8\nsize=256M\n`)
  writeFileSync(target, '')
  await fio(fill, join(work, 'fill.json'))
  const args = (i: number) => ['iops', '--device', `file:${target}`, '--yes-destroy-data', target, '--point-seconds', String(pointSec), '--max-rounds', '1', '--wipc-multiple', '0.05', '--seed', String(1000 + i)]
  const viaPts = (i: number) => {
    const out = join(work, `a-pts-${i}`)
    pts(['run', ...args(i), '--out', out], {PTS_SPECS_DIR: specs})
    const r = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults
    ptsIops.push(r.rounds[0].points[0].iops)
  }
  const viaFio = async (i: number) => {
    // the same job (same seed) as pts runs, from `pts plan --json`, run directly by fio
    // like pts: the WIPC job first, then the point, back to back
    const plan = spawnSync(process.execPath, [join(ROOT, 'bin/dev.js'), 'plan', ...args(i), '--json'], {encoding: 'utf8', env: {...process.env, PTS_SPECS_DIR: specs}})
    const jobs = (JSON.parse(plan.stdout) as {jobs: {wipc: string; round1: string[]}}).jobs
    const wipcPath = join(work, `a-direct-wipc-${i}.fio`)
    writeFileSync(wipcPath, jobs.wipc)
    await fio(wipcPath, `${wipcPath}.json`)
    const jobPath = join(work, `a-direct-${i}.fio`)
    writeFileSync(jobPath, stripHooks(jobs.round1[0]))
    const jsonPath = join(work, `a-direct-${i}.json`)
    await fio(jobPath, jsonPath)
    direct.push(parseFioJson(readFileSync(jsonPath, 'utf8')).groups[0].measurement.iops)
  }
  for (let i = 0; i < 5; i++) {
    // alternate which side goes first
    if (i % 2 === 0) { viaPts(i); await viaFio(i) } else { await viaFio(i); viaPts(i) }
  }
  const ratios = ptsIops.map((v, i) => v / direct[i])
  return {pts: ptsIops, direct, ratios, medianRatio: median(ratios)}
}

interface Gaps {approach: string; points: number; idleMedianMs: number; idleP95Ms: number; idleMaxMs: number; roundWallSec: number; sumRuntimeSec: number; overheadPct: number}

function gapStats(approach: string, spans: Array<{startNs: bigint; endNs: bigint; runtimeSec: number}>): Gaps {
  const idle = spans.slice(1).map((s, i) => Number(s.startNs - spans[i].endNs) / 1e6)
  const wall = Number(spans.at(-1)!.endNs - spans[0].startNs) / 1e9
  const sum = spans.reduce((a, s) => a + s.runtimeSec, 0)
  return {approach, points: spans.length, idleMedianMs: median(idle), idleP95Ms: pct(idle, 0.95), idleMaxMs: Math.max(...idle), roundWallSec: wall, sumRuntimeSec: sum, overheadPct: 100 * (wall / sum - 1)}
}

/** pts's own round: gated pipeline, timestamps from results.json. */
function roundThroughPts(): {gaps: Gaps; jobs: string[]} {
  const out = join(work, 'b-pts')
  pts(['run', 'iops', '--device', `file:${target}`, '--size', '256MiB', '--yes-destroy-data', target, '--point-seconds', String(roundPointSec), '--max-rounds', '1', '--wipc-multiple', '0.25', '--seed', '7', '--out', out])
  const r = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults
  const pts0 = r.rounds[0].points
  return {
    gaps: gapStats('pts gated pipeline', pts0.map(p => ({startNs: BigInt(p.startNs), endNs: BigInt(p.endNs), runtimeSec: p.runtimeSec}))),
    jobs: pts0.map(p => stripHooks(readFileSync(join(out, p.raw.job), 'utf8'))),
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
  spawnSync('sh', ['-c', `rm -f ${work}/s-* ${work}/e-*`])
}

async function roundProcessPerPoint(jobs: string[]): Promise<Gaps> {
  clearStamps()
  const runtimes: number[] = []
  for (let i = 0; i < jobs.length; i++) {
    const jp = join(work, `c-${i}.fio`)
    writeFileSync(jp, stampHooks(jobs[i], i))
    await fio(jp, `${jp}.json`)
    runtimes.push(parseFioJson(readFileSync(`${jp}.json`, 'utf8')).groups[0].measurement.runtimeSec)
  }
  return gapStats('one fio process per point', readStamps(jobs.length).map((s, i) => ({...s, runtimeSec: runtimes[i]})))
}

async function roundStonewall(jobs: string[]): Promise<Gaps> {
  clearStamps()
  // one fio process, one section per point, each behind a stonewall
  const sectionAt = (j: string) => j.search(/^\[(?!global\])/m)
  const global = jobs[0].slice(0, sectionAt(jobs[0])).split('\n').filter(l => !/^(randseed|;)/.test(l))
  const sections = jobs.map((j, i) => {
    const withHooks = stampHooks(j, i)
    return `${withHooks.slice(sectionAt(withHooks)).trimEnd()}\nstonewall\n${(/^randseed=\d+$/m.exec(j) ?? [''])[0]}\n`
  })
  const jp = join(work, 'd-stonewall.fio')
  writeFileSync(jp, [...global, '', ...sections].join('\n'))
  await fio(jp, `${jp}.json`)
  const parsed = parseFioJson(readFileSync(`${jp}.json`, 'utf8'))
  return gapStats('fio stonewall, one process', readStamps(jobs.length).map((s, i) => ({...s, runtimeSec: parsed.groups[i].measurement.runtimeSec})))
}

async function main(): Promise<void> {
  writeFileSync(join(work, 'stamp.sh'), 'date +%s%N >> "$1"\n')
  const fioVersion = spawnSync('fio', ['--version'], {encoding: 'utf8'}).stdout.trim()
  process.stderr.write(`bench in ${work} (${fioVersion}); (a) ${pointSec} s points x 5 alternations, (b) 56 points of ${roundPointSec} s per approach\n`)
  const a = await benchIops()
  const b1 = roundThroughPts()
  const b2 = await roundStonewall(b1.jobs)
  const b3 = await roundProcessPerPoint(b1.jobs)
  const gaps = [b1.gaps, b2, b3]

  const f = (x: number, d = 1) => x.toFixed(d)
  const lines = [
    `(a) RND 4KiB 0/100 TC 4/QD 32, ${pointSec} s point, file target 256 MiB (written once first), each side WIPC 0.05x then the point, alternated 5x (order swapped every other run)`,
    '    run   pts IOPS    fio IOPS    ratio',
    ...a.pts.map((v, i) => `    ${i + 1}     ${f(v, 0).padStart(8)}    ${f(a.direct[i], 0).padStart(8)}    ${f(a.ratios[i], 3)}`),
    `    median ratio pts/fio: ${f(a.medianRatio, 3)} (target >= 0.98: ${a.medianRatio >= 0.98 ? 'met' : 'NOT met'})`,
    '',
    `(b) one IOPS round (56 points x ${roundPointSec} s)`,
    '    approach                       idle median   p95      max      round wall  sum runtimes  overhead',
    ...gaps.map(g => `    ${g.approach.padEnd(30)} ${f(g.idleMedianMs).padStart(8)} ms ${f(g.idleP95Ms).padStart(6)} ms ${f(g.idleMaxMs).padStart(6)} ms ${f(g.roundWallSec, 2).padStart(8)} s  ${f(g.sumRuntimeSec, 2).padStart(8)} s  ${f(g.overheadPct).padStart(6)}%`),
    `    pts median idle between points: ${f(b1.gaps.idleMedianMs)} ms (target <= 50 ms: ${b1.gaps.idleMedianMs <= 50 ? 'met' : 'NOT met'})`,
  ]
  process.stdout.write(lines.join('\n') + '\n')
  mkdirSync(join(ROOT, 'bench/results'), {recursive: true})
  const file = join(ROOT, 'bench/results', `${new Date().toISOString().slice(0, 10)}.json`)
  writeFileSync(file, JSON.stringify({date: new Date().toISOString(), fio: fioVersion, host: {cpus: (await import('node:os')).cpus().length}, pointSeconds: pointSec, roundPointSeconds: roundPointSec, iops: a, rounds: gaps}, null, 2) + '\n')
  process.stdout.write(`written: ${file}\n`)
  rmSync(work, {recursive: true, force: true})
}

main().catch(error => {
  process.stderr.write(`bench failed: ${error.message}\n(work dir kept: ${work})\n`)
  process.exitCode = 1
})
