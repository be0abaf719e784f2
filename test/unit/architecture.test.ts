/**
 * Architecture of src/, from its imports (parsed with the TypeScript compiler API:
 * test/support/imports.ts; the rules: test/support/architecture.ts):
 *  - no import cycles, among modules and among folders;
 *  - PURE modules reach no I/O module through static value imports, and their own source reads
 *    no environment, clock or randomness;
 *  - LAYERS: a lower layer never imports a higher one.
 * What is wrong today is listed in KNOWN_VIOLATIONS, each with its reason; a violation not in
 * the list fails, and so does an entry of the list that no longer occurs (remove it then).
 */
import {expect} from 'chai'
import {scanProject, scanSources, type ImportKind, type Sources} from '../support/imports.js'
import {
  folderCycles, forbiddenUses, layerViolations, matchesGlob, moduleCycles, pureImportLeaks, pureSourceLeaks,
  type Finding, type LayerTable,
} from '../support/architecture.js'
import {ROOT} from '../helpers/cli.js'

// ================================================================================================
// THE TABLES. Update them when the layout of src/ changes (they describe today's folders): they
// are the only thing to edit; the checker names no folder.
// ================================================================================================

/**
 * Modules that must be pure, as globs under the project root ('*' within a folder, '**' across
 * folders; a path without a wildcard is that file, or everything under that folder). Transitively
 * through their static value imports (type-only imports are erased, dynamic ones load only when
 * called) they must not reach a FORBIDDEN_MODULES module, and their own source must not use
 * process.env / process.cwd / process.argv, Date.now, new Date() without arguments, Date(),
 * Math.random or performance.now (found in the syntax tree; `new Date(x)` is fine).
 */
const PURE: readonly string[] = [
  'src/model',
  'src/plan',
  'src/steady-state',
  'src/analysis',
  'src/engine/job.ts',
  'src/engine/jobfile.ts',
  'src/engine/parse.ts',
  'src/store/migrate-v1.ts',
  'src/claims/match.ts',
  'src/claims/interface.ts',
  'src/app/preflight.ts',
  'src/report/page-kit.ts',
  'src/report/layout-estimate.ts',
  'src/report/model.ts',
  'src/report/pages',
  'src/report/charts',
  'src/report/csv.ts',
  'src/compare/model.ts',
  'src/device/safety.ts',
  'src/device/parse-*.ts',
  'src/units.ts',
  'src/messages.ts',
  'src/app/plan-text.ts',
  'src/audit/checks.ts',
  'src/audit/audit.ts',
  'src/device/purge-plan.ts',
  'src/compare/phases.ts',
  'src/compare/table.ts',
  'src/live/snapshot.ts',
  'src/fleet/model.ts',
  'src/report/fleet/model.ts',
  'src/report/fleet/html.ts',
  'src/fleet/hosts.ts',
  'src/fleet/text.ts',
]

/** What a PURE module must not reach through value imports (bare specifiers, as written). */
const FORBIDDEN_MODULES: readonly string[] = [
  'node:fs', 'fs', 'node:fs/promises', 'fs/promises',
  'node:child_process', 'child_process',
  'node:os', 'os',
  'node:net', 'net',
  'node:http', 'http', 'node:https', 'https',
  'node:process', 'process', // `import {env} from 'node:process'` is process.env by another name
  'puppeteer-core',
]

/**
 * Layers, lowest first. Each entry is a folder or a file under src/ ('spec', 'units.ts'; a
 * nested folder such as 'report/charts' may be its own entry, the most specific entry wins), or
 * a list of peers of one rank. A module never imports (value, type or dynamic) a module of a
 * higher layer; modules in no entry are not checked.
 */
const LAYERS: LayerTable = [
  ['units.ts', 'errors.ts', 'messages.ts'],
  'model',
  'validate.ts',
  ['proc.ts', 'host.ts', 'progress.ts'],
  'plan',
  'steady-state',
  'analysis',
  'engine',
  'store',
  'device',
  'runner',
  'claims',
  'report',
  'audit',
  'compare',
  'live',
  'app',
  'commands',
  'index.ts',
]

/** Which imports make a dependency for the cycle and layer rules (purity follows static value imports only). */
const COUNTED_KINDS: readonly ImportKind[] = ['value', 'type', 'dynamic']

/**
 * Today's violations, by the key the failure message prints. Each must still occur (the list
 * cannot go stale): when one is fixed, delete its entry.
 */
const KNOWN_VIOLATIONS: ReadonlyArray<{rule: Finding['rule']; key: string; reason: string}> = []

// ================================================================================================

/** The findings not allow-listed, and the allow-list entries of `rules` not found. */
function againstKnown(findings: readonly Finding[], known: typeof KNOWN_VIOLATIONS, rules: ReadonlyArray<Finding['rule']>): {unexpected: Finding[]; stale: typeof KNOWN_VIOLATIONS} {
  const found = new Set(findings.map(f => `${f.rule}|${f.key}`))
  const allowed = new Set(known.map(k => `${k.rule}|${k.key}`))
  return {
    unexpected: findings.filter(f => !allowed.has(`${f.rule}|${f.key}`)),
    stale: known.filter(k => rules.includes(k.rule) && !found.has(`${k.rule}|${k.key}`)),
  }
}

function expectNone(findings: readonly Finding[], what: string): void {
  const {unexpected} = againstKnown(findings, KNOWN_VIOLATIONS, [])
  if (unexpected.length === 0) return
  const text = unexpected.map(f => `  ${f.detail}\n    (allow-list key: {rule: '${f.rule}', key: '${f.key}'})`).join('\n')
  expect.fail(`${unexpected.length} ${what}:\n${text}\n`)
}

describe('architecture of src/ (imports, purity, layers)', function () {
  const modules = scanProject(ROOT)
  const all = (): Finding[] => [
    ...moduleCycles(modules, COUNTED_KINDS),
    ...folderCycles(modules, COUNTED_KINDS),
    ...pureImportLeaks(modules, {pure: PURE, forbiddenModules: FORBIDDEN_MODULES}),
    ...pureSourceLeaks(modules, PURE),
    ...layerViolations(modules, LAYERS, 'src', COUNTED_KINDS),
  ]

  it('reads the modules of src/ and resolves every relative import to one', () => {
    expect(modules.size).to.be.greaterThan(50)
    const unresolved = [...modules.values()].flatMap(m => m.imports).filter(e => !e.internal && (e.specifier.startsWith('.') || e.specifier.startsWith('<computed')))
    expect(unresolved.map(e => `${e.from}:${e.line} '${e.specifier}'`)).to.deep.equal([])
  })

  it('no import cycles among modules (value, type-only and dynamic imports)', () => {
    expectNone(moduleCycles(modules, COUNTED_KINDS), 'import cycle(s) among modules')
  })

  it('no import cycles among the folders of src/', () => {
    expectNone(folderCycles(modules, COUNTED_KINDS), 'import cycle(s) among folders')
  })

  it('PURE modules reach no I/O module through their value imports', () => {
    expectNone(pureImportLeaks(modules, {pure: PURE, forbiddenModules: FORBIDDEN_MODULES}), 'pure module(s) reaching I/O')
  })

  it('PURE modules read no environment, clock or randomness', () => {
    expectNone(pureSourceLeaks(modules, PURE), 'pure module(s) reading the environment, the clock or randomness')
  })

  it('LAYERS: no module imports a higher layer', () => {
    expectNone(layerViolations(modules, LAYERS, 'src', COUNTED_KINDS), 'import(s) of a higher layer')
  })

  it('the tables name only what exists (a glob or layer matching no module is a stale table)', () => {
    const paths = [...modules.keys()]
    expect(PURE.filter(g => !paths.some(p => matchesGlob(p, g))), 'PURE globs matching no module').to.deep.equal([])
    const entries = LAYERS.flatMap(e => (typeof e === 'string' ? [e] : [...e]))
    expect(entries.filter(e => !paths.some(p => matchesGlob(p, `src/${e}`))), 'LAYERS entries matching no module').to.deep.equal([])
    expect(entries.length, 'a LAYERS entry listed twice').to.equal(new Set(entries).size)
  })

  it('every KNOWN_VIOLATIONS entry still occurs (delete the entries that are fixed)', () => {
    const {stale} = againstKnown(all(), KNOWN_VIOLATIONS, ['module-cycle', 'folder-cycle', 'pure-import', 'pure-source', 'layer'])
    expect(stale.map(k => `{rule: '${k.rule}', key: '${k.key}'}`), 'allow-listed violations that no longer occur').to.deep.equal([])
    for (const k of KNOWN_VIOLATIONS) expect(k.reason, k.key).to.match(/to be removed by the one-pipeline redesign$/)
  })
})

describe('architecture checker (self-test on in-memory sources)', () => {
  const scan = (files: Sources) => scanSources(files)
  const keys = (fs: readonly Finding[]) => fs.map(f => f.key)

  describe('the import lister', () => {
    const m = scan({
      'src/a.ts': [
        "import {x} from './b.js'",
        "import type {T} from './c.js'",
        "import {type U, type V} from './c.js'",
        "import {type W, y} from './d.js'",
        "import def from './e.js'",
        "import * as ns from './dir/index.js'",
        "import './side.js'",
        "export type {Z} from './c.js'",
        "export {q} from './dir'",
        "export * from './b.js'",
        "import {readFileSync} from 'node:fs'",
        "import vl from 'vega-lite'",
        "type Vega = typeof import('vega')",
        "export const load = () => import('./lazy.js')",
      ].join('\n'),
      'src/b.ts': '', 'src/c.ts': '', 'src/d.ts': '', 'src/e.ts': '', 'src/side.ts': '', 'src/lazy.ts': '',
      'src/dir/index.ts': '',
    })
    const edges = m.get('src/a.ts')!.imports.map(e => `${e.kind} ${e.to}${e.internal ? '' : ' (package)'}`)

    it('tells type-only from value imports, and records dynamic ones', () => {
      expect(edges).to.deep.equal([
        'value src/b.ts', 'type src/c.ts', 'type src/c.ts', 'value src/d.ts', 'value src/e.ts', 'value src/dir/index.ts', 'value src/side.ts',
        'type src/c.ts', 'value src/dir/index.ts', 'value src/b.ts',
        'value node:fs (package)', 'value vega-lite (package)', 'type vega (package)', 'dynamic src/lazy.ts',
      ])
    })

    it('resolves ../ and keeps an unresolvable relative path unresolved', () => {
      const n = scan({'src/x/y.ts': "import {a} from '../a.js'\nimport {b} from './missing.js'", 'src/a.ts': ''})
      expect(n.get('src/x/y.ts')!.imports.map(e => [e.to, e.internal])).to.deep.equal([['src/a.ts', true], ['src/x/missing.js', false]])
    })
  })

  describe('cycles', () => {
    it('a cycle of two files fails, printed as a chain of paths; counting a type-only import', () => {
      const m = scan({'src/a.ts': "import {b} from './b.js'\nexport const a = 1", 'src/b.ts': "import type {A} from './a.js'\nexport const b = 2"})
      const found = moduleCycles(m, COUNTED_KINDS)
      expect(keys(found)).to.deep.equal(['src/a.ts <-> src/b.ts'])
      expect(found[0].detail).to.include('src/a.ts -> src/b.ts -> src/a.ts').and.include('src/b.ts:1 -> src/a.ts (type)')
    })

    it('a longer cycle and a self-import fail; a diamond does not', () => {
      const ring = scan({'src/a.ts': "import './b.js'", 'src/b.ts': "import './c.js'", 'src/c.ts': "import './a.js'", 'src/s.ts': "import './s.js'"})
      expect(keys(moduleCycles(ring))).to.deep.equal(['src/a.ts <-> src/b.ts <-> src/c.ts', 'src/s.ts'])
      const diamond = scan({'src/a.ts': "import './b.js'\nimport './c.js'", 'src/b.ts': "import './d.js'", 'src/c.ts': "import './d.js'", 'src/d.ts': ''})
      expect(moduleCycles(diamond)).to.deep.equal([])
    })

    it('dynamic imports close a cycle only when counted', () => {
      const m = scan({'src/a.ts': "import './b.js'", 'src/b.ts': "export const f = () => import('./a.js')"})
      expect(keys(moduleCycles(m, ['value', 'type', 'dynamic']))).to.deep.equal(['src/a.ts <-> src/b.ts'])
      expect(moduleCycles(m, ['value', 'type'])).to.deep.equal([])
    })

    it('folders that import each other fail even without a module cycle', () => {
      const m = scan({'src/p/a.ts': "import '../q/b.js'", 'src/q/b.ts': '', 'src/q/c.ts': "import '../p/d.js'", 'src/p/d.ts': ''})
      expect(moduleCycles(m)).to.deep.equal([])
      const found = folderCycles(m)
      expect(keys(found)).to.deep.equal(['p <-> q'])
      expect(found[0].detail).to.include('p -> q -> p').and.include('src/p/a.ts:1 -> src/q/b.ts').and.include('src/q/c.ts:1 -> src/p/d.ts')
    })
  })

  describe('purity', () => {
    const rules = {pure: ['src/pure'], forbiddenModules: FORBIDDEN_MODULES}
    it('a pure file reaching node:fs through an intermediate file fails, with the chain', () => {
      const m = scan({'src/pure/a.ts': "import {read} from '../io/b.js'", 'src/io/b.ts': "import {readFileSync} from 'node:fs'\nexport const read = readFileSync"})
      const found = pureImportLeaks(m, rules)
      expect(keys(found)).to.deep.equal(['src/pure/a.ts reaches node:fs'])
      expect(found[0].detail).to.include("src/pure/a.ts:1 imports '../io/b.js'").and.include("src/io/b.ts:1 imports 'node:fs'")
    })

    it('a type-only import of that file is pure, and so is a dynamic import; a file outside PURE is not checked', () => {
      const m = scan({
        'src/pure/a.ts': "import type {T} from '../io/b.js'\nimport {type U} from '../io/b.js'\nexport type {V} from '../io/b.js'",
        'src/pure/c.ts': "export const f = () => import('../io/b.js')",
        'src/io/b.ts': "import {readFileSync} from 'node:fs'\nexport type T = 1\nexport type U = 2\nexport type V = 3",
      })
      expect(pureImportLeaks(m, rules)).to.deep.equal([])
    })

    it('new Date(x) is allowed; new Date(), Date(), Date.now(), Math.random(), performance.now(), process.env/cwd/argv are not', () => {
      const ok = scan({'src/pure/a.ts': 'export const d = (x: number) => new Date(x)\nexport const e = (s: string) => new Date(s).getTime()\nconst env = {process: 1}\nexport const p = env.process'})
      expect(pureSourceLeaks(ok, rules.pure)).to.deep.equal([])
      const bad = scan({'src/pure/a.ts': [
        'export const now = () => new Date()',
        'export const stamp = () => new Date',
        'export const s = () => Date()',
        'export const t = Date.now()',
        'export const r = Math.random()',
        'export const p = performance.now()',
        'export const home = process.env.HOME',
        "export const dbg = process['env']",
        'export const cwd = process.cwd()',
        'export const args = process.argv',
        'const {env} = process',
      ].join('\n')})
      const found = pureSourceLeaks(bad, rules.pure)
      expect(keys(found)).to.deep.equal([
        'src/pure/a.ts uses new Date()', 'src/pure/a.ts uses Date()', 'src/pure/a.ts uses Date.now', 'src/pure/a.ts uses Math.random',
        'src/pure/a.ts uses performance.now', 'src/pure/a.ts uses process.env', 'src/pure/a.ts uses process.cwd', 'src/pure/a.ts uses process.argv',
      ])
      expect(found[0].detail).to.include('src/pure/a.ts:1: export const now = () => new Date()').and.include('src/pure/a.ts:2:')
      expect(forbiddenUses(bad.get('src/pure/a.ts')!.source).filter(u => u.use === 'process.env').map(u => u.line)).to.deep.equal([7, 8, 11])
    })
  })

  describe('layers', () => {
    const m = scan({
      'src/low/a.ts': "import type {B} from '../high/b.js'\nimport '../low/c.js'\nimport '../free/f.js'",
      'src/low/c.ts': '',
      'src/high/b.ts': "import '../low/a.js'\nexport type B = 1",
      'src/high/sub/d.ts': "import '../../low/a.js'",
      'src/free/f.ts': "import '../high/b.js'",
      'src/units.ts': '',
      'src/peer1/p.ts': "import '../peer2/q.js'", 'src/peer2/q.ts': "import '../peer1/p.js'",
    })
    it('a lower layer importing a higher one fails (type-only too), as from -> to; downward, same-layer and unlisted folders pass', () => {
      const found = layerViolations(m, ['units.ts', 'low', ['peer1', 'peer2'], 'high'])
      expect(keys(found)).to.deep.equal(['src/low/a.ts -> src/high/b.ts'])
      expect(found[0].detail).to.include('type').and.include("layer 'low' (1) imports the higher layer 'high' (3)")
    })
    it('the most specific entry wins', () => {
      expect(keys(layerViolations(m, ['high/sub', 'low', 'high'])).sort()).to.deep.equal(['src/high/sub/d.ts -> src/low/a.ts', 'src/low/a.ts -> src/high/b.ts'])
    })
  })

  describe('the allow-list', () => {
    const f: Finding = {rule: 'layer', key: 'src/a.ts -> src/b.ts', detail: ''}
    const k = {rule: 'layer' as const, key: 'src/a.ts -> src/b.ts', reason: 'r'}
    it('passes an allow-listed finding, fails a new one, and reports an entry that no longer occurs', () => {
      expect(againstKnown([f], [k], ['layer'])).to.deep.equal({unexpected: [], stale: []})
      expect(againstKnown([f], [], ['layer']).unexpected).to.deep.equal([f])
      expect(againstKnown([], [k], ['layer']).stale).to.deep.equal([k])
    })
  })
})
