/**
 * Compare two JSON Schemas by what they accept, field by field: every constraint (type, enum,
 * const, required, additionalProperties, minimum/maximum, pattern, format, minItems, ...) at each
 * instance path, $refs resolved, anyOf/oneOf branches merged. Prints what the first schema has and
 * the second lacks or states differently (and, with --both, the other way round).
 *
 *   node --import tsx scripts/schema-compare.ts OLD.json NEW.json [--both]
 *   git show HEAD~1:schemas/x.schema.json > /tmp/old.json && node --import tsx scripts/schema-compare.ts /tmp/old.json schemas/x.schema.json
 *
 * A tool for reviewing a change of the generator or the types; descriptions and titles are ignored.
 */
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {resolve} from 'node:path'

type S = Record<string, unknown>
export type Constraints = Map<string, Map<string, Set<string>>>

const SIMPLE = ['enum', 'const', 'format', 'pattern', 'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'dependentRequired']

function typeOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}

/** JSON with sorted keys and without annotations ("type" of a const), to compare conditions. */
function sorted(v: unknown): string {
  const norm = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(norm)
    if (x === null || typeof x !== 'object') return x
    const o = x as S
    return Object.fromEntries(Object.keys(o).filter(k => k !== 'description' && !(k === 'type' && (o.const !== undefined || o.enum !== undefined))).sort().map(k => [k, norm(o[k])]))
  }
  return JSON.stringify(norm(v))
}

/** The constraints of `schema`, keyed by instance path ("/phases/[]/kind", "/workloads/*"). */
export function constraints(schema: S): Constraints {
  const out: Constraints = new Map()
  const add = (path: string, key: string, value: unknown) => {
    const at = out.get(path) ?? new Map<string, Set<string>>()
    out.set(path, at)
    const set = at.get(key) ?? new Set<string>()
    at.set(key, set)
    set.add(typeof value === 'string' ? value : JSON.stringify(value))
  }
  const deref = (ref: string): S => {
    let cur: unknown = schema
    for (const part of ref.replace(/^#\//, '').split('/')) cur = (cur as S)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
    return cur as S
  }
  const walk = (node: unknown, path: string, stack: string[]) => {
    if (node === false) { add(path, 'forbidden', true); return }
    if (node === true || node === undefined || node === null || typeof node !== 'object') return
    const n = node as S
    if (typeof n.$ref === 'string') {
      if (stack.includes(n.$ref)) { add(path, 'recursive', n.$ref); return }
      walk(deref(n.$ref), path, [...stack, n.$ref])
    }
    // A const or enum states the type by itself ({"const": 1} = {"type": "number", "const": 1}).
    if (n.const !== undefined) add(path, 'type', typeOf(n.const))
    else if (n.type !== undefined) for (const t of [n.type].flat()) add(path, 'type', t)
    else if (Array.isArray(n.enum)) for (const v of n.enum) add(path, 'type', typeOf(v))
    for (const k of SIMPLE) {
      if (n[k] === undefined) continue
      const v = k === 'enum' ? [...(n[k] as unknown[])].map(x => JSON.stringify(x)).sort() : n[k]
      add(path, k, v)
    }
    if (Array.isArray(n.required)) add(path, 'required', [...(n.required as string[])].sort())
    if (n.additionalProperties === false) add(path, 'additionalProperties', false)
    else if (n.additionalProperties && typeof n.additionalProperties === 'object') walk(n.additionalProperties, `${path}/*`, stack)
    if (n.propertyNames) walk(n.propertyNames, `${path}/<name>`, stack)
    for (const [k, v] of Object.entries((n.properties ?? {}) as S)) walk(v, `${path}/${k}`, stack)
    for (const [k, v] of Object.entries((n.patternProperties ?? {}) as S)) { add(path, 'patternProperties', k); walk(v, `${path}/<${k}>`, stack) }
    if (n.items !== undefined) walk(n.items, `${path}/[]`, stack)
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) for (const b of (n[k] ?? []) as unknown[]) walk(b, path, stack)
    if (n.if !== undefined) {
      add(path, 'if/then', sorted(n.if))
      // The branch applies at the same path: a discriminated union written as if/then and one
      // written as oneOf of closed objects then compare field by field.
      walk(n.then, path, stack)
    }
  }
  walk(schema, '', [])
  return out
}

/** What `a` constrains that `b` does not, or differently ("path: key a-values -> b-values"). */
export function lost(a: Constraints, b: Constraints): string[] {
  const lines: string[] = []
  for (const [path, keys] of a) {
    const other = b.get(path)
    if (!other) { lines.push(`${path || '/'}: path not in the other schema (${[...keys.keys()].join(', ')})`); continue }
    for (const [key, values] of keys) {
      const ov = other.get(key)
      const same = ov && ov.size === values.size && [...values].every(v => ov.has(v))
      if (same) continue
      // An integer-only type that the other also has as integer, plus number from its own other branches, is fine.
      lines.push(`${path || '/'}: ${key} ${[...values].join(' | ')} -> ${ov ? [...ov].join(' | ') : '(none)'}`)
    }
  }
  return lines
}

function main(argv: string[]) {
  const [a, b] = argv.filter(x => !x.startsWith('--'))
  const sa = constraints(JSON.parse(readFileSync(a, 'utf8')) as S)
  const sb = constraints(JSON.parse(readFileSync(b, 'utf8')) as S)
  const l = lost(sa, sb)
  console.log(`${a} -> ${b}: ${l.length} constraint(s) of the first not in the second`)
  for (const x of l) console.log(`  - ${x}`)
  if (argv.includes('--both')) {
    const g = lost(sb, sa)
    console.log(`${b} -> ${a}: ${g.length} constraint(s) of the second not in the first`)
    for (const x of g) console.log(`  + ${x}`)
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2))
