/**
 * Pure parsers for sg3-utils / sdparm output.
 *
 * Both formats are tested on outputs captured from real devices and published on the Linux
 * mailing lists (test/fixtures/devices/sg_inq/ and test/fixtures/devices/sdparm/, each with a
 * .source.md naming the message):
 *  - `sg_inq`: Toshiba MK1059GS on a SATA port (vendor "ATA") and the same drive in a USB
 *    enclosure (vendor "TOSHIBA"), linux-scsi 2020; `sg_inq -v` on a Quantum Atlas V and a
 *    Seagate ST973401LC parallel-SCSI disk and a Sony DDU1621 DVD-ROM (no serial), LKML 2005.
 *  - `sdparm`: `--get=WCE` on a Fujitsu MHV2080B SATA disk (old format, no "[cha: ...]"
 *    bracket), LKML 2006; the `sdparm <dev>` listing of a Seagate ST4000NM0035 behind libsas,
 *    linux-scsi 2020; `sdparm <dev>` and `--get=WCE` on a scsi_debug pseudo device (not hardware),
 *    posted by sdparm's author, 2023.
 * What the captures show: label lines are indented by one space (or none), values may carry the
 * INQUIRY field padding (trailing spaces, a right-aligned ATA serial), `-v` interleaves trace
 * lines, the serial line is absent when the device has no Unit Serial Number VPD page, and the
 * WCE line is `WCE <n>` optionally followed by `[cha: ..., def: ...(, sav: ...)]`, indented
 * inside a full listing.
 */

export interface SgInquiry { vendor: string | null; product: string | null; revision: string | null; serial: string | null }

/**
 * `sg_inq <dev>`: " Vendor identification: ATA", " Product identification: ...",
 * " Product revision level: ...", and " Unit serial number: ..." only when VPD page 0x80 is supported
 * (serial null otherwise). Labels are matched at the start of a line, so `sg_vpd`'s
 * "SAT Vendor identification:" is not taken for the device's own, and an empty value stays empty
 * instead of swallowing the next line. Values are trimmed of the INQUIRY field padding.
 */
export function parseSgInq(out: string): SgInquiry {
  const f = (label: string): string | null => {
    const m = new RegExp(`^[ \\t]*${label}:[ \\t]*(.*)$`, 'm').exec(out)
    const v = m?.[1].trim()
    return v ? v : null
  }
  const r = {vendor: f('Vendor identification'), product: f('Product identification'), revision: f('Product revision level'), serial: f('Unit serial number')}
  if (!r.vendor && !r.product) throw new Error(`no vendor/product identification in sg_inq output: ${out.trim().slice(0, 200)}`)
  return r
}

/**
 * `sdparm --get=WCE <dev>` (or an `sdparm <dev>` listing that includes the Caching mode page):
 * "WCE         1" (old sdparm), "WCE           0  [cha: y, def:  1]" or
 * "  WCE         1  [cha: y, def:  1, sav:  1]" -> true when the current value is 1.
 */
export function parseSdparmWce(out: string): boolean {
  const m = /^[ \t]*WCE[ \t]+(\d+)(?!\w)/m.exec(out)
  if (!m) throw new Error(`no WCE line in sdparm output (the device may have no Caching mode page): ${out.trim().slice(0, 200)}`)
  return m[1] === '1'
}
