/**
 * `pts compare` through the CLI (node bin/dev.js, real Chromium) on two real short IOPS runs on
 * file targets (test/helpers/short-run.ts): the PDF's text and page count, a ratio recomputed from
 * the two results.json files, the sample-variation pages with --samples, and bad input (one run, a
 * directory that is not a run, a run still in progress) with its exit code and no stack trace.
 */
import {expect} from 'chai'
import {check} from '../../src/validate.js'
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {runCli} from '../helpers/cli.js'
import {shortRunCopy} from '../helpers/short-run.js'
import {useTmpDir} from '../helpers/tmp.js'
import {tool} from '../report/helpers.js'
import type {CompareModel} from '../../src/compare/model.js'
import type {RunManifest} from '../../src/model/manifest.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'

type Loop = Extract<PhaseResult, {kind: 'loop'}>

const readJson = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T
/** The PDF text with all whitespace removed: long paths and labels may wrap anywhere in table cells. */
const squeeze = (s: string): string => s.replace(/\s+/g, '')

describe('pts compare (CLI, real runs, real Chromium)', function () {
  this.timeout(600_000)
  const tmpDir = useTmpDir('pts-compare-')
  let A = ''
  let B = ''
  let out = ''

  before(async () => {
    ;[A, B] = await Promise.all([shortRunCopy('A'), shortRunCopy('B', {seed: 2})])
  })

  describe('two runs', () => {
    let text = ''
    let json: {files: string[]; runs: Array<{key: string; runDir: string; baseline: boolean}>; differences: Array<{field: string; values: string[]}>}

    before(async () => {
      out = join(tmpDir(), 'two')
      const r = await runCli(['compare', A, B, '--out', out, '--json'])
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stderr).to.not.include('    at ')
      json = JSON.parse(r.stdout)
      expect(check('cli/compare.schema.json', json)).to.deep.equal([])
      text = await tool('pdftotext', ['-layout', join(out, 'compare.pdf'), '-'])
    })

    it('--json returns the files, the runs (first = baseline) and the differences; nothing half-written', () => {
      expect(json.files.map(f => f.slice(out.length + 1)).sort()).to.deep.equal(['compare.html', 'compare.json', 'compare.pdf'])
      expect(json.runs.map(r => [r.key, r.baseline])).to.deep.equal([['R1', true], ['R2', false]])
      expect(json.runs.map(r => r.runDir)).to.deep.equal([A, B])
      expect(json.differences).to.be.an('array')
      expect(readdirSync(out).filter(f => f.endsWith('.tmp'))).to.deep.equal([])
      expect(readFileSync(join(out, 'compare.pdf')).subarray(0, 5).toString()).to.equal('%PDF-')
    })

    it('the PDF names both runs (target path and run id from their manifests) and the baseline', () => {
      const flat = squeeze(text)
      for (const dir of [A, B]) {
        const m = readJson<RunManifest>(join(dir, 'manifest.json'))
        expect(flat, m.target.path).to.include(squeeze(m.target.path))
        expect(flat).to.include(squeeze(`run ${m.runId}`))
      }
      expect(text).to.include('Baseline: R1 (ratios are Rk / R1)')
      expect(text).to.include('IOPS Test - Comparison Report')
      expect(text).to.include('Differences in conditions')
      expect(text).to.include('Not treated as samples of one model')
    })

    it('ratio tables are there, and a ratio recomputed from the two results.json files is printed in its cell', () => {
      expect(text).to.include('Ratio R2 / R1: IOPS')
      for (const h of ['Ratio R2 / R1: Bandwidth', 'Ratio R2 / R1: Mean Response Time', 'Ratio R2 / R1: Maximum Response Time']) expect(text).to.include(h)
      const wa = (dir: string) => readJson<ProgramResults>(join(dir, 'results.json')).phases.find((p): p is Loop => p.kind === 'loop')!.windowAverages.find(w => w.readPct === 0 && w.blockSizeBytes === 4096)!
      const expected = (wa(B).iops / wa(A).iops).toFixed(2)
      // The 4KiB row of the IOPS ratio table; its first value column is R/W 0/100.
      const block = text.slice(text.indexOf('Ratio R2 / R1: IOPS'))
      const row = block.split('\n').find(l => /^\s*4KiB\s/.test(l))!
      const cells = row.trim().replace(/[▲▼]/g, '').split(/\s+/)
      expect(cells[0]).to.equal('4KiB')
      expect(cells[1]).to.equal(expected)
    })

    it('page count: summary, 4 matrix pages, 3 convergence plots (one per tracking variable), A4', async () => {
      const model = readJson<CompareModel>(join(out, 'compare.json'))
      const info = await tool('pdfinfo', [join(out, 'compare.pdf')])
      expect(info).to.match(new RegExp(`Pages:\\s+${model.pages.length}\\n`))
      expect(model.pages.map(p => p.kind)).to.deep.equal(['csummary', 'cmatrices', 'cmatrices', 'cmatrices', 'cmatrices', 'cconvergence', 'cconvergence', 'cconvergence'])
      expect(info).to.match(/Page size:\s+59[45]\.\d+ x 841\.\d+ pts \(A4\)/)
      expect(text.match(/IOPS Test - Comparison Report/g)).to.have.length(8)
      expect(text).to.not.include('Sample Variation')
    })
  })

  it('--samples adds the variation pages (n=2); --label names the runs (flags before the runs); without --json the files are printed', async () => {
    const dir = join(tmpDir(), 'samples')
    // flags before the runs: --label takes one value each (not greedy)
    const r = await runCli(['compare', '--samples', '--label', 'Sample one', '--label', 'Sample two', A, B, '--out', join(dir, 'cmp.pdf')])
    expect(r.code, r.stderr).to.equal(0)
    const out = r.stdout.trim().split('\n')
    expect(out.slice(0, 3).sort()).to.deep.equal(['cmp.html', 'cmp.json', 'cmp.pdf'].map(f => join(dir, f)))
    // then the headline differences, the same lines as the model's
    const model = JSON.parse(readFileSync(join(dir, 'cmp.json'), 'utf8')) as {headlines: string[]}
    expect(model.headlines.length).to.be.greaterThan(0)
    expect(out[4]).to.match(/^Headline differences \(ratios Rk \/ R1; R1 = /)
    expect(out.slice(5).map(l => l.trim())).to.deep.equal(model.headlines)
    const text = await tool('pdftotext', ['-layout', join(dir, 'cmp.pdf'), '-'])
    expect(text).to.include('IOPS Sample Variation - Min, Median, Max')
    expect(text).to.include('IOPS Sample Variation - Coefficient of Variation per Point (n=2)')
    expect(text).to.include('sample standard deviation (n - 1')
    expect(text).to.include('Sample one')
    expect(text).to.include('Sample two')
    const info = await tool('pdfinfo', [join(dir, 'cmp.pdf')])
    expect(info).to.match(/Pages:\s+10\n/)
  })

  describe('bad input: one clear message, a documented exit code, no stack trace', () => {
    it('a single run -> exit 2', async () => {
      const r = await runCli(['compare', A, '--out', join(tmpDir(), 'single')])
      expect(r.code, r.stderr).to.equal(2)
      expect(r.stderr).to.match(/needs at least 2 run directories, got 1/)
      expect(r.stderr).to.not.include('    at ')
      expect(existsSync(join(tmpDir(), 'single'))).to.equal(false)
    })

    it('a directory that is not a run -> exit 8', async () => {
      const notRun = join(tmpDir(), 'not-a-run')
      mkdirSync(notRun)
      const r = await runCli(['compare', A, notRun, '--out', join(tmpDir(), 'nr')])
      expect(r.code, r.stderr).to.equal(8)
      expect(r.stderr).to.include(`Incomplete run directory ${notRun}: manifest.json is missing`)
      expect(r.stderr).to.not.include('    at ')
      expect(existsSync(join(tmpDir(), 'nr'))).to.equal(false)
    })

    it('a run still in progress -> exit 8, refused with what to do', async () => {
      const running = await shortRunCopy('B', {seed: 2})
      const p = join(running, 'results.json')
      writeFileSync(p, JSON.stringify({...readJson<ProgramResults>(p), status: 'running'}, null, 2))
      const r = await runCli(['compare', A, running, '--out', join(tmpDir(), 'running'), '--json'])
      expect(r.code, r.stderr).to.equal(8)
      expect(check('cli/error.schema.json', JSON.parse(r.stdout))).to.deep.equal([])
      const err = JSON.parse(r.stdout).error as {message: string; suggestion: string}
      expect(err.message).to.match(/Cannot compare run 2 .*: the run is still in progress/)
      expect(err.suggestion).to.match(/pts resume/)
      expect(r.stderr).to.not.include('    at ')
    })

    it('one --label for two runs -> exit 2', async () => {
      const r = await runCli(['compare', A, B, '--label', 'only one', '--format', 'json', '--out', join(tmpDir(), 'labels')])
      expect(r.code, r.stderr).to.equal(2)
      expect(r.stderr).to.match(/1 --label flag\(s\) for 2 runs/)
      expect(r.stderr).to.not.include('    at ')
    })
  })
})
