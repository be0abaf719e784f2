/**
 * Report model and chart specs of the stored fixture run (a real short fio IOPS run, captured by
 * test/fixtures/runs/capture.sh) against goldens in test/golden/report/iops-file-short/.
 * Regenerate: UPDATE_GOLDEN=1 npx mocha test/report/   (then review the diff).
 */
import {expect} from 'chai'
import {fitFormula, fmtIops, fmtMBps, fmtMs} from '../../src/report/format.js'
import {loadRun} from '../../src/report/load.js'
import {createHash} from 'node:crypto'
import {computeSeal} from '../../src/store/integrity.js'
import {formatCapacity} from '../../src/units.js'
import {buildProgramReportModel, type ProgramReportModel} from '../../src/report/model.js'
import {programCsv, windowsCsv} from '../../src/report/csv.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import {loopPhases} from '../../src/analysis/loop-view.js'
import {expectGolden, FIXTURE, GENERATED_AT} from './helpers.js'

describe('report model (fixture iops-file-short)', () => {
  const run = loadRun(FIXTURE)
  const build = (): ProgramReportModel => buildProgramReportModel({manifest: run.manifest, results: run.results, rawFiles: run.rawFiles, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS.iops!)
  const model = build()
  // the stored v1 run, read as phases: its one loop phase
  const loop = loopPhases(run.results)[0]

  it('matches the golden model', () => {
    expectGolden('model.json', model)
  })

  it('is deterministic and does not depend on where the run directory is', () => {
    const again = build()
    expect(again).to.deep.equal(model)
    expect(JSON.stringify(model)).not.to.include(run.runDir)
  })

  it('has the IOPS page list, numbered n of N, with "Plot A.n" captions', () => {
    // the summary, then its continuation page(s) when its lists do not fit under the header (layout-estimate.ts)
    const n = model.pages.filter(p => p.kind === 'summary').length
    expect(model.pages.slice(0, n).map(p => p.title)).to.deep.equal(['IOPS Test - Summary', ...Array(n - 1).fill('IOPS Test - Summary (continued)')])
    const titles = model.pages.slice(n).map(p => p.title)
    expect(titles.slice(0, 9)).to.deep.equal([
      'IOPS Steady State Convergence Plot - All Block Sizes',
      'IOPS Steady State Measurement Window',
      'IOPS Steady State Measurement Window - RND 4KiB R/W 0/100',
      'IOPS Steady State Measurement Window - RND 64KiB R/W 65/35',
      'IOPS Steady State Measurement Window - RND 1024KiB R/W 100/0',
      'IOPS - All RW Mix & BS - Tabular Data',
      'IOPS - All RW Mix & BS - 2D Plot',
      'IOPS - All RW Mix & BS - Heat Map',
      'Bandwidth & Response Time - All RW Mix & BS - Tabular Data',
    ])
    // then the drive health page (not recorded: the run predates it; no "Plot A.n") and one appendix page (the seal), whatever the number of raw files (674 here)
    expect(model.pages).to.have.length(n + 11)
    expect(model.pages[n + 9]).to.include({title: 'Drive Health and Temperature', caption: 'Drive Health and Temperature'})
    expect(model.pages[n + 10].kind).to.equal('appendix')
    expect(model.pages[n + 1].caption).to.equal('Plot A.2 - IOPS Steady State Measurement Window')
    expect(model.pages[n + 8].caption).to.match(/^Plot A\.9 - /)
    model.pages.forEach((p, i) => expect(p.pageLabel).to.equal(`Page ${i + 1} of ${model.pages.length}`))
  })

  it('appendix: one page with the seal hash (SHA-256 of the manifest\'s list as sha256sum lines), where the list is, how to check it', () => {
    // the fixture was stored before pts sealed runs: seal it here, as pts run does when a run ends
    const manifest = {...run.manifest, integrity: computeSeal(FIXTURE, new Date('2026-12-01T00:00:00Z'))}
    const sealed = buildProgramReportModel({manifest, results: run.results, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS.iops!)
    const pages = sealed.pages.filter(p => p.kind === 'appendix')
    expect(pages).to.have.length(1)
    const a = pages[0].appendix!
    expect(pages[0].title).to.equal('Appendix - Raw Data and Seal')
    const files = manifest.integrity.files
    expect(files).to.have.length(675)
    const list = files.map(f => `${f.sha256}  ${f.path}\n`).join('')
    expect(a.sealHash).to.equal(createHash('sha256').update(list).digest('hex'))
    const row = (l: string) => a.rows.find(r => r.label === l)?.value
    expect(row('Seal hash (SHA-256)')).to.equal(a.sealHash)
    expect(row('Files sealed')).to.match(new RegExp(`^${files.length} \\(.*\\): results\\.json and ${files.length - 1} files under raw/`))
    expect(row('Full list')).to.include('manifest.json').and.include('/integrity/files')
    expect(a.check.map(c => c.command)).to.deep.equal(['pts audit <run directory>', 'jq -r \'.integrity.files[] | "\\(.sha256)  \\(.path)"\' manifest.json | sha256sum -c'])
  })

  it('appendix of a run without a seal says so', () => {
    const m = buildProgramReportModel({manifest: {...run.manifest, integrity: null}, results: run.results, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS.iops!)
    const a = m.pages.at(-1)!.appendix!
    expect(a.sealHash).to.equal(null)
    expect(a.rows[0].value).to.match(/^none: manifest\.json lists no SHA-256/)
  })

  it('summary: the run-timing verdict of pts audit (durations and idle gaps, same functions), FAIL when a point overran its bound', () => {
    const t = model.pages[0].summary!.timing
    expect(t.verdict).to.equal('PASS')
    expect(t.lines[0]).to.match(/^Step durations: 336 fio steps: no step shorter than its length, every overrun within its bound; largest overrun \d+ ms/)
    expect(t.lines[1]).to.match(/^Idle gaps: 335 gaps between steps: median [\d.]+ ms, max [\d.]+ ms \(limit 1000 ms\)\.$/)
    const results = structuredClone(run.results)
    const p = loopPhases(results)[0].rounds[2].points[5]
    p.timing = {plannedSec: 0.2, overrunSec: 0.3, overrunLimitSec: 0.05, gapBeforeMs: 12}
    const bad = buildProgramReportModel({manifest: run.manifest, results, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS.iops!).pages[0].summary!.timing
    expect(bad.ok).to.equal(false)
    expect(bad.verdict).to.equal('FAIL')
    expect(bad.lines.join('\n')).to.match(/Beyond its bound: raw\/round-03\/06-.*: fio ran 0\.5 s for 0\.2 s, an overrun of 300 ms beyond its bound of 50 ms/)
  })

  it('header: NOT ACHIEVED, non-compliant with reasons, window 2-6, fio version', () => {
    const h = model.header
    expect(h.title).to.equal('IOPS Test - Report Page')
    expect(h.revision).to.equal('PTS 2.0.2')
    expect(h.steadyState).to.equal('Rounds 2-6 (NOT ACHIEVED)')
    expect(h.compliant).to.equal(false)
    expect(h.reasons).to.include('no purge')
    expect(h.device.find(d => d.label === 'S/N')?.value).to.equal('none')
    expect(h.platform.find(d => d.label === 'Test SW')?.value).to.include('fio-3.33')
    expect(h.setup.find(d => d.label === 'Pre Condition 1')?.value).to.equal('SEQ 128KiB W')
    // a file target stored by an older pts: no operator, no platform facts
    expect(h.testedBy).to.equal(`pts ${run.manifest.tool.version} on ${run.manifest.host.hostname}`)
    expect(['PCIe link', 'Sector size'].map(l => h.device.find(d => d.label === l)?.value)).to.deep.equal(['not available', 'not available (file target)'])
    expect(['NUMA node', 'I/O scheduler', 'Notes'].map(l => h.platform.find(d => d.label === l)?.value)).to.deep.equal(['not available', 'not available', undefined])
  })

  it('header: --operator, --vendor, --notes and the discovered platform facts', () => {
    const manifest = structuredClone(run.manifest)
    manifest.metadata = {operator: 'ACME Labs, J. Doe', vendor: 'ACME', notes: 'FW 1.2 RC2, slot 3'}
    manifest.target = {...manifest.target, kind: 'block', path: '/dev/nvme1n1',
      identity: {...manifest.target.identity, vendor: null, interface: 'nvme', logicalSectorBytes: 512, physicalSectorBytes: 4096, pcieLinkSpeed: '8.0 GT/s PCIe', pcieLinkWidth: 2, pcieMaxLinkSpeed: '8.0 GT/s PCIe', pcieMaxLinkWidth: 4, numaNode: 1, ioScheduler: 'none'}}
    const h = buildProgramReportModel({manifest, results: run.results, rawFiles: run.rawFiles, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS.iops!).header
    expect([h.vendor, h.testedBy]).to.deep.equal(['ACME', `ACME Labs, J. Doe (pts ${manifest.tool.version} on ${manifest.host.hostname})`])
    const kv = (list: Array<{label: string; value: string}>, l: string) => list.find(d => d.label === l)?.value
    expect(['Vendor', 'PCIe link', 'Sector size'].map(l => kv(h.device, l))).to.deep.equal(['ACME', '8.0 GT/s PCIe x2 (max 8.0 GT/s PCIe x4)', '512 B logical, 4096 B physical'])
    expect(['NUMA node', 'I/O scheduler', 'Notes'].map(l => kv(h.platform, l))).to.deep.equal(['1', 'none', 'FW 1.2 RC2, slot 3'])
    // a vendor the device reports differently is shown beside the operator's
    manifest.target.identity.vendor = 'ATA'
    const h2 = buildProgramReportModel({manifest, results: run.results, rawFiles: run.rawFiles, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS.iops!).header
    expect(kv(h2.device, 'Vendor')).to.equal('ACME (the device reports "ATA")')
  })

  it('reads headline numbers and the matrix from the window averages, without recomputing', () => {
    const w = (rp: number, bs: number) => loop.windowAverages.find(x => x.readPct === rp && x.blockSizeBytes === bs)!
    const headline = model.pages[0].summary!.headline
    expect(headline[0].value).to.equal(`${fmtIops(w(100, 4096).iops)} IOPS`)
    expect(headline[1].value).to.equal(`${fmtIops(w(0, 4096).iops)} IOPS`)
    expect(headline[2].value).to.equal(`${fmtIops(w(65, 65536).iops)} IOPS`)
    expect(headline[3].value).to.equal(`${fmtMBps(w(100, 1048576).bwBytesPerSec)} MB/s`)
    const table = model.pages.find(p => p.title === 'IOPS - All RW Mix & BS - Tabular Data')!.tables[0]
    expect(table.columns).to.deep.equal(['Block Size', '0/100', '5/95', '35/65', '50/50', '65/35', '95/5', '100/0'])
    expect(table.rows.map(r => r.label)).to.deep.equal(['0.5KiB', '4KiB', '8KiB', '16KiB', '32KiB', '64KiB', '128KiB', '1024KiB'])
    expect(table.rows[1].cells[0]).to.equal(fmtIops(w(0, 4096).iops))
  })

  it('determination data as in digest B §3.2, from results.json', () => {
    const d = model.pages.find(p => p.kind === 'closeup')!.determination!
    const v = loop.steadyState.variables[0]
    expect(d.id).to.equal(v.id)
    const row = (l: string) => d.rows.find(r => r.label.startsWith(l))!.value
    // IOPS as integers; the fit keeps one decimal
    expect(row('Average')).to.equal('38,788 IOPS')
    expect(row('Allowed Max Data Excursion')).to.equal('7,758 IOPS')
    expect(row('Measured Max Data Excursion')).to.equal('18,239 IOPS (FAIL)')
    expect(row('Least Squares Linear Fit Formula')).to.equal(fitFormula(v.slope, v.intercept, 1))
    expect(fitFormula(-6.4, 11746)).to.equal('-6.400 * R + 11746.000')
    expect(fitFormula(2, -3.5)).to.equal('2.000 * R - 3.500')
  })

  it('formats: IOPS integers with separators, MB/s 1 decimal, ms 3 decimals, capacity decimal to 0.1 with the binary size', () => {
    expect(fmtIops(38788.0597)).to.equal('38,788')
    expect(fmtMBps(673769563)).to.equal('673.8')
    expect(formatCapacity(268435456)).to.equal('268.4 MB (256 MiB)')
    expect(formatCapacity(67108864)).to.equal('67.1 MB (64 MiB)')
    expect(formatCapacity(1000204886016)).to.equal('1.0 TB (931.5 GiB)')
    expect(formatCapacity(512110190592)).to.equal('512.1 GB (476.9 GiB)')
    expect(formatCapacity(4096)).to.equal('4.1 kB (4 KiB)')
    expect(model.header.device.find(d => d.label === 'Capacity')?.value).to.equal('67.1 MB (64 MiB)')
    expect(fmtMs(25978252.67)).to.equal('25.978')
  })

  describe('chart specs', () => {
    const specs = model.charts
    it('one spec per chart page, ids by test and page', () => {
      const ids = model.pages.map(p => p.chart).filter((c): c is string => c !== null)
      expect(Object.keys(specs).sort()).to.deep.equal([...ids].sort())
      const n = model.pages.filter(p => p.kind === 'summary').length
      expect(model.pages.map(p => p.chart)).to.deep.equal([...Array(n).fill(null), 'iops-1', 'iops-2', 'iops-3', 'iops-4', 'iops-5', null, 'iops-7', 'iops-8', null, ...Array(model.pages.length - n - 9).fill(null)])
    })
    // golden file names: the chart ids of the earlier report model, found here by the page they are on
    const byPage = (title: string) => model.pages.find(p => p.title === title)!.chart!
    const closeup = (id: string) => model.pages.find(p => p.kind === 'closeup' && p.determination?.id === id)!.chart!
    const golden: Array<[string, () => string]> = [
      ['convergence', () => byPage('IOPS Steady State Convergence Plot - All Block Sizes')],
      ['measurement-window', () => byPage('IOPS Steady State Measurement Window')],
      ['window-rnd-4k-w', () => closeup('rnd-4k-w')],
      ['window-rnd-64k-rw65', () => closeup('rnd-64k-rw65')],
      ['window-rnd-1024k-r', () => closeup('rnd-1024k-r')],
      ['iops-2d', () => byPage('IOPS - All RW Mix & BS - 2D Plot')],
      ['iops-matrix', () => byPage('IOPS - All RW Mix & BS - Heat Map')],
    ]
    for (const [name, chartId] of golden) {
      it(`${name} matches its golden`, () => {
        const id = chartId()
        expect(specs).to.have.property(id)
        expectGolden(`charts/${name}.vl.json`, specs[id])
      })
    }
  })

  it('CSV: report.csv is one long table, one row per measurement of every fio step in run order', () => {
    const lines = programCsv(run.results).split('\r\n')
    expect(lines[0]).to.equal('run_id,test,phase,phase_kind,step,round,in_window,point_index,point,label,sample,read_pct,block_size_bytes,tc,qd,metric,value,unit,started_at,raw_file')
    // the WIPC first (bytes written, bandwidth, runtime), then every loop point in run order
    expect(lines[1]).to.match(/^iops-file-short,iops,wipc,wipc,wipc,,,,,SEQ 128KiB W,,0,131072,,,write_bytes,134217728,B,[^,]+,raw\/wipc\.json$/)
    expect(lines[4]).to.match(/^iops-file-short,iops,loop,loop,point,1,false,0,rw100-bs1024k,RND 1024KiB R,,100,1048576,2,8,iops,1065\.421,IOPS,[^,]+,raw\/round-01\/01-rw100-bs1024k\.json$/)
    expect(lines[7]).to.match(/,bw,1117\.174429,MB\/s,/)
    expect(lines[10]).to.match(/,lat_mean,14\.52875,ms,/)
    // 3 WIPC rows, then 14 metrics per point, 56 points, 6 rounds; rounds 2-6 are the window
    expect(lines).to.have.length(1 + 3 + 6 * 56 * 14 + 1)
    expect(lines.at(-1)).to.equal('')
    expect(lines.slice(1, -1).filter(l => /,point,1,false,/.test(l))).to.have.length(56 * 14)
    expect(lines.slice(1, -1).filter(l => /,point,[2-6],true,/.test(l))).to.have.length(5 * 56 * 14)
    expect([loop.steadyState.fromRound, loop.steadyState.toRound, loop.steadyState.verdict]).to.deep.equal([2, 6, 'not-achieved'])
  })

  it('CSV: report-windows.csv holds the window averages, one row per test point', () => {
    const lines = windowsCsv(run.results).split('\r\n')
    const w = loop.windowAverages.find(x => x.readPct === 100 && x.blockSizeBytes === 1048576)!
    expect(w.iops.toFixed(6)).to.equal('642.556728')
    expect(lines[1]).to.match(/^[^,]+,iops,loop,not-achieved,2,6,0,rw100-bs1024k,RND 1024KiB R,100,1048576,2,8,642\.557,/)
    expect(lines).to.have.length(56 + 2)
  })
})
