/**
 * The rules of the architecture test (test/unit/architecture.test.ts), as functions of the
 * modules test/support/imports.ts reads, so they can be run on today's src/ and on small
 * in-memory fixtures alike. The tables (which folders are pure, the layer order) are the
 * test's; nothing here names a src/ folder.
 *
 * Every finding has a `key` (stable: no line numbers, no chain) for the test's allow-list of
 * known violations, and a `detail` (the chain of files, or the line) for the failure message.
 */
import ts from 'typescript'
import type {ImportEdge, ImportKind, Module} from './imports.js'

export interface Finding {
  rule: 'module-cycle' | 'folder-cycle' | 'pure-import' | 'pure-source' | 'layer'
  key: string
  detail: string
}

// ---------------------------------------------------------------- graphs and cycles

/** Strongly connected components (Tarjan), each sorted, in a stable order; iterative (no deep recursion). */
export function stronglyConnected(nodes: readonly string[], next: (n: string) => readonly string[]): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const out: string[][] = []
  let counter = 0
  for (const root of nodes) {
    if (index.has(root)) continue
    const work: Array<{node: string; succ: readonly string[]; i: number}> = []
    const open = (n: string): void => {
      index.set(n, counter); low.set(n, counter); counter++
      stack.push(n); onStack.add(n)
      work.push({node: n, succ: next(n), i: 0})
    }
    open(root)
    while (work.length > 0) {
      const top = work[work.length - 1]
      if (top.i < top.succ.length) {
        const w = top.succ[top.i++]
        if (!index.has(w)) open(w)
        else if (onStack.has(w)) low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!))
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1].node
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!))
      }
      if (low.get(top.node) === index.get(top.node)) {
        const scc: string[] = []
        let w: string
        do { w = stack.pop()!; onStack.delete(w); scc.push(w) } while (w !== top.node)
        out.push(scc.sort())
      }
    }
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]))
}

/** A shortest cycle start -> ... -> start inside `within` (BFS), as the list of nodes (start first). */
export function shortestCycle(start: string, next: (n: string) => readonly string[], within: ReadonlySet<string>): string[] | null {
  const parent = new Map<string, string>()
  const queue = [start]
  const seen = new Set<string>()
  while (queue.length > 0) {
    const n = queue.shift()!
    for (const w of next(n)) {
      if (!within.has(w)) continue
      if (w === start) {
        const path = [n]
        while (path[0] !== start) path.unshift(parent.get(path[0])!)
        return path
      }
      if (!seen.has(w)) { seen.add(w); parent.set(w, n); queue.push(w) }
    }
  }
  return null
}

/** Internal edges of the given kinds, grouped by importer, deduplicated by target. */
function adjacency(modules: Map<string, Module>, kinds: readonly ImportKind[]): Map<string, ImportEdge[]> {
  const adj = new Map<string, ImportEdge[]>()
  for (const m of modules.values()) {
    const seen = new Set<string>()
    adj.set(m.path, m.imports.filter(e => e.internal && kinds.includes(e.kind) && modules.has(e.to) && !seen.has(e.to) && seen.add(e.to)))
  }
  return adj
}

const edgeText = (e: ImportEdge): string => `${e.from}:${e.line} -> ${e.to}${e.kind === 'value' ? '' : ` (${e.kind})`}`

/** Cycles among modules: one finding per strongly connected component of more than one module (or a self-import). */
export function moduleCycles(modules: Map<string, Module>, kinds: readonly ImportKind[] = ['value', 'type']): Finding[] {
  const adj = adjacency(modules, kinds)
  const next = (n: string) => adj.get(n)!.map(e => e.to)
  const findings: Finding[] = []
  for (const scc of stronglyConnected([...adj.keys()].sort(), next)) {
    if (scc.length === 1 && !next(scc[0]).includes(scc[0])) continue
    const within = new Set(scc)
    const chains: string[] = []
    const covered = new Set<string>()
    for (const n of scc) {
      if (covered.has(n)) continue
      const cyc = shortestCycle(n, next, within)!
      cyc.forEach(c => covered.add(c))
      const edges = cyc.map((c, i) => adj.get(c)!.find(e => e.to === cyc[(i + 1) % cyc.length])!)
      chains.push(`    ${[...cyc, cyc[0]].join(' -> ')}\n${edges.map(e => `      ${edgeText(e)}`).join('\n')}`)
    }
    findings.push({rule: 'module-cycle', key: scc.join(' <-> '), detail: `import cycle among ${scc.length} modules:\n${chains.join('\n')}`})
  }
  return findings
}

/** The folder of a module for the folder graph: its first directory under the root ('src/report/charts/x.ts' -> 'report'), or the file itself ('src/units.ts' -> 'units.ts'). */
export function topFolder(path: string, root = 'src'): string {
  const rest = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path
  const i = rest.indexOf('/')
  return i < 0 ? rest : rest.slice(0, i)
}

/** Cycles among folders (modules grouped by topFolder): one finding per strongly connected component of folders, with a cycle through each. */
export function folderCycles(modules: Map<string, Module>, kinds: readonly ImportKind[] = ['value', 'type'], root = 'src'): Finding[] {
  const adj = adjacency(modules, kinds)
  const evidence = new Map<string, ImportEdge[]>() // 'a -> b' -> the file edges
  const fnext = new Map<string, Set<string>>()
  for (const [from, edges] of adj) {
    const a = topFolder(from, root)
    if (!fnext.has(a)) fnext.set(a, new Set())
    for (const e of edges) {
      const b = topFolder(e.to, root)
      if (a === b) continue
      if (!fnext.has(b)) fnext.set(b, new Set())
      fnext.get(a)!.add(b)
      const k = `${a} -> ${b}`
      evidence.set(k, [...(evidence.get(k) ?? []), e])
    }
  }
  const next = (n: string) => [...fnext.get(n)!].sort()
  const findings: Finding[] = []
  for (const scc of stronglyConnected([...fnext.keys()].sort(), next)) {
    if (scc.length === 1) continue
    const within = new Set(scc)
    const lines: string[] = []
    const shown = new Set<string>()
    for (const n of scc) {
      const cyc = shortestCycle(n, next, within)!
      const least = cyc.indexOf([...cyc].sort()[0])
      const canonical = [...cyc.slice(least), ...cyc.slice(0, least)].join(' -> ') // one text per cycle, whatever node it was found from
      if (shown.has(canonical)) continue
      shown.add(canonical)
      lines.push(`    ${[...cyc, cyc[0]].join(' -> ')}`)
      cyc.forEach((c, i) => {
        const es = evidence.get(`${c} -> ${cyc[(i + 1) % cyc.length]}`)!
        lines.push(`      ${edgeText(es[0])}${es.length > 1 ? ` (and ${es.length - 1} more)` : ''}`)
      })
    }
    findings.push({rule: 'folder-cycle', key: scc.join(' <-> '), detail: `import cycle among folders ${scc.join(', ')}:\n${lines.join('\n')}`})
  }
  return findings
}

// ---------------------------------------------------------------- globs

/** A path glob: '*' is any run of characters but '/', '**' any run including '/'; a pattern without a wildcard also matches everything under it as a folder. */
export function matchesGlob(path: string, pattern: string): boolean {
  const p = pattern.replace(/\/+$/, '')
  if (!/[*?]/.test(p)) return path === p || path.startsWith(`${p}/`)
  const re = p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\/|\*\*|\*|\?/g, m => ({'**/': '(?:.*/)?', '**': '.*', '*': '[^/]*', '?': '[^/]'})[m]!)
  return new RegExp(`^${re}$`).test(path)
}

// ---------------------------------------------------------------- purity

export interface PurityRules {
  /** Globs (matchesGlob) of the modules that must be pure. */
  pure: readonly string[]
  /** Modules a pure module must not reach through static value imports. */
  forbiddenModules: readonly string[]
}

/** Pure modules that reach a forbidden module through static value imports (type-only and dynamic imports are not followed): the shortest chain each. */
export function pureImportLeaks(modules: Map<string, Module>, rules: PurityRules): Finding[] {
  const findings: Finding[] = []
  const forbidden = new Set(rules.forbiddenModules)
  for (const m of [...modules.values()].filter(m => rules.pure.some(g => matchesGlob(m.path, g)))) {
    // BFS over value imports; the first time each forbidden module is met is its shortest chain
    const via = new Map<string, ImportEdge>()
    const queue = [m.path]
    const seen = new Set(queue)
    const hits: Array<{target: string; chain: ImportEdge[]}> = []
    const met = new Set<string>()
    while (queue.length > 0) {
      const n = queue.shift()!
      for (const e of modules.get(n)!.imports) {
        if (e.kind !== 'value') continue
        const chainTo = (): ImportEdge[] => { const c = [e]; let at = e.from; while (at !== m.path) { const p = via.get(at)!; c.unshift(p); at = p.from } return c }
        if (!e.internal) {
          if (forbidden.has(e.to) && !met.has(e.to)) { met.add(e.to); hits.push({target: e.to, chain: chainTo()}) }
          continue
        }
        if (!modules.has(e.to) || seen.has(e.to)) continue
        seen.add(e.to); via.set(e.to, e); queue.push(e.to)
      }
    }
    for (const h of hits) {
      findings.push({
        rule: 'pure-import',
        key: `${m.path} reaches ${h.target}`,
        detail: `pure module ${m.path} reaches ${h.target}:\n${h.chain.map(e => `      ${e.from}:${e.line} imports '${e.specifier}'`).join('\n')}`,
      })
    }
  }
  return findings
}

/** What a pure module's own source must not use; each found by the syntax tree, not the text. */
export const FORBIDDEN_SOURCE = ['process.env', 'process.cwd', 'process.argv', 'Date.now', 'new Date()', 'Date()', 'Math.random', 'performance.now'] as const
export type ForbiddenUse = typeof FORBIDDEN_SOURCE[number]

const isId = (n: ts.Node, name: string): boolean => ts.isIdentifier(n) && n.text === name
const MEMBERS: Record<string, Partial<Record<string, ForbiddenUse>>> = {
  process: {env: 'process.env', cwd: 'process.cwd', argv: 'process.argv'},
  Date: {now: 'Date.now'},
  Math: {random: 'Math.random'},
  performance: {now: 'performance.now'},
}

/** The forbidden uses in one module: `process.env` / `process['env']` / `const {env} = process`, `Date.now` (called or not), `new Date()` / `new Date` with no arguments, `Date()`, `Math.random`, `performance.now`. */
export function forbiddenUses(source: ts.SourceFile): Array<{use: ForbiddenUse; line: number; text: string}> {
  const out: Array<{use: ForbiddenUse; line: number; text: string}> = []
  const hit = (use: ForbiddenUse | undefined, node: ts.Node): void => {
    if (!use) return
    const {line} = source.getLineAndCharacterOfPosition(node.getStart(source))
    out.push({use, line: line + 1, text: source.text.split('\n')[line].trim()})
  }
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      hit(MEMBERS[node.expression.text]?.[node.name.text], node)
    } else if (ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression) && ts.isStringLiteralLike(node.argumentExpression)) {
      hit(MEMBERS[node.expression.text]?.[node.argumentExpression.text], node)
    } else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer && ts.isIdentifier(node.initializer)) {
      const members = MEMBERS[node.initializer.text]
      for (const el of node.name.elements) {
        const prop = el.propertyName ?? el.name
        if (members && ts.isIdentifier(prop)) hit(members[prop.text], el)
      }
    } else if (ts.isNewExpression(node) && isId(node.expression, 'Date') && (node.arguments?.length ?? 0) === 0) {
      hit('new Date()', node)
    } else if (ts.isCallExpression(node) && isId(node.expression, 'Date')) {
      hit('Date()', node)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

/** Forbidden uses in the pure modules' own source text. */
export function pureSourceLeaks(modules: Map<string, Module>, pure: readonly string[]): Finding[] {
  const findings: Finding[] = []
  for (const m of [...modules.values()].filter(m => pure.some(g => matchesGlob(m.path, g)))) {
    const uses = forbiddenUses(m.source)
    for (const use of [...new Set(uses.map(u => u.use))]) {
      findings.push({
        rule: 'pure-source',
        key: `${m.path} uses ${use}`,
        detail: `pure module ${m.path} uses ${use}:\n${uses.filter(u => u.use === use).map(u => `      ${m.path}:${u.line}: ${u.text}`).join('\n')}`,
      })
    }
  }
  return findings
}

// ---------------------------------------------------------------- layers

/**
 * Layers, lowest first; each entry a folder or file under the root ('spec', 'report/charts',
 * 'units.ts'), or a list of such peers of one rank. A module belongs to the most specific entry
 * that contains it (longest match); modules in no entry are not checked.
 */
export type LayerTable = ReadonlyArray<string | readonly string[]>

export function layerOf(path: string, layers: LayerTable, root = 'src'): {rank: number; entry: string} | null {
  let best: {rank: number; entry: string} | null = null
  layers.forEach((entry, rank) => {
    for (const name of typeof entry === 'string' ? [entry] : entry) {
      const full = `${root}/${name.replace(/\/+$/, '')}`
      if ((path === full || path.startsWith(`${full}/`)) && (!best || name.length > best.entry.length)) best = {rank, entry: name}
    }
  })
  return best
}

/** Imports (value, type or dynamic) from a lower layer into a higher one: `from -> to`. */
export function layerViolations(modules: Map<string, Module>, layers: LayerTable, root = 'src', kinds: readonly ImportKind[] = ['value', 'type', 'dynamic']): Finding[] {
  const findings: Finding[] = []
  const seen = new Set<string>()
  for (const m of modules.values()) {
    const a = layerOf(m.path, layers, root)
    if (!a) continue
    for (const e of m.imports) {
      if (!e.internal || !kinds.includes(e.kind)) continue
      const b = layerOf(e.to, layers, root)
      if (!b || b.rank <= a.rank) continue
      const key = `${e.from} -> ${e.to}`
      if (seen.has(key)) continue
      seen.add(key)
      findings.push({rule: 'layer', key, detail: `${key}  (${e.from}:${e.line}, ${e.kind}; layer '${a.entry}' (${a.rank}) imports the higher layer '${b.entry}' (${b.rank}))`})
    }
  }
  return findings
}
