/** Pure parsers for hdparm: `hdparm -I` (identify) and `hdparm -W` (write-caching flag). */

export interface HdparmIdentify {
  model: string | null
  serial: string | null
  firmware: string | null
  logicalSectorBytes: number | null
  physicalSectorBytes: number | null
  rotational: boolean | null
  trim: boolean
  writeCacheSupported: boolean
  writeCacheEnabled: boolean | null
  sanitizeFeature: boolean
  blockEraseExt: boolean
  cryptoScrambleExt: boolean
  security: {
    supported: boolean
    enabled: boolean
    locked: boolean
    frozen: boolean
    expired: boolean
    enhancedErase: boolean
  } | null
}

function field(text: string, label: string): string | null {
  const m = new RegExp(`^\\s*${label}:\\s*(.*)$`, 'm').exec(text)
  const v = m?.[1].trim()
  return v ? v : null
}

export function parseHdparmIdentify(out: string): HdparmIdentify {
  if (!/ATA device|Model Number:/.test(out)) throw new Error('not hdparm -I output of an ATA device')
  const logical = /Logical\s+Sector size:\s+(\d+)\s+bytes/.exec(out)
  const physical = /Physical Sector size:\s+(\d+)\s+bytes/.exec(out)
  const rot = /Nominal Media Rotation Rate:\s*(.+)$/m.exec(out)
  const wc = /^\s*(\*?)\s*Write cache\s*$/m.exec(out)
  const secIdx = out.search(/^Security:/m)
  let security: HdparmIdentify['security'] = null
  if (secIdx >= 0) {
    const bodyStart = out.indexOf('\n', secIdx) + 1
    const body = bodyStart > 0 ? out.slice(bodyStart) : ''
    const end = body.search(/^\S/m)
    const sec = end >= 0 ? body.slice(0, end) : body
    // Lines look like "\t\tsupported" or "\tnot\tenabled"
    const state = (word: string): boolean => {
      const m = new RegExp(`^\\s*(not\\s+)?${word}\\b`, 'm').exec(sec)
      return m !== null && !m[1]
    }
    security = {
      supported: state('supported'),
      enabled: state('enabled'),
      locked: state('locked'),
      frozen: state('frozen'),
      expired: state('expired'),
      enhancedErase: /^\s*supported:\s*enhanced erase/m.test(sec),
    }
  }
  return {
    model: field(out, 'Model Number'),
    serial: field(out, 'Serial Number'),
    firmware: field(out, 'Firmware Revision'),
    logicalSectorBytes: logical ? Number(logical[1]) : null,
    physicalSectorBytes: physical ? Number(physical[1]) : null,
    rotational: rot ? !/Solid State/i.test(rot[1]) : null,
    trim: /Data Set Management TRIM supported/.test(out),
    writeCacheSupported: wc !== null,
    writeCacheEnabled: wc ? wc[1] === '*' : null,
    sanitizeFeature: /SANITIZE feature set/.test(out),
    blockEraseExt: /BLOCK_ERASE_EXT/.test(out),
    cryptoScrambleExt: /CRYPTO_SCRAMBLE_EXT/.test(out),
    security,
  }
}

/** `hdparm -W <dev>` or `hdparm -W0|-W1 <dev>`: the final " write-caching =  1 (on)" line. */
export function parseHdparmWriteCache(out: string): boolean {
  const all = [...out.matchAll(/write-caching\s*=\s*(\d)/g)]
  if (all.length === 0) throw new Error(`no "write-caching =" line in hdparm output: ${out.trim().slice(0, 200)}`)
  return all[all.length - 1][1] === '1'
}
