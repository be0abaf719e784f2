/**
 * Report benchmark (not part of the tests):  node --import tsx bench/report.ts
 *
 * 1. Synthesizes a 25-round IOPS run by cloning the fixture's 6 rounds (results.json and raw/) into
 *    a temp dir (timing only: the numbers repeat), then renders it to PDF + HTML through the CLI
 *    (`node bin/run.js report`, the built pts a user runs; `BENCH_PTS_BIN=bin/dev.js` for the sources), sampling every 100 ms the PSS (/proc/<pid>/smaps_rollup) summed
 *    over the whole process tree (node + Chromium's processes). Targets: <= 5 s, <= 1 GiB. The
 *    1-minute load average before and after is recorded (BENCH_LABEL names the results file).
 * 2. A 100,000-point series chart: spec + SVG time with min/max downsampling, compared with a
 *    2,000-point one, and printed to PDF.
 * Prints a table and writes bench/results/report-<date>.json.
 */
import {spawn} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {cpus, loadavg, tmpdir, totalmem} from 'node:os'
import {join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import type {PhaseResult} from '../src/model/results.js'
import {readStoredRun} from '../src/store/read.js'
import {check} from '../src/validate.js'
import {computeSeal} from '../src/store/integrity.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const FIXTURE = join(ROOT, 'test/fixtures/runs/iops-file-short')
const ROUNDS = 25

/** The fixture (stored by an earlier pts, read as phases), grown to ROUNDS rounds and written in the phase format. */
function synthesize(dir: string): void {
  cpSync(FIXTURE, dir, {recursive: true})
  const r = structuredClone(readStoredRun(dir).results)
  const loop = r.phases.find((p): p is Extract<PhaseResult, {kind: 'loop'}> => p.kind === 'loop')!
  const src = [...loop.rounds]
  const pad = (n: number) => String(n).padStart(2, '0')
  for (let n = src.length + 1; n <= ROUNDS; n++) {
    const from = src[(n - 1) % src.length]
    const rd = `raw/round-${pad(n)}`
    cpSync(join(dir, `raw/round-${pad(from.round)}`), join(dir, rd), {recursive: true})
    const re = new RegExp(`raw/round-${pad(from.round)}/`)
    loop.rounds.push({...structuredClone(from), round: n,
      points: from.points.map(p => ({...structuredClone(p), raw: {json: p.raw.json.replace(re, `${rd}/`), job: p.raw.job.replace(re, `${rd}/`)}}))})
  }
  for (const t of loop.tracking) t.series = Array.from({length: ROUNDS}, (_, i) => t.series[i % t.series.length])
  const last = loop.evaluations[loop.evaluations.length - 1]
  for (let n = loop.evaluations.length + 1; n <= ROUNDS; n++) loop.evaluations.push({...structuredClone(last), round: n, fromRound: n - 4, toRound: n})
  loop.steadyState.fromRound = ROUNDS - 4
  loop.steadyState.toRound = ROUNDS
  for (const v of loop.steadyState.variables) {
    v.fromRound = ROUNDS - 4
    v.toRound = ROUNDS
    v.window = v.window.map((w, i) => ({round: ROUNDS - 4 + i, value: w.value}))
  }
  loop.criteria.maxRounds = ROUNDS
  r.parameters.maxRounds = ROUNDS
  const problems = check('program-result.schema.json', r)
  if (problems.length > 0) throw new Error(`synthesized results.json fails its schema: ${JSON.stringify(problems.slice(0, 3))}`)
  writeFileSync(join(dir, 'results.json'), JSON.stringify(r, null, 2))
  // seal the synthesized files, as pts run does when a run ends (the report's appendix shows the seal)
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))
  manifest.integrity = computeSeal(dir)
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2))
}

/** PSS and RSS (KiB) summed over pid and all its descendants. */
function treeMemory(root: number): {pssKiB: number; rssKiB: number; procs: number} {
  const children = new Map<number, number[]>()
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const list = children.get(ppid) ?? []
      list.push(Number(e))
      children.set(ppid, list)
    } catch { /* gone */ }
  }
  let pssKiB = 0
  let rssKiB = 0
  let procs = 0
  const stack = [root]
  while (stack.length > 0) {
    const pid = stack.pop()!
    try {
      const s = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
      pssKiB += Number(/^Pss:\s+(\d+)/m.exec(s)?.[1] ?? 0)
      rssKiB += Number(/^Rss:\s+(\d+)/m.exec(s)?.[1] ?? 0)
      procs++
    } catch { /* gone */ }
    stack.push(...(children.get(pid) ?? []))
  }
  return {pssKiB, rssKiB, procs}
}

function measured(args: string[]): Promise<{code: number | null; wallMs: number; peakPssMiB: number; peakRssMiB: number; maxProcs: number; stderr: string}> {
  return new Promise(resolve => {
    const t0 = performance.now()
    const child = spawn(process.execPath, args, {cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe']})
    let stderr = ''
    child.stderr.on('data', d => { stderr += d })
    let peakPss = 0
    let peakRss = 0
    let maxProcs = 0
    const sample = () => {
      const m = treeMemory(child.pid!)
      peakPss = Math.max(peakPss, m.pssKiB)
      peakRss = Math.max(peakRss, m.rssKiB)
      maxProcs = Math.max(maxProcs, m.procs)
    }
    const timer = setInterval(sample, 100)
    child.on('exit', code => {
      clearInterval(timer)
      resolve({code, wallMs: performance.now() - t0, peakPssMiB: peakPss / 1024, peakRssMiB: peakRss / 1024, maxProcs, stderr})
    })
  })
}

async function seriesBench(points: number): Promise<{points: number; chartPoints: number; specSvgMs: number; pdfMs: number; pdfBytes: number}> {
  const {seriesSpec} = await import('../src/report/charts/series.js')
  const {renderSvg} = await import('../src/report/svg.js')
  const {htmlToPdf} = await import('../src/report/pdf.js')
  const data = Array.from({length: points}, (_, i) => ({x: i, y: 3000 + 500 * Math.sin(i / 2000) + ((i * 7919) % 400)}))
  const t0 = performance.now()
  const spec = seriesSpec({title: `${points} points`, xTitle: 'Time (s)', yTitle: 'IOPS', points: data})
  const svg = await renderSvg(spec)
  const t1 = performance.now()
  const pdf = await htmlToPdf(`<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{font-family:'DejaVu Sans'}</style></head><body>${svg}</body></html>`)
  const t2 = performance.now()
  return {points, chartPoints: (spec as {data: {values: unknown[]}}).data.values.length, specSvgMs: t1 - t0, pdfMs: t2 - t1, pdfBytes: pdf.length}
}

const tmp = mkdtempSync(join(tmpdir(), 'pts-bench-report-'))
try {
  const runDir = join(tmp, 'run-25')
  synthesize(runDir)
  const outDir = join(tmp, 'out')
  mkdirSync(outDir)
  const loadBefore = loadavg()[0]
  const ptsBin = process.env.BENCH_PTS_BIN ?? 'bin/run.js'
  const render = await measured([resolve(ROOT, ptsBin), 'report', runDir, '--format', 'pdf,html', '--out', outDir])
  const loadAfter = loadavg()[0]
  if (render.code !== 0) throw new Error(`report failed (${render.code}): ${render.stderr}`)
  const pdfInfo = await new Promise<string>(res => {
    const c = spawn('pdfinfo', [join(outDir, 'report.pdf')])
    let o = ''
    c.stdout.on('data', d => { o += d })
    c.on('exit', () => res(o))
  })
  const pages = Number(/Pages:\s+(\d+)/.exec(pdfInfo)?.[1] ?? 0)

  const small = await seriesBench(2000)
  const big = await seriesBench(100_000)
  const {closeBrowser} = await import('../src/report/pdf.js')
  await closeBrowser()

  const result = {
    date: new Date().toISOString(),
    host: {cpus: cpus().length, cpu: cpus()[0]?.model ?? '?', memoryBytes: totalmem(), node: process.version, load1Before: +loadBefore.toFixed(2), load1After: +loadAfter.toFixed(2)},
    report25Rounds: {
      command: `node ${ptsBin} report <25-round run> --format pdf,html`,
      wallSec: +(render.wallMs / 1000).toFixed(2), peakPssMiB: +render.peakPssMiB.toFixed(0), peakRssMiB: +render.peakRssMiB.toFixed(0),
      maxProcesses: render.maxProcs, pages,
      pdfBytes: readFileSync(join(outDir, 'report.pdf')).length, htmlBytes: readFileSync(join(outDir, 'report.html')).length,
      targets: {wallSec: 5, peakPssMiB: 1024},
    },
    series: [small, big].map(s => ({...s, specSvgMs: +s.specSvgMs.toFixed(0), pdfMs: +s.pdfMs.toFixed(0)})),
  }
  const rows = [
    ['25-round report (PDF+HTML), wall', `${result.report25Rounds.wallSec} s`, '<= 5 s', result.report25Rounds.wallSec <= 5 ? 'ok' : 'OVER'],
    ['25-round report, peak PSS (tree)', `${result.report25Rounds.peakPssMiB} MiB`, '<= 1024 MiB', result.report25Rounds.peakPssMiB <= 1024 ? 'ok' : 'OVER'],
    ['25-round report, peak RSS sum (tree)', `${result.report25Rounds.peakRssMiB} MiB`, '', ''],
    ['25-round report, pages / PDF size', `${pages} / ${(result.report25Rounds.pdfBytes / 1e6).toFixed(2)} MB`, '', ''],
    ...result.series.map(s => [`series ${s.points} pts -> ${s.chartPoints} charted: spec+SVG / PDF`, `${s.specSvgMs} ms / ${s.pdfMs} ms`, '', `${(s.pdfBytes / 1e3).toFixed(0)} kB`]),
  ]
  const w = [0, 1, 2, 3].map(i => Math.max(...rows.map(r => r[i].length)))
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i])).join('  '))
  mkdirSync(join(ROOT, 'bench/results'), {recursive: true})
  const label = process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL}` : ''
  const file = join(ROOT, `bench/results/report-${result.date.slice(0, 10)}${label}.json`)
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n')
  console.log(`\nwritten ${file}`)
} finally {
  rmSync(tmp, {recursive: true, force: true})
}
