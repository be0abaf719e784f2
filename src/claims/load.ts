/**
 * Reading claims (I/O): a datasheet claims file given to `pts verify --claims`, and the stored
 * verify result <run>/claims.json that the report shows. Errors name the file, the JSON pointer,
 * what was expected and what to do: a missing claims file is a usage error (exit 2), malformed
 * JSON or a schema failure is invalid data (exit 3).
 */
import {createHash} from 'node:crypto'
import {existsSync, readFileSync, statSync} from 'node:fs'
import {basename, join, resolve} from 'node:path'
import {EXIT, InvalidDataError, PtsError, UsageError} from '../errors.js'
import * as M from '../messages.js'
import {checkClaims, checkVerifyResult} from './schema.js'
import {summaryLine} from './text.js'
import type {ClaimsFile, VerifyResult} from './types.js'
import {fioQosPercentiles, QOS_STATISTICS, windowAverage, type QosStatistic, type WindowPercentiles} from './match.js'
import type {ProgramResults} from '../model/results.js'

/** The stored verify result in a run or suite directory. */
export const CLAIMS_RESULT_FILE = 'claims.json'
/** The stand-alone "Claims vs measured" document next to it (suites, TP and LAT runs; src/report/claims-doc.ts). */
export const CLAIMS_PDF_FILE = 'claims.pdf'

/**
 * JSON.parse's message with a line and column: "... in JSON at position 42" gives the position;
 * Node 20's "Unexpected token '}', "...snippet..." is not valid JSON" gives a snippet that starts
 * 10 characters before the token when it is cut (..."snippet"), else the whole text.
 */
export function jsonErrorWhere(text: string, message: string): string {
  let pos: number | null = null
  let what = message
  const at = /^(.*?) in JSON at position (\d+)/s.exec(message)
  const token = /^Unexpected token '(.)', (\.\.\.)?"(.*)"(?:\.\.\.)? is not valid JSON$/s.exec(message)
  if (at) {
    what = at[1]
    pos = Number(at[2])
  } else if (token) {
    what = `Unexpected token '${token[1]}'`
    const cut = token[2] !== undefined
    const idx = text.indexOf(token[3])
    if (cut) {
      if (idx >= 0) pos = idx + 10
    } else {
      // The whole (short) text was quoted: the shortest prefix that fails on this token ends at it.
      for (let n = 1; n <= text.length && pos === null; n++) {
        try { JSON.parse(text.slice(0, n)) } catch (error) { if ((error as Error).message.startsWith(`Unexpected token '${token[1]}'`)) pos = n - 1 }
      }
    }
  }
  if (pos === null || pos > text.length) return message.replace(/\s+/g, ' ')
  const before = text.slice(0, pos)
  const line = before.split('\n').length
  const column = pos - before.lastIndexOf('\n')
  return `${what} at line ${line}, column ${column}`
}

export interface LoadedClaims {
  path: string
  claims: ClaimsFile
  /** For the verify result: the file's name and SHA-256. */
  file: {name: string; sha256: string}
}

export function readClaimsFile(pathArg: string): LoadedClaims {
  const path = resolve(pathArg)
  if (!existsSync(path)) {
    throw new UsageError(M.claims.fileNotFound(path))
  }
  if (statSync(path).isDirectory()) {
    throw new UsageError(M.claims.isADirectory(pathArg))
  }
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new UsageError(M.claims.cannotRead(path, (error as Error).message))
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new PtsError(M.claims.notJson(path, jsonErrorWhere(text, (error as Error).message)), EXIT.invalidData)
  }
  const problems = checkClaims(data)
  if (problems.length > 0) throw new InvalidDataError(M.claims.invalid(path, problems))
  return {path, claims: data as ClaimsFile, file: {name: basename(path), sha256: createHash('sha256').update(text).digest('hex')}}
}

/** SHA-256 of <run>/results.json as stored (recorded in the verify result). */
export function resultsSha256(runDir: string): string {
  return createHash('sha256').update(readFileSync(join(runDir, 'results.json'))).digest('hex')
}

/**
 * The stored verify result of a run for its report, or null with the reason it is ignored
 * (absent: no reason; unreadable, invalid, of another run or of an earlier results.json: a warning). It is optional: a bad
 * claims.json never stops the report, the page is left out.
 */
export function readClaimsResult(runDir: string, runId: string): {result: VerifyResult | null; warning: string | null} {
  const path = join(runDir, CLAIMS_RESULT_FILE)
  if (!existsSync(path)) return {result: null, warning: null}
  let data: unknown
  try {
    data = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    return {result: null, warning: `${path} is not readable JSON (${(error as Error).message}); the "Claims vs measured" page is left out (run pts verify again)`}
  }
  const problems = checkVerifyResult(data)
  if (problems.length > 0) {
    return {result: null, warning: `${path} fails schemas/verify-result.schema.json (${problems.slice(0, 3).map(p => `${p.pointer || '/'}: ${p.message}`).join('; ')}); the "Claims vs measured" page is left out (run pts verify again)`}
  }
  const result = data as VerifyResult
  if (result.runId !== runId) {
    return {result: null, warning: `${path} belongs to run ${result.runId}, not ${runId}; the "Claims vs measured" page is left out (run pts verify again)`}
  }
  if (result.run.resultsSha256 !== resultsSha256(runDir)) {
    return {result: null, warning: `${path} was made from an earlier results.json (the run changed since, e.g. it was resumed); the "Claims vs measured" page is left out (run pts verify again)`}
  }
  return {result, warning: null}
}

/**
 * <suite>/claims.pdf, for suite.pdf, when it shows the suite's current claims: claims.json is a
 * valid verify result of this suite, every run it lists still has the results.json it was matched
 * against, and claims.pdf was written after claims.json. Else null: the combined report leaves the
 * "Claims vs measured" pages out rather than show stale ones. `summary` is the verdict count line.
 */
export function currentSuiteClaims(suiteDir: string, suiteId?: string): {pdf: string; summary: string} | null {
  const json = join(suiteDir, CLAIMS_RESULT_FILE)
  const pdf = join(suiteDir, CLAIMS_PDF_FILE)
  try {
    if (!existsSync(json) || !existsSync(pdf)) return null
    const data: unknown = JSON.parse(readFileSync(json, 'utf8'))
    if (checkVerifyResult(data).length > 0) return null
    const v = data as VerifyResult
    if (!v.suite || !v.runs || (suiteId !== undefined && v.suite.suiteId !== suiteId)) return null
    for (const run of v.runs) {
      if (!run.dir || resultsSha256(join(suiteDir, run.dir)) !== run.resultsSha256) return null
    }
    if (statSync(pdf).mtimeMs < statSync(json).mtimeMs) return null
    return {pdf, summary: summaryLine(v)}
  } catch {
    return null
  }
}

/**
 * The QoS percentiles (99th, 99.9th, 99.99th) of every window point of a run's loops: for each
 * window round, the point's raw fio JSON (raw/..., stored by the run) gives fio's percentiles of
 * all IOs of the point; their window average is the point's value (as results.json does for the
 * 99.999th). A point whose raw output is missing or unreadable in any window round gets null
 * (its claims are then not measured, with the reason). Loops without a window are left out.
 */
export function readWindowPercentiles(runDir: string, results: Pick<ProgramResults, 'phases'>): WindowPercentiles {
  const out: WindowPercentiles = {}
  for (const ph of results.phases) {
    if (ph.kind !== 'loop') continue
    const {fromRound, toRound} = ph.steadyState
    if (fromRound === null || toRound === null) continue
    const rounds = ph.rounds.filter(r => r.round >= fromRound && r.round <= toRound)
    const byPoint: Record<number, Record<QosStatistic, number | null>> = {}
    for (const w of ph.windowAverages) {
      const perRound = rounds.map(r => {
        const step = r.points.find(q => q.index === w.index)
        if (!step) return null
        try {
          const text = readFileSync(join(runDir, step.raw.json), 'utf8')
          const start = text.search(/^\{/m)
          return fioQosPercentiles(JSON.parse(start > 0 ? text.slice(start) : text))
        } catch {
          return null
        }
      })
      byPoint[w.index] = Object.fromEntries(QOS_STATISTICS.map(st => [st, windowAverage(perRound.map(p => p?.[st] ?? null))])) as Record<QosStatistic, number | null>
    }
    out[ph.id] = byPoint
  }
  return out
}
