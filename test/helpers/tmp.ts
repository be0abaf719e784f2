/** A temp directory for the tests of one describe block, removed after them. */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

export function useTmpDir(prefix: string): () => string {
  let dir = ''
  before(() => { dir = mkdtempSync(join(tmpdir(), prefix)) })
  after(() => { if (dir) rmSync(dir, {recursive: true, force: true}) })
  return () => dir
}
