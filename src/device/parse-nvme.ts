/**
 * Pure parsers for nvme-cli output: `nvme id-ctrl` (-o json, or the normal/-H text format),
 * `nvme sanitize-log` (text or -o json) and `nvme get-feature -f 6` / `set-feature -f 6`.
 */

export interface NvmeIdCtrl {
  serial: string | null
  model: string | null
  firmware: string | null
  oacs: number
  sanicap: number
  fna: number
  vwc: number
  /** OACS bit 1 */
  formatNvm: boolean
  /** SANICAP bit 0 */
  sanitizeCrypto: boolean
  /** SANICAP bit 1 */
  sanitizeBlock: boolean
  /** SANICAP bit 2 */
  sanitizeOverwrite: boolean
  /** FNA bit 2: cryptographic erase supported as part of the format secure erase (SES=2) */
  formatCryptoErase: boolean
  /** VWC bit 0 */
  volatileWriteCache: boolean
}

function toInt(v: unknown): number {
  if (typeof v === 'number') return v
  if (typeof v === 'string') {
    const s = v.trim()
    const n = /^0x/i.test(s) ? parseInt(s, 16) : Number(s)
    if (Number.isFinite(n)) return n
  }
  throw new Error(`not a number: ${JSON.stringify(v)}`)
}

const bit = (v: number, b: number): boolean => Math.floor(v / 2 ** b) % 2 === 1

function trimOrNull(v: unknown): string | null {
  if (typeof v !== 'string') return null
  const t = v.trim()
  return t === '' ? null : t
}

function fromFields(f: Record<string, unknown>): NvmeIdCtrl {
  for (const k of ['oacs', 'sanicap', 'fna', 'vwc']) if (f[k] === undefined) throw new Error(`nvme id-ctrl output has no "${k}" field`)
  const oacs = toInt(f.oacs), sanicap = toInt(f.sanicap), fna = toInt(f.fna), vwc = toInt(f.vwc)
  return {
    serial: trimOrNull(f.sn), model: trimOrNull(f.mn), firmware: trimOrNull(f.fr),
    oacs, sanicap, fna, vwc,
    formatNvm: bit(oacs, 1),
    sanitizeCrypto: bit(sanicap, 0), sanitizeBlock: bit(sanicap, 1), sanitizeOverwrite: bit(sanicap, 2),
    formatCryptoErase: bit(fna, 2),
    volatileWriteCache: bit(vwc, 0),
  }
}

/** Accepts `-o json` output or the normal / human-readable (-H) text output. */
export function parseNvmeIdCtrl(out: string): NvmeIdCtrl {
  const t = out.trim()
  if (t.startsWith('{')) return fromFields(JSON.parse(t) as Record<string, unknown>)
  const fields: Record<string, unknown> = {}
  for (const line of t.split('\n')) {
    // "oacs      : 0x17"; -H detail lines start with whitespace or '[' and are skipped
    const m = /^([a-z][a-z0-9_]*)\s*:\s?(.*)$/.exec(line)
    if (m && !(m[1] in fields)) fields[m[1]] = m[2]
  }
  return fromFields(fields)
}

export type SanitizeState = 'never' | 'completed' | 'in-progress' | 'failed' | 'completed-no-deallocate' | 'unknown'

export interface SanitizeLog {
  /** SPROG: fraction complete = sprog / 65536 (65535 when no sanitize is in progress). */
  sprog: number
  sstat: number
  state: SanitizeState
  /** 0..1, or null when not in progress */
  progress: number | null
}

const SSTAT: Record<number, SanitizeState> = {0: 'never', 1: 'completed', 2: 'in-progress', 3: 'failed', 4: 'completed-no-deallocate'}

function sanitizeFrom(sprog: number, sstat: number): SanitizeLog {
  const state = SSTAT[sstat & 0x7] ?? 'unknown'
  return {sprog, sstat, state, progress: state === 'in-progress' ? sprog / 65536 : null}
}

/**
 * `nvme sanitize-log` text ("Sanitize Progress (SPROG) :  655") or `-o json`. The JSON layout
 * differs across nvme-cli releases: {"<dev>": {"sprog": N, "sstat": N | {"status": N, ...}}} or flat.
 */
export function parseNvmeSanitizeLog(out: string): SanitizeLog {
  const t = out.trim()
  if (t.startsWith('{')) {
    let o = JSON.parse(t) as Record<string, unknown>
    if (o.sprog === undefined) {
      const inner = Object.values(o).find(v => v && typeof v === 'object' && 'sprog' in (v as object))
      if (!inner) throw new Error('nvme sanitize-log JSON has no "sprog"')
      o = inner as Record<string, unknown>
    }
    const s = o.sstat
    const sstat = s && typeof s === 'object' ? toInt((s as Record<string, unknown>).status) : toInt(s)
    return sanitizeFrom(toInt(o.sprog), sstat)
  }
  const sp = /\(SPROG\)\s*:\s*(\S+)/.exec(t)
  const ss = /\(SSTAT\)\s*:\s*(\S+)/.exec(t)
  if (!sp || !ss) throw new Error('nvme sanitize-log output has no SPROG/SSTAT lines')
  return sanitizeFrom(toInt(sp[1]), toInt(ss[1]))
}

/**
 * `nvme get-feature -f 6` ("get-feature:0x06 (Volatile Write Cache), Current value:0x00000001"),
 * its -H form ("Volatile Write Cache Enable (WCE): Enabled") or JSON ({"value": 1} / {"Current value": ...}).
 * Returns true when the cache is enabled.
 */
export function parseNvmeVwcFeature(out: string): boolean {
  const t = out.trim()
  const h = /\(WCE\)\s*:\s*(Enabled|Disabled)/i.exec(t)
  if (h) return /enabled/i.test(h[1])
  const m = /(?:Current value|value)\s*:\s*(0x[0-9a-f]+|[0-9a-f]+)/i.exec(t)
  if (m) return (parseInt(m[1].replace(/^0x/i, ''), 16) & 1) === 1
  if (t.startsWith('{')) {
    const o = JSON.parse(t) as Record<string, unknown>
    const v = o.value ?? o['Current value'] ?? o.result
    if (v !== undefined) return (toInt(v) & 1) === 1
  }
  throw new Error(`cannot read the volatile write cache state from: ${t.slice(0, 200)}`)
}
