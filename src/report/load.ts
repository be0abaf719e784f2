/**
 * Reads a stored run for the report (I/O): manifest.json and results.json, both validated
 * against their schemas, and the list of raw/ files with their SHA-256. Errors name the file,
 * the problem and what to do: a missing or incomplete run directory or a run still in progress
 * is a RunDirError (exit 8); a file that fails its schema is an InvalidDataError (exit 3).
 */
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {hashFile, sealedPaths} from '../store/integrity.js'
import {type FileHash} from '../model/manifest.js'
import {readClaimsResult} from '../claims/load.js'
import type {VerifyResult} from '../claims/types.js'
import {RunDirError} from '../errors.js'
import * as M from '../messages.js'
import {assertFinished, readStoredRun} from '../store/read.js'
import {runProcessAlive} from '../store/lock.js'
import type {RunManifest} from '../model/manifest.js'
import type {ProgramResults} from '../model/results.js'
import {stepsOf} from '../analysis/steps.js'
import type {RawFile} from './page-kit.js'

export interface LoadedRun {
  runDir: string
  manifest: RunManifest
  results: ProgramResults
  /** Every file under raw/ with its SHA-256 as it is now (hashed when first read). */
  readonly rawFiles: RawFile[]
  /** <run>/claims.json (written by pts verify) when present and valid for this run, else null (optional file). */
  claims: VerifyResult | null
  /** Why a present claims.json was left out (invalid, of another run), else null. */
  claimsWarning: string | null
  /** A run whose files say "running" (loadRun with inProgress: true): whether its pts process is alive (null: made on another host); else null. */
  inProgress: {alive: boolean | null; runDir: string} | null
}

/** Every file under raw/, sorted by relative path, with its size and SHA-256 (the same walk as the seal). */
export function hashRawFiles(runDir: string): RawFile[] {
  return rawOf(hashListed(runDir, sealedPaths(runDir)))
}

/**
 * The hashes of the listed files that still exist. A run in progress renames fio's `.partial`
 * output when its step ends (and a resume removes unfinished ones), possibly between the listing
 * and the read: such a file is no measurement yet and is left out, instead of failing the report.
 */
export function hashListed(runDir: string, paths: readonly string[]): FileHash[] {
  const out: FileHash[] = []
  for (const p of paths) {
    try {
      out.push(hashFile(runDir, p))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return out
}

/** The raw/ part of a seal-style file list (drops results.json). */
export function rawOf(files: FileHash[]): RawFile[] {
  return files.filter(f => f.path.startsWith('raw/'))
}

/**
 * allowMissingRaw: `pts audit` reads the run anyway and names each missing raw file as a failure;
 * rawFiles: hashes the caller already has (the audit's), so raw/ is read once.
 */
export function loadRun(runDirArg: string, opts: {allowMissingRaw?: boolean; rawFiles?: RawFile[]; inProgress?: boolean} = {}): LoadedRun {
  const {runDir, manifest, results} = readStoredRun(runDirArg)
  // pts report renders a run in progress (what is stored so far, marked so on every page); the others refuse it
  const running = results.status === 'running' || manifest.status === 'running'
  if (!opts.inProgress) assertFinished({runDir, manifest, results}, 'pts report')
  const steps = stepsOf(results)
  if (steps.length === 0) {
    throw new RunDirError(M.runDir.noMeasurement(runDir, results.status))
  }
  const missing: string[] = []
  for (const s of steps) for (const f of [s.step.raw.json, s.step.raw.job]) if (!existsSync(join(runDir, f))) missing.push(f)
  if (missing.length > 0 && !opts.allowMissingRaw) {
    throw new RunDirError(M.runDir.rawMissing(runDir, missing))
  }
  const claims = readClaimsResult(runDir, results.runId)
  // Hashed only when read: the report does not need them (its appendix is the seal in manifest.json),
  // and a 25-round run has ~2,800 raw files.
  let rawFiles = opts.rawFiles
  return {runDir, manifest, results, get rawFiles() { return (rawFiles ??= hashRawFiles(runDir)) }, claims: claims.result, claimsWarning: claims.warning,
    inProgress: running ? {alive: runProcessAlive(runDir, manifest), runDir} : null}
}
