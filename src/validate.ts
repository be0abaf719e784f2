/** JSON Schema validation (ajv, draft 2020-12): one Ajv instance, schemas loaded from schemas/. */
import {Ajv2020, type ErrorObject, type ValidateFunction} from 'ajv/dist/2020.js'
import addFormatsImport from 'ajv-formats'
import {createHash} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {InvalidDataError, type SchemaProblem} from './errors.js'
import type {Msg} from './messages.js'

const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default

export const SCHEMA_FILES = ['revision.schema.json', 'test-program.schema.json', 'run-result-v1.schema.json', 'run-manifest.schema.json', 'audit-result.schema.json', 'program-result.schema.json', 'suite.schema.json', 'fleet.schema.json', 'fleet-hosts.schema.json', 'claims.schema.json', 'verify-result.schema.json',
  // the --json output of the commands (generated from their output types by scripts/schemas.ts)
  'cli/plan.schema.json', 'cli/run.schema.json', 'cli/demo.schema.json', 'cli/devices.schema.json', 'cli/compare.schema.json', 'cli/report.schema.json', 'cli/error.schema.json', 'cli/serve-state.schema.json',
  'fleet-inventory.schema.json', 'cli/fleet-plan.schema.json', 'cli/fleet-action.schema.json', 'cli/fleet-collect.schema.json', 'cli/fleet-report.schema.json'] as const
export type SchemaName = (typeof SCHEMA_FILES)[number]

export const SCHEMAS_DIR = new URL('../schemas/', import.meta.url)

/** The options every validator is compiled with, here and by the build's precompiled ones (scripts/validators.mjs). */
export const AJV_OPTIONS = {allErrors: true, strict: true} as const

let ajv: Ajv2020 | undefined
const compiled = new Map<string, ValidateFunction>()

function getAjv(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({...AJV_OPTIONS})
    addFormats(ajv)
  }
  return ajv
}

export function schemaOf(name: SchemaName): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(name, SCHEMAS_DIR), 'utf8')) as Record<string, unknown>
}

type PrecompiledIndex = Record<string, {hash: string; file: string}>
let precompiled: PrecompiledIndex | null | undefined
const VALIDATORS_DIR = new URL('../dist/validators/', import.meta.url)

/**
 * dist/validators/index.json, made by the build (scripts/validators.mjs) from the same schema
 * files, or null when there is none. From src/ (tsx) and from dist/ the path is the same.
 */
function precompiledIndex(): PrecompiledIndex | null {
  if (precompiled !== undefined) return precompiled
  try {
    const url = new URL('index.json', VALIDATORS_DIR)
    precompiled = existsSync(url) ? JSON.parse(readFileSync(url, 'utf8')) as PrecompiledIndex : null
  } catch {
    precompiled = null
  }
  return precompiled
}

/** The build's validator for `name` when it was made from exactly `text` (same SHA-256), else null. */
export function precompiledValidator(name: string, text: string): ValidateFunction | null {
  const entry = precompiledIndex()?.[name]
  if (!entry || entry.hash !== createHash('sha256').update(text).digest('hex')) return null
  try {
    const mod = createRequire(import.meta.url)(new URL(entry.file, VALIDATORS_DIR).pathname) as {default?: ValidateFunction}
    return mod.default ?? null
  } catch {
    return null
  }
}

/** A schema's text compiled here (the project's one Ajv instance). */
export function compileSchema(text: string): ValidateFunction {
  return getAjv().compile(JSON.parse(text) as Record<string, unknown>)
}

/**
 * The compiled validator of a schema (one Ajv instance for every schema of the project). The
 * build's precompiled validator is used when it was made from exactly this schema text (same
 * SHA-256); otherwise the schema is compiled here, so a schema edited since the build is never
 * checked by an old validator.
 */
export function validator(name: SchemaName): ValidateFunction {
  let v = compiled.get(name)
  if (!v) {
    const text = readFileSync(new URL(name, SCHEMAS_DIR), 'utf8')
    v = precompiledValidator(name, text) ?? compileSchema(text)
    compiled.set(name, v)
  }
  return v
}

/** ajv errors as JSON pointers to the offending field plus a plain message. */
export function toProblems(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  return (errors ?? []).map(e => {
    let pointer = e.instancePath
    let message = e.message ?? 'is invalid'
    if (e.keyword === 'required') {
      pointer += `/${(e.params as {missingProperty: string}).missingProperty}`
      message = 'is required'
    } else if (e.keyword === 'additionalProperties') {
      pointer += `/${(e.params as {additionalProperty: string}).additionalProperty}`
      message = 'is not allowed'
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params as {allowedValues: unknown[]}).allowedValues.map(v => JSON.stringify(v)).join(', ')}`
    }
    return {pointer, message}
  })
}

/** Problems of `data` against a schema (empty when valid). */
export function check(name: SchemaName, data: unknown): SchemaProblem[] {
  const v = validator(name)
  return v(data) ? [] : toProblems(v.errors)
}

/** Throw InvalidDataError with `invalid`'s message (an entry of the catalog naming the file and each field) when `data` does not validate. */
export function assertValid<T>(name: SchemaName, data: unknown, invalid: (problems: readonly SchemaProblem[]) => Msg): T {
  const problems = check(name, data)
  if (problems.length > 0) throw new InvalidDataError(invalid(problems))
  return data as T
}
