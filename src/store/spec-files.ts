/**
 * Reading test definitions (I/O): specs/<revision>/<test>.json plus the revision's shared
 * profiles (specs/<revision>/revision.json), each validated against its schema with every
 * problem reported by JSON pointer.
 */
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {InvalidDataError, UsageError} from '../errors.js'
import {assertValid} from '../validate.js'
import {isRevision, isTestId, REVISIONS, TEST_IDS, type Revision, type RevisionSpec} from '../model/tests.js'
import type {ProgramSpec} from '../model/definition.js'

export const SPECS_DIR = new URL('../../specs/', import.meta.url)

/** PTS_SPECS_DIR points pts at another folder of test definitions (same layout as specs/). */
export function specsRoot(): string {
  return process.env.PTS_SPECS_DIR ?? fileURLToPath(SPECS_DIR)
}

export function revisionDir(revision: Revision): string {
  return revision === '2.0.2' ? 'pts-2.0.2' : revision
}

export function specPath(test: string, revision: string): string {
  if (!isTestId(test)) throw new UsageError(`unknown test "${test}"`, `known tests: ${TEST_IDS.join(', ')}`)
  if (!isRevision(revision)) throw new UsageError(`unknown revision "${revision}"`, `known revisions: ${REVISIONS.join(', ')}`)
  return join(specsRoot(), revisionDir(revision), `${test}.json`)
}

function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InvalidDataError(path, [{pointer: '', message: `is not valid JSON (${(error as Error).message})`}], 'test definition')
  }
}

/** specs/<revision>/revision.json: the profiles every test of the revision shares. */
export function loadRevision(revision: Revision): RevisionSpec {
  const path = join(specsRoot(), revisionDir(revision), 'revision.json')
  if (!existsSync(path)) throw new UsageError(`revision definition ${path} is missing`, 'reinstall pts or restore the specs/ folder')
  return assertValid<RevisionSpec>('revision.schema.json', readJsonFile(path), path, 'revision definition', 'fix the file so it matches schemas/revision.schema.json')
}

/** The test definition of a revision (iops, tp, lat, wsat, hir, xsr, cbw, ecw, dirth), with the revision's profiles. */
export function loadProgramSpec(test: string, revision: string): ProgramSpec {
  const path = specPath(test, revision)
  if (!existsSync(path)) {
    const has = REVISIONS.filter(r => existsSync(join(specsRoot(), revisionDir(r), `${test}.json`)))
    throw new UsageError(`revision ${revision} has no ${test} test`, has.length ? `${test} is defined for: ${has.join(', ')} (--revision)` : 'restore the specs/ folder')
  }
  const file = assertValid<Omit<ProgramSpec, 'profiles' | 'defaultProfile'>>('test-program.schema.json', readJsonFile(path), path, 'test definition', 'fix the file so it matches schemas/test-program.schema.json')
  const rev = loadRevision(revision as Revision)
  return {...file, profiles: rev.profiles, defaultProfile: rev.defaultProfile}
}
