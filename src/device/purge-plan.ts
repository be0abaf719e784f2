/**
 * Which purge a device gets and its exact commands, from the device's capabilities (digest Part A
 * 8): the PTS methods it supports, the automatic choice, the refusals (a frozen or locked ATA
 * drive), the fallbacks as recorded deviations, and which blocks the zero check reads. Pure;
 * device/purge.ts runs the choice.
 */
import type {NvmeIdCtrl} from './parse-nvme.js'
import type {HdparmIdentify} from './parse-ata.js'
import * as M from '../messages.js'

export const PURGE_METHODS = [
  'nvme-sanitize-block', 'nvme-sanitize-crypto', 'nvme-format-ses1', 'nvme-format-ses2',
  'ata-secure-erase', 'ata-secure-erase-enhanced', 'ata-sanitize', 'ata-sanitize-crypto',
  'scsi-sanitize', 'scsi-format', 'discard', 'zero', 'none',
] as const
export type PurgeMethod = typeof PURGE_METHODS[number]
export type PurgeRequest = 'auto' | PurgeMethod

/** What purge needs to know about a device (a subset of DeviceInfo). */
export interface PurgeFacts {
  path: string
  interface: string
  kind?: 'block' | 'file'
  nvme: NvmeIdCtrl | null
  ata: HdparmIdentify | null
  /** sg_sanitize / sg_format usable (SCSI/SAS device and sg3-utils installed) */
  scsi: boolean
  /**
   * Whether the drive reports SCSI SANITIZE (sg_opcodes; discover.ts scsiSanitizeSupport): SANITIZE
   * is offered only when true. Absent: not probed (facts built without discovery), SANITIZE offered with `scsi`.
   */
  scsiSanitize?: {supported: boolean | null; detail: string}
  discard: boolean
  /** null = unknown */
  discardZeroes: boolean | null
  /** Tools found on PATH */
  tools: Record<string, boolean>
}

export interface PurgeStep {
  argv: string[]
  why: string
  /** Poll this command until done (NVMe sanitize log, ATA sanitize status). */
  poll?: 'nvme-sanitize-log' | 'ata-sanitize-status'
  /** A step whose failure is not fatal (e.g. clearing a password that the erase already cleared). */
  optional?: boolean
}

export interface PurgeChoice {
  method: PurgeMethod
  deviation: string | null
  steps: PurgeStep[]
  /** Set when the request cannot be honoured: the caller must stop. */
  refused: string | null
}

export const COMPLIANT: ReadonlySet<PurgeMethod> = new Set<PurgeMethod>([
  'nvme-sanitize-block', 'nvme-sanitize-crypto', 'nvme-format-ses1', 'nvme-format-ses2',
  'ata-secure-erase', 'ata-secure-erase-enhanced', 'ata-sanitize', 'ata-sanitize-crypto', 'scsi-sanitize', 'scsi-format',
])

/** Preference order for 'auto' (first supported wins). */
const AUTO_ORDER: PurgeMethod[] = [
  'nvme-sanitize-crypto', 'nvme-sanitize-block', 'nvme-format-ses2', 'nvme-format-ses1',
  'ata-sanitize-crypto', 'ata-sanitize', 'ata-secure-erase-enhanced', 'ata-secure-erase',
  'scsi-sanitize', 'scsi-format',
]

/** Why an ATA security erase cannot run now, or null. */
export function ataSecurityBlocker(ata: HdparmIdentify | null): string | null {
  const s = ata?.security
  if (!s || !s.supported) return 'the drive does not support the ATA Security feature set'
  if (s.frozen) return 'the drive\'s security state is frozen (the BIOS froze it at boot); unfreeze it by a suspend/resume cycle (e.g. rtcwake -m mem -s 10) or by hot-plugging the drive\'s power/data cable, then check hdparm -I again'
  if (s.locked) return 'the drive is security-locked (a password is set and the drive is locked); unlock it with its password first'
  if (s.enabled) return 'a security password is already enabled on the drive; pts will not overwrite an unknown password (disable it with its owner\'s password first)'
  if (s.expired) return 'the security count has expired; power-cycle the drive'
  return null
}

/**
 * Why an ATA drive offers no ATA purge, for `pts devices` (as its SCSI SANITIZE note does): one
 * line for the security erase and one for SANITIZE, empty when both are available.
 */
export function ataPurgeNotes(ata: HdparmIdentify | null): string[] {
  if (!ata) return []
  const notes: string[] = []
  const b = ataSecurityBlocker(ata)
  if (b) notes.push(`ATA security erase is not available: ${b}`)
  if (!ata.sanitizeFeature) notes.push('ATA SANITIZE is not supported: the drive does not report the SANITIZE feature set (hdparm -I)')
  else if (!ata.blockEraseExt && !ata.cryptoScrambleExt) notes.push('ATA SANITIZE is not available: the drive reports neither BLOCK ERASE nor CRYPTO SCRAMBLE (hdparm -I)')
  return notes
}

/** Every purge method this device supports (compliant ones first), from its capabilities. */
export function purgeMethods(f: PurgeFacts): PurgeMethod[] {
  if (f.kind === 'file' || f.interface === 'file') return ['none']
  const m: PurgeMethod[] = []
  if (f.nvme) {
    if (f.nvme.sanitizeBlock) m.push('nvme-sanitize-block')
    if (f.nvme.sanitizeCrypto) m.push('nvme-sanitize-crypto')
    if (f.nvme.formatNvm) m.push('nvme-format-ses1')
    if (f.nvme.formatNvm && f.nvme.formatCryptoErase) m.push('nvme-format-ses2')
  }
  if (f.ata) {
    if (f.ata.security?.supported) m.push('ata-secure-erase')
    if (f.ata.security?.supported && f.ata.security.enhancedErase) m.push('ata-secure-erase-enhanced')
    if (f.ata.sanitizeFeature && f.ata.blockEraseExt) m.push('ata-sanitize')
    if (f.ata.sanitizeFeature && f.ata.cryptoScrambleExt) m.push('ata-sanitize-crypto')
  }
  if (f.scsi && (f.scsiSanitize === undefined || f.scsiSanitize.supported === true)) m.push('scsi-sanitize')
  if (f.scsi) m.push('scsi-format')
  if (f.discard) m.push('discard')
  m.push('zero', 'none')
  return m
}

function stepsFor(method: PurgeMethod, f: PurgeFacts, password: string): PurgeStep[] {
  const d = f.path
  switch (method) {
    case 'nvme-sanitize-block':
      return [
        {argv: ['nvme', 'sanitize', d, '-a', '2'], why: 'NVMe Sanitize, Block Erase (SANACT 010b): the drive erases every block in the background'},
        {argv: ['nvme', 'sanitize-log', d, '-o', 'json'], why: 'poll the Sanitize Status log until SSTAT reports completion', poll: 'nvme-sanitize-log'},
      ]
    case 'nvme-sanitize-crypto':
      return [
        {argv: ['nvme', 'sanitize', d, '-a', '4'], why: 'NVMe Sanitize, Crypto Erase (SANACT 100b): the media encryption key is changed'},
        {argv: ['nvme', 'sanitize-log', d, '-o', 'json'], why: 'poll the Sanitize Status log until SSTAT reports completion', poll: 'nvme-sanitize-log'},
      ]
    case 'nvme-format-ses1':
      return [{argv: ['nvme', 'format', d, '--ses=1', '--force'], why: 'NVMe Format NVM with Secure Erase Setting 1 (user data erase); --force skips nvme-cli\'s interactive confirmation'}]
    case 'nvme-format-ses2':
      return [{argv: ['nvme', 'format', d, '--ses=2', '--force'], why: 'NVMe Format NVM with Secure Erase Setting 2 (cryptographic erase)'}]
    case 'ata-secure-erase':
    case 'ata-secure-erase-enhanced': {
      const enh = method === 'ata-secure-erase-enhanced'
      return [
        {argv: ['hdparm', '--user-master', 'u', '--security-set-pass', password, d], why: 'set a temporary user password (SECURITY SET PASSWORD); the erase needs one and clears it'},
        {argv: ['hdparm', '--user-master', 'u', enh ? '--security-erase-enhanced' : '--security-erase', password, d], why: enh ? 'ATA SECURITY ERASE UNIT, enhanced mode' : 'ATA SECURITY ERASE UNIT, normal mode'},
      ]
    }
    case 'ata-sanitize':
    case 'ata-sanitize-crypto':
      return [
        {argv: ['hdparm', '--yes-i-know-what-i-am-doing', method === 'ata-sanitize' ? '--sanitize-block-erase' : '--sanitize-crypto-scramble', d], why: method === 'ata-sanitize' ? 'ATA SANITIZE, BLOCK ERASE EXT' : 'ATA SANITIZE, CRYPTO SCRAMBLE EXT'},
        {argv: ['hdparm', '--sanitize-status', d], why: 'poll the sanitize status until the operation has completed', poll: 'ata-sanitize-status'},
      ]
    case 'scsi-sanitize':
      return [{argv: ['sg_sanitize', '--block', '--wait', '--quick', d], why: 'SCSI SANITIZE, BLOCK ERASE service action; --wait blocks until done, --quick skips the 15 s warning'}]
    case 'scsi-format':
      return [{argv: ['sg_format', '--format', '--wait', d], why: 'SCSI FORMAT UNIT; --wait blocks until done'}]
    case 'discard':
      return [{argv: ['blkdiscard', '-f', d], why: 'whole-device discard (TRIM/UNMAP/Deallocate): not a PTS purge, a recorded deviation'}]
    case 'zero':
      return [{argv: ['blkdiscard', '-z', '-f', d], why: 'write zeros over the whole device (BLKZEROOUT): not a PTS purge, a recorded deviation'}]
    case 'none':
      return []
  }
}

const DEVIATION: Partial<Record<PurgeMethod, string>> = {
  discard: 'purge replaced by a whole-device discard (blkdiscard); not a PTS purge',
  zero: 'purge replaced by a zero fill of the whole device; not a PTS purge',
  none: 'no purge was performed',
}

/**
 * Choose a purge and build its exact commands. `auto` picks the first supported compliant method;
 * when there is none it refuses (discard / zero / none run only when asked for).
 */
export function choosePurge(f: PurgeFacts, requested: PurgeRequest = 'auto', opts: {password?: string} = {}): PurgeChoice {
  const password = opts.password ?? 'pts-purge'
  const supported = purgeMethods(f)
  if (f.kind === 'file' || f.interface === 'file') {
    return {method: 'none', deviation: 'target is a regular file: no purge is possible (recorded as a deviation)', steps: [], refused: requested === 'auto' || requested === 'none' ? null : M.purge.notForFile(requested).message}
  }
  let method: PurgeMethod
  if (requested === 'auto') {
    const pick = AUTO_ORDER.find(m => supported.includes(m) && !(m.startsWith('ata-secure') && ataSecurityBlocker(f.ata)))
    if (!pick) {
      const why = [
        ...(f.ata ? [`ATA security erase unavailable: ${ataSecurityBlocker(f.ata)}`] : []),
        ...(f.ata && !f.ata.sanitizeFeature ? ['the drive does not support the ATA SANITIZE feature set'] : []),
        ...(f.scsiSanitize && f.scsiSanitize.supported !== true ? [f.scsiSanitize.detail] : []),
      ].map(w => `; ${w}`).join('')
      return {method: 'none', deviation: null, steps: [], refused: `no PTS purge method is supported by ${f.path} (${f.interface})${why}; choose --purge discard, zero or none to accept a recorded deviation`}
    }
    method = pick
  } else {
    method = requested
  }
  const base = {method, deviation: DEVIATION[method] ?? null, steps: stepsFor(method, f, password)}
  if (method.startsWith('ata-secure') && f.ata && ataSecurityBlocker(f.ata)) return {...base, refused: `ATA security erase of ${f.path} refused: ${ataSecurityBlocker(f.ata)}`}
  if (method === 'scsi-sanitize' && f.scsiSanitize && f.scsiSanitize.supported !== true) return {...base, refused: `SCSI SANITIZE of ${f.path} refused: ${f.scsiSanitize.detail}`}
  if (!supported.includes(method)) return {...base, refused: `${f.path} does not support purge method ${method} (supported: ${supported.join(', ')})`}
  if (method.startsWith('ata-secure')) {
    const b = ataSecurityBlocker(f.ata)
    if (b) return {...base, refused: `ATA security erase of ${f.path} refused: ${b}`}
  }
  const tool = base.steps[0]?.argv[0]
  if (tool && f.tools[tool] === false) return {...base, refused: `${tool} is not installed (needed for ${method})`}
  return {...base, refused: null}
}

// ---------------------------------------------------------------------------------------------
// I/O

/**
 * The 4 KiB blocks a zero check reads: block 0, then `samples - 1` blocks spread over the device
 * by a seeded generator (32-bit LCG), so the same seed reads the same blocks (each read's dd
 * command line, with its offset, is recorded in the purge output). Pure.
 */
export function zeroSampleBlocks(blocks: number, samples: number, seed: number): number[] {
  const out: number[] = []
  let x = seed >>> 0 || 1
  for (let i = 0; i < samples && blocks > 0; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0
    out.push(i === 0 ? 0 : x % blocks)
  }
  return out
}
