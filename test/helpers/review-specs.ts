/** A copy of specs/ (for PTS_SPECS_DIR) whose review tests are edited: smaller runs for the integration tests. */
import {cpSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {ROOT} from './cli.js'

export function reviewSpecsCopy(dir: string, edits: Record<string, (s: Record<string, any>) => void>): string {
  const root = join(dir, 'specs')
  cpSync(join(ROOT, 'specs'), root, {recursive: true})
  for (const [test, f] of Object.entries(edits)) {
    const p = join(root, 'reviews', `${test}.json`)
    const s = JSON.parse(readFileSync(p, 'utf8')) as Record<string, any>
    f(s)
    writeFileSync(p, JSON.stringify(s, null, 2))
  }
  return root
}
