/**
 * The report through the CLI, as a user runs it (node bin/dev.js report ...), with real Chromium:
 * pdftotext/pdfinfo/pdffonts on the PDF, and the bad-input exit codes (3, 7, 8). Never writes into
 * test/fixtures: the fixture is rendered with --out to a temp dir, or copied first.
 */
import {expect} from 'chai'
import {existsSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {mkdtempSync} from 'node:fs'
import {fmtIops} from '../../src/report/format.js'
import {loadRun} from '../../src/report/load.js'
import {buildProgramReportModel} from '../../src/report/model.js'
import {PROGRAM_PAGE_BUILDERS} from '../../src/report/pages/index.js'
import {loopPhases} from '../../src/analysis/loop-view.js'
import {copyFixture, FIXTURE, GENERATED_AT, pts, tool} from './helpers.js'

describe('pts report (CLI, real Chromium)', function () {
  this.timeout(60_000)
  const out = mkdtempSync(join(tmpdir(), 'pts-report-out-'))
  const run = loadRun(FIXTURE)
  const model = buildProgramReportModel({...run, generatedAt: GENERATED_AT}, PROGRAM_PAGE_BUILDERS.iops!)
  let text = ''

  after(() => rmSync(out, {recursive: true, force: true}))

  it('renders PDF, HTML, CSV and JSON to --out and prints the files (--json)', async () => {
    const r = await pts(['report', FIXTURE, '--format', 'pdf,html,csv,json', '--out', join(out, 'acme.pdf'), '--json'])
    expect(r.code, r.stderr).to.equal(0)
    const files = (JSON.parse(r.stdout) as {files: string[]}).files
    expect(files.map(f => f.slice(out.length + 1)).sort()).to.deep.equal(['acme-histograms.csv', 'acme-windows.csv', 'acme.csv', 'acme.html', 'acme.json', 'acme.pdf'])
    expect(readdirSync(out).filter(f => f.endsWith('.tmp'))).to.deep.equal([])
    expect(readFileSync(join(out, 'acme.pdf')).subarray(0, 5).toString()).to.equal('%PDF-')
    text = await tool('pdftotext', ['-layout', join(out, 'acme.pdf'), '-'])
  })

  it('the PDF has the expected page count, A4', async () => {
    const info = await tool('pdfinfo', [join(out, 'acme.pdf')])
    expect(info).to.match(new RegExp(`Pages:\\s+${model.pages.length}\\n`))
    // 10 report pages (the summary with its continuation page: its lists do not fit under the header),
    // the drive health page (this run predates health logs: it says they were not recorded)
    // and one appendix page (the seal; the file list is in manifest.json)
    expect(model.pages.filter(p => p.kind === 'summary').map(p => p.title)).to.deep.equal(['IOPS Test - Summary', 'IOPS Test - Summary (continued)'])
    expect(model.pages.length).to.equal(13)
    expect(model.pages.map(p => p.title)).to.include('Drive Health and Temperature')
    expect(info).to.match(/Page size:\s+59[45]\.\d+ x 841\.\d+ pts \(A4\)/)
  })

  it('fonts are embedded', async () => {
    const fonts = (await tool('pdffonts', [join(out, 'acme.pdf')])).split('\n').slice(2).filter(l => l.trim())
    expect(fonts.length).to.be.greaterThan(0)
    for (const l of fonts) expect(l).to.match(/DejaVu/).and.to.match(/\s+yes\s+yes\s+yes\s+/)
  })

  it('pdftotext finds every page title, caption, the header fields and "n of N"', () => {
    const flat = text.replace(/\s+/g, ' ')
    for (const p of model.pages) {
      expect(flat, p.title).to.include(p.title)
      expect(flat, p.caption).to.include(p.caption)
      expect(flat).to.include(`Page ${p.number} of ${p.total}`)
    }
    expect(text.match(/IOPS Test - Report Page/g)).to.have.length(model.pages.length)
    expect(flat).to.include('SSD Model: regular file')
    expect(flat).to.include('S/N: none')
    expect(flat).to.include('fio-3.33')
    expect(flat).to.include('PTS 2.0.2 Enterprise')
    expect(flat).to.include('NOT ACHIEVED')
    expect(flat).to.include('Rounds 2-6 (NOT ACHIEVED)')
    expect(flat).to.include('NOT COMPLIANT')
    expect(text.match(/NOT COMPLIANT/g)!.length).to.be.at.least(model.pages.length)
  })

  it('pdftotext finds the determination data and headline numbers as printed', () => {
    const flat = text.replace(/\s+/g, ' ')
    const determinations = model.pages.flatMap(p => (p.determination ? [p.determination] : []))
    expect(determinations).to.have.length(3)
    for (const d of determinations) {
      for (const row of d.rows) expect(flat, `${d.id} ${row.label}`).to.include(row.value)
    }
    expect(flat).to.include('38,788 IOPS')
    expect(flat).to.include('3362.7 * R + 25337.3')
    const w = loopPhases(run.results)[0].windowAverages.find(x => x.readPct === 0 && x.blockSizeBytes === 4096)!
    expect(flat).to.include(`${fmtIops(w.iops)} IOPS`)
    // the appendix: the seal hash, the full list's place, the check
    // this fixture was stored before pts sealed runs: the appendix says so (model.test.ts checks a sealed one)
    expect(model.pages.at(-1)!.appendix!.sealHash).to.equal(null)
    expect(flat).to.include('Seal none: manifest.json lists no SHA-256')
    expect(flat).to.include('pts audit <run directory>')
    expect(flat).to.include('manifest.json | sha256sum -c')
    // the command keeps its two spaces (sha256sum's line format) in the HTML, where it can be copied
    expect(readFileSync(join(out, 'acme.html'), 'utf8')).to.include('&quot;\\(.sha256)  \\(.path)&quot;')
    expect(flat).to.include('Audit of run timing: PASS')
    expect(flat).to.include('IOPS - All RW Mix & BS - Heat Map')
  })

  it('HTML is self-contained', () => {
    const html = readFileSync(join(out, 'acme.html'), 'utf8')
    expect(html).to.include('<svg')
    expect(html).not.to.match(/(src|href)=["']?(https?:|file:|\/\/)/)
  })

  describe('bad input', () => {
    it('missing run dir -> exit 8', async () => {
      const r = await pts(['report', join(out, 'no-such-run')])
      expect(r.code).to.equal(8)
      expect(r.stderr).to.include('Run directory not found')
    })

    it('results.json failing its schema -> exit 3 with the JSON pointer', async () => {
      const dir = copyFixture()
      try {
        const p = join(dir, 'results.json')
        const r0 = JSON.parse(readFileSync(p, 'utf8'))
        r0.windowAverages[3].iops = 'fast'
        writeFileSync(p, JSON.stringify(r0))
        const r = await pts(['report', dir, '--format', 'json'])
        expect(r.code).to.equal(3)
        expect(r.stderr).to.include('/windowAverages/3/iops')
        expect(existsSync(join(dir, 'report-model.json'))).to.equal(false)
      } finally {
        rmSync(join(dir, '..'), {recursive: true, force: true})
      }
    })

    it('run still in progress -> rendered as stored, marked IN PROGRESS (its pts process is gone: with the resume command)', async () => {
      const dir = copyFixture()
      try {
        const p = join(dir, 'results.json')
        const r0 = JSON.parse(readFileSync(p, 'utf8'))
        r0.status = 'running'
        writeFileSync(p, JSON.stringify(r0))
        const r = await pts(['report', dir, '--format', 'json', '--json'])
        expect(r.code, r.stderr).to.equal(0)
        const model = JSON.parse(readFileSync(join(dir, 'report-model.json'), 'utf8')) as {header: {inProgress?: string}}
        expect(model.header.inProgress).to.match(/^IN PROGRESS: this report shows only what was stored when it was made\. The run (stopped before its end .*; to continue it: pts resume |was still running on )/)
      } finally {
        rmSync(join(dir, '..'), {recursive: true, force: true})
      }
    })

    it('Chromium missing -> exit 7 with the apt-get hint, and no report.pdf (not even half-written)', async () => {
      const dir = copyFixture()
      try {
        const r = await pts(['report', dir, '--format', 'pdf'], {CHROMIUM_PATH: '/nonexistent'})
        expect(r.code).to.equal(7)
        expect(r.stderr).to.include('/nonexistent')
        expect(r.stderr).to.include('apt-get install -y chromium')
        expect(readdirSync(dir).filter(f => f.startsWith('report') || f.endsWith('.tmp'))).to.deep.equal([])
      } finally {
        rmSync(join(dir, '..'), {recursive: true, force: true})
      }
    })
  })
})
