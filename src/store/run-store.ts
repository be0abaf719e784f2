/** The run directory (I/O): manifest.json, results.json and raw/, every write atomic. */
import {closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {StorageError, UsageError} from '../errors.js'
import * as M from '../messages.js'
import {assertValid} from '../validate.js'
import {writeFileAtomic, writeJsonAtomic} from './atomic.js'
import type {RunManifest} from '../model/manifest.js'
import type {ProgramResults} from '../model/results.js'

export class RunStore {
  constructor(readonly dir: string) {}

  /** Create an empty run directory (refuses a non-empty one: never mix two runs). */
  static create(dir: string): RunStore {
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      throw new UsageError(M.runDir.outNotEmpty(dir))
    }
    mkdirSync(join(dir, 'raw'), {recursive: true})
    return new RunStore(dir)
  }

  path(rel: string): string {
    return join(this.dir, rel)
  }

  ensureDir(rel: string): void {
    this.guard(this.path(rel), () => mkdirSync(this.path(rel), {recursive: true}))
  }

  /** Every write of the run goes through here: file-system failures become one clear error. */
  private guard(path: string, write: () => void): void {
    try {
      write()
    } catch (error) {
      const e = error as NodeJS.ErrnoException
      if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) throw new StorageError(M.runDir.cannotWrite(path, e))
      throw error
    }
  }

  writeRaw(rel: string, text: string, sync = true): void {
    this.guard(this.path(rel), () => writeFileAtomic(this.path(rel), text, sync))
  }

  /** fsync a file written with writeRaw(..., false) once waiting for the disk no longer delays anything. */
  syncRaw(rel: string): void {
    this.guard(this.path(rel), () => { const fd = openSync(this.path(rel), 'r'); try { fsyncSync(fd) } finally { closeSync(fd) } })
  }

  saveManifest(m: RunManifest): void {
    assertValid('run-manifest.schema.json', m, p => M.internal.builtInvalid(this.path('manifest.json'), p))
    this.guard(this.path('manifest.json'), () => writeJsonAtomic(this.path('manifest.json'), m))
  }

  saveProgramResults(r: ProgramResults): void {
    assertValid('program-result.schema.json', r, p => M.internal.builtInvalid(this.path('results.json'), p))
    this.guard(this.path('results.json'), () => writeJsonAtomic(this.path('results.json'), r))
  }

  /** Plain text file next to the results (e.g. the command that repeats the run). */
  writeText(rel: string, text: string): void {
    writeFileSync(this.path(rel), text)
  }
}
