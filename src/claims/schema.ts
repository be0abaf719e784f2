/**
 * Validation of claims files (schemas/claims.schema.json) and verify results
 * (schemas/verify-result.schema.json) through src/validate.ts (one Ajv instance), with messages
 * that name the JSON pointer, what was found and what is expected.
 */
import type {ErrorObject} from 'ajv/dist/2020.js'
import type {SchemaProblem} from '../errors.js'
import {check, toProblems, validator} from '../validate.js'

export const CLAIMS_SCHEMA = 'claims.schema.json'
export const VERIFY_RESULT_SCHEMA = 'verify-result.schema.json'

/** The value at a JSON pointer ("/claims/2/unit") of `data`, or undefined. */
export function atPointer(data: unknown, pointer: string): unknown {
  let cur: unknown = data
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<string, unknown>)[key]
  }
  return cur
}

const UNITS_BY_METRIC: Record<string, string> = {iops: '"IOPS"', mbps: '"MB/s"', latency: '"ms" or "us"', endurance: '"TBW" or "DWPD"'}
const WORKLOAD_FIELDS = ['access', 'blockSize', 'readPct', 'queueDepth', 'threadCount']

/**
 * ajv errors of a claims file as plain problems. The metric/unit rules (allOf if/then) would
 * otherwise add a vague 'must match "then" schema' and a second message for a unit that is
 * already unknown; these are dropped or rewritten so each pointer gets one clear message.
 */
function claimsProblems(errors: ErrorObject[] | null | undefined, data: unknown): SchemaProblem[] {
  const base: SchemaProblem[] = []
  const fromRules: SchemaProblem[] = []
  for (const e of errors ?? []) {
    if (e.keyword === 'if') continue
    const [problem] = toProblems([e])
    const found = atPointer(data, e.instancePath)
    const claim = atPointer(data, e.instancePath.replace(/\/[^/]*$/, '')) as {metric?: unknown} | undefined
    if (e.schemaPath.includes('/then/')) {
      if (e.instancePath.endsWith('/unit')) {
        problem.message = `unit ${JSON.stringify(found)} does not fit metric ${JSON.stringify(claim?.metric)}: use ${UNITS_BY_METRIC[String(claim?.metric)] ?? 'the unit of the metric'}`
      } else if (e.instancePath.endsWith('/statistic')) {
        problem.message = `is only allowed for latency claims (metric "latency"); remove it from this ${JSON.stringify(claim?.metric)} claim`
      } else if (e.instancePath.endsWith('/periodYears')) {
        problem.message = `is only allowed for endurance claims (metric "endurance", unit TBW or DWPD); remove it from this ${JSON.stringify(claim?.metric)} claim`
      } else if (WORKLOAD_FIELDS.some(f => e.instancePath.endsWith(`/${f}`))) {
        problem.message = 'is not part of an endurance claim (a TBW or DWPD figure has no workload); remove it'
      } else if (e.keyword === 'required') {
        const metric = atPointer(data, e.instancePath) as {metric?: unknown} | undefined
        problem.message = `is required for a ${JSON.stringify(metric?.metric)} claim (its workload: access "random" or "sequential", blockSize such as "4KiB", readPct 0-100)`
      }
      fromRules.push(problem)
      continue
    }
    if (e.keyword === 'enum' && e.instancePath.endsWith('/unit')) {
      problem.message = `unknown unit ${JSON.stringify(found)}: ${problem.message} (IOPS for iops, MB/s = 10^6 B/s for mbps, ms or us for latency, TBW or DWPD for endurance)`
    } else if (e.keyword === 'pattern' && e.instancePath.endsWith('/blockSize')) {
      problem.message = `${JSON.stringify(found)} is not a binary block size: write it as "4KiB", "128KiB", "0.5KiB" or "1MiB" (KiB = 1024 B; a datasheet's "4K" is 4KiB)`
    } else if (e.keyword === 'enum' || e.keyword === 'type' || e.keyword === 'minimum' || e.keyword === 'maximum' || e.keyword === 'exclusiveMinimum') {
      problem.message = `${problem.message} (found ${JSON.stringify(found)})`
    }
    base.push(problem)
  }
  const seen = new Set(base.map(p => p.pointer))
  return [...base, ...fromRules.filter(p => !seen.has(p.pointer))]
}

/** Problems of a claims file (empty when valid): the schema, then ids unique in the file. */
export function checkClaims(data: unknown): SchemaProblem[] {
  const v = validator(CLAIMS_SCHEMA)
  if (!v(data)) return claimsProblems(v.errors, data)
  const problems: SchemaProblem[] = []
  const ids = new Map<string, number>()
  ;(data as {claims: Array<{id?: string}>}).claims.forEach((c, i) => {
    const id = c.id ?? `claim-${i + 1}`
    const first = ids.get(id)
    if (first !== undefined) problems.push({pointer: `/claims/${i}/id`, message: `id ${JSON.stringify(id)} is already used by /claims/${first}; ids must be unique`})
    else ids.set(id, i)
  })
  return problems
}

/** Problems of a verify result (empty when valid). */
export function checkVerifyResult(data: unknown): SchemaProblem[] {
  return check(VERIFY_RESULT_SCHEMA, data)
}
