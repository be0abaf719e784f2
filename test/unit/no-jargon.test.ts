/**
 * No internal jargon anywhere a user looks: the project's internal notes on the spec, their
 * section numbers and source tags, and its issue numbers never appear in what pts prints or
 * writes for a user. Rendered here, without Chromium (the PDF is the same HTML):
 *  - the report of every stored run under test/fixtures/runs/ and test/fixtures/runs-v1/ (model
 *    JSON, chart specs, HTML, CSV), the comparison of each compare-* pair, and the audit text;
 *  - `pts plan <test>` text for every revision, test, profile and workload, on a block device and
 *    on a shortened file run (deviations and compliance reasons), and the `pts plan all` total;
 *  - every command's --help content (summary, description, examples, args and flags);
 *  - README.md, and the user-facing fields of every test definition (clause, parameter name,
 *    value, note).
 * A failure names the place and quotes the offending sentence. Fix the text, never the list.
 */
import {readdirSync, readFileSync, existsSync} from 'node:fs'
import {join} from 'node:path'
import {expect} from 'chai'
import {planText} from '../../src/app/plan-text.js'
import {runOptions} from '../../src/app/prepare.js'
import {suiteDurationText} from '../../src/app/suite.js'
import {auditRun} from '../../src/audit/load.js'
import {loadCompareRuns} from '../../src/compare/load.js'
import {buildCompareModel} from '../../src/compare/model.js'
import {buildCompareChartSpecs} from '../../src/compare/charts.js'
import {loadCompareTemplates} from '../../src/compare/templates.js'
import {REVIEWS_REVISION, REVISIONS} from '../../src/model/tests.js'
import {plainStoredNote, plainStoredText, sourceLabel, userParameter} from '../../src/model/wording.js'
import {expandProgram} from '../../src/plan/expand.js'
import type {TargetInfo} from '../../src/plan/target.js'
import {programCsv} from '../../src/report/csv.js'
import {renderHtml} from '../../src/report/html.js'
import {loadRun} from '../../src/report/load.js'
import {buildProgramReportModel} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import {loadTemplates} from '../../src/report/templates.js'
import {loadProgramSpec, revisionDir, specsRoot} from '../../src/store/spec-files.js'
import {ROOT} from '../helpers/cli.js'

/** The forbidden tokens: the internal notes, their parts and source tags, issue numbers. */
const TOKENS: ReadonlyArray<{what: string; re: RegExp}> = [
  {what: '"digest"', re: /digest/i},
  {what: '"Part A"', re: /Part A/i},
  {what: 'a source tag G-xx', re: /\bG-[A-Z]{2,4}\b/},
  {what: 'a source tag P-xxx', re: /\bP-[A-Z0-9]{3,}\b/},
  {what: '"[BK]"', re: /\[BK\]/i},
  {what: 'an issue number', re: /issue \d+/i},
  {what: '"verify before citing"', re: /verify before citing/i},
]

/** Every hit in `text` as "<where>: <token>: <the sentence around it>". */
function findJargon(where: string, text: string): string[] {
  const hits: string[] = []
  for (const {what, re} of TOKENS) {
    const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g')
    for (const m of text.matchAll(g)) {
      const i = m.index ?? 0
      // the sentence: back to the previous sentence end or line break, on to the next
      const before = text.slice(Math.max(0, i - 300), i)
      const after = text.slice(i, i + 300)
      const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('\n'), before.lastIndexOf('>'), before.lastIndexOf('"'))
      const endMatch = after.slice(m[0].length).search(/\.\s|\n|<|"/)
      const sentence = (before.slice(start + 1) + after.slice(0, endMatch < 0 ? after.length : m[0].length + endMatch + 1)).trim()
      hits.push(`${where}: ${what}: ${sentence}`)
    }
  }
  return hits
}

function expectNoJargon(hits: string[]): void {
  if (hits.length > 0) expect.fail(`${hits.length} internal reference(s) in user-facing text:\n  ${[...new Set(hits)].join('\n  ')}\n`)
}

const GENERATED_AT = '2026-12-01T00:00:00Z'
const FIXTURE_ROOTS = [join(ROOT, 'test/fixtures/runs'), join(ROOT, 'test/fixtures/runs-v1')]
const storedRuns = FIXTURE_ROOTS.flatMap(root => readdirSync(root, {withFileTypes: true})
  .filter(d => d.isDirectory() && existsSync(join(root, d.name, 'results.json')))
  .map(d => ({name: `${root.endsWith('runs-v1') ? 'runs-v1' : 'runs'}/${d.name}`, dir: join(root, d.name)})))

describe('no internal jargon in user-facing text', function () {
  this.timeout(120000)

  it('the token list catches what it must (and the sentence is quoted)', () => {
    expect(findJargon('x', 'One. See digest B 5.5 for it. Two.')).to.deep.equal(['x: "digest": See digest B 5.5 for it.'])
    for (const s of ['Part A 8', 'G-AD', 'P-HK4E', '[BK]', 'issue 6', 'verify before citing']) expect(findJargon('x', s), s).to.have.length(1)
    for (const s of ['SHA-256', 'PTS-E 1.1', 'TC 4/QD 32', 'PTS 2.0.2 §2.1.24']) expect(findJargon('x', s), s).to.deep.equal([])
  })

  it('stored text of an earlier pts is printed without its internal citations', () => {
    expect(plainStoredText('no purge: a regular file cannot be purged (digest Part A 8)')).to.equal('no purge: a regular file cannot be purged')
    expect(plainStoredText('interrupted for 12 s (idle time changes the result)')).to.equal('interrupted for 12 s (idle time changes the result)')
    expect(plainStoredNote('G-CH/G-AD constants (digest B 5.5)')).to.equal(undefined)
    expect(plainStoredNote('digest B 3.1-3.3, Part A 2')).to.equal(undefined)
    expect(plainStoredNote('SNIA TP summary (digest B 5.2, 2.1 Round)')).to.equal('SNIA TP summary')
    expect(plainStoredNote("pts's choice: every point is reproducible")).to.equal("pts's choice: every point is reproducible")
    expect(sourceLabel('implementation-derived')).to.equal('public implementations')
    expect(userParameter({name: 'n', value: 'v', source: 'spec', note: 'PTS 2.0.2 §2.1.24', ref: 'digest B 3'})).to.deep.equal({name: 'n', value: 'v', source: 'spec', note: 'PTS 2.0.2 §2.1.24'})
  })

  describe('reports of the stored runs (model, charts, HTML, CSV) and their audit', () => {
    const templates = loadTemplates()
    for (const r of storedRuns) {
      it(r.name, () => {
        const run = loadRun(r.dir, {allowMissingRaw: true}) // compare-* runs keep manifest and results only
        const model = buildProgramReportModel({manifest: run.manifest, results: run.results, rawFiles: run.rawFiles, claims: run.claims, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS[run.results.test]!)
        const svgs = Object.fromEntries(model.pages.filter(p => p.chart).map(p => [p.chart!, `<svg data-chart="${p.chart}"></svg>`]))
        const html = renderHtml(templates, model, svgs)
        const {charts, ...rest} = model
        const hits = [
          ...model.pages.flatMap(p => findJargon(`${r.name} report page ${p.number} "${p.title}"`, JSON.stringify(p))),
          ...findJargon(`${r.name} report header`, JSON.stringify(rest.header)),
          ...Object.entries(charts).flatMap(([id, spec]) => findJargon(`${r.name} chart ${id}`, JSON.stringify(spec))),
          ...findJargon(`${r.name} report.html`, html),
          ...findJargon(`${r.name} report.csv`, programCsv(run.results)),
        ]
        const audit = auditRun(r.dir, {maxGapMs: 1000})
        hits.push(...findJargon(`${r.name} pts audit --json`, JSON.stringify(audit)))
        expectNoJargon(hits)
      })
    }
  })

  it('the comparison of every compare-* pair (model, charts, HTML)', () => {
    const root = join(ROOT, 'test/fixtures/runs')
    const pairs = readdirSync(root).filter(d => /^compare-.*-1$/.test(d)).map(d => [d, d.replace(/-1$/, '-2')])
    expect(pairs.length).to.be.greaterThan(0)
    const templates = loadCompareTemplates()
    const hits: string[] = []
    for (const [a, b] of pairs) {
      const model = buildCompareModel(loadCompareRuns([join(root, a), join(root, b)]), {generatedAt: GENERATED_AT})
      const specs = buildCompareChartSpecs(model)
      const svgs = Object.fromEntries(Object.keys(specs).map(id => [id, `<svg data-chart="${id}"></svg>`]))
      hits.push(...findJargon(`compare ${a} ${b} model`, JSON.stringify(model)), ...findJargon(`compare ${a} ${b} charts`, JSON.stringify(specs)),
        ...findJargon(`compare ${a} ${b} html`, renderHtml(templates, model, svgs)))
    }
    expectNoJargon(hits)
  })

  it('pts plan <test> for every revision, test, profile and workload (block device; shortened file run), and pts plan all', () => {
    const block: TargetInfo = {kind: 'block', path: '/dev/nvme1n1', sizeBytes: 480e9, logicalSectorBytes: 512, purge: {method: 'nvme-sanitize-block', deviation: null}}
    const file: TargetInfo = {kind: 'file', path: '/tmp/pts-test.img', sizeBytes: 16 * 1024 ** 3, logicalSectorBytes: 512, purge: {method: 'none', deviation: 'no purge: a regular file cannot be purged'}, nonCompliant: ['the target is a regular file, not a whole block device']}
    const hits: string[] = []
    let plans = 0
    for (const rev of [...REVISIONS, REVIEWS_REVISION]) {
      const tests = readdirSync(join(specsRoot(), revisionDir(rev))).filter(f => f.endsWith('.json') && f !== 'revision.json').map(f => f.slice(0, -5))
      const parts: Array<{test: string; minSec: number; maxSec: number | null}> = []
      for (const test of tests) {
        const spec = loadProgramSpec(test, rev)
        for (const profile of Object.keys(spec.profiles)) {
          for (const workload of spec.workloads ? Object.keys(spec.workloads) : [undefined]) {
            for (const [target, extra] of [[block, {}], [file, {'time-scale': '0.01', 'point-seconds': '1'}]] as const) {
              const flags = {device: target.path, revision: rev, profile, 'point-seconds': '60', 'max-rounds': '25', 'on-no-steady-state': 'stop', ioengine: 'libaio', seed: '7', ...(workload ? {workload} : {}), ...extra}
              const plan = expandProgram(spec, runOptions(flags, spec, 7), target)
              const where = `pts plan ${test} --revision ${rev} --profile ${profile}${workload ? ` --workload ${workload}` : ''} (${target.kind})`
              hits.push(...findJargon(where, planText(plan, target.path, [], {method: target.purge.method, deviation: target.purge.deviation, refused: null, steps: []})))
              if (target === block && workload === (spec.defaultWorkload ?? undefined)) parts.push({test, minSec: plan.durations.minSec, maxSec: plan.durations.maxSec})
              plans++
            }
          }
        }
      }
      hits.push(...findJargon(`pts plan all --revision ${rev}`, suiteDurationText(parts)))
    }
    expect(plans).to.be.greaterThan(40)
    expectNoJargon(hits)
  })

  it('every command\'s --help (summary, description, examples, arguments, flags)', async () => {
    const dir = join(ROOT, 'src/commands')
    const files = readdirSync(dir).filter(f => f.endsWith('.ts'))
    expect(files.length).to.be.greaterThan(5)
    const hits: string[] = []
    for (const f of files) {
      const cmd = (await import(join(dir, f))).default as Record<string, unknown>
      const flags = Object.entries((cmd.flags ?? {}) as Record<string, Record<string, unknown>>)
      const args = Object.entries((cmd.args ?? {}) as Record<string, Record<string, unknown>>)
      const text = [cmd.summary, cmd.description, JSON.stringify(cmd.examples ?? []),
        ...flags.map(([n, fl]) => `--${n}: ${fl.summary ?? ''} ${fl.description ?? ''} ${JSON.stringify(fl.options ?? [])} ${JSON.stringify(fl.default ?? '')}`),
        ...args.map(([n, a]) => `<${n}>: ${a.description ?? ''}`)].join('\n')
      expect(text.length, f).to.be.greaterThan(50)
      hits.push(...findJargon(`pts ${f.replace(/\.ts$/, '')} --help`, text))
    }
    expectNoJargon(hits)
  })

  it('README.md', () => {
    expectNoJargon(findJargon('README.md', readFileSync(join(ROOT, 'README.md'), 'utf8')))
  })

  it('the user-facing fields of every test definition (clause, parameter names, values, notes; not ref / clauseRef)', () => {
    const hits: string[] = []
    for (const rev of [...REVISIONS, REVIEWS_REVISION]) {
      for (const f of readdirSync(join(specsRoot(), revisionDir(rev))).filter(x => x.endsWith('.json') && x !== 'revision.json')) {
        const spec = loadProgramSpec(f.slice(0, -5), rev)
        const where = `specs/${revisionDir(rev)}/${f}`
        hits.push(...findJargon(`${where} clause`, spec.clause), ...findJargon(`${where} title`, `${spec.title} ${spec.subtitle}`))
        for (const p of spec.parameters) hits.push(...findJargon(`${where} parameter "${p.name}"`, `${p.name}: ${p.value} (${p.note ?? ''})`))
        for (const [k, w] of Object.entries(spec.workloads ?? {})) hits.push(...findJargon(`${where} workload ${k}`, w.label))
        for (const ph of spec.phases) hits.push(...findJargon(`${where} phase ${ph.id}`, ph.title))
      }
    }
    expectNoJargon(hits)
  })
})
