/**
 * The build's precompiled validators (scripts/validators.mjs -> dist/validators/) answer exactly
 * as the schemas compiled at run time do, and are used only for the schema text they were made
 * from. Documents: the stored runs of test/fixtures/runs (real runs), valid and with fields
 * broken in the ways a hand edit breaks them.
 */
import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {Ajv2020} from 'ajv/dist/2020.js'
import addFormatsImport from 'ajv-formats'
import {AJV_OPTIONS, precompiledValidator, SCHEMA_FILES, SCHEMAS_DIR, toProblems, validator, type SchemaName} from '../../src/validate.js'
import {ROOT} from '../helpers/cli.js'

const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default
const FIXTURES = join(ROOT, 'test/fixtures/runs')
const schemaText = (name: SchemaName) => readFileSync(new URL(name, SCHEMAS_DIR), 'utf8')

function freshValidator(name: SchemaName) {
  const ajv = new Ajv2020({...AJV_OPTIONS})
  addFormats(ajv)
  return ajv.compile(JSON.parse(schemaText(name)) as Record<string, unknown>)
}

/** A document and some broken copies of it: a required field removed, a wrong type, an unknown field, a bad enum. */
function variants(doc: Record<string, unknown>): unknown[] {
  const keys = Object.keys(doc)
  const out: unknown[] = [doc, {...doc, unexpected: 1}, [], null]
  if (keys.length > 0) {
    const {[keys[0]]: _gone, ...rest} = doc
    out.push(rest, {...doc, [keys[0]]: {nested: true}}, {...doc, [keys[keys.length - 1]]: 'not-what-it-was'})
  }
  return out
}

describe('precompiled validators (dist/validators/)', () => {
  before(function () {
    if (!existsSync(join(ROOT, 'dist/validators/index.json'))) {
      throw new Error('dist/validators/index.json is missing: run `npm run build` first (the build precompiles the schemas)')
    }
  })

  it('there is one for every schema, made from the committed schema text', () => {
    for (const name of SCHEMA_FILES) expect(precompiledValidator(name, schemaText(name)), name).to.be.a('function')
  })

  it('is not used for a schema text other than the one it was made from', () => {
    const text = schemaText('run-manifest.schema.json')
    expect(precompiledValidator('run-manifest.schema.json', text.replace('"type"', ' "type"'))).to.equal(null)
    expect(precompiledValidator('no-such.schema.json', text)).to.equal(null)
  })

  it('gives the same verdict and the same problems (JSON pointers, messages) as the schema compiled at run time', () => {
    const docs: Array<[SchemaName, string]> = [
      ['run-manifest.schema.json', 'golden-iops/manifest.json'], ['program-result.schema.json', 'golden-iops/results.json'],
      ['run-manifest.schema.json', 'golden-xsr/manifest.json'], ['program-result.schema.json', 'golden-lat/results.json'],
      ['program-result.schema.json', 'golden-hir/results.json'], ['run-result-v1.schema.json', 'iops-file-short/results.json'],
    ]
    let invalid = 0
    for (const [name, file] of docs) {
      const pre = precompiledValidator(name, schemaText(name))!
      const fresh = freshValidator(name)
      const doc = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Record<string, unknown>
      for (const v of variants(doc)) {
        const a = pre(v)
        const b = fresh(v)
        expect(a, `${file}: verdict`).to.equal(b)
        expect(toProblems(pre.errors), `${file}: problems`).to.deep.equal(toProblems(fresh.errors))
        if (!a) invalid++
      }
    }
    expect(invalid, 'broken copies found invalid').to.be.greaterThan(docs.length * 3)
  })

  it('validator() serves the precompiled function when the build is current', () => {
    const name: SchemaName = 'program-result.schema.json'
    expect(validator(name)).to.equal(precompiledValidator(name, schemaText(name)))
  })
})
