/**
 * Real short IOPS runs on file targets, made once per test process and shared: tests of the
 * commands that read stored runs (verify, audit, compare) get their own copy of one, so they
 * may change it. Every run is signed with SIGNING_KEYS. Each key is an independent run (its own target file and seed); the first call
 * for a key runs `pts run` (about a minute), later calls only copy.
 */
import {generateKeyPairSync} from 'node:crypto'
import {cpSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {runCli} from './cli.js'
import {check} from '../../src/validate.js'

const cache = mkdtempSync(join(tmpdir(), 'pts-short-runs-'))
process.on('exit', () => rmSync(cache, {recursive: true, force: true}))
const made = new Map<string, Promise<string>>()

/** Every short run is signed (pts run --sign-key) with this ed25519 key pair: PEM file paths. */
export const SIGNING_KEYS = (() => {
  const {privateKey, publicKey} = generateKeyPairSync('ed25519')
  const keys = {privateKey: join(cache, 'signing.pem'), publicKey: join(cache, 'signing.pub')}
  writeFileSync(keys.privateKey, privateKey.export({type: 'pkcs8', format: 'pem'}))
  writeFileSync(keys.publicKey, publicKey.export({type: 'spki', format: 'pem'}))
  return keys
})()

export interface ShortRunOptions { seed?: number; sizeMiB?: number; profile?: 'enterprise' | 'client' }

async function make(key: string, o: ShortRunOptions): Promise<string> {
  const dir = join(cache, key)
  const out = join(dir, 'run')
  const args = ['run', 'iops', '--device', `file:${join(dir, 'target.img')}`, '--size', `${o.sizeMiB ?? 32}MiB`,
    '--point-seconds', '0.2', '--max-rounds', '5', '--tc', '1', '--qd', '4', '--wipc-multiple', '1',
    '--seed', String(o.seed ?? 1), '--sign-key', SIGNING_KEYS.privateKey, '--out', out, '--json']
  if (o.profile) args.push('--profile', o.profile)
  const r = await runCli(args)
  if (r.code !== 0) throw new Error(`short run ${key} failed (exit ${r.code}):\n${r.stderr.slice(-3000)}`)
  const problems = check('cli/run.schema.json', JSON.parse(r.stdout))
  if (problems.length > 0) throw new Error(`pts run --json output fails schemas/cli/run.schema.json: ${JSON.stringify(problems)}`)
  rmSync(join(dir, 'target.img'), {force: true})
  return out
}

/** A fresh copy (in its own temp directory) of the real short run `key`; remove it when done. */
export async function shortRunCopy(key = 'A', o: ShortRunOptions = {}): Promise<string> {
  if (!made.has(key)) made.set(key, make(key, o))
  const src = await made.get(key)!
  const dest = join(mkdtempSync(join(tmpdir(), `pts-run-${key}-`)), 'run')
  cpSync(src, dest, {recursive: true})
  return dest
}
