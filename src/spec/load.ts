/** Reading test definitions from specs/<revision>/<test>.json and validating them (I/O). */
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {InvalidDataError, UsageError} from '../errors.js'
import {assertValid} from '../validate.js'
import {isRevision, REVISIONS, type Revision, type TestSpec} from './types.js'
import {isProgramTestId, PROGRAM_TEST_IDS, type ProgramSpec} from '../program/types.js'

/** Every test pts runs: IOPS (its own runner) and the test programs. */
export const ALL_TEST_IDS = ['iops', ...PROGRAM_TEST_IDS] as const
export const isKnownTest = (s: string): boolean => s === 'iops' || isProgramTestId(s)

export const SPECS_DIR = new URL('../../specs/', import.meta.url)

/** PTS_SPECS_DIR points pts at another folder of test definitions (same layout as specs/). */
function specsRoot(): string {
  return process.env.PTS_SPECS_DIR ?? fileURLToPath(SPECS_DIR)
}

export function revisionDir(revision: Revision): string {
  return revision === '2.0.2' ? 'pts-2.0.2' : revision
}

export function specPath(test: string, revision: string): string {
  if (!isKnownTest(test)) throw new UsageError(`unknown test "${test}"`, `known tests: ${ALL_TEST_IDS.join(', ')}`)
  if (!isRevision(revision)) throw new UsageError(`unknown revision "${revision}"`, `known revisions: ${REVISIONS.join(', ')}`)
  return join(specsRoot(), revisionDir(revision), `${test}.json`)
}

/** Load and validate one spec file; every problem is reported with its JSON pointer. */
export function loadSpecFile(path: string): TestSpec {
  if (!existsSync(path)) throw new UsageError(`test definition ${path} is missing`, 'reinstall pts or restore the specs/ folder')
  let data: unknown
  try {
    data = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InvalidDataError(path, [{pointer: '', message: `is not valid JSON (${(error as Error).message})`}], 'test definition')
  }
  return assertValid<TestSpec>('test-spec.schema.json', data, path, 'test definition', 'fix the file so it matches schemas/test-spec.schema.json')
}

export function loadSpec(test: string, revision: string): TestSpec {
  return loadSpecFile(specPath(test, revision))
}

/** The test-program definition (tp, lat, wsat, hir, xsr, cbw, ecw, dirth) of a revision. */
export function loadProgramSpec(test: string, revision: string): ProgramSpec {
  const path = specPath(test, revision)
  if (!existsSync(path)) {
    const has = REVISIONS.filter(r => existsSync(join(specsRoot(), revisionDir(r), `${test}.json`)))
    throw new UsageError(`revision ${revision} has no ${test} test`, has.length ? `${test} is defined for: ${has.join(', ')} (--revision)` : 'restore the specs/ folder')
  }
  let data: unknown
  try {
    data = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InvalidDataError(path, [{pointer: '', message: `is not valid JSON (${(error as Error).message})`}], 'test definition')
  }
  return assertValid<ProgramSpec>('test-program.schema.json', data, path, 'test definition', 'fix the file so it matches schemas/test-program.schema.json')
}
