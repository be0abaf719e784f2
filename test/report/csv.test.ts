/**
 * The CSV exports of stored runs of every test (test/fixtures/runs/golden-*, iops-file-short and
 * the runs of an older pts, runs-v1), read back by a strict RFC 4180 parser and, when python3 is
 * installed, by Python's csv module and pandas.read_csv (.ci/setup installs both; without them these tests fail and say what to install).
 */
import {expect} from 'chai'
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {csvField, csvFiles, HISTOGRAM_COLUMNS, MEASUREMENT_COLUMNS, plainNumber, programCsv, WINDOW_COLUMNS, windowsCsv} from '../../src/report/csv.js'
import {readStoredRun} from '../../src/store/read.js'
import {ROOT} from './helpers.js'

/** RFC 4180, strictly: CRLF after every record, quoted fields with doubled quotes, no bare quote in an unquoted field. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let i = 0
  const fail = (what: string): never => { throw new Error(`CSV offset ${i}: ${what}`) }
  while (i < text.length) {
    const row: string[] = []
    for (;;) {
      let field = ''
      if (text[i] === '"') {
        i++
        for (;;) {
          if (i >= text.length) fail('unterminated quoted field')
          if (text[i] === '"') {
            if (text[i + 1] === '"') { field += '"'; i += 2; continue }
            i++
            break
          }
          field += text[i++]
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          if (text[i] === '"') fail('quote inside an unquoted field')
          field += text[i++]
        }
      }
      row.push(field)
      if (text[i] === ',') { i++; continue }
      if (text[i] === '\r' && text[i + 1] === '\n') { i += 2; break }
      fail(text[i] === '\n' ? 'bare LF (records end with CRLF)' : 'record not ended by CRLF')
    }
    rows.push(row)
  }
  return rows
}

const RUNS = join(ROOT, 'test/fixtures/runs')
const V1 = join(ROOT, 'test/fixtures/runs-v1')
const STORED = [
  ...readdirSync(RUNS).filter(d => d.startsWith('golden-') && !d.endsWith('.md')).map(d => join(RUNS, d)),
  join(RUNS, 'iops-file-short'),
  ...readdirSync(V1, {withFileTypes: true}).filter(e => e.isDirectory()).map(e => join(V1, e.name)),
]
const PLAIN_NUMBER = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/
const NUMERIC = new Set(['round', 'point_index', 'sample', 'read_pct', 'block_size_bytes', 'tc', 'qd', 'value', 'window_from_round', 'window_to_round', 'bin', 'lat_upper_ms', 'ios',
  'iops', 'read_iops', 'write_iops', 'bw_mb_s', 'read_bw_mb_s', 'write_bw_mb_s', 'lat_mean_ms', 'lat_max_ms', 'lat_max_avg_ms', 'lat_p99999_ms', 'lat_percentile_ios'])

/** Parsed table: header and rows as objects; every row has the header's width, numeric fields are plain numbers or empty. */
function table(text: string, head: readonly string[]): Array<Record<string, string>> {
  const rows = parseCsv(text)
  expect(rows[0]).to.deep.equal([...head])
  const problems: string[] = []
  const out = rows.slice(1).map((r, n) => {
    if (r.length !== head.length) problems.push(`row ${n + 2}: ${r.length} fields`)
    const o: Record<string, string> = {}
    head.forEach((h, k) => {
      o[h] = r[k]
      if (NUMERIC.has(h) && r[k] !== '' && !PLAIN_NUMBER.test(r[k])) problems.push(`row ${n + 2} ${h}: ${r[k]}`)
    })
    return o
  })
  expect(problems.slice(0, 5)).to.deep.equal([])
  return out
}

const loaded = new Map<string, ReturnType<typeof readStoredRun>['results']>()
/** results.json of a stored run, read once per test process. */
function results(dir: string): ReturnType<typeof readStoredRun>['results'] {
  if (!loaded.has(dir)) loaded.set(dir, readStoredRun(dir).results)
  return loaded.get(dir)!
}

describe('CSV exports (report.csv, report-windows.csv, report-histograms.csv)', () => {
  it('fields: RFC 4180 quoting and plain numbers', () => {
    expect(['a', 'b,c', 'say "x"', 'two\nlines', 3, 0.1 + 0.2, 123456789012345, 1.23e-5, -0.0000001, null, true].map(v => csvField(v)))
      .to.deep.equal(['a', '"b,c"', '"say ""x"""', '"two\nlines"', '3', '0.3', '123456789012345', '0.000012', '0', '', 'true'])
    expect(plainNumber(1065.421)).to.equal('1065.421')
    expect(plainNumber(12)).to.equal('12')
    expect(() => plainNumber(Number.NaN)).to.throw(/not a finite number/)
    expect(parseCsv('a,"b,""c"""\r\n1,2\r\n')).to.deep.equal([['a', 'b,"c"'], ['1', '2']])
    expect(() => parseCsv('a,b\n1,2\n')).to.throw(/bare LF/)
  })

  for (const dir of STORED) {
    const name = dir.slice(ROOT.length)
    it(`${name}: one tidy table per file, every step measured, the window averages recomputable`, () => {
      const r = results(dir)
      const files = csvFiles(r)
      expect(files.map(f => f.suffix)).to.deep.equal(['', '-windows', '-histograms'])
      const long = table(files[0].text, MEASUREMENT_COLUMNS)
      const windows = table(files[1].text, WINDOW_COLUMNS)
      const bins = table(files[2].text, HISTOGRAM_COLUMNS)
      expect(long.length).to.be.greaterThan(0)
      // unambiguous: one value per (phase, step, round, point, sample, metric)
      const keys = long.map(x => [x.phase, x.step, x.round, x.point_index, x.sample, x.metric].join('|'))
      expect(new Set(keys).size, 'duplicate measurement keys').to.equal(keys.length)
      expect(long.filter(x => x.unit === '' || x.value === '' || x.test !== r.test || x.run_id !== r.runId).slice(0, 3), 'rows without unit, value, test or run id').to.deep.equal([])
      // every loop point of every round is there, IOPS as stored; in_window marks the window's rounds
      for (const p of r.phases) {
        if (p.kind !== 'loop') continue
        const rows = long.filter(x => x.phase === p.id && x.step === 'point' && x.metric === 'iops')
        expect(rows).to.have.length(p.rounds.reduce((a, rd) => a + rd.points.length, 0))
        for (const rd of p.rounds) for (const pt of rd.points) {
          const x = rows.find(y => y.round === String(rd.round) && y.point_index === String(pt.index))!
          expect(Number(x.value)).to.be.closeTo(pt.iops, 0.00051)
          expect([x.point, x.read_pct, x.block_size_bytes, x.tc, x.qd]).to.deep.equal([pt.id, String(pt.readPct), pt.blockSizeBytes === null ? '' : String(pt.blockSizeBytes), String(pt.threadCount), String(pt.queueDepth)])
        }
        const ss = p.steadyState
        if (ss.fromRound === null) { expect(rows.every(x => x.in_window === 'false')).to.equal(true); continue }
        // the reported IOPS of each point = the mean of its in-window rows (digest Part A 4)
        for (const w of p.windowAverages) {
          const inWin = rows.filter(x => x.point_index === String(w.index) && x.in_window === 'true')
          expect(inWin).to.have.length(ss.toRound! - ss.fromRound + 1)
          expect(inWin.reduce((a, x) => a + Number(x.value), 0) / inWin.length).to.be.closeTo(w.iops, 0.001 + w.iops * 1e-9)
          const wr = windows.find(x => x.phase === p.id && x.point_index === String(w.index))!
          expect([wr.verdict, wr.window_from_round, wr.window_to_round]).to.deep.equal([ss.verdict, String(ss.fromRound), String(ss.toRound)])
          expect(Number(wr.iops)).to.be.closeTo(w.iops, 0.00051)
          expect(Number(wr.lat_mean_ms)).to.be.closeTo(w.latMeanNs / 1e6, 5e-7)
        }
      }
      expect(windows).to.have.length(r.phases.reduce((a, p) => a + (p.kind === 'loop' ? p.windowAverages.length : 0), 0))
      // series: one iops row per sample, numbered from 1
      for (const p of r.phases) if (p.kind === 'series') expect(long.filter(x => x.phase === p.id && x.metric === 'iops').map(x => x.sample)).to.deep.equal(p.samples.map((_s, i) => String(i + 1)))
      // histograms: every bin of every stored histogram
      const nBins = r.phases.reduce((a, p) => a + (p.kind === 'histogram' ? p.histogram?.length ?? 0 : p.kind === 'operating-points' ? p.points.reduce((b, o) => b + (o.histogram?.length ?? 0), 0) : 0), 0)
      expect(bins).to.have.length(nBins)
    })
  }

  it('the long table has the rows a test type needs (IOPS points, WSAT samples, HIR bursts, DIRTH histograms)', () => {
    const steps = (d: string) => new Set(table(programCsv(results(join(RUNS, d))), MEASUREMENT_COLUMNS).map(x => x.step))
    expect([...steps('golden-iops')].sort()).to.deep.equal(['point', 'wipc'])
    expect(steps('golden-wsat').has('sample')).to.equal(true)
    expect([...steps('golden-hir')]).to.include.members(['bursts', 'burst'])
    expect([...steps('golden-dirth')].some(s => /-histogram$/.test(s))).to.equal(true)
    expect(windowsCsv(results(join(RUNS, 'golden-wsat')))).to.equal(`${WINDOW_COLUMNS.join(',')}\r\n`)
  })

  describe('read by Python (csv module, pandas.read_csv)', () => {
    const python = spawnSync('python3', ['-c', 'import csv, sys; print(sys.version.split()[0])'], {encoding: 'utf8'})
    // the first python3 with pandas (a pyenv python3 on PATH may lack it where Debian's python3-pandas is installed)
    const pandasPython = ['python3', '/usr/bin/python3'].find(p => spawnSync(p, ['-c', 'import pandas'], {encoding: 'utf8'}).status === 0)
    const dir = join(RUNS, 'golden-iops')
    it('python3 csv.reader: one header, equal row widths, values as floats', function () {
      if (python.status !== 0) throw new Error('python3 is not installed: apt-get install python3 (bash .ci/setup installs it)')
      const tmp = mkdtempSync(join(tmpdir(), 'pts-csv-'))
      try {
        const r = results(dir)
        for (const f of csvFiles(r)) writeFileSync(join(tmp, `report${f.suffix}.csv`), f.text)
        const py = spawnSync('python3', ['-c', `
import csv, json, sys
out = {}
for name in ['report', 'report-windows', 'report-histograms']:
    with open(sys.argv[1] + '/' + name + '.csv', newline='') as f:
        rows = list(csv.reader(f, strict=True))
    out[name] = {'head': rows[0], 'n': len(rows) - 1, 'widths': sorted(set(len(r) for r in rows))}
    if name == 'report':
        i = rows[0].index('value')
        out[name]['sum'] = sum(float(r[i]) for r in rows[1:] if r[rows[0].index('metric')] == 'iops')
print(json.dumps(out))
`, tmp], {encoding: 'utf8'})
        expect(py.status, py.stderr).to.equal(0)
        const got = JSON.parse(py.stdout) as Record<string, {head: string[]; n: number; widths: number[]; sum?: number}>
        expect(got.report.head).to.deep.equal([...MEASUREMENT_COLUMNS])
        expect(got.report.widths).to.deep.equal([MEASUREMENT_COLUMNS.length])
        expect(got['report-windows'].widths).to.deep.equal([WINDOW_COLUMNS.length])
        const loop = r.phases.find(p => p.kind === 'loop')!
        const stored = loop.kind === 'loop' ? loop.rounds.flatMap(rd => rd.points).reduce((a, p) => a + p.iops, 0) : 0
        expect(got.report.sum).to.be.closeTo(stored, 0.01)
        expect(got['report-windows'].n).to.equal(loop.kind === 'loop' ? loop.windowAverages.length : -1)
      } finally { rmSync(tmp, {recursive: true, force: true}) }
    })
    it('pandas.read_csv: numeric dtypes, and the window averages by a groupby', function () {
      if (!pandasPython) throw new Error('no python3 with pandas: apt-get install python3-pandas (bash .ci/setup installs it)')
      const tmp = mkdtempSync(join(tmpdir(), 'pts-csv-'))
      try {
        const r = results(dir)
        for (const f of csvFiles(r)) writeFileSync(join(tmp, `report${f.suffix}.csv`), f.text)
        const py = spawnSync(pandasPython!, ['-c', `
import json, sys
import pandas as pd
df = pd.read_csv(sys.argv[1] + '/report.csv')
w = pd.read_csv(sys.argv[1] + '/report-windows.csv')
avg = df[(df.metric == 'iops') & (df.in_window == True)].groupby(['read_pct', 'block_size_bytes']).value.mean()
print(json.dumps({'value': str(df.value.dtype), 'round': str(df['round'].dtype), 'rows': len(df), 'wiops': str(w.iops.dtype),
  'avg': {f'{int(k[0])}/{int(k[1])}': v for k, v in avg.items()}}))
`, tmp], {encoding: 'utf8'})
        expect(py.status, py.stderr).to.equal(0)
        const got = JSON.parse(py.stdout) as {value: string; round: string; rows: number; wiops: string; avg: Record<string, number>}
        expect([got.value, got.wiops]).to.deep.equal(['float64', 'float64'])
        expect(got.round).to.equal('float64') // empty (not applicable) for the WIPC rows
        expect(got.rows).to.equal(parseCsv(programCsv(r)).length - 1)
        const loop = r.phases.find(p => p.kind === 'loop')!
        if (loop.kind !== 'loop') throw new Error('no loop')
        expect(Object.keys(got.avg)).to.have.length(loop.windowAverages.length)
        for (const wa of loop.windowAverages) expect(got.avg[`${wa.readPct}/${wa.blockSizeBytes}`]).to.be.closeTo(wa.iops, 0.001)
      } finally { rmSync(tmp, {recursive: true, force: true}) }
    })
  })
})
