/** The run directory (I/O): manifest.json, results.json and raw/, every write atomic. */
import {existsSync, mkdirSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {UsageError} from '../errors.js'
import {assertValid} from '../validate.js'
import {writeFileAtomic, writeJsonAtomic} from './atomic.js'
import type {RunManifest, RunResults} from './types.js'

export class RunStore {
  constructor(readonly dir: string) {}

  /** Create an empty run directory (refuses a non-empty one: never mix two runs). */
  static create(dir: string): RunStore {
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      throw new UsageError(`run directory ${dir} already exists and is not empty`, 'choose another --out, or remove it')
    }
    mkdirSync(join(dir, 'raw'), {recursive: true})
    return new RunStore(dir)
  }

  path(rel: string): string {
    return join(this.dir, rel)
  }

  ensureDir(rel: string): void {
    mkdirSync(this.path(rel), {recursive: true})
  }

  writeRaw(rel: string, text: string): void {
    writeFileAtomic(this.path(rel), text)
  }

  saveManifest(m: RunManifest): void {
    assertValid('run-manifest.schema.json', m, this.path('manifest.json'), 'manifest (internal error: pts built an invalid manifest)')
    writeJsonAtomic(this.path('manifest.json'), m)
  }

  saveResults(r: RunResults): void {
    assertValid('run-result.schema.json', r, this.path('results.json'), 'results (internal error: pts built invalid results)')
    writeJsonAtomic(this.path('results.json'), r)
  }

  /** Plain text file next to the results (e.g. the command that repeats the run). */
  writeText(rel: string, text: string): void {
    writeFileSync(this.path(rel), text)
  }
}
