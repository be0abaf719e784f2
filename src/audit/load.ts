/**
 * `pts audit` I/O: read a stored run, every raw file it names, the SHA-256 of the sealed files as
 * they are now, manifest.sig (checked with --verify-key), and report-model.json when present;
 * then run the pure checks (program.ts, checks.ts). One path for every test.
 */
import type {KeyObject} from 'node:crypto'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {rawOf} from '../report/load.js'
import {readClaimsResult} from '../claims/load.js'
import {purgeLog} from '../analysis/steps.js'
import {assertFinished, readStoredRun} from '../store/read.js'
import {RunDirError} from '../errors.js'
import * as M from '../messages.js'
import {buildProgramReportModel} from '../report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../report/pages/index.js'
import {runProgramAudit} from './audit.js'
import {stepsOf} from '../analysis/steps.js'
import {hashFile, keyFingerprint, sealedPaths, SIGNATURE_FILE, verifyManifest} from '../store/integrity.js'
import {type ManifestSignature} from '../model/manifest.js'
import type {AuditResult, SignatureState} from './checks.js'
import type {ProgramAuditInput} from './audit.js'

export interface AuditOptions { verifyKey?: KeyObject; maxGapMs: number }

function readText(path: string): string | null {
  try { return readFileSync(path, 'utf8') } catch { return null }
}

function readSignature(runDir: string, verifyKey: KeyObject | undefined): SignatureState {
  let signature: SignatureState
  const sigPath = join(runDir, SIGNATURE_FILE)
  if (!existsSync(sigPath)) {
    signature = {present: false, keyGiven: verifyKey !== undefined}
  } else {
    let sig: ManifestSignature | null = null
    let unreadable: string | null = null
    try {
      sig = JSON.parse(readFileSync(sigPath, 'utf8')) as ManifestSignature
      if (typeof sig?.signatureBase64 !== 'string' || typeof sig.publicKeyFingerprint !== 'string') unreadable = 'not a pts signature (signatureBase64 or publicKeyFingerprint missing)'
    } catch (error) {
      unreadable = `not valid JSON (${(error as Error).message})`
    }
    const check = sig && !unreadable && verifyKey ? verifyManifest(readFileSync(join(runDir, 'manifest.json')), sig, verifyKey) : null
    signature = {present: true, unreadable, keyGiven: verifyKey !== undefined, fingerprint: sig?.publicKeyFingerprint ?? (verifyKey ? keyFingerprint(verifyKey) : null), check}
  }
  return signature
}

function readStoredModel(runDir: string): ProgramAuditInput['storedModel'] {
  const modelPath = join(runDir, 'report-model.json')
  if (!existsSync(modelPath)) return null
  const text = readText(modelPath)
  try { return {file: 'report-model.json', model: JSON.parse(text ?? '')} } catch { return {file: 'report-model.json', model: {unreadable: 'not valid JSON'}} }
}

export function auditRun(runDirArg: string, opts: AuditOptions): AuditResult {
  const {runDir, manifest, results} = readStoredRun(runDirArg)
  assertFinished({runDir, manifest, results}, 'pts audit')
  const raw = new Map<string, string | null>()
  const want: string[] = []
  for (const s of stepsOf(results)) want.push(s.step.raw.json, s.step.raw.job, ...(s.step.perSecond?.logs ?? []))
  results.phases.forEach((p, pi) => {
    if (p.kind === 'wipc' && p.raw) want.push(p.raw.json, p.raw.job)
    if (p.kind === 'purge') want.push(purgeLog(p, pi))
    if (p.kind === 'bursts' && p.log) want.push(p.log)
  })
  const h = results.health
  if (h) for (const x of [h.before, h.after, ...h.samples]) if (x) want.push(x.raw)
  for (const rel of want) raw.set(rel, readText(join(runDir, rel)))
  const storedModel = readStoredModel(runDir)
  const generatedAt = (storedModel?.model as {generatedAt?: string} | undefined)?.generatedAt ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
  const builder = PROGRAM_PAGE_BUILDERS[results.test]
  if (!builder) throw new RunDirError(M.runDir.noReportPages(results.test))
  const sealNow = sealedPaths(runDir).map(p => hashFile(runDir, p))
  const rawFiles = rawOf(sealNow)
  const claims = readClaimsResult(runDir, results.runId).result
  return runProgramAudit({
    manifest, results, raw,
    sealNow,
    signature: readSignature(runDir, opts.verifyKey),
    buildModel: r => buildProgramReportModel({manifest, results: r, rawFiles, generatedAt, claims}, builder),
    storedModel,
    maxGapMs: opts.maxGapMs,
  })
}
