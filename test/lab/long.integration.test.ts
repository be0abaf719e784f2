/**
 * Lab tier, long (only with PTS_LAB_LONG=1): a short IOPS run and a short LAT run end to end on the
 * emulated NVMe drive inside the guest, with --purge auto (Format NVM SES 1, proven by read-back),
 * then the report rendered (Chromium, on the host: the run directory is shared) and the audit
 * passing. Under TCG a run's ~300 fio starts take several minutes, beyond the default lab budget.
 */
import {expect} from 'chai'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {runCli} from '../helpers/cli.js'
import {LAB_SERIALS, type Lab} from '../helpers/lab.js'
import {DEV, sharedLab} from './shared.js'

const LONG = process.env.PTS_LAB_LONG === '1'

describe('lab (long): short IOPS and LAT runs on the emulated NVMe drive, reported and audited', function () {
  this.timeout(3_600_000)
  let lab: Lab
  before(async function () {
    if (!LONG) {
      const reason = 'skipped: the end-to-end IOPS and LAT runs in the lab guest take longer than the default lab budget; set PTS_LAB_LONG=1 to run them'
      process.stderr.write(`${reason}\n`)
      this.skip()
    }
    lab = await sharedLab(this)
  })

  for (const test of ['iops', 'lat']) {
    it(`${test}: --purge auto, run, report, audit`, async () => {
      const dir = join(lab.shareDir, `long-${test}`)
      const r = await lab.pts(`run ${test} --device ${DEV.nvme} --yes-destroy-data ${LAB_SERIALS.nvme} --purge auto --point-seconds 0.2 --max-rounds 5 --time-scale 0.01 --tc 1 --qd 4 --wipc-multiple 1 --out ${dir}`, {timeoutMs: 3_000_000})
      expect(r.code, r.stderr.slice(-3000)).to.equal(0)
      const purge = JSON.parse(readFileSync(join(dir, 'raw/01-purge.purge.json'), 'utf8')) as {method: string; verification: {patternLeft: number}}
      expect([purge.method, purge.verification.patternLeft]).to.deep.equal(['nvme-format-ses1', 0])
      const rep = await runCli(['report', dir])
      expect(rep.code, rep.stderr).to.equal(0)
      expect(existsSync(join(dir, 'report.pdf'))).to.equal(true)
      const audit = await runCli(['audit', dir, '--json', '--max-gap-ms', '5000'])
      expect(audit.code, audit.stdout.slice(-3000)).to.equal(0)
    })
  }
})
