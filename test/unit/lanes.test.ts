import {expect} from 'chai'
import {fleetExit, fleetStatus, laneArgv, laneDirName, laneStatusOf, lanesToResume, sharedArgs, type FleetIndex} from '../../src/fleet/model.js'
import {cvPct, headlineNumber, median, shownDecimals, variationOf, type FleetRunInput} from '../../src/report/fleet/model.js'
import {fmtNumber} from '../../src/report/fleet/html.js'
import {cpuUseBetween, parseProcStat} from '../../src/model/manifest.js'
import {etaText, percentDone, progressLine, withSuite} from '../../src/progress.js'

describe('lanes: fleet model (pure)', () => {
  it('names lane directories by number and device, file-system safe', () => {
    expect(laneDirName(1, '/dev/nvme1n1')).to.equal('01-nvme1n1')
    expect(laneDirName(12, 'file:/scratch/a b.img')).to.equal('12-file-a_b.img')
    expect(laneDirName(3, '/dev/disk/by-id/nvme-ACME_123')).to.equal('03-disk_by-id_nvme-ACME_123')
  })

  it('forwards every flag but --device, --out and --json to each lane, every --yes-destroy-data included', () => {
    const shared = sharedArgs(['iops', '--device', '/dev/a', '-d', '/dev/b', '--device=/dev/c', '--out', '/r', '--yes-destroy-data', 'S1', '--yes-destroy-data=S2', '--json', '--point-seconds', '5'])
    expect(shared).to.deep.equal(['iops', '--yes-destroy-data', 'S1', '--yes-destroy-data=S2', '--point-seconds', '5'])
    expect(laneArgv('iops', '/dev/b', '/r/02-b', shared)).to.deep.equal(['run', 'iops', '--device', '/dev/b', '--out', '/r/02-b', '--yes-destroy-data', 'S1', '--yes-destroy-data=S2', '--point-seconds', '5', '--json'])
  })

  it('exit code: 0 when every lane completed, else 64 + one bit per lane that did not (lanes from 6 on share bit 32)', () => {
    const lanes = (st: string[]) => st.map((status, i) => ({index: i + 1, status: status as 'complete'}))
    expect(fleetExit(lanes(['complete', 'complete']))).to.equal(0)
    expect(fleetExit(lanes(['complete', 'failed', 'complete', 'refused']))).to.equal(64 + 2 + 8)
    expect(fleetExit(lanes(['failed', 'complete', 'complete', 'complete', 'complete', 'complete', 'interrupted']))).to.equal(64 + 1 + 32)
    expect(laneStatusOf(0)).to.equal('complete')
    expect(laneStatusOf(4)).to.equal('refused')
    expect(laneStatusOf(130)).to.equal('interrupted')
    expect(laneStatusOf(6)).to.equal('failed')
  })

  it('fleet status and the lanes pts resume runs again (not complete, not refused)', () => {
    const f = {lanes: [{index: 1, status: 'complete'}, {index: 2, status: 'refused'}, {index: 3, status: 'interrupted'}, {index: 4, status: 'failed'}, {index: 5, status: 'running'}]} as unknown as FleetIndex
    expect(lanesToResume(f).map(l => l.index)).to.deep.equal([3, 4, 5])
    expect(fleetStatus(f.lanes)).to.equal('running')
    expect(fleetStatus([{status: 'complete'}, {status: 'refused'}])).to.equal('failed')
    expect(fleetStatus([{status: 'complete'}, {status: 'complete'}])).to.equal('complete')
  })
})

describe('lanes: fleet report model (pure)', () => {
  it('reads the number and unit of a headline value as its report shows it', () => {
    expect(headlineNumber('12,345 IOPS')).to.deep.equal({value: 12345, unit: 'IOPS'})
    expect(headlineNumber('1,234.5 MB/s')).to.deep.equal({value: 1234.5, unit: 'MB/s'})
    expect(headlineNumber('0.123 ms (histogram runs)')).to.deep.equal({value: 0.123, unit: 'ms'})
    expect(headlineNumber('n/a (not measured)')).to.equal(null)
    expect(headlineNumber('1.0 / 2.0 / 3.0 ms')).to.equal(null)
  })

  it('median and coefficient of variation (sample standard deviation / mean)', () => {
    expect(median([3, 1, 2])).to.equal(2)
    expect(median([4, 1, 2, 3])).to.equal(2.5)
    // values 90, 100, 110: mean 100, sample sd 10
    expect(cvPct([90, 100, 110])).to.be.closeTo(10, 1e-9)
    expect(cvPct([5])).to.equal(null)
  })

  it('variation per model and test over distinct drives; a model with one drive has none', () => {
    const row = (serial: string, model: string, v: string): FleetRunInput => ({dir: serial, lane: 1, device: `/dev/${serial}`, model, serial, firmware: '1', test: 'iops', status: 'complete', compliant: true,
      verdict: 'ok', headline: [{label: 'RND 4KiB write', value: v}], concurrentDrives: 3, hostCpuBusyPct: 40})
    const {variation, single} = variationOf([row('A', 'M1', '1,000 IOPS'), row('B', 'M1', '1,200 IOPS'), row('C', 'M1', '800 IOPS'), row('D', 'M2', '5 IOPS')])
    expect(variation).to.have.length(1)
    expect(variation[0]).to.include({model: 'M1', label: 'RND 4KiB write', unit: 'IOPS', n: 3, min: 800, median: 1000, max: 1200})
    expect(variation[0].cvPct).to.be.closeTo(20, 1e-9)
    expect(single).to.deep.equal(['M2 (iops)'])
  })

  // Seen on the fleet report of a two-lane run: the lanes' reports said 283.9 and 421.2 MB/s, 2.902 and
  // 2.299 ms; the variation table said 284 / 353 / 421 MB/s and 2.30 / 2.60 / 2.90 ms
  it('the variation is printed with the decimals the reports print: MB/s to 0.1, ms to 0.001, IOPS whole', () => {
    expect([shownDecimals('6,559 IOPS'), shownDecimals('283.9 MB/s'), shownDecimals('2.902 ms'), shownDecimals('20.316 ms (1,617 IOs)')]).to.deep.equal([0, 1, 3, 3])
    const row = (serial: string, mbps: string, ms: string): FleetRunInput => ({dir: serial, lane: 1, device: `/dev/${serial}`, model: 'M', serial, firmware: '1', test: 'tp', status: 'complete', compliant: true,
      verdict: 'ok', headline: [{label: 'SEQ 1024KiB write', value: mbps}, {label: 'ART 4KiB W', value: ms}], concurrentDrives: 2, hostCpuBusyPct: 40})
    const {variation} = variationOf([row('A', '283.9 MB/s', '2.902 ms'), row('B', '420.1 MB/s', '2.299 ms')])
    const [mb, ms] = variation
    expect([mb.decimals, ms.decimals]).to.deep.equal([1, 3])
    expect([mb.min, mb.median, mb.max].map(v => fmtNumber(v, mb.decimals))).to.deep.equal(['283.9', '352.0', '420.1'])
    expect([ms.min, ms.median, ms.max].map(v => fmtNumber(v, ms.decimals))).to.deep.equal(['2.299', '2.601', '2.902'])
  })
})

describe('lanes: host CPU use from /proc/stat (pure)', () => {
  const stat = (user: number, system: number, idle: number, iowait: number) => `cpu  ${user} 0 ${system} ${idle} ${iowait} 0 0 0 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\nintr 5\n`
  it('the percentages of user, system, iowait and busy time between two snapshots', () => {
    const a = parseProcStat(stat(100, 50, 800, 50))!
    const b = parseProcStat(stat(200, 100, 1000, 100))!
    expect(a.cpus).to.equal(2)
    const u = cpuUseBetween(a, b, 'x', 'y')
    // deltas: user 100, system 50, idle 200, iowait 50 of 400
    expect(u).to.include({userPct: 25, systemPct: 12.5, iowaitPct: 12.5, busyPct: 37.5, cpus: 2})
    expect(parseProcStat('nothing')).to.equal(null)
  })
})

describe('terminal progress line (pure)', () => {
  const now = Date.parse('2026-12-04T10:00:00Z')
  const view = {label: '[1 /dev/nvme1n1]', pct: 42, etaSec: {min: 3600, max: 7200}, nowMs: now, steady: 'SS: needs 5 rounds',
    detail: 'iops loop | round 3/25 | point 17/56 RND 64KiB R/W 65/35 | IOPS 12345 / 23456 / 34567'}

  it('fits every terminal width and keeps the steady-state status whole down to 80 columns', () => {
    for (const width of [200, 120, 100, 80, 60, 40]) {
      const line = progressLine(width, view)
      expect([...line].length, `width ${width}: ${line}`).to.be.at.most(width - 1)
      if (width >= 80) expect(line, `width ${width}`).to.include('SS: needs 5 rounds')
      expect(line).to.include('42%')
    }
    const wide = progressLine(200, view)
    expect(wide).to.include('ETA 1h 00m 00s..2h 00m 00s (done 11:00Z..12:00Z)')
    expect(wide).to.include('point 17/56')
    expect(wide).to.match(/█+░+/)
  })

  it('percent from the elapsed time and the minimum time left; a suite adds its later tests', () => {
    expect(percentDone(30, {min: 90})).to.equal(25)
    expect(percentDone(30, {min: 0})).to.equal(99.9)
    expect(percentDone(30, undefined)).to.equal(null)
    expect(withSuite({min: 10, max: 20}, {index: 1, of: 3, laterMinSec: 100, laterMaxSec: 1000})).to.deep.equal({min: 110, max: 1020})
    expect(etaText({min: 90, max: 90}, now)).to.equal('ETA 1m 30s (done 10:01Z)')
  })
})
