/**
 * The imports of every .ts module under src/, read with the TypeScript compiler API (parse only,
 * no type checking), for the architecture test (test/unit/architecture.test.ts).
 *
 * Kinds, decided from the syntax alone:
 *  - 'type':    `import type ...`, `export type ... from`, `import {type A, type B} from` (every
 *               specifier `type`), `typeof import('x')` in a type position. Erased at build.
 *  - 'value':   every other static `import` / `export ... from` (including `import './x.js'` and
 *               `export * from`): the module is loaded when the importer is.
 *  - 'dynamic': an `import('x')` call: loaded only when that code runs.
 * An `import {A} from` whose A is used only as a type is syntactically a value import, and counts
 * as one here (the project writes `import type` / `type A` for those; tsconfig has no
 * verbatimModuleSyntax to enforce it).
 *
 * Specifiers: relative ones ('./x.js', '../dir/index.js', './dir') resolve to project paths
 * ('src/dir/x.ts'); bare ones ('node:fs', 'fs', 'vega-lite', 'ajv/dist/2020.js') stay as written.
 */
import {readdirSync, readFileSync} from 'node:fs'
import {join, posix, relative, sep} from 'node:path'
import ts from 'typescript'

export type ImportKind = 'value' | 'type' | 'dynamic'

export interface ImportEdge {
  /** Project path of the importing module, e.g. 'src/report/model.ts'. */
  from: string
  /** The specifier as written, e.g. '../store/types.js' or 'node:fs'. */
  specifier: string
  /** A project path for a relative specifier that resolved to a module, else the specifier as written. */
  to: string
  /** True when `to` is a module of the scanned sources. */
  internal: boolean
  kind: ImportKind
  /** 1-based line of the import in `from`. */
  line: number
}

export interface Module {
  path: string
  source: ts.SourceFile
  imports: ImportEdge[]
}

/** The modules of a set of sources, keyed by project path ('src/a.ts' -> text). */
export type Sources = Record<string, string>

/** Every .ts file under `dir` (relative to `root`), as project paths with '/' separators, sorted. */
export function readSources(root: string, dir = 'src'): Sources {
  const out: Sources = {}
  const walk = (abs: string): void => {
    for (const e of readdirSync(abs, {withFileTypes: true})) {
      const p = join(abs, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out[relative(root, p).split(sep).join('/')] = readFileSync(p, 'utf8')
    }
  }
  walk(join(root, dir))
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)))
}

/** Parse every source and list its imports. */
export function scanSources(sources: Sources): Map<string, Module> {
  const known = new Set(Object.keys(sources))
  const modules = new Map<string, Module>()
  for (const [path, text] of Object.entries(sources)) {
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
    modules.set(path, {path, source, imports: listImports(source, path, known)})
  }
  return modules
}

/** `scanSources(readSources(root, dir))`. */
export function scanProject(root: string, dir = 'src'): Map<string, Module> {
  return scanSources(readSources(root, dir))
}

/** Resolve a relative specifier the way NodeNext resolves a .ts project ('./x.js' -> x.ts). */
export function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): {to: string; internal: boolean} {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') return {to: specifier, internal: false}
  const base = posix.normalize(posix.join(posix.dirname(from), specifier))
  const stem = base.replace(/\.(js|ts)$/, '')
  const candidates = [
    /\.js$/.test(base) ? `${stem}.ts` : null,
    /\.mjs$/.test(base) ? base.replace(/\.mjs$/, '.mts') : null,
    base,
    `${base}.ts`,
    `${base}/index.ts`,
  ].filter((c): c is string => c !== null)
  for (const c of candidates) if (known.has(c)) return {to: c, internal: true}
  return {to: base, internal: false}
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
}

function importDeclarationKind(d: ts.ImportDeclaration): ImportKind {
  const c = d.importClause
  if (!c) return 'value' // import './side-effect.js'
  if (c.isTypeOnly) return 'type'
  if (c.name) return 'value' // a default import
  const b = c.namedBindings
  if (!b) return 'value'
  if (ts.isNamespaceImport(b)) return 'value'
  return b.elements.length > 0 && b.elements.every(e => e.isTypeOnly) ? 'type' : 'value'
}

function exportDeclarationKind(d: ts.ExportDeclaration): ImportKind {
  if (d.isTypeOnly) return 'type'
  const c = d.exportClause
  if (c && ts.isNamedExports(c) && c.elements.length > 0 && c.elements.every(e => e.isTypeOnly)) return 'type'
  return 'value' // export * from, export * as ns from, export {a} from
}

function stringOf(node: ts.Node | undefined): string | null {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null
}

/** The imports of one parsed module; `known` are the project paths that exist (for resolution). */
export function listImports(source: ts.SourceFile, from: string, known: ReadonlySet<string>): ImportEdge[] {
  const edges: ImportEdge[] = []
  const add = (specifier: string, kind: ImportKind, node: ts.Node): void => {
    edges.push({from, specifier, ...resolveSpecifier(from, specifier, known), kind, line: lineOf(source, node)})
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const s = stringOf(node.moduleSpecifier)
      if (s !== null) add(s, importDeclarationKind(node), node)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const s = stringOf(node.moduleSpecifier)
      if (s !== null) add(s, exportDeclarationKind(node), node)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const s = stringOf(node.moduleReference.expression)
      if (s !== null) add(s, node.isTypeOnly ? 'type' : 'value', node)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      // import('x'); a computed specifier cannot be resolved and is recorded as written
      add(stringOf(node.arguments[0]) ?? `<computed: ${node.arguments[0]?.getText(source) ?? ''}>`, 'dynamic', node)
    } else if (ts.isImportTypeNode(node)) {
      // typeof import('x') / import('x').T in a type position
      const arg = node.argument
      const s = ts.isLiteralTypeNode(arg) ? stringOf(arg.literal) : null
      if (s !== null) add(s, 'type', node)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return edges
}
