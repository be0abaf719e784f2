/**
 * `pts plan` preflight, the probing half (I/O): fio and its version, Chromium, the purge tools on
 * PATH, and the free space of the run directory's and a file target's file systems. Thin: every
 * judgement is in preflight.ts (pure).
 */
import {spawnSync} from 'node:child_process'
import {accessSync, constants, existsSync, statfsSync, statSync} from 'node:fs'
import {dirname, resolve} from 'node:path'
import {whichPath} from '../proc.js'
import {chromiumPath} from '../report/pdf.js'
import type {PreflightFacts} from './preflight.js'
import type {PurgeChoice} from '../device/purge-plan.js'
import type {Prepared} from './prepare.js'

/** The Debian package of each tool a purge may run. */
const PKG: Record<string, string> = {nvme: 'nvme-cli', hdparm: 'hdparm', sg_sanitize: 'sg3-utils', sg_format: 'sg3-utils', blkdiscard: 'util-linux'}

/** The tools of a PTS purge for each interface: asked for only when no purge could be chosen (a tool missing may be why). */
const INTERFACE_TOOLS: Record<string, string[]> = {nvme: ['nvme'], sata: ['hdparm'], ata: ['hdparm'], sas: ['sg_sanitize', 'sg_format'], scsi: ['sg_sanitize', 'sg_format']}

export function probeFio(): PreflightFacts['fio'] {
  const env = process.env.PTS_FIO
  const path = env ?? whichPath('fio')
  if (!path) return {path: null, version: null, problem: 'fio was not found on PATH'}
  if (!existsSync(path)) return {path, version: null, problem: `PTS_FIO=${path}: no such file`}
  const r = spawnSync(path, ['--version'], {encoding: 'utf8', timeout: 10_000})
  if (r.status !== 0 || !r.stdout.trim()) return {path, version: null, problem: `fio at ${path} did not answer --version`}
  return {path, version: r.stdout.trim(), problem: null}
}

export function probeChromium(): PreflightFacts['chromium'] {
  const path = chromiumPath()
  let executable = false
  try {
    accessSync(path, constants.X_OK)
    executable = statSync(path).isFile()
  } catch { /* not there */ }
  return {path, fromEnv: Boolean(process.env.CHROMIUM_PATH), executable}
}

/** The nearest existing directory at or above `path`. */
function existingAncestor(path: string): string {
  let p = resolve(path)
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p)
  return p
}

function freeSpace(path: string): {probedPath: string; freeBytes: number | null; device: string | null; problem: string | null} {
  const probedPath = existingAncestor(path)
  try {
    const s = statfsSync(probedPath)
    return {probedPath, freeBytes: Number(s.bavail) * Number(s.bsize), device: String(statSync(probedPath).dev), problem: null}
  } catch (error) {
    return {probedPath, freeBytes: null, device: null, problem: (error as Error).message}
  }
}

const INTERFACE_NAMES: Record<string, string> = {nvme: 'an NVMe', sata: 'a SATA', ata: 'an ATA', sas: 'a SAS', scsi: 'a SCSI', usb: 'a USB'}

/** Why the preflight needs an interface's purge tool: "the PTS purge of an NVMe device" (not "a NVME"). */
export function purgeToolWhy(iface: string): string {
  return `the PTS purge of ${INTERFACE_NAMES[iface] ?? `a ${iface.toUpperCase()}`} device`
}

/**
 * The tools the preflight asks for, each with why (pure): the tools of the chosen purge's
 * commands, and only those (a SCSI drive without SANITIZE, purged by FORMAT UNIT, needs
 * sg_format, not sg_sanitize; --purge none needs none). Only when no purge could be chosen
 * (refused, with no command) does it ask for the interface's purge tools, since a missing tool
 * can be why nothing was supported.
 */
export function purgeToolsNeeded(iface: string, purge: Pick<PurgeChoice, 'method' | 'steps' | 'refused'> | null): Array<[tool: string, why: string]> {
  const need = new Map<string, string>()
  for (const step of purge?.steps ?? []) if (!need.has(step.argv[0])) need.set(step.argv[0], `the ${purge!.method} purge`)
  if (need.size === 0 && purge?.refused) for (const tool of INTERFACE_TOOLS[iface] ?? []) need.set(tool, purgeToolWhy(iface))
  return [...need]
}

export function probe(prepared: Pick<Prepared, 'target' | 'purge'>, runDir: string): PreflightFacts {
  const t = prepared.target
  let purgeTools: PreflightFacts['purgeTools'] = null
  let purgeNote: string | null = null
  if (t.kind === 'block') {
    const iface = t.identity.interface.toLowerCase()
    purgeTools = purgeToolsNeeded(iface, prepared.purge).map(([tool, why]) => ({tool, pkg: PKG[tool] ?? tool, found: whichPath(tool) !== null, why}))
    if (purgeTools.length === 0) {
      purgeNote = prepared.purge?.refused
        ? `no PTS purge for a ${iface} device (${prepared.purge.refused})`
        : `the ${prepared.purge?.method ?? 'chosen'} purge runs no tool`
    }
  }
  const dir = resolve(runDir)
  const runFs = freeSpace(dir)
  let targetFile: PreflightFacts['targetFile'] = null
  if (t.kind === 'file') {
    // The file is created sparse; the run fills it. An existing file needs what it has not allocated yet.
    let createBytes = t.sizeBytes
    try {
      if (existsSync(t.path) && t.createBytes === null) createBytes = Math.max(0, t.sizeBytes - statSync(t.path).blocks * 512)
    } catch { /* keep the size */ }
    const fs = freeSpace(dirname(t.path))
    targetFile = {path: t.path, createBytes, freeBytes: fs.freeBytes, device: fs.device}
  }
  return {
    fio: probeFio(), chromium: probeChromium(), purgeTools, purgeNote,
    runDir: {path: dir, probedPath: runFs.probedPath, freeBytes: runFs.freeBytes, device: runFs.device, problem: runFs.problem},
    targetFile,
  }
}
