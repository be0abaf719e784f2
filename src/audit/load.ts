/**
 * `pts audit` I/O: read a stored run, every raw file it names, the SHA-256 of the sealed files as
 * they are now, manifest.sig (checked with --verify-key), and report-model.json when present;
 * then run the pure checks (checks.ts).
 */
import type {KeyObject} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {buildReportModel} from '../report/model.js'
import {loadRun} from '../report/load.js'
import {hashFile, keyFingerprint, sealedPaths, SIGNATURE_FILE, verifyManifest, type ManifestSignature} from '../store/integrity.js'
import {runAudit, type AuditInput, type AuditResult} from './checks.js'

export interface AuditOptions { verifyKey?: KeyObject; maxGapMs: number }

function readText(path: string): string | null {
  try { return readFileSync(path, 'utf8') } catch { return null }
}

export function auditRun(runDirArg: string, opts: AuditOptions): AuditResult {
  const run = loadRun(runDirArg, {allowMissingRaw: true})
  const {runDir, manifest, results} = run
  const raw = new Map<string, string | null>()
  const want = [
    ...results.rounds.flatMap(r => r.points.flatMap(p => [p.raw.json, p.raw.job])),
    ...(results.wipc ? [results.wipc.raw.json, results.wipc.raw.job] : []),
    'raw/purge.json',
  ]
  for (const rel of want) raw.set(rel, readText(join(runDir, rel)))

  let signature: AuditInput['signature']
  const sigPath = join(runDir, SIGNATURE_FILE)
  if (!existsSync(sigPath)) {
    signature = {present: false, keyGiven: opts.verifyKey !== undefined}
  } else {
    let sig: ManifestSignature | null = null
    let unreadable: string | null = null
    try {
      sig = JSON.parse(readFileSync(sigPath, 'utf8')) as ManifestSignature
      if (typeof sig?.signatureBase64 !== 'string' || typeof sig.publicKeyFingerprint !== 'string') unreadable = 'not a pts signature (signatureBase64 or publicKeyFingerprint missing)'
    } catch (error) {
      unreadable = `not valid JSON (${(error as Error).message})`
    }
    const check = sig && !unreadable && opts.verifyKey ? verifyManifest(readFileSync(join(runDir, 'manifest.json')), sig, opts.verifyKey) : null
    signature = {present: true, unreadable, keyGiven: opts.verifyKey !== undefined, fingerprint: sig?.publicKeyFingerprint ?? (opts.verifyKey ? keyFingerprint(opts.verifyKey) : null), check}
  }

  const modelPath = join(runDir, 'report-model.json')
  let storedModel: AuditInput['storedModel'] = null
  if (existsSync(modelPath)) {
    const text = readText(modelPath)
    try { storedModel = {file: 'report-model.json', model: JSON.parse(text ?? '')} } catch { storedModel = {file: 'report-model.json', model: {unreadable: 'not valid JSON'}} }
  }
  const generatedAt = (storedModel?.model as {generatedAt?: string} | undefined)?.generatedAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
  return runAudit({
    manifest, results, raw,
    sealNow: sealedPaths(runDir).map(p => hashFile(runDir, p)),
    signature,
    buildModel: r => buildReportModel({...run, results: r, generatedAt}),
    storedModel,
    maxGapMs: opts.maxGapMs,
  })
}
