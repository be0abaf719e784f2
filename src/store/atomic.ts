/**
 * Atomic file writes: write a temp file in the same directory, fsync, rename. A short write
 * (e.g. a full disk) is retried until everything is written or the write fails; on failure the
 * temp file is removed and the old file is untouched.
 */
import {randomBytes} from 'node:crypto'
import {closeSync, fsyncSync, openSync, renameSync, writeSync, unlinkSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'

/**
 * `sync` false skips the fsync (the rename stays atomic): for a file that a later fsync of the run
 * makes durable (results.json is fsynced after every step) and that must not wait for the disk.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, sync = true): void {
  const buf = typeof data === 'string' ? Buffer.from(data) : data
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  const fd = openSync(tmp, 'w', 0o644)
  try {
    let off = 0
    while (off < buf.length) {
      const n = writeSync(fd, buf, off, buf.length - off)
      if (n <= 0) throw Object.assign(new Error(`short write to ${tmp}`), {code: 'ENOSPC'})
      off += n
    }
    if (sync) fsyncSync(fd)
    closeSync(fd)
    renameSync(tmp, path)
  } catch (error) {
    try { closeSync(fd) } catch { /* already closed */ }
    try { unlinkSync(tmp) } catch { /* already gone */ }
    throw error
  }
}

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n')
}
