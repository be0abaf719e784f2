/** Pure parsers for signature probes: `wipefs -n -J <dev>` and `blkid -p -o export <dev>`. */

export interface Signature { type: string; offset: string | null; usage: string | null }

export function parseWipefsJson(json: string): Signature[] {
  if (json.trim() === '') return []
  const o = JSON.parse(json) as {signatures?: Array<{type: string; offset?: string}>}
  return (o.signatures ?? []).map(s => ({type: s.type, offset: s.offset ?? null, usage: null}))
}

/** blkid -p -o export: KEY=value lines; TYPE (filesystem / raid / swap) and PTTYPE (partition table). */
export function parseBlkidExport(out: string): Signature[] {
  const kv = new Map<string, string>()
  for (const line of out.split('\n')) {
    const i = line.indexOf('=')
    if (i > 0) kv.set(line.slice(0, i).trim(), line.slice(i + 1).trim())
  }
  const sigs: Signature[] = []
  if (kv.has('TYPE')) sigs.push({type: kv.get('TYPE')!, offset: null, usage: kv.get('USAGE') ?? null})
  if (kv.has('PTTYPE')) sigs.push({type: kv.get('PTTYPE')!, offset: null, usage: 'partition table'})
  return sigs
}

/** fstype values that make a device a member of something else (LVM, md, ZFS, dm-crypt, bcache, ...). */
export const MEMBER_FSTYPES: Record<string, string> = {
  LVM2_member: 'LVM physical volume',
  linux_raid_member: 'md RAID member',
  zfs_member: 'ZFS pool member',
  crypto_LUKS: 'dm-crypt/LUKS container',
  bcache: 'bcache backing device',
  ceph_bluestore: 'Ceph BlueStore OSD',
  isw_raid_member: 'Intel RAID member',
  ddf_raid_member: 'DDF RAID member',
  btrfs: 'btrfs filesystem',
}
