/**
 * Reads a stored run for the report (I/O): manifest.json and results.json, both validated
 * against their schemas, and the list of raw/ files with their SHA-256. Errors name the file,
 * the problem and what to do: a missing or incomplete run directory or a run still in progress
 * is a RunDirError (exit 8); a file that fails its schema is an InvalidDataError (exit 3).
 */
import {createHash} from 'node:crypto'
import {existsSync, readFileSync, readdirSync, statSync} from 'node:fs'
import {join, relative, resolve, sep} from 'node:path'
import {RunDirError} from '../errors.js'
import type {RunManifest, RunResults} from '../store/types.js'
import {assertValid} from '../validate.js'
import type {RawFile} from './model.js'

export interface LoadedRun {
  runDir: string
  manifest: RunManifest
  results: RunResults
  rawFiles: RawFile[]
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
      'a run that was killed while writing can leave a truncated file; re-run the test')
  }
}

function listFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const p = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listFiles(p))
    else if (entry.isFile()) out.push(p)
  }
  return out
}

/** Every file under raw/, sorted by relative path, with its size and SHA-256. */
export function hashRawFiles(runDir: string): RawFile[] {
  const rawDir = join(runDir, 'raw')
  if (!existsSync(rawDir)) return []
  return listFiles(rawDir)
    .map(p => {
      const data = readFileSync(p)
      return {
        path: relative(runDir, p).split(sep).join('/'),
        sha256: createHash('sha256').update(data).digest('hex'),
        bytes: data.length,
      }
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

export function loadRun(runDirArg: string): LoadedRun {
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
  const results = assertValid<RunResults>('run-result.schema.json', readJson(resultsPath, 'results'), resultsPath, 'results file',
    'the file was changed or written by another version of pts; restore it from the original run')

  if (results.status === 'running' || manifest.status === 'running') {
    throw new RunDirError(`Run still in progress: ${runDir} (status "running", started ${manifest.createdAt}, pid ${manifest.pid})`,
      'wait for the run to finish, then run `pts report` again; if that process is gone, the run was killed and cannot be completed')
  }
  if (results.runId !== manifest.runId) {
    throw new RunDirError(`manifest.json (run ${manifest.runId}) and results.json (run ${results.runId}) in ${runDir} belong to different runs`,
      'restore the files of one run into the directory')
  }
  if (!results.rounds.some(r => r.points.length > 0)) {
    throw new RunDirError(`Incomplete run directory ${runDir}: results.json holds no measurement (status "${results.status}")`,
      'there is nothing to report; re-run the test')
  }
  const missing: string[] = []
  for (const round of results.rounds) {
    for (const pt of round.points) {
      for (const f of [pt.raw.json, pt.raw.job]) if (!existsSync(join(runDir, f))) missing.push(f)
    }
  }
  if (missing.length > 0) {
    throw new RunDirError(`Incomplete run directory ${runDir}: ${missing.length} raw file(s) named in results.json are missing, e.g. ${missing.slice(0, 3).join(', ')}`,
      'the report lists every raw file with its SHA-256; restore raw/ from the original run')
  }
  return {runDir, manifest, results, rawFiles: hashRawFiles(runDir)}
}
