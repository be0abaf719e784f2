/**
 * The message catalog (src/messages.ts) is the one home of user-facing error wording:
 *  - every error class of src/errors.ts takes a Msg, and nowhere in src/ outside messages.ts is one
 *    constructed from a string literal, a template literal or an object literal (found in the
 *    syntax tree: a literal counts unless it is a fact passed to a catalog entry, `M.fio.badOutput(`${rel}.json`, ...)`);
 *  - every entry, called with sample arguments made from its parameter types, yields a non-empty
 *    message (and suggestion, when it has one) that cites no internal document: no "digest",
 *    "Part A", source tags such as G-PY, or issue numbers;
 *  - the catalog imports nothing but types.
 */
import {expect} from 'chai'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import ts from 'typescript'
import * as catalog from '../../src/messages.js'
import {scanProject, scanSources} from '../support/imports.js'
import {ROOT} from '../helpers/cli.js'

const CATALOG = 'src/messages.ts'
const ERRORS = 'src/errors.ts'
const JARGON: ReadonlyArray<[string, RegExp]> = [
  ['digest', /\bdigest\b/i],
  ['Part A/B', /\bPart [A-Z]\b/],
  ['a source tag (G-XX)', /\bG-[A-Z]{2}\b/],
  ['an issue number', /\bissues?\s*#?\d+/i],
]

const parse = (path: string, text: string) => ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
const lineOf = (sf: ts.SourceFile, n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1

/** The classes src/errors.ts exports: the user-facing error classes. */
function errorClasses(sf: ts.SourceFile): ts.ClassDeclaration[] {
  return sf.statements.filter((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && !!s.name
    && !!s.modifiers?.some(m => m.kind === ts.SyntaxKind.ExportKeyword))
}

/** Local names bound by imports from the catalog (`import * as M from '../messages.js'`, or named groups). */
function catalogNames(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>()
  for (const s of sf.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || !/(^|\/)messages\.js$/.test(s.moduleSpecifier.text)) continue
    const b = s.importClause?.namedBindings
    if (b && ts.isNamespaceImport(b)) names.add(b.name.text)
    if (b && ts.isNamedImports(b)) for (const e of b.elements) names.add(e.name.text)
  }
  return names
}

const rootName = (e: ts.Expression): string | null => {
  while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isNonNullExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression
  return ts.isIdentifier(e) ? e.text : null
}

const isLiteral = (n: ts.Node) => ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n) || ts.isObjectLiteralExpression(n)

/** `new X(...)` of a class in `classes` whose arguments hold a literal outside a catalog call: "path:line new X(...)". */
function literalConstructions(path: string, sf: ts.SourceFile, classes: ReadonlySet<string>): {found: string[]; constructions: number} {
  const fromCatalog = catalogNames(sf)
  const found: string[] = []
  let constructions = 0
  const literalIn = (n: ts.Node): ts.Node | null => {
    if (ts.isCallExpression(n) && fromCatalog.has(rootName(n.expression) ?? '')) return null // facts passed to an entry
    if (isLiteral(n)) return n
    let hit: ts.Node | null = null
    n.forEachChild(c => { hit ??= literalIn(c) })
    return hit
  }
  const visit = (n: ts.Node): void => {
    if (ts.isNewExpression(n)) {
      const name = ts.isIdentifier(n.expression) ? n.expression.text : ts.isPropertyAccessExpression(n.expression) ? n.expression.name.text : null
      if (name && classes.has(name)) {
        constructions++
        for (const a of n.arguments ?? []) {
          const hit = literalIn(a)
          if (hit) { found.push(`${path}:${lineOf(sf, n)} new ${name}(${hit.getText(sf).slice(0, 80)} ...)`); break }
        }
      }
    }
    n.forEachChild(visit)
  }
  visit(sf)
  return {found, constructions}
}

/** Sample arguments from a parameter's declared type (the catalog's parameters are plain values). */
function sampleFor(param: ts.ParameterDeclaration, sf: ts.SourceFile): unknown {
  const name = param.name.getText(sf)
  const type = param.type?.getText(sf).replace(/\s+/g, ' ') ?? ''
  const samples: Record<string, unknown> = {
    'string': `<${name}>`,
    'string | undefined': `<${name}>`,
    'number': 3,
    'number | undefined': 3,
    'number | null': 3,
    'boolean': true,
    'readonly string[]': ['a', 'b'],
    'readonly number[]': [11, 12],
    'readonly Problem[]': [{pointer: '/x', message: 'must be number'}, {pointer: '', message: 'is not valid JSON'}],
    '{code?: string; message: string}': {code: 'EACCES', message: 'permission denied'},
    '{code: number | null; signal?: string | null}': {code: 1, signal: null},
    '{pid: number} | null': {pid: 42},
    'Msg': {message: 'earlier failure', suggestion: 'do this'},
    'ReadonlyArray<{test: string; status: string}>': [{test: 'iops', status: 'complete'}],
  }
  const literals = /^'[^']*'( \| '[^']*')*$/.test(type) ? type.split(' | ').map(t => t.slice(1, -1)) : null
  if (literals) return literals[0]
  if (!(type in samples)) throw new Error(`no sample for parameter ${name}: ${type} (add one to sampleFor in test/unit/messages.test.ts)`)
  return samples[type]
}

/** Each entry of the catalog: its group and name, and its parameters as written. */
function catalogEntries(sf: ts.SourceFile): Array<{group: string; name: string; params: ts.ParameterDeclaration[] | null}> {
  const out: Array<{group: string; name: string; params: ts.ParameterDeclaration[] | null}> = []
  for (const s of sf.statements) {
    if (!ts.isVariableStatement(s) || !s.modifiers?.some(m => m.kind === ts.SyntaxKind.ExportKeyword)) continue
    for (const d of s.declarationList.declarations) {
      if (!d.initializer || !ts.isObjectLiteralExpression(d.initializer)) continue
      for (const p of d.initializer.properties) {
        if (!ts.isPropertyAssignment(p)) continue
        const init = p.initializer
        out.push({group: d.name.getText(sf), name: p.name.getText(sf), params: ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? [...init.parameters] : null})
      }
    }
  }
  return out
}

describe('message catalog (src/messages.ts)', () => {
  const modules = scanProject(ROOT)
  const errorsSf = modules.get(ERRORS)!.source
  const classes = new Set(errorClasses(errorsSf).map(c => c.name!.text))
  const catalogSf = parse(CATALOG, readFileSync(join(ROOT, CATALOG), 'utf8'))

  it('every error class of errors.ts takes a Msg first (one way to build an error)', () => {
    expect(classes.size).to.be.greaterThanOrEqual(10)
    const bad = errorClasses(errorsSf).flatMap(c => {
      const ctor = c.members.find(ts.isConstructorDeclaration)
      const first = ctor?.parameters[0]?.type?.getText(errorsSf)
      return first === 'Msg' ? [] : [`${c.name!.text}: constructor(${ctor ? ctor.parameters.map(p => p.getText(errorsSf)).join(', ') : 'none'})`]
    })
    expect(bad).to.deep.equal([])
  })

  it('no user-facing error in src/ is built from a literal (the wording is in the catalog)', () => {
    let constructions = 0
    const found: string[] = []
    for (const [path, m] of modules) {
      if (path === CATALOG || path === ERRORS) continue
      const r = literalConstructions(path, m.source, classes)
      constructions += r.constructions
      found.push(...r.found)
    }
    expect(constructions, 'the scan finds the throw sites').to.be.greaterThan(100)
    expect(found, 'build these from an entry of src/messages.ts').to.deep.equal([])
  })

  it('the scan flags string, template and object literals, and passes facts given to an entry', () => {
    const src = [
      "import * as M from '../messages.js'",
      "throw new UsageError('a literal')",
      'throw new RunDirError(`a ${template}`)',
      "throw new PtsError({message: 'x'}, EXIT.usage)",
      "throw new FioFailedError(cond ? M.fio.noJsonObject : 'fallback')",
      'throw new FioFailedError(M.fio.badOutput(`${rel}.json`, e.message))',
      'throw new PtsError(M.internal.inRun(`${e.stack}`), EXIT.internal)',
      "throw new Error('internal: not a user-facing class')",
    ].join('\n')
    const sf = scanSources({'src/x/y.ts': src}).get('src/x/y.ts')!.source
    const r = literalConstructions('src/x/y.ts', sf, classes)
    expect(r.constructions).to.equal(6)
    expect(r.found.map(f => f.replace(/ new .*/, ''))).to.deep.equal(['src/x/y.ts:2', 'src/x/y.ts:3', 'src/x/y.ts:4', 'src/x/y.ts:5'])
  })

  it('imports nothing but types', () => {
    const imports = catalogSf.statements.filter(ts.isImportDeclaration)
    expect(imports.filter(i => !i.importClause?.isTypeOnly).map(i => i.getText(catalogSf))).to.deep.equal([])
  })

  it('every entry yields a non-empty message, and a non-empty suggestion when it has one, citing no internal document', () => {
    const entries = catalogEntries(catalogSf)
    expect(entries.length).to.be.greaterThan(80)
    const groups = catalog as unknown as Record<string, Record<string, unknown>>
    const problems: string[] = []
    for (const e of entries) {
      const entry = groups[e.group]?.[e.name]
      const value = e.params ? (entry as (...a: unknown[]) => unknown)(...e.params.map(p => sampleFor(p, catalogSf))) : entry
      const m = value as Partial<catalog.Msg> | undefined
      const where = `${e.group}.${e.name}`
      if (typeof m?.message !== 'string' || m.message.trim() === '') { problems.push(`${where}: no message`); continue }
      if ('suggestion' in m && (typeof m.suggestion !== 'string' || m.suggestion.trim() === '')) problems.push(`${where}: an empty suggestion`)
      for (const text of [m.message, m.suggestion ?? '']) {
        for (const [what, re] of JARGON) if (re.test(text)) problems.push(`${where} cites ${what}: ${text}`)
        if (/undefined|\[object Object\]|NaN/.test(text)) problems.push(`${where} prints a value it was not given: ${text}`)
      }
    }
    expect(problems).to.deep.equal([])
  })

  it('the whole catalog source cites no internal document', () => {
    const text = readFileSync(join(ROOT, CATALOG), 'utf8')
    expect(JARGON.filter(([, re]) => re.test(text)).map(([what]) => what)).to.deep.equal([])
  })
})
