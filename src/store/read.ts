/**
 * Reading a stored run (I/O): manifest.json and results.json, both validated against their
 * schemas, from one run of any test. Shared by `pts report` (which also needs a finished run) and
 * `pts resume` (which continues an unfinished one). Missing or unreadable files are a
 * RunDirError (exit 8); a file that fails its schema is an InvalidDataError (exit 3).
 */
import {existsSync, readFileSync, statSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {RunDirError} from '../errors.js'
import * as M from '../messages.js'
import {assertValid} from '../validate.js'
import type {RunManifest} from '../model/manifest.js'
import type {ProgramResults} from '../model/results.js'
import {isV1Results, migrateV1, type V1RunResults} from './migrate-v1.js'

function readJson(path: string, what: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new RunDirError(M.runDir.cannotRead(what, path, (error as Error).message))
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new RunDirError(M.runDir.notJson(what, path, (error as Error).message))
  }
}

export interface StoredRun {
  runDir: string
  manifest: RunManifest
  results: ProgramResults
  /** 'v1': results.json is in the IOPS format of earlier versions, read through migrateV1 (the file itself is untouched). */
  format: 'phases' | 'v1'
}

function readBoth(runDirArg: string): {runDir: string; manifest: RunManifest; results: unknown; resultsPath: string} {
  const runDir = resolve(runDirArg)
  if (!existsSync(runDir)) {
    throw new RunDirError(M.runDir.notFound(runDir))
  }
  if (!statSync(runDir).isDirectory()) {
    throw new RunDirError(M.runDir.notADirectory(runDir))
  }
  const manifestPath = join(runDir, 'manifest.json')
  const resultsPath = join(runDir, 'results.json')
  for (const [path, what] of [[manifestPath, 'manifest.json'], [resultsPath, 'results.json']] as const) {
    if (!existsSync(path)) {
      throw new RunDirError(M.runDir.fileMissing(runDir, what))
    }
  }
  const manifest = assertValid<RunManifest>('run-manifest.schema.json', readJson(manifestPath, 'manifest'), p => M.runDir.invalidManifest(manifestPath, p))
  return {runDir, manifest, results: readJson(resultsPath, 'results'), resultsPath}
}

/**
 * A stored run of any test, validated against its schema: schemas/program-result.schema.json, or
 * for a run stored by an earlier pts in the IOPS format schemas/run-result-v1.schema.json, then
 * read as phases (store/migrate-v1.ts).
 */
export function readStoredRun(runDirArg: string): StoredRun {
  const {runDir, manifest, results: data, resultsPath} = readBoth(runDirArg)
  const v1 = isV1Results(data)
  const results = v1
    ? migrateV1(assertValid<V1RunResults>('run-result-v1.schema.json', data, p => M.runDir.invalidResults(resultsPath, p)), manifest)
    : assertValid<ProgramResults>('program-result.schema.json', data, p => M.runDir.invalidResults(resultsPath, p))
  if (results.runId !== manifest.runId) {
    throw new RunDirError(M.runDir.differentRuns(runDir, manifest.runId, results.runId))
  }
  return {runDir, manifest, results, format: v1 ? 'v1' : 'phases'}
}

/** The test of a stored run, or null when results.json is unreadable (no validation). */
export function storedRunTest(runDirArg: string): string | null {
  try {
    const r = JSON.parse(readFileSync(join(resolve(runDirArg), 'results.json'), 'utf8')) as {test?: string}
    return typeof r.test === 'string' ? r.test : null
  } catch { return null }
}

/** Refuse a run that is still in progress (or whose pts was killed): exit 8, with what to do; `command` is the one to run again. */
export function assertFinished(run: {runDir: string; manifest: RunManifest; results: {status: string}}, command: string): void {
  if (run.results.status !== 'running' && run.manifest.status !== 'running') return
  throw new RunDirError(M.runDir.stillRunning(run.runDir, run.manifest.createdAt, run.manifest.pid, command))
}
