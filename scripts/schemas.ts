/**
 * JSON Schemas generated from the TypeScript types (ts-json-schema-generator), so the two cannot
 * drift. ONE table (SCHEMAS below) drives everything: which schemas/<file> comes from which root
 * type in which source file, its $id/title/description, and the few constraints a TypeScript type
 * cannot state (each a documented post-processing step). To move a type to another file, change
 * its `source` here; to add a schema, add a row.
 *
 *   npm run schemas              write every schemas/<file> of the table
 *   npm run schemas -- --check   exit 1 and name the files whose committed text differs
 *
 * Constraints come from the types (required = not optional, enums = string-literal unions,
 * additionalProperties: false = every interface/object type is closed, Record<string, T> =
 * additionalProperties: T) and from JSDoc tags on the fields: @integer (ours, see to2020), @minimum,
 * @exclusiveMinimum, @maximum, @multipleOf, @minLength, @minItems, @uniqueItems, @minProperties,
 * @pattern, @format date-time. Output: JSON Schema draft 2020-12 ($defs, as src/validate.ts's
 * Ajv2020 expects), keys in a fixed order, 2-space indent, trailing newline.
 */
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import ts from 'typescript'
import {REVISIONS, TEST_IDS} from '../src/model/tests.js'
import {createFormatter, createParser, DEFAULT_CONFIG, SchemaGenerator, type CompletedConfig} from 'ts-json-schema-generator'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

type Json = null | boolean | number | string | Json[] | {[k: string]: Json}
export type JsonSchema = {[k: string]: Json}

export interface SchemaEntry {
  /** Output file, relative to schemas/ ("cli/plan.schema.json" for a command's --json output). */
  file: string
  /** The .ts file (relative to the repository root) that declares the root type. */
  source: string
  /** The exported interface or type alias the schema describes. */
  type: string
  title: string
  description: string
  /** Extra top-level fields merged into the schema (after $schema/$id/title/description). */
  extra?: JsonSchema
  /**
   * Constraints a TypeScript type cannot state, applied to the generated schema. Each one says
   * why in a comment; keep them few and small.
   */
  post?: (schema: JsonSchema) => void
}

const ID_BASE = 'https://pts.local/schemas/'
const DRAFT = 'https://json-schema.org/draft/2020-12/schema'

/** A definition of a generated schema (throws when the generator renamed or dropped it). */
function def(schema: JsonSchema, name: string): JsonSchema {
  const d = (schema.$defs as Record<string, JsonSchema> | undefined)?.[name]
  if (!d) throw new Error(`post-processing: no $defs/${name} in the generated schema (type renamed?)`)
  return d
}

function prop(schema: JsonSchema, name: string): JsonSchema {
  const p = (schema.properties as Record<string, JsonSchema> | undefined)?.[name]
  if (!p) throw new Error(`post-processing: no property ${name} (field renamed?)`)
  return p
}

// -----------------------------------------------------------------------------------------------
// THE TABLE

export const SCHEMAS: SchemaEntry[] = [
  {
    file: 'run-manifest.schema.json', source: 'src/model/manifest.ts', type: 'RunManifest',
    title: 'PTS run manifest (manifest.json)',
    description: 'Provenance of one run: who ran what, where, on which device, with which tools; compliance and deviations.',
  },
  {
    file: 'program-result.schema.json', source: 'src/model/results.ts', type: 'ProgramResults',
    title: 'PTS test results (results.json of every test: iops, tp, lat, wsat, hir, xsr, cbw, ecw, dirth)',
    description: 'Per phase: purge outcome, WIPC bytes, loop rounds with steady-state evaluation and window averages, per-sample series, HIR bursts, DIRTH/CBW operating points and histograms. Every number can be recomputed from raw/.',
    post: s => {
      // Tracking values are >= 0: a JSDoc tag on a number[] field applies to the array, not its items.
      ((prop(def(s, 'LoopTracking'), 'series').items ?? {}) as JsonSchema).minimum = 0
    },
  },
  {
    // The FILE format (specs/<rev>/<test>.json): store/spec-files.ts validates it before adding the
    // profiles and defaultProfile of specs/<rev>/revision.json (revision.schema.json below).
    file: 'test-program.schema.json', source: 'src/model/definition.ts', type: 'ProgramSpecFile',
    title: 'PTS test definition',
    description: 'One PTS test (IOPS, TP, LAT, WSAT, HIR, XSR, CBW/ECW, DIRTH) of one spec revision, as an ordered list of phases (specs/<revision>/<test>.json). The profiles come from specs/<revision>/revision.json. Every duration, count and threshold lives here; every parameter carries its source (the SNIA PTS, public implementations, open, or pts\'s choice).',
    post: s => {
      // workloads and defaultWorkload come together (two optional fields that depend on each other).
      // if/then + required rather than dependentRequired: the error then points at the missing field.
      const both = (a: string, b: string): JsonSchema => ({if: {properties: {[a]: true}, required: [a]}, then: {properties: {[b]: true}, required: [b]}})
      s.allOf = [both('workloads', 'defaultWorkload'), both('defaultWorkload', 'workloads')]
      // Workload names are ids: a Record<string, T> key cannot carry a pattern.
      const w = prop(s, 'workloads')
      w.patternProperties = {'^[a-z0-9-]+$': w.additionalProperties}
      w.additionalProperties = false
      // What a loop value may be depends on the loop's dimension (readPct 0-100, block sizes in
      // 512-byte steps, counts >= 1): a rule between two fields of the loop.
      const values = (items: JsonSchema): JsonSchema => ({properties: {values: {type: 'array', items}}})
      const loop = (prop(def(s, 'LoopPhase'), 'loops').items ?? {}) as JsonSchema
      const readPct = prop(def(s, 'Workload'), 'readPct')
      const blockSize = prop(def(s, 'Workload'), 'blockSizeBytes')
      const count = prop(def(s, 'Workload'), 'threadCount')
      const {description: _d, ...readPctRule} = readPct
      const {description: _b, ...blockSizeRule} = blockSize
      const {description: _c, ...countRule} = count
      void _d; void _b; void _c
      loop.allOf = [
        {if: {required: ['dimension'], properties: {dimension: {const: 'readPct'}}}, then: values(readPctRule)},
        {if: {required: ['dimension'], properties: {dimension: {const: 'blockSizeBytes'}}}, then: values(blockSizeRule)},
        {if: {required: ['dimension'], properties: {dimension: {enum: ['threadCount', 'queueDepth', 'repeat']}}}, then: values(countRule)},
      ]
    },
  },
  {
    file: 'revision.schema.json', source: 'src/model/tests.ts', type: 'RevisionSpec',
    title: 'pts revision definition (specs/<revision>/revision.json)',
    description: 'What every test of a PTS revision shares: its label and the profiles (write cache, ActiveRange, recommended TC/QD).',
  },
  // Not generated: run-result-v1.schema.json stays hand-written. It describes the frozen results.json
  // of IOPS runs made by older versions (read only to migrate them, store/migrate-v1.ts); no type of
  // the current code describes that format, and it must not change.
  {
    file: 'suite.schema.json', source: 'src/app/suite.ts', type: 'SuiteManifest',
    title: 'PTS suite manifest (suite.json of pts run all)',
    description: 'The tests of one suite run, in order, each with its own run directory and outcome, and the flags they ran with (for pts resume).',
    post: s => {
      // SuiteManifest keeps revision and test as strings (they come from flag values in
      // src/app/suite.ts); the allowed values are the code's own lists, so they cannot drift.
      prop(s, 'revision').enum = [...REVISIONS]
      prop(def(s, 'SuiteEntry'), 'test').enum = [...TEST_IDS]
    },
  },
  {
    file: 'audit-result.schema.json', source: 'src/audit/checks.ts', type: 'AuditResult',
    title: 'pts audit --json result',
    description: 'Each check of a stored run with its verdict, reason and the problems found (issue 6 part 2).',
  },
  {
    file: 'claims.schema.json', source: 'src/claims/types.ts', type: 'ClaimsFile',
    title: "A drive's datasheet performance claims (pts verify --claims)",
    description: 'What the vendor claims for one drive, one claim per datasheet figure: performance (IOPS, MB/s), response time (mean or a QoS percentile) at a workload, or endurance (TBW, DWPD). Block sizes are binary (KiB = 1024 B), MB/s is decimal (10^6 B/s) and TB is 10^12 B, as everywhere in pts.',
    post: s => {
      // The unit must fit the metric; only latency claims have a statistic; performance and
      // latency claims need a workload (access, block size, mix); endurance claims have none,
      // and only they have a period. Claim is one interface (not a union per metric) so these
      // rules are stated here; src/claims/schema.ts rewrites the errors of these 'then'
      // branches into one clear message per field.
      const workload = ['access', 'blockSize', 'readPct']
      const rule = (metric: string, units: string[], noStatistic: boolean): JsonSchema => ({
        if: {type: 'object', properties: {metric: {const: metric}}, required: ['metric']},
        then: {type: 'object', required: workload, properties: {...Object.fromEntries(workload.map(f => [f, true])), unit: {enum: units}, ...(noStatistic ? {statistic: false} : {}), periodYears: false}},
      })
      const endurance: JsonSchema = {
        if: {type: 'object', properties: {metric: {const: 'endurance'}}, required: ['metric']},
        then: {type: 'object', properties: {unit: {enum: ['TBW', 'DWPD']}, statistic: false, access: false, blockSize: false, readPct: false, queueDepth: false, threadCount: false}},
      }
      def(s, 'Claim').allOf = [rule('iops', ['IOPS'], true), rule('mbps', ['MB/s'], true), rule('latency', ['ms', 'us'], false), endurance]
    },
  },
  {
    file: 'verify-result.schema.json', source: 'src/claims/types.ts', type: 'VerifyResult',
    title: 'Datasheet claims vs measured (pts verify --json, <run>/claims.json, <suite>/claims.json)',
    description: 'Each datasheet claim matched to the window-average measurement of the same access, block size and R/W mix among the runs verified (an IOPS, TP, LAT, DIRTH, CBW or ECW run, or a suite\'s), with ratio, verdict, the reasons, the load compared (like for like or not) and the interface check.',
  },

  // The --json output of each command (schemas/cli/; test/unit/schemas.test.ts maps every command to one).
  {
    file: 'cli/plan.schema.json', source: 'src/commands/plan.ts', type: 'PlanJson',
    title: 'pts plan --json', description: 'The plan of one test, or of a suite (pts plan all): safety verdict, compliance, phases, timeline, durations and fio job text.',
  },
  {
    file: 'fleet.schema.json', source: 'src/fleet/model.ts', type: 'FleetIndex',
    title: 'PTS fleet index (fleet.json of pts run with several --device)',
    description: 'The lanes of a multi-drive run, one per drive, each with its own run directory, its status and exit code, and its command line (for pts resume).',
    post: s => {
      // the fleet's test is a test id or "all" (the suite); the allowed values are the code's own list
      prop(s, 'test').enum = [...TEST_IDS, 'all']
    },
  },
  {
    file: 'fleet-hosts.schema.json', source: 'src/fleet/hosts.ts', type: 'HostsFleetIndex',
    title: 'PTS fleet index across hosts (fleet.json of pts fleet collect)',
    description: 'The cross-host variant of fleet.json (kind "hosts"), in the controller\'s directory of pts fleet: every drive of every host (host, by-id path, serial, test), where pts fleet collect copied its run directory, and its state on its host. pts fleet report and pts report read it; pts fleet resume continues its lanes on their hosts.',
    post: s => {
      // the test is a test id or "all" (the suite), as in fleet.json of pts run with several --device
      prop(s, 'test').enum = [...TEST_IDS, 'all']
      prop(def(s, 'HostsFleetLane'), 'test').enum = [...TEST_IDS, 'all']
    },
  },
  {
    file: 'cli/run.schema.json', source: 'src/commands/run.ts', type: 'RunJson',
    title: 'pts run --json and pts resume --json', description: 'The summary of the run of one test, or of a suite (pts run all), with the report files.',
  },
  {
    file: 'cli/demo.schema.json', source: 'src/commands/demo.ts', type: 'DemoJson',
    title: 'pts demo --json', description: 'The summary of the demo IOPS run, with the report files.',
  },
  {
    file: 'cli/devices.schema.json', source: 'src/commands/devices.ts', type: 'DevicesJson',
    title: 'pts devices --json', description: 'Every block device found, with its identity and safety verdict.',
  },
  {
    file: 'fleet-inventory.schema.json', source: 'src/fleet/hosts.ts', type: 'FleetInventory',
    title: 'pts fleet inventory', description: 'The hosts of a fleet (reached over ssh with keys only), each host\'s drives by /dev/disk/by-id path and serial, and the test every drive runs. pts writes the Ansible inventory from it.',
  },
  {
    file: 'cli/fleet-plan.schema.json', source: 'src/fleet/hosts.ts', type: 'FleetPlanJson',
    title: 'pts fleet plan --json', description: 'Every host\'s pts and fio versions and hostname, every drive\'s identity, safety verdict and state, the reasons the fleet may not run, and what --yes-destroy-data must name.',
  },
  {
    file: 'cli/fleet-action.schema.json', source: 'src/fleet/hosts.ts', type: 'FleetActionJson',
    title: 'pts fleet run|status|resume --json', description: 'Every host\'s answer (its lanes: state, phase, round, ETA, what the action did) and the lanes the action refused.',
  },
  {
    file: 'cli/fleet-collect.schema.json', source: 'src/fleet/hosts.ts', type: 'FleetCollectJson',
    title: 'pts fleet collect --json', description: 'Where each host\'s run directories were copied on the controller.',
  },
  {
    file: 'cli/fleet-report.schema.json', source: 'src/commands/fleet/report.ts', type: 'FleetReportJson',
    title: 'pts fleet report --json', description: 'The fleet report files written and the collected run directories (host, drive) they were made from.',
  },
  {
    file: 'cli/compare.schema.json', source: 'src/commands/compare.ts', type: 'CompareJson',
    title: 'pts compare --json', description: 'The files written, the runs compared (the first is the baseline), their differences and the headline ones.',
  },
  {
    file: 'cli/report.schema.json', source: 'src/commands/report.ts', type: 'ReportJson',
    title: 'pts report --json', description: 'The report files written, and warnings.',
  },
  {
    file: 'cli/serve-state.schema.json', source: 'src/live/snapshot.ts', type: 'ServeStateJson',
    title: 'pts serve: GET /api/state',
    description: 'What the live page reads: every run directory under the served folder as a row (state, phase, round, time left, steady state so far), grouped by folder, and the selected run (?run=) with its convergence, per-step values and charts, read from the same files at the same moment as its row.',
  },
  {
    file: 'cli/error.schema.json', source: 'src/app/base-command.ts', type: 'JsonError',
    title: 'pts <command> --json on failure', description: 'What every command prints on stdout with --json when it fails.',
  },
]

// -----------------------------------------------------------------------------------------------
// Generation

const GENERATOR_CONFIG: CompletedConfig = {
  ...DEFAULT_CONFIG,
  tsconfig: join(ROOT, 'tsconfig.json'),
  expose: 'export',
  topRef: false,
  jsDoc: 'extended',
  additionalProperties: false,
  sortProps: false,
  strictTuples: true,
  skipTypeCheck: true, // npm run build / typecheck do that
  encodeRefs: false,
  extraTags: ['integer'],
  discriminatorType: 'json-schema',
  functions: 'fail',
}

/** The fixed order of a schema's keywords (others follow, alphabetically). */
const KEY_ORDER = ['$schema', '$id', '$ref', 'title', 'description', 'type', 'const', 'enum', 'format', 'pattern',
  'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'additionalProperties', 'required',
  'dependentRequired', 'propertyNames', 'properties', 'patternProperties', 'items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', '$defs']
/** Objects whose keys are names (kept in declaration order, $defs sorted), not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentRequired'])

function ordered(v: Json, parentKey?: string): Json {
  if (Array.isArray(v)) return v.map(x => ordered(x))
  if (v === null || typeof v !== 'object') return v
  let keys = Object.keys(v)
  if (parentKey === '$defs') keys = keys.sort()
  else if (!NAME_MAPS.has(parentKey ?? '')) {
    const rank = (k: string) => (KEY_ORDER.includes(k) ? KEY_ORDER.indexOf(k) : KEY_ORDER.length)
    keys = keys.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
  }
  const out: {[k: string]: Json} = {}
  for (const k of keys) out[k] = NAME_MAPS.has(parentKey ?? '') ? ordered(v[k]) : ordered(v[k], k)
  return out
}

/**
 * The generator's draft-07 output -> draft 2020-12 (definitions -> $defs), and the `@integer`
 * JSDoc tag -> type integer. (`@asType integer` would replace a `number | null` type by
 * "integer" and lose the null, so integers are marked with `@integer`, which keeps it.)
 */
function to2020(v: Json, where = '#'): Json {
  if (Array.isArray(v)) return v.map((x, i) => to2020(x, `${where}/${i}`))
  if (v === null || typeof v !== 'object') return v
  const out: {[k: string]: Json} = {}
  for (const [k, x] of Object.entries(v)) {
    if (k === '$ref' && typeof x === 'string') out[k] = x.replace(/^#\/definitions\//, '#/$defs/')
    else if (k === 'definitions') out.$defs = to2020(x, `${where}/$defs`)
    else if (k === 'integer') continue
    else out[k] = to2020(x, `${where}/${k}`)
  }
  if (v.integer !== undefined) {
    const integer = (t: Json): Json => (t === 'number' ? 'integer' : t)
    const branches = Array.isArray(out.anyOf) ? out.anyOf as {[k: string]: Json}[] : [out]
    let changed = false
    for (const b of branches) {
      const t = b.type
      if (t === 'number' || (Array.isArray(t) && t.includes('number'))) {
        b.type = Array.isArray(t) ? t.map(integer) : integer(t)
        changed = true
      } else if (b.type === 'array' && b.items && typeof b.items === 'object' && !Array.isArray(b.items) && b.items.type === 'number') {
        b.items.type = 'integer' // @integer on number[]: integer items
        changed = true
      }
    }
    if (!changed) throw new Error(`@integer on a field that is not a number (${where})`)
  }
  return out
}

/**
 * Two generic rewrites of the generator's output, for clearer validation errors (they do not
 * change what is accepted):
 *  - a union of string-literal types that have names (`TestId | ProgramTestId`) becomes one enum
 *    instead of an anyOf of two enums (one "must be one of" message instead of three);
 *  - the if of each discriminated-union branch (`@discriminator kind`) also requires the
 *    discriminator, so an object without it gets "kind is required" and not the errors of every branch;
 *  - `type: ["string", "boolean"]` becomes an anyOf of the two (Ajv's strict mode allows a type
 *    list only for T | null).
 */
function tidy(schema: JsonSchema): void {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>
  const deref = (x: Json): Json => (x && typeof x === 'object' && !Array.isArray(x) && typeof x.$ref === 'string' && Object.keys(x).length === 1
    ? defs[x.$ref.replace('#/$defs/', '')] ?? x : x)
  const isStringEnum = (x: Json): x is {type: 'string'; enum: Json[]} => !!x && typeof x === 'object' && !Array.isArray(x)
    && x.type === 'string' && Array.isArray(x.enum) && Object.keys(x).every(k => k === 'type' || k === 'enum' || k === 'description')
  const visit = (v: Json): void => {
    if (Array.isArray(v)) { v.forEach(visit); return }
    if (!v || typeof v !== 'object') return
    for (const x of Object.values(v)) visit(x)
    if (Array.isArray(v.type) && v.type.filter(t => t !== 'null').length > 1) {
      if (Object.keys(v).some(k => k !== 'type' && k !== 'description')) throw new Error(`a union of types with other keywords: ${JSON.stringify(v)}`)
      v.anyOf = v.type.map(t => ({type: t}))
      delete v.type
    }
    if (Array.isArray(v.anyOf) && v.anyOf.length > 1 && v.anyOf.map(deref).every(isStringEnum)) {
      v.type = 'string'
      v.enum = [...new Set(v.anyOf.map(deref).flatMap(b => (b as {enum: Json[]}).enum))]
      delete v.anyOf
    }
    if (Array.isArray(v.allOf)) {
      for (const b of v.allOf) {
        if (!b || typeof b !== 'object' || Array.isArray(b) || !b.if || typeof b.if !== 'object' || Array.isArray(b.if) || b.if.required) continue
        const keys = Object.keys((b.if.properties ?? {}) as object)
        if (keys.length === 1) b.if.required = keys
      }
    }
  }
  visit(schema)
}

function loadTsOptions(): ts.CompilerOptions {
  const file = GENERATOR_CONFIG.tsconfig!
  const raw = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'))
  const parsed = ts.parseJsonConfigFileContent(raw.config, ts.sys, dirname(file), {}, file)
  // Only the project's own types matter: no DOM lib and no @types (halves the time; nothing is type-checked here).
  return {...parsed.options, noEmit: true, lib: ['lib.es2023.d.ts'], types: [], skipLibCheck: true}
}

/**
 * A compiler host that reads the project's own files and stubs every package's declarations
 * (`export {}`): the schema types are the project's, and parsing puppeteer, vega-lite and oclif
 * types (pulled in by the imports of src/app/suite.ts) took most of the time.
 */
function projectOnlyHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    fileName.includes('/node_modules/') && !fileName.includes('/node_modules/typescript/lib/')
      ? ts.createSourceFile(fileName, 'export {}', languageVersion)
      : getSourceFile(fileName, languageVersion, onError, shouldCreate)
  return host
}

function findRoot(program: ts.Program, source: string, name: string): ts.Node {
  const sf = program.getSourceFile(join(ROOT, source))
  if (!sf) throw new Error(`${source}: not found`)
  const node = sf.statements.find(s => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === name)
  if (!node) throw new Error(`${source}: no interface or type ${name} (renamed or moved? update the table in scripts/schemas.ts)`)
  return node
}

/** Every schema of the table as the object that would be written (one TS program for all). */
export function generateSchemas(entries: readonly SchemaEntry[] = SCHEMAS): Map<string, JsonSchema> {
  const options = loadTsOptions()
  const program = ts.createProgram([...new Set(entries.map(e => join(ROOT, e.source)))], options, projectOnlyHost(options))
  const parser = createParser(program, GENERATOR_CONFIG)
  const formatter = createFormatter(GENERATOR_CONFIG)
  const generator = new SchemaGenerator(program, parser, formatter, GENERATOR_CONFIG)
  const out = new Map<string, JsonSchema>()
  for (const e of entries) {
    const generated = to2020(generator.createSchemaFromNodes([findRoot(program, e.source, e.type)]) as unknown as Json) as JsonSchema
    const {$schema: _draft07, $defs, ...body} = generated
    void _draft07
    const schema: JsonSchema = {
      $schema: DRAFT, $id: ID_BASE + e.file, title: e.title,
      description: `${e.description} Generated from ${e.type} (${e.source}) by scripts/schemas.ts: do not edit.`,
      ...e.extra, ...body,
    }
    if ($defs && Object.keys($defs as object).length > 0) schema.$defs = $defs
    tidy(schema)
    e.post?.(schema)
    out.set(e.file, ordered(schema) as JsonSchema)
  }
  return out
}

export function schemaText(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`
}

export function schemaPath(file: string): string {
  // (schemas/cli/ holds the commands' --json outputs)
  return join(ROOT, 'schemas', file)
}

/** The files whose committed text differs from the generated one (missing files included). */
export function driftedFiles(generated: Map<string, JsonSchema>): string[] {
  const drift: string[] = []
  for (const [file, schema] of generated) {
    let committed: string | null = null
    try { committed = readFileSync(schemaPath(file), 'utf8') } catch { committed = null }
    if (committed !== schemaText(schema)) drift.push(file)
  }
  return drift
}

function main(argv: string[]): number {
  const check = argv.includes('--check')
  const generated = generateSchemas()
  if (check) {
    const drift = driftedFiles(generated)
    if (drift.length > 0) {
      console.error(`schemas differ from the types: ${drift.map(f => `schemas/${f}`).join(', ')}\nrun: npm run schemas`)
      return 1
    }
    console.log(`${generated.size} schemas match the types`)
    return 0
  }
  for (const [file, schema] of generated) {
    mkdirSync(dirname(schemaPath(file)), {recursive: true})
    writeFileSync(schemaPath(file), schemaText(schema))
    console.log(`wrote ${relative(ROOT, schemaPath(file))}`)
  }
  return 0
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2))
