import {expect} from 'chai'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {blockDeviceRefusals, confirms, type BlockFacts} from '../../src/device/safety.js'
import {refusals, type ResolvedTarget} from '../../src/device/target.js'
import {useTmpDir} from '../helpers/tmp.js'

const clean: BlockFacts = {path: '/dev/sdb', name: 'sdb', type: 'disk', serial: 'WD-WX12345678', readOnly: false, mountpoints: [], swap: false, partitions: [], holders: [], childrenMounted: []}

describe('safety gate rules (issue 2 item 9)', () => {
  const cases: Array<{name: string; facts: Partial<BlockFacts>; match: RegExp | null}> = [
    {name: 'a clean whole disk passes', facts: {}, match: null},
    {name: 'a clean loop device passes', facts: {type: 'loop', serial: null}, match: null},
    {name: 'mounted', facts: {mountpoints: ['/data']}, match: /mounted at \/data/},
    {name: 'a mounted partition', facts: {partitions: ['/dev/sdb1'], childrenMounted: ['/dev/sdb1 on /boot']}, match: /partition of \/dev\/sdb is mounted/},
    {name: 'partitions', facts: {partitions: ['/dev/sdb1', '/dev/sdb2']}, match: /holds partitions/},
    {name: 'swap', facts: {swap: true}, match: /swap/},
    {name: 'holders (LVM, md, dm-crypt)', facts: {holders: ['dm-0']}, match: /in use by dm-0/},
    {name: 'read-only', facts: {readOnly: true}, match: /read-only/},
    {name: 'a partition is not a whole disk', facts: {type: 'part', path: '/dev/sdb1'}, match: /not a whole disk/},
  ]
  for (const c of cases) {
    it(c.name, () => {
      const reasons = blockDeviceRefusals({...clean, ...c.facts})
      if (c.match === null) expect(reasons).to.deep.equal([])
      else expect(reasons.join('\n')).to.match(c.match)
    })
  }

  it('confirmation must name this device: serial or path, nothing else', () => {
    expect(confirms('WD-WX12345678', clean)).to.equal(true)
    expect(confirms('/dev/sdb', clean)).to.equal(true)
    expect(confirms('WD-WX1234567', clean)).to.equal(false)
    expect(confirms('/dev/sdc', clean)).to.equal(false)
    expect(confirms(undefined, clean)).to.equal(false)
    expect(confirms('', {...clean, serial: ''})).to.equal(false)
  })
})

describe('safety gate of an existing file target', () => {
  const tmp = useTmpDir('pts-safety-file-')
  const target = (path: string) => ({kind: 'file', path, sizeBytes: 4096, identity: {} as ResolvedTarget['identity'], facts: null, device: null, nonCompliant: [], createBytes: 4096}) as ResolvedTarget

  it('is confirmed by the path as the operator typed it (relative, with or without file:) or absolute; not by another file', () => {
    const dir = tmp()
    const abs = join(dir, 'demo.img')
    writeFileSync(abs, Buffer.alloc(4096, 1))
    const t = target(abs)
    const cwd = process.cwd()
    process.chdir(dir)
    try {
      expect(refusals(t, 'demo.img')).to.deep.equal([])
      expect(refusals(t, 'file:demo.img')).to.deep.equal([])
      expect(refusals(t, `./demo.img`)).to.deep.equal([])
      expect(refusals(t, abs)).to.deep.equal([])
      expect(refusals(t, 'other.img').join('\n')).to.match(/exists and holds 4096 bytes/)
      expect(refusals(t, undefined).join('\n')).to.match(/pass --yes-destroy-data /)
    } finally {
      process.chdir(cwd)
    }
  })
})
