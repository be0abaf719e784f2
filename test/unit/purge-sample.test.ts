import {expect} from 'chai'
import {zeroSampleBlocks} from '../../src/device/purge-plan.js'

describe('zero check after a discard: which blocks are read', () => {
  it('block 0 first, then blocks spread over the device, the same for the same seed', () => {
    const a = zeroSampleBlocks(1 << 20, 16, 42)
    expect(a).to.have.length(16)
    expect(a[0]).to.equal(0)
    expect(zeroSampleBlocks(1 << 20, 16, 42)).to.deep.equal(a)
    expect(zeroSampleBlocks(1 << 20, 16, 43)).to.not.deep.equal(a)
    for (const b of a) expect(b).to.be.within(0, (1 << 20) - 1)
    // spread, not clustered: the samples reach both halves of the device
    expect(a.some(b => b > 1 << 19)).to.equal(true)
    expect(a.slice(1).some(b => b < 1 << 19)).to.equal(true)
  })
  it('a device smaller than one block gives no read', () => {
    expect(zeroSampleBlocks(0, 16, 1)).to.deep.equal([])
  })
})
