/**
 * Pure parsers for sg3-utils / sdparm. No real captured output of either tool was available
 * (no SCSI hardware here, none found in public sources): the formats follow the tools' manual pages.
 */

export interface SgInquiry { vendor: string | null; product: string | null; revision: string | null; serial: string | null }

/** `sg_inq <dev>`: " Vendor identification: ATA", " Product identification: ...", " Product revision level: ...", " Unit serial number: ...". */
export function parseSgInq(out: string): SgInquiry {
  const f = (label: string): string | null => {
    const m = new RegExp(`${label}:\\s*(.*)$`, 'm').exec(out)
    const v = m?.[1].trim()
    return v ? v : null
  }
  const r = {vendor: f('Vendor identification'), product: f('Product identification'), revision: f('Product revision level'), serial: f('Unit serial number')}
  if (!r.vendor && !r.product) throw new Error('no vendor/product identification in sg_inq output')
  return r
}

/** `sdparm --get=WCE <dev>`: "    /dev/sdb: ATA  ...\nWCE           1  [cha: y, def:  1, sav:  1]" -> true when WCE=1. */
export function parseSdparmWce(out: string): boolean {
  const m = /^\s*WCE\s+(\d)/m.exec(out)
  if (!m) throw new Error(`no WCE line in sdparm output: ${out.trim().slice(0, 200)}`)
  return m[1] === '1'
}
