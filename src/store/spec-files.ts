/**
 * Reading test definitions (I/O): specs/<revision>/<test>.json plus the revision's shared
 * profiles (specs/<revision>/revision.json), each validated against its schema with every
 * problem reported by JSON pointer.
 */
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {InvalidDataError, UsageError} from '../errors.js'
import * as M from '../messages.js'
import {assertValid} from '../validate.js'
import {isRevision, isTestId, reviewSource, REVIEWS_REVISION, REVISIONS, TEST_IDS, type Revision, type RevisionSpec} from '../model/tests.js'
import type {ProgramSpec} from '../model/definition.js'

export const SPECS_DIR = new URL('../../specs/', import.meta.url)

/** PTS_SPECS_DIR points pts at another folder of test definitions (same layout as specs/). */
export function specsRoot(): string {
  return process.env.PTS_SPECS_DIR ?? fileURLToPath(SPECS_DIR)
}

export function revisionDir(revision: Revision): string {
  return revision === '2.0.2' ? 'pts-2.0.2' : revision
}

/** The folder a test's definition is read from: a review test's is always specs/reviews/, whatever --revision says. */
export function definitionRevision(test: string, revision: string): string {
  return isTestId(test) && reviewSource(test) !== null ? REVIEWS_REVISION : revision
}

export function specPath(test: string, revision: string): string {
  if (!isTestId(test)) throw new UsageError(M.usage.unknownTest(test, TEST_IDS))
  if (reviewSource(test) !== null) return join(specsRoot(), REVIEWS_REVISION, `${test}.json`)
  if (!isRevision(revision)) throw new UsageError(M.usage.unknownRevision(revision, REVISIONS))
  return join(specsRoot(), revisionDir(revision), `${test}.json`)
}

function readJsonFile(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InvalidDataError(M.data.notJson('test definition', path, (error as Error).message))
  }
}

/** specs/<revision>/revision.json: the profiles every test of the revision shares. */
export function loadRevision(revision: Revision): RevisionSpec {
  const path = join(specsRoot(), revisionDir(revision), 'revision.json')
  if (!existsSync(path)) throw new UsageError(M.usage.revisionFileMissing(path))
  return assertValid<RevisionSpec>('revision.schema.json', readJsonFile(path), p => M.data.invalidRevision(path, p))
}

/** The test definition of a revision (iops, tp, lat, wsat, hir, xsr, cbw, ecw, dirth), with the revision's profiles. */
export function loadProgramSpec(test: string, revision: string): ProgramSpec {
  const path = specPath(test, revision)
  if (!existsSync(path)) {
    const has = REVISIONS.filter(r => existsSync(join(specsRoot(), revisionDir(r), `${test}.json`)))
    throw new UsageError(M.usage.testNotInRevision(revision, test, has))
  }
  const file = assertValid<Omit<ProgramSpec, 'profiles' | 'defaultProfile'>>('test-program.schema.json', readJsonFile(path), p => M.data.invalidTestDefinition(path, p))
  const rev = loadRevision(definitionRevision(test, revision) as Revision)
  return {...file, profiles: rev.profiles, defaultProfile: rev.defaultProfile}
}
