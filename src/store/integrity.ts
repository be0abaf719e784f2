/**
 * Integrity of a stored run (issue 6, `pts audit`): the manifest lists the SHA-256 of every raw
 * file and of results.json ("the seal"), written when the run ends, fails or is interrupted; a
 * detached signature of manifest.json's exact bytes (manifest.sig) is optional. What is hashed:
 * results.json and everything under raw/ (fio jobs and outputs, purge log, cut rounds). Not
 * hashed: the manifest itself (it holds the list, and is what gets signed), lock.json, and the
 * derived reports, which `pts report` may render again at any time.
 */
import {createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject} from 'node:crypto'
import {existsSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {UsageError} from '../errors.js'
import {writeJsonAtomic} from './atomic.js'

import type {FileHash, Integrity, ManifestSignature} from '../model/manifest.js'

export const SIGNATURE_FILE = 'manifest.sig'

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex')
}

/** Relative paths (sorted) of the files a seal covers: results.json and every file under raw/. */
export function sealedPaths(runDir: string): string[] {
  const out: string[] = []
  if (existsSync(join(runDir, 'results.json'))) out.push('results.json')
  const walk = (rel: string) => {
    for (const e of readdirSync(join(runDir, rel), {withFileTypes: true})) {
      const p = `${rel}/${e.name}`
      if (e.isDirectory()) walk(p)
      else if (e.isFile() && !/^\..*\.tmp$/.test(e.name)) out.push(p)
    }
  }
  if (existsSync(join(runDir, 'raw'))) walk('raw')
  return out.sort()
}

export function hashFile(runDir: string, rel: string): FileHash {
  const data = readFileSync(join(runDir, rel))
  return {path: rel, bytes: data.length, sha256: sha256(data)}
}

export function computeSeal(runDir: string, now = new Date()): Integrity {
  return {algorithm: 'sha256', sealedAt: now.toISOString(), files: sealedPaths(runDir).map(p => hashFile(runDir, p))}
}


function readKeyFile(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot read the key file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'pass a PEM key file, e.g. made with: openssl genpkey -algorithm ed25519 -out pts-signing.pem')
  }
}

/** A private signing key from a PEM file (checked before a run starts, so a day's run never ends unsigned by a typo). */
export function loadSigningKey(file: string): KeyObject {
  const pem = readKeyFile(file, '--sign-key')
  try {
    return createPrivateKey(pem)
  } catch (error) {
    throw new UsageError(`--sign-key ${file}: not a PEM private key (${(error as Error).message})`, 'make one with: openssl genpkey -algorithm ed25519 -out pts-signing.pem')
  }
}

/** A public key from a PEM file (a public key, a certificate's key, or a private key whose public half is used). */
export function loadVerifyKey(file: string): KeyObject {
  const pem = readKeyFile(file, '--verify-key')
  try {
    return createPublicKey(pem)
  } catch (error) {
    throw new UsageError(`--verify-key ${file}: not a PEM public key (${(error as Error).message})`, 'export it with: openssl pkey -in pts-signing.pem -pubout -out pts-signing.pub')
  }
}

export function keyFingerprint(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key
  return sha256(pub.export({type: 'spki', format: 'der'}))
}

/** ed25519/ed448 sign the message itself; RSA and EC keys sign its SHA-256. */
const digestFor = (key: KeyObject): string | null => (key.asymmetricKeyType === 'ed25519' || key.asymmetricKeyType === 'ed448' ? null : 'sha256')

export function signManifest(manifestBytes: Uint8Array, key: KeyObject, now = new Date()): ManifestSignature {
  return {
    signs: 'manifest.json',
    keyType: key.asymmetricKeyType ?? 'unknown',
    publicKeyFingerprint: keyFingerprint(key),
    signedAt: now.toISOString(),
    signatureBase64: sign(digestFor(key), manifestBytes, key).toString('base64'),
  }
}

export function verifyManifest(manifestBytes: Uint8Array, sig: ManifestSignature, key: KeyObject): {ok: boolean; reason: string} {
  const fp = keyFingerprint(key)
  if (fp !== sig.publicKeyFingerprint) return {ok: false, reason: `manifest.sig was made with key ${sig.publicKeyFingerprint.slice(0, 16)}…, not with the given key ${fp.slice(0, 16)}…`}
  let ok = false
  try {
    ok = verify(digestFor(key), manifestBytes, key, Buffer.from(sig.signatureBase64, 'base64'))
  } catch (error) {
    return {ok: false, reason: `the signature cannot be checked: ${(error as Error).message}`}
  }
  return ok
    ? {ok: true, reason: `manifest.json is signed by key ${fp.slice(0, 16)}… (${sig.keyType}, ${sig.signedAt})`}
    : {ok: false, reason: 'manifest.json does not match its signature: the manifest was changed after it was signed'}
}

/** Write the detached signature of manifest.json as it is now on disk. */
export function writeSignature(runDir: string, key: KeyObject): ManifestSignature {
  const s = signManifest(readFileSync(join(runDir, 'manifest.json')), key)
  writeJsonAtomic(join(runDir, SIGNATURE_FILE), s)
  return s
}

/** A resumed run changes its files: the old seal and signature no longer apply. */
export function removeSignature(runDir: string): void {
  rmSync(join(runDir, SIGNATURE_FILE), {force: true})
}
