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

/**
 * The full safety gate (issue 4 item 2): BlockFacts plus what discovery learns about descendants
 * (partitions, LVM/dm/md children and their mounts), root/boot backing and on-disk signatures.
 */
export interface SafetyFacts extends BlockFacts {
  /** Filesystem type reported for the device itself (lsblk/blkid), e.g. LVM2_member or ext4. */
  fstype: string | null
  /** Mounts of any descendant (partition, LVM LV, dm-crypt, md), as "<path> on <mountpoint>". */
  descendantMounts: string[]
  /** Descendants used as swap. */
  descendantSwap: string[]
  /** "/" or "/boot" (or /boot/efi) mounted on the device or any descendant. */
  rootOrBoot: string[]
  /** Descendants that are lvm / crypt / raid* / dm nodes ("dm-0 (lvm)"). */
  stackedChildren: string[]
  /** Signatures found by wipefs -n / blkid -p (types, e.g. "ext4", "gpt", "PMBR", "swap"). */
  signatures: string[]
}

export interface SafetyOptions {
  /** Allow a partition as target (then the run is marked non-compliant). Never bypasses mounted/swap/root. */
  allowPartition?: boolean
}

export interface SafetyVerdict {
  /** True when there is nothing to refuse (confirmation is judged separately by confirms()). */
  proceed: boolean
  refusals: string[]
  /** Reasons the run would be non-compliant even though it may proceed. */
  nonCompliant: string[]
}

const MEMBER: Record<string, string> = {
  LVM2_member: 'an LVM physical volume',
  linux_raid_member: 'an md RAID member',
  zfs_member: 'a ZFS pool member',
  crypto_LUKS: 'a dm-crypt/LUKS container',
  bcache: 'a bcache backing device',
  ceph_bluestore: 'a Ceph BlueStore OSD',
  isw_raid_member: 'an Intel RAID member',
  ddf_raid_member: 'a DDF RAID member',
}

export function safetyVerdict(f: SafetyFacts, opts: SafetyOptions = {}): SafetyVerdict {
  const refusals: string[] = []
  const nonCompliant: string[] = []
  const mounts = f.mountpoints.filter(m => m !== '[SWAP]')
  // hard refusals: nothing bypasses these
  if (mounts.length > 0) refusals.push(`${f.path} is mounted at ${mounts.join(', ')}`)
  const childMounts = [...new Set([...f.childrenMounted, ...f.descendantMounts])].filter(m => !/ on \[SWAP\]$/.test(m))
  if (childMounts.length > 0) refusals.push(`a partition or volume on ${f.path} is mounted (${childMounts.join(', ')})`)
  if (f.swap || f.mountpoints.includes('[SWAP]')) refusals.push(`${f.path} is in use as swap`)
  if (f.descendantSwap.length > 0) refusals.push(`${f.descendantSwap.join(', ')} on ${f.path} is in use as swap`)
  if (f.rootOrBoot.length > 0) refusals.push(`${f.path} backs the root or boot filesystem (${f.rootOrBoot.join(', ')})`)
  // in use by something else
  if (f.holders.length > 0) refusals.push(`${f.path} is in use by ${f.holders.join(', ')} (LVM, md, dm-crypt or similar)`)
  if (f.stackedChildren.length > 0) refusals.push(`${f.path} carries stacked devices: ${f.stackedChildren.join(', ')} (LVM, md, dm-crypt)`)
  if (f.fstype && MEMBER[f.fstype]) refusals.push(`${f.path} is ${MEMBER[f.fstype]} (${f.fstype})`)
  // contents
  if (f.partitions.length > 0) refusals.push(`${f.path} holds partitions (${f.partitions.join(', ')}); wipe the partition table first if this disk really is for testing`)
  const sigs = [...new Set(f.signatures)].filter(s => !(f.fstype && MEMBER[f.fstype] && s === f.fstype))
  if (sigs.length > 0) refusals.push(`${f.path} carries a filesystem, RAID or partition-table signature (${sigs.join(', ')}); check with wipefs -n ${f.path} and erase it with wipefs -a if this disk really is for testing`)
  else if (f.fstype && !MEMBER[f.fstype] && f.fstype !== 'swap') refusals.push(`${f.path} carries a ${f.fstype} filesystem`)
  if (f.readOnly) refusals.push(`${f.path} is read-only`)
  if (f.type === 'part') {
    if (opts.allowPartition) nonCompliant.push(`${f.path} is a partition, not a whole device (allowed by the operator; the PTS needs the whole device)`)
    else refusals.push(`${f.path} is a partition, not a whole disk (allowed only with an explicit option, and then non-compliant)`)
  } else if (!['disk', 'loop'].includes(f.type)) {
    refusals.push(`${f.path} is a ${f.type}, not a whole disk`)
  }
  // A loop device is a file seen as a block device: it may be tested, but it is not a drive.
  if (f.type === 'loop') nonCompliant.push(`${f.path} is a loop device (a file behind a block device), not a drive`)
  return {proceed: refusals.length === 0, refusals, nonCompliant}
}
