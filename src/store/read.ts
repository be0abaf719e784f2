/**
 * Reading a stored run (I/O): manifest.json and results.json, both validated against their
 * schemas, from one run. Shared by `pts report` (which also needs a finished run) and
 * `pts resume` (which continues an unfinished one). Missing or unreadable files are a
 * RunDirError (exit 8); a file that fails its schema is an InvalidDataError (exit 3).
 */
import {existsSync, readFileSync, statSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {RunDirError} from '../errors.js'
import {assertValid} from '../validate.js'
import type {RunManifest, RunResults} from './types.js'
import type {ProgramResults} from '../program/results.js'

export interface StoredRun {
  runDir: string
  manifest: RunManifest
  results: RunResults
}

function readJson(path: string, what: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new RunDirError(`Cannot read ${what} ${path}: ${(error as Error).message}`, 'check the run directory and its permissions')
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new RunDirError(`${what} ${path} is not valid JSON (${(error as Error).message}); the run directory is incomplete or damaged`,
      'pts writes these files atomically; restore the file from a copy of the run')
  }
}

export interface StoredProgram {
  runDir: string
  manifest: RunManifest
  results: ProgramResults
}

/** Which kind of run a directory holds: the IOPS test, or a test program (tp, lat, wsat, ...); null when results.json is unreadable. */
export function storedRunKind(runDirArg: string): {kind: 'iops' | 'program'; test: string} | null {
  try {
    const r = JSON.parse(readFileSync(join(resolve(runDirArg), 'results.json'), 'utf8')) as {kind?: string; test?: string}
    return {kind: r.kind === 'program' ? 'program' : 'iops', test: String(r.test)}
  } catch { return null }
}

function readBoth(runDirArg: string): {runDir: string; manifest: RunManifest; results: unknown; resultsPath: string} {
  const runDir = resolve(runDirArg)
  if (!existsSync(runDir)) {
    throw new RunDirError(`Run directory not found: ${runDir}`, 'pass the directory that `pts run` wrote (it holds manifest.json, results.json and raw/)')
  }
  if (!statSync(runDir).isDirectory()) {
    throw new RunDirError(`Not a directory: ${runDir}`, 'pass the run directory, not a file inside it')
  }
  const manifestPath = join(runDir, 'manifest.json')
  const resultsPath = join(runDir, 'results.json')
  for (const [path, what] of [[manifestPath, 'manifest.json'], [resultsPath, 'results.json']] as const) {
    if (!existsSync(path)) {
      throw new RunDirError(`Incomplete run directory ${runDir}: ${what} is missing`,
        'pass the directory that `pts run` wrote; a run that failed before its first test point has no results to report')
    }
  }
  const manifest = assertValid<RunManifest>('run-manifest.schema.json', readJson(manifestPath, 'manifest'), manifestPath, 'run manifest',
    'the file was changed or written by another version of pts; restore it from the original run')
  return {runDir, manifest, results: readJson(resultsPath, 'results'), resultsPath}
}

/** A stored IOPS run (a test-program run is refused with a clear message: use readStoredProgram). */
export function readStoredRun(runDirArg: string, what = 'this command'): StoredRun {
  const {runDir, manifest, results: data, resultsPath} = readBoth(runDirArg)
  if ((data as {kind?: string} | null)?.kind === 'program') {
    throw new RunDirError(`${runDir} holds a ${(data as {test?: string}).test} run; ${what} reads IOPS runs only`, 'pts report and pts resume read every test; pass an IOPS run here')
  }
  const results = assertValid<RunResults>('run-result.schema.json', data, resultsPath, 'results file',
    'the file was changed or written by another version of pts; restore it from the original run')
  if (results.runId !== manifest.runId) {
    throw new RunDirError(`manifest.json (run ${manifest.runId}) and results.json (run ${results.runId}) in ${runDir} belong to different runs`,
      'restore the files of one run into the directory')
  }
  return {runDir, manifest, results}
}

/** A stored test-program run (tp, lat, wsat, hir, xsr, cbw, ecw, dirth), validated against schemas/program-result.schema.json. */
export function readStoredProgram(runDirArg: string): StoredProgram {
  const {runDir, manifest, results: data, resultsPath} = readBoth(runDirArg)
  const results = assertValid<ProgramResults>('program-result.schema.json', data, resultsPath, 'results file',
    'the file was changed or written by another version of pts; restore it from the original run')
  if (results.runId !== manifest.runId) {
    throw new RunDirError(`manifest.json (run ${manifest.runId}) and results.json (run ${results.runId}) in ${runDir} belong to different runs`, 'restore the files of one run into the directory')
  }
  return {runDir, manifest, results}
}

/** Refuse a run that is still in progress (or whose pts was killed): exit 8, with what to do; `command` is the one to run again. */
export function assertFinished(run: {runDir: string; manifest: RunManifest; results: {status: string}}, command: string): void {
  if (run.results.status !== 'running' && run.manifest.status !== 'running') return
  throw new RunDirError(`Run still in progress: ${run.runDir} (status "running", started ${run.manifest.createdAt}, pid ${run.manifest.pid})`,
    `wait for the run to finish, then run ${command} again; if that process is gone, continue the run with: pts resume ${run.runDir}`)
}
