/**
 * Lanes benchmark (not part of the tests):  npm run bench:lanes  (LANES=4 POINT_SECONDS=0.5 ROUNDS=1)
 *
 * Part (d) of `npm run bench` (after bench/run.ts). Runs `pts run iops` (the built bin/run.js, or
 * BENCH_PTS_BIN) on LANES file targets at once (one lane per target, real fio) and measures,
 * per lane, the idle time between consecutive test points (the `timing.gapBeforeMs` pts stores for
 * every step: from the previous point's I/O end to this point's I/O start). Target: a median
 * <= 20 ms per lane with 4 lanes. Records the 1-minute load average before and after and the host
 * CPU use each lane's manifest holds; LANES=1 is a plain single-drive run, the baseline, (on a machine shared with other work the gaps grow: the figures
 * are only meaningful on an otherwise idle host). Writes bench/results/lanes-<lanes>-<date>[-<BENCH_LABEL>].json.
 */
import {spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const lanes = Number(process.env.LANES ?? 4)
const pointSeconds = process.env.POINT_SECONDS ?? '0.5'
const rounds = process.env.ROUNDS ?? '1'

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const h = s.length >> 1; return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2 }
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]

const tmp = mkdtempSync(join(tmpdir(), 'pts-bench-lanes-'))
try {
  const load0 = loadavg()[0]
  const devices = Array.from({length: lanes}, (_, i) => `file:${join(tmp, `lane${i + 1}.img`)}`)
  const fleet = join(tmp, 'fleet')
  const args = ['run', 'iops', ...devices.flatMap(d => ['--device', d]), '--size', '64MiB', '--point-seconds', pointSeconds, '--max-rounds', rounds,
    '--tc', '1', '--qd', '4', '--wipc-multiple', '1', '--out', fleet, '--json']
  const t0 = Date.now()
  const code = await new Promise<number | null>(res => {
    const c = spawn(process.execPath, [join(ROOT, process.env.BENCH_PTS_BIN ?? 'bin/run.js'), ...args], {cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit']})
    c.on('exit', res)
  })
  const wallSec = (Date.now() - t0) / 1000
  // LANES=1: a plain single-drive run (no fleet), the baseline on the same host
  const f = lanes === 1 ? {lanes: [{index: 1, dir: '.', status: code === 0 ? 'complete' : 'failed'}]}
    : JSON.parse(readFileSync(join(fleet, 'fleet.json'), 'utf8')) as {lanes: Array<{index: number; dir: string; status: string}>}
  const perLane = f.lanes.map(l => {
    const r = JSON.parse(readFileSync(join(fleet, l.dir, 'results.json'), 'utf8')) as {phases: Array<{kind: string; rounds?: Array<{points: Array<{timing?: {gapBeforeMs: number | null}}>}>}>}
    const m = JSON.parse(readFileSync(join(fleet, l.dir, 'manifest.json'), 'utf8')) as {concurrency?: {hostCpu: Array<{busyPct: number}>}}
    const gaps = r.phases.flatMap(p => p.rounds ?? []).flatMap(x => x.points).map(p => p.timing?.gapBeforeMs).filter((g): g is number => typeof g === 'number')
    return {lane: l.index, status: l.status, gaps: gaps.length, medianGapMs: +median(gaps).toFixed(1), p90GapMs: +pct(gaps, 0.9).toFixed(1), maxGapMs: +Math.max(...gaps).toFixed(1), hostCpuBusyPct: m.concurrency?.hostCpu.at(-1)?.busyPct ?? null}
  })
  const out = {date: new Date().toISOString(), lanes, pointSeconds: Number(pointSeconds), rounds: Number(rounds), exit: code, wallSec, cpus: cpus().length, loadavg1Before: load0, loadavg1After: loadavg()[0], targetMedianGapMs: 20, perLane}
  console.table(perLane)
  console.log(`exit ${code}, ${wallSec.toFixed(1)} s, load average ${load0.toFixed(2)} -> ${out.loadavg1After.toFixed(2)} on ${out.cpus} CPUs`)
  mkdirSync(join(ROOT, 'bench/results'), {recursive: true})
  writeFileSync(join(ROOT, `bench/results/lanes-${lanes}-${out.date.slice(0, 10)}${process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL}` : ''}.json`), JSON.stringify(out, null, 2) + '\n')
} finally {
  rmSync(tmp, {recursive: true, force: true})
}
