/** Atomic file writes: write a temp file in the same directory, fsync, rename. */
import {closeSync, fsyncSync, openSync, renameSync, writeSync, unlinkSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'

export function writeFileAtomic(path: string, data: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
  const fd = openSync(tmp, 'w', 0o644)
  try {
    writeSync(fd, data)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    try { unlinkSync(tmp) } catch { /* already gone */ }
    throw error
  }
  closeSync(fd)
  renameSync(tmp, path)
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n')
}
