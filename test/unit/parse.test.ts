import {expect} from 'chai'
import {readdirSync, readFileSync} from 'node:fs'
import {parseFioJson} from '../../src/engine/parse.js'
import {FioOutputError} from '../../src/errors.js'

const dir = new URL('../fixtures/fio/3.33/', import.meta.url)
const fixtures = readdirSync(dir).filter(f => f.endsWith('.json'))

describe('fio JSON parsing (fio 3.33 outputs captured from real runs)', () => {
  for (const f of fixtures) {
    it(`${f}: totals agree with fio's own "mixed" statistics, units converted once`, () => {
      const text = readFileSync(new URL(f, dir), 'utf8')
      const raw = JSON.parse(text)
      const j = raw.jobs[0]
      const parsed = parseFioJson(text)
      const m = parsed.groups[0].measurement
      expect(parsed.fioVersion).to.equal('fio-3.33')
      // fio's unified "mixed" section is an independent oracle: all IOs of the point together.
      expect(m.iops).to.be.closeTo(j.mixed.iops, j.mixed.iops * 1e-9 + 1e-9)
      expect(m.ioCount).to.equal(j.mixed.total_ios)
      expect(m.latMeanNs).to.be.closeTo(j.mixed.lat_ns.mean, j.mixed.lat_ns.mean * 1e-6)
      expect(m.latMaxNs).to.equal(j.mixed.lat_ns.max)
      expect(m.latP99999Ns).to.equal(j.mixed.lat_ns.percentile['99.999000'])
      expect(m.bwBytesPerSec).to.be.closeTo(j.mixed.bw_bytes, j.mixed.bw_bytes * 1e-9 + 1)
      expect(m.readIops + m.writeIops).to.equal(m.iops)
      expect(m.runtimeSec).to.equal(Math.max(j.read.runtime, j.write.runtime) / 1000)
      expect(m.readBytes + m.writeBytes).to.equal(j.mixed.io_bytes)
    })
  }

  it('mixed IOPS is read + write, not a mix-weighted average (digest Part A 4)', () => {
    const m = parseFioJson(readFileSync(new URL('19-rw65-bs64k.json', dir), 'utf8')).groups[0].measurement
    expect(m.readIops).to.be.greaterThan(0)
    expect(m.writeIops).to.be.greaterThan(0)
    expect(m.iops).to.be.greaterThan(0.65 * m.readIops + 0.35 * m.writeIops)
  })

  it('WIPC: written bytes are exactly what the job asked for', () => {
    const m = parseFioJson(readFileSync(new URL('wipc.json', dir), 'utf8')).groups[0].measurement
    const job = readFileSync(new URL('wipc.fio', dir), 'utf8')
    const asked = [...job.matchAll(/^io_size=(\d+)$/gm)].reduce((a, x) => a + Number(x[1]), 0)
    expect(m.writeBytes).to.equal(asked)
    expect(m.readBytes).to.equal(0)
  })

  it('keeps fio notes before the JSON, rejects what is not fio JSON', () => {
    const text = readFileSync(new URL('55-rw0-bs4k.json', dir), 'utf8')
    expect(parseFioJson(`note: something\n${text}`).preamble).to.deep.equal(['note: something'])
    expect(() => parseFioJson('fio: job failed')).to.throw(FioOutputError, /no JSON/)
    expect(() => parseFioJson(text.slice(0, 500))).to.throw(FioOutputError, /not valid fio JSON/)
    expect(() => parseFioJson('{"jobs": []}')).to.throw(FioOutputError)
  })
})
