/**
 * `pts verify` end to end, as a user runs it, on a copy of a real short IOPS run (file target):
 * the Crucial MX100 claims, --json against its schema, claims.json, the re-rendered report with
 * its "Claims vs measured" page, --fail-on-miss, and bad input (exit codes, no stack traces).
 */
import {expect} from 'chai'
import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {checkVerifyResult} from '../../src/claims/schema.js'
import type {VerifyResult} from '../../src/claims/types.js'
import type {PhaseResult, ProgramResults} from '../../src/model/results.js'
import {runCli, ROOT} from '../helpers/cli.js'
import {shortRunCopy} from '../helpers/short-run.js'
import {useTmpDir} from '../helpers/tmp.js'

const CLAIMS = join(ROOT, 'specs/claims/crucial-mx100-256gb.json')
const pdfPages = (pdf: string) => Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [pdf], {encoding: 'utf8'}))![1])
const noStack = (stderr: string) => expect(stderr, stderr).to.not.include('    at ')

describe('pts verify (claims vs a real short run)', function () {
  this.timeout(600_000)
  const tmp = useTmpDir('pts-verify-')
  const copies: string[] = []
  const copy = async () => {
    const d = await shortRunCopy('A')
    copies.push(d)
    return d
  }
  after(() => { for (const d of copies) rmSync(dirname(d), {recursive: true, force: true}) })

  let run = ''
  let results: ProgramResults
  let loop: Extract<PhaseResult, {kind: 'loop'}>
  let pagesBefore = 0
  let json: VerifyResult
  before(async () => {
    run = await copy()
    results = JSON.parse(readFileSync(join(run, 'results.json'), 'utf8')) as ProgramResults
    loop = results.phases.find((p): p is Extract<PhaseResult, {kind: 'loop'}> => p.kind === 'loop')!
    pagesBefore = pdfPages(join(run, 'report.pdf'))
    const r = await runCli(['verify', run, '--claims', CLAIMS, '--json'])
    expect(r.code, r.stderr).to.equal(0)
    noStack(r.stderr)
    json = JSON.parse(r.stdout) as VerifyResult
  })

  it('gives a verdict per claim: random 4 KiB read/write measured from results.json, sequential not measured (tp test)', () => {
    expect(json.claims.map(c => c.id)).to.deep.equal(['rnd-4k-read', 'rnd-4k-write', 'seq-read', 'seq-write'])
    const claimsFile = JSON.parse(readFileSync(CLAIMS, 'utf8')) as {claims: Array<{value: number}>}
    for (const [i, readPct] of [[0, 100], [1, 0]] as const) {
      const c = json.claims[i]
      const w = loop.windowAverages.find(x => x.readPct === readPct && x.blockSizeBytes === 4096)!
      expect(c.measured!.value).to.equal(w.iops)
      expect(c.measured!.readPct).to.equal(readPct)
      expect(c.ratio).to.equal(w.iops / claimsFile.claims[i].value)
      expect(c.verdict).to.equal(w.iops >= claimsFile.claims[i].value * 0.9 ? 'meets' : 'below')
      expect(c.notes).to.include(`claim at QD32, measured TC ${results.parameters.threadCount} / QD ${results.parameters.queueDepth}`)
      expect(c.text).to.include(loop.steadyState.verdict === 'steady' ? 'at steady state' : 'after preconditioning, steady state not achieved')
    }
    for (const c of json.claims.slice(2)) {
      expect(c.verdict).to.equal('not-measured')
      expect(c.measured).to.equal(null)
      expect(c.measuredBy).to.include('Throughput (tp) test')
    }
    expect(json.runId).to.equal(results.runId)
    expect(json.tolerancePct).to.equal(10)
  })

  it('the --json output validates against schemas/verify-result.schema.json and is stored as <run>/claims.json', () => {
    expect(checkVerifyResult(json)).to.deep.equal([])
    expect(JSON.parse(readFileSync(join(run, 'claims.json'), 'utf8'))).to.deep.equal(json)
  })

  it('re-renders the report with a "Claims vs measured" page (one more page); pts report keeps it', async () => {
    const text = execFileSync('pdftotext', [join(run, 'report.pdf'), '-'], {encoding: 'utf8'})
    expect(text).to.include('Claims vs measured').and.include('MX100')
    expect(pdfPages(join(run, 'report.pdf'))).to.equal(pagesBefore + 1)
    expect(readFileSync(join(run, 'report.html'), 'utf8')).to.include('class="page page-claims"')
    const out = join(tmp(), 'again.html')
    const r = await runCli(['report', run, '--format', 'html', '--out', out])
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stderr).to.not.include('Warning')
    expect(readFileSync(out, 'utf8')).to.include('class="page page-claims"').and.include('Claims vs measured - Crucial MX100 256GB')
  })

  it('prints the table on the terminal; --fail-on-miss exits 10 after printing it, without it 0', async () => {
    const plain = await runCli(['verify', run, '--claims', CLAIMS, '--no-report'])
    expect(plain.code, plain.stderr).to.equal(0)
    expect(plain.stdout).to.match(/Claim\s+Claimed\s+Measured\s+Ratio\s+Verdict\s+Flags\s+Note/)
    // the run measured a file, and at another load than the claims' QD32: both flags on the measured rows
    expect(plain.stdout).to.match(/4 KiB random read .*NOT LIKE FOR LIKE \(32 vs \d+ IOs\), NOT A DRIVE/)
    expect(plain.stdout).to.match(/4 KiB random read\s+85,000 IOPS @QD32/).and.include('NOT MEASURED').and.include('Throughput (tp) test')
    const miss = await runCli(['verify', run, '--claims', CLAIMS, '--no-report', '--fail-on-miss'])
    expect(miss.code, miss.stderr).to.equal(10)
    expect(miss.stdout).to.include('NOT MEASURED').and.match(/\d+ of 4 claim\(s\) met within 10%/)
    noStack(miss.stderr)
    const missJson = await runCli(['verify', run, '--claims', CLAIMS, '--no-report', '--fail-on-miss', '--json'])
    expect(missJson.code).to.equal(10)
    expect(JSON.parse(missJson.stdout).summary.notMeasured).to.equal(2)
  })

  it('--tolerance 100% makes every measured claim meet; bad --tolerance is a usage error', async () => {
    const r = await runCli(['verify', run, '--claims', CLAIMS, '--no-report', '--json', '--tolerance', '100%'])
    expect(r.code, r.stderr).to.equal(0)
    const v = JSON.parse(r.stdout) as VerifyResult
    expect(v.claims.slice(0, 2).map(c => c.verdict)).to.deep.equal(['meets', 'meets'])
    const bad = await runCli(['verify', run, '--claims', CLAIMS, '--no-report', '--tolerance', '150'])
    expect(bad.code).to.equal(2)
    expect(bad.stderr).to.match(/--tolerance 150: must be between 0 and 100/)
    noStack(bad.stderr)
  })

  describe('bad input: one clear message, a documented exit code, no stack trace', () => {
    const claimsWith = (name: string, edit: (c: Record<string, unknown> & {claims: Array<Record<string, unknown>>}) => void) => {
      const c = JSON.parse(readFileSync(CLAIMS, 'utf8'))
      edit(c)
      const p = join(tmp(), name)
      writeFileSync(p, JSON.stringify(c, null, 2))
      return p
    }
    const cases: Array<{name: string; args: () => string[]; code: number; msg: (string | RegExp)[]}> = [
      {name: 'malformed JSON', code: 3, args: () => { const p = join(tmp(), 'broken.json'); writeFileSync(p, '{\n  "vendor": "Crucial",\n  "model": \n}\n'); return ['--claims', p] },
        msg: [/Invalid claims file .*broken\.json: not valid JSON: Unexpected token '}' at line 4, column 1/, 'Hint: fix the JSON syntax']},
      {name: 'unknown unit', code: 3, args: () => ['--claims', claimsWith('unit.json', c => { c.claims[0].unit = 'kIOPS' })],
        msg: ['/claims/0/unit', 'unknown unit "kIOPS"', /unit\.json/, 'Hint: fix the file']},
      {name: 'unit that does not fit the metric', code: 3, args: () => ['--claims', claimsWith('mismatch.json', c => { c.claims[2].unit = 'IOPS' })],
        msg: ['/claims/2/unit', 'does not fit metric "mbps": use "MB/s"']},
      {name: 'missing vendor', code: 3, args: () => ['--claims', claimsWith('novendor.json', c => { delete c.vendor })], msg: ['/vendor: is required']},
      {name: 'missing claims file', code: 2, args: () => ['--claims', join(tmp(), 'nope.json')], msg: [/Claims file not found: .*nope\.json/]},
      {name: 'no --claims', code: 2, args: () => [], msg: [/claims/]},
    ]
    for (const c of cases) {
      it(`${c.name} -> exit ${c.code}`, async () => {
        const r = await runCli(['verify', run, '--no-report', ...c.args()])
        expect(r.code, r.stderr).to.equal(c.code)
        for (const m of c.msg) {
          if (typeof m === 'string') expect(r.stderr).to.include(m)
          else expect(r.stderr).to.match(m)
        }
        noStack(r.stderr)
      })
    }

    it('run directory missing -> exit 8; a bad claims file leaves claims.json and the report untouched', async () => {
      const r = await runCli(['verify', join(tmp(), 'no-run'), '--claims', CLAIMS])
      expect(r.code).to.equal(8)
      expect(r.stderr).to.match(/Run directory not found/)
      noStack(r.stderr)
      const fresh = await copy()
      const pdf = statSync(join(fresh, 'report.pdf')).mtimeMs
      const bad = await runCli(['verify', fresh, '--claims', claimsWith('unit2.json', c => { c.claims[1].unit = 'xyz' })])
      expect(bad.code).to.equal(3)
      expect(existsSync(join(fresh, 'claims.json'))).to.equal(false)
      expect(statSync(join(fresh, 'report.pdf')).mtimeMs).to.equal(pdf)
    })

    it('--json keeps the exit code and prints the error as JSON', async () => {
      const r = await runCli(['verify', run, '--no-report', '--json', '--claims', claimsWith('unit3.json', c => { c.claims[0].unit = 'kIOPS' })])
      expect(r.code).to.equal(3)
      expect(JSON.parse(r.stdout).error.message).to.include('/claims/0/unit')
    })
  })
})
