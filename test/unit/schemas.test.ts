/**
 * The JSON Schemas cannot drift from the TypeScript types: scripts/schemas.ts generates them (in
 * memory here, once for the file) and every committed schemas/<file> must equal the generated
 * text. Every command with --json has a schema of its output, and the outputs that need no fio
 * are produced for real and validated against it.
 */
import {expect} from 'chai'
import {cpSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {driftedFiles, generateSchemas, schemaPath, schemaText, SCHEMAS, type JsonSchema} from '../../scripts/schemas.js'
import {check, SCHEMA_FILES, validator, type SchemaName} from '../../src/validate.js'
import {Config, settings} from '@oclif/core'
import {ROOT, type CliResult} from '../helpers/cli.js'
import {useTmpDir} from '../helpers/tmp.js'

/**
 * Every command (src/commands/<name>.ts) -> the schema of what it prints with --json, and how
 * that is checked here: 'run' = produced by this file and validated; otherwise where it is
 * validated (or that it is only type-checked: run() is declared to return the schema's type).
 */
const COMMAND_SCHEMAS: Record<string, {schema: SchemaName; checked: string}> = {
  plan: {schema: 'cli/plan.schema.json', checked: 'run'},
  devices: {schema: 'cli/devices.schema.json', checked: 'run'},
  audit: {schema: 'audit-result.schema.json', checked: 'run'},
  verify: {schema: 'verify-result.schema.json', checked: 'run'},
  report: {schema: 'cli/report.schema.json', checked: 'run'},
  compare: {schema: 'cli/compare.schema.json', checked: 'test/commands/compare.test.ts (real short runs, Chromium)'},
  run: {schema: 'cli/run.schema.json', checked: 'test/helpers/short-run.ts, test/integration/iops-file.test.ts, programs.test.ts (real fio)'},
  resume: {schema: 'cli/run.schema.json', checked: 'type-checked only (Resume.run(): Promise<RunJson>); no test prints resume --json'},
  demo: {schema: 'cli/demo.schema.json', checked: 'type-checked only (Demo.run(): Promise<DemoJson>; a 1 GiB real fio run)'},
}
/** What any command prints with --json when it fails. */
const ERROR_SCHEMA: SchemaName = 'cli/error.schema.json'

const FIXTURE_RUN = join(ROOT, 'test/fixtures/runs/iops-file-short')

let config: Config | undefined

/**
 * Run a command in this process (oclif from the TS sources, as bin/dev.js does) and capture what
 * it prints: a child process per command costs seconds of start-up on a loaded host. One at a time
 * (stdout is captured globally).
 */
async function runInProcess(argv: string[]): Promise<CliResult> {
  settings.enableAutoTranspile = true
  config ??= await Config.load({root: ROOT})
  const out: string[] = []
  const err: string[] = []
  const write = {stdout: process.stdout.write, stderr: process.stderr.write}
  const saved = process.exitCode
  process.exitCode = undefined
  process.stdout.write = ((chunk: string | Uint8Array) => { out.push(String(chunk)); return true }) as typeof process.stdout.write
  process.stderr.write = ((chunk: string | Uint8Array) => { err.push(String(chunk)); return true }) as typeof process.stderr.write
  let code: number | null = 0
  try {
    await config.runCommand(argv[0], argv.slice(1))
    code = typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (error) {
    code = typeof process.exitCode === 'number' ? process.exitCode : 1
    err.push(String((error as Error).stack ?? error))
  } finally {
    process.stdout.write = write.stdout
    process.stderr.write = write.stderr
    process.exitCode = saved
  }
  return {code, stdout: out.join(''), stderr: err.join('')}
}

function commandsWithJson(): string[] {
  const dir = join(ROOT, 'src/commands')
  return readdirSync(dir).filter(f => f.endsWith('.ts')).filter(f => {
    const src = readFileSync(join(dir, f), 'utf8')
    // BaseCommand sets enableJsonFlag (src/app/base-command.ts): every command extending it has --json,
    // unless it turns it off (pts serve prints no result; its HTTP API has schemas/cli/serve-state.schema.json)
    if (/enableJsonFlag\s*=\s*false/.test(src)) return false
    return /extends BaseCommand\b/.test(src) || /enableJsonFlag\s*=\s*true/.test(src) || /\bjson:\s*Flags\./.test(src)
  }).map(f => f.replace(/\.ts$/, '')).sort()
}

/** The first differing line of two texts, for the failure message. */
function diffHint(committed: string, generated: string): string {
  const a = committed.split('\n')
  const b = generated.split('\n')
  const i = a.findIndex((l, k) => l !== b[k])
  const at = i === -1 ? Math.min(a.length, b.length) : i
  return `first difference at line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end)')} vs generated ${JSON.stringify(b[at] ?? '(end)')}`
}

describe('schemas: generated from the TypeScript types (scripts/schemas.ts)', function () {
  this.timeout(180_000)
  const tmpDir = useTmpDir('pts-schemas-')
  let generated = new Map<string, JsonSchema>()
  const outputs: Record<string, CliResult> = {}

  before(async () => {
    const tmp = tmpDir()
    const file = `file:${join(tmp, 'never.img')}`
    const runCopy = join(tmp, 'run')
    cpSync(FIXTURE_RUN, runCopy, {recursive: true})
    generated = generateSchemas()
    const runs: Array<[string, string[]]> = [
      ['plan iops', ['plan', 'iops', '--device', file, '--size', '64MiB', '--json']],
      ['plan tp', ['plan', 'tp', '--device', file, '--size', '64MiB', '--json']],
      ['plan all', ['plan', 'all', '--device', file, '--size', '64MiB', '--json']],
      ['devices', ['devices', '--json']],
      ['audit', ['audit', FIXTURE_RUN, '--json', '--max-gap-ms', '600000']],
      ['verify', ['verify', runCopy, '--claims', join(ROOT, 'specs/claims/crucial-mx100-256gb.json'), '--json']],
      ['report', ['report', FIXTURE_RUN, '--format', 'json,csv', '--out', join(tmp, 'report'), '--json']],
      ['error', ['run', 'iops', '--device', file, '--size', '1GiB', '--qd', '0', '--json']],
    ]
    for (const [name, argv] of runs) outputs[name] = await runInProcess(argv)
  })

  it('every committed schema equals the one generated from its type (npm run schemas rewrites them)', () => {
    const drift = driftedFiles(generated)
    const hints = drift.map(f => {
      let committed = ''
      try { committed = readFileSync(schemaPath(f), 'utf8') } catch { committed = '(missing)' }
      return `schemas/${f} differs from ${SCHEMAS.find(e => e.file === f)?.type}: ${diffHint(committed, schemaText(generated.get(f)!))}`
    })
    expect(drift, `${hints.join('\n')}\nrun: npm run schemas`).to.deep.equal([])
  })

  it('the table covers every schema validate.ts loads, except the hand-written one of the frozen v1 format', () => {
    const handWritten = ['run-result-v1.schema.json']
    expect([...SCHEMA_FILES].filter(f => !handWritten.includes(f)).sort()).to.deep.equal(SCHEMAS.map(e => e.file).sort())
  })

  it('every schema compiles with the project\'s Ajv setup (draft 2020-12, strict)', () => {
    for (const f of SCHEMA_FILES) expect(() => validator(f), f).to.not.throw()
  })

  it('every command with --json has a schema of its output', () => {
    const withJson = commandsWithJson()
    expect(withJson.length).to.be.greaterThan(0)
    const missing = withJson.filter(c => !COMMAND_SCHEMAS[c])
    expect(missing, `commands with --json and no schema (add a type for the output, a row in scripts/schemas.ts and one in COMMAND_SCHEMAS): ${missing.join(', ')}`).to.deep.equal([])
    expect(Object.keys(COMMAND_SCHEMAS).sort(), 'COMMAND_SCHEMAS names a command that does not exist').to.deep.equal(withJson)
    for (const {schema} of Object.values(COMMAND_SCHEMAS)) expect(generated.has(schema), schema).to.equal(true)
    expect(generated.has(ERROR_SCHEMA)).to.equal(true)
  })

  it('no command declares its --json output as unknown (run() returns the type its schema is made from)', () => {
    for (const c of Object.keys(COMMAND_SCHEMAS)) {
      const src = readFileSync(join(ROOT, 'src/commands', `${c}.ts`), 'utf8')
      expect(src, `src/commands/${c}.ts`).to.not.match(/async run\(\): Promise<unknown>/)
    }
  })

  const valid = async (name: string, schema: SchemaName, code = 0) => {
    const r = outputs[name]
    expect(r.code, r.stderr.slice(-2000)).to.equal(code)
    const data = JSON.parse(r.stdout) as unknown
    expect(check(schema, data), `${name} --json vs schemas/${schema}`).to.deep.equal([])
    return data as Record<string, unknown>
  }

  it('pts plan iops | tp | all --json validate against schemas/cli/plan.schema.json', async () => {
    const iops = await valid('plan iops', 'cli/plan.schema.json') as {test: string; phases: Array<{kind: string; points?: unknown[]}>}
    expect(iops.test).to.equal('iops')
    // the IOPS loop: 7 R/W mixes x 8 block sizes per round
    expect(iops.phases.find(p => p.kind === 'loop')?.points).to.have.length(56)
    expect((await valid('plan tp', 'cli/plan.schema.json')).test).to.equal('tp')
    expect((await valid('plan all', 'cli/plan.schema.json')).suite).to.equal(true)
  })

  it('pts devices --json validates against schemas/cli/devices.schema.json', async () => {
    expect(await valid('devices', 'cli/devices.schema.json')).to.be.an('array')
  })

  it('pts audit --json (stored fixture run) validates against schemas/audit-result.schema.json', async () => {
    const r = outputs.audit
    // the fixture's audit may pass or fail (exit 0 or the audit-failed code): either way it is the result
    expect(check('audit-result.schema.json', JSON.parse(r.stdout)), r.stderr.slice(-2000)).to.deep.equal([])
  })

  it('pts verify --json (copy of the fixture run) validates against schemas/verify-result.schema.json', async () => {
    expect((await valid('verify', 'verify-result.schema.json')).schemaVersion).to.equal(1)
  })

  it('pts report --json (json and csv, no Chromium) validates against schemas/cli/report.schema.json', async () => {
    expect((await valid('report', 'cli/report.schema.json')).files).to.be.an('array').that.is.not.empty
  })

  it('a failing command\'s --json validates against schemas/cli/error.schema.json', async () => {
    await valid('error', ERROR_SCHEMA, 2)
  })
})
