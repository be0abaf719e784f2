/**
 * pts report of a run in progress hashes raw/ while fio may still rename its `.partial` output:
 * a file listed and then gone is left out; any other read error still fails (the serve
 * integration test met the race: "ENOENT ... 09-rw0-bs512b.json.partial" from pts report).
 */
import {expect} from 'chai'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {hashListed} from '../../src/report/load.js'
import {sha256} from '../../src/store/integrity.js'

describe('report load: raw files of a run in progress', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pts-report-load-'))
  after(() => rmSync(dir, {recursive: true, force: true}))
  mkdirSync(join(dir, 'raw', 'sub'), {recursive: true})
  writeFileSync(join(dir, 'raw', 'a.json'), '{"a":1}\n')

  it('leaves out a listed file that is gone by the time it is read (a renamed .partial)', () => {
    const got = hashListed(dir, ['raw/a.json', 'raw/b.json.partial'])
    expect(got).to.deep.equal([{path: 'raw/a.json', bytes: 8, sha256: sha256('{"a":1}\n')}])
  })

  it('still fails on any other read error (a directory where a file was listed)', () => {
    expect(() => hashListed(dir, ['raw/sub'])).to.throw(/EISDIR/)
  })
})
