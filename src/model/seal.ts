/**
 * The seal hash (pure): one SHA-256 that stands for a run's whole seal, the list of files and
 * their SHA-256 in manifest.json /integrity/files. It is the SHA-256 of that list written in the
 * format of `sha256sum` ("<sha256>  <path>\n" per file, in the manifest's order, sorted by path), so
 * anyone can recompute it from manifest.json with standard tools:
 *   jq -r '.integrity.files[] | "\(.sha256)  \(.path)"' manifest.json | sha256sum
 * and check every file against the list (from the run directory):
 *   jq -r '.integrity.files[] | "\(.sha256)  \(.path)"' manifest.json | sha256sum -c
 */
import {createHash} from 'node:crypto'
import type {FileHash} from './manifest.js'

/** The seal as sha256sum check lines. */
export function sealList(files: readonly FileHash[]): string {
  return files.map(f => `${f.sha256}  ${f.path}\n`).join('')
}

/** SHA-256 (hex) of sealList(files). */
export function sealHash(files: readonly FileHash[]): string {
  return createHash('sha256').update(sealList(files)).digest('hex')
}
