/**
 * Minimal safety gate for destructive runs (issue 2 item 9; the full gate comes with the device
 * layer). Pure rules over gathered facts: refuse a block device that is mounted (or has a mounted
 * child), is used as swap, holds partitions, is in use by a holder (LVM, md, dm-crypt, ...), is
 * read-only or is not a whole disk; and refuse any destruction the operator did not confirm by
 * naming that device's path or serial.
 */

export interface BlockFacts {
  path: string
  name: string
  type: string
  serial: string | null
  readOnly: boolean
  mountpoints: string[]
  swap: boolean
  partitions: string[]
  holders: string[]
  childrenMounted: string[]
}

export function blockDeviceRefusals(f: BlockFacts): string[] {
  const reasons: string[] = []
  if (f.mountpoints.length > 0) reasons.push(`${f.path} is mounted at ${f.mountpoints.join(', ')}`)
  if (f.childrenMounted.length > 0) reasons.push(`a partition of ${f.path} is mounted (${f.childrenMounted.join(', ')})`)
  if (f.swap) reasons.push(`${f.path} is in use as swap`)
  if (f.partitions.length > 0) reasons.push(`${f.path} holds partitions (${f.partitions.join(', ')}); wipe the partition table first if this disk really is for testing`)
  if (f.holders.length > 0) reasons.push(`${f.path} is in use by ${f.holders.join(', ')} (LVM, md, dm-crypt or similar)`)
  if (f.readOnly) reasons.push(`${f.path} is read-only`)
  if (!['disk', 'loop'].includes(f.type)) reasons.push(`${f.path} is a ${f.type}, not a whole disk`)
  return reasons
}

/** True when `confirmation` names this device (its path, its /dev name or its serial). */
export function confirms(confirmation: string | undefined, f: {path: string; name: string; serial: string | null}): boolean {
  if (!confirmation) return false
  const c = confirmation.trim()
  return c === f.path || c === `/dev/${f.name}` || (f.serial !== null && f.serial !== '' && c === f.serial)
}
