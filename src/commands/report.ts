import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../app/base-command.js'
import {UsageError} from '../errors.js'
import * as M from '../messages.js'

/** What `pts report --json` prints: the files written, and warnings (e.g. a claims page left out). */
export interface ReportJson {
  files: string[]
  warnings?: string[]
}

const FORMATS = ['pdf', 'html', 'csv', 'json'] as const
type Format = (typeof FORMATS)[number]

export default class Report extends BaseCommand {
  static summary = 'Render the SNIA-format report of a stored run (PDF, HTML, CSV, JSON model).'
  static description = `Builds the report only from the run directory (manifest.json, results.json, raw/): a first summary page, the SNIA report pages (steady-state convergence, measurement window, one close-up with the determination data per tracking variable, tabular data, 2D plot, block size x R/W mix heat map) and a one-page appendix with the seal hash of the raw data (the SHA-256 of the list in manifest.json of every sealed file with its SHA-256), where that list is and how to check it (pts audit). The summary page shows the run-timing verdict of pts audit (step durations and idle gaps). Every page carries the SNIA header; a non-compliant run or one without steady state says so on every page.

Outputs, written atomically into the run directory unless --out is given: report.pdf (A4, fonts embedded, printed by Chromium with no network), report.html (one self-contained file), report.csv, report-windows.csv and report-histograms.csv (CSV, one table per file, see below) and report-model.json (the report model).

CSV (RFC 4180: one header row, CRLF, quoted where needed; numbers as plain decimals; an empty field is "not applicable"; bandwidth in decimal MB/s, latency in ms):
- report.csv: one row per measurement, in run order: run_id, test, phase, phase_kind, step (point, pre-round, wipc, sample, bursts, burst, histogram, max-pre-write, ...), round, in_window (the round is in the measurement window), point_index, point, label, sample, read_pct, block_size_bytes (empty for block-size mixes), tc, qd, metric (iops, read_iops, write_iops, bw, read_bw, write_bw, lat_mean, lat_max, lat_p99999, lat_percentile_ios, ios, read_bytes, write_bytes, runtime, ...), value, unit, started_at, raw_file (the raw file it came from: the fio JSON output, the IOPS log for HIR bursts). pandas: pd.read_csv('report.csv').
- report-windows.csv: per loop phase and test point, the measurement-window averages the report's tables show (verdict, window rounds, IOPS, MB/s, ms).
- report-histograms.csv: response-time histograms (LAT, CBW/ECW, DIRTH), one row per latency bin (upper bound in ms, IO count).

A fleet directory (pts run with several --device, or the directory of pts fleet collect, holding fleet.json) gets the fleet report: fleet.pdf and fleet.html in the fleet directory, one row per drive (model, serial, firmware, test, verdict, headline values), and for the drives of one model the sample variation of each headline value (min, median, max, coefficient of variation).

Exit codes: 3 results.json or manifest.json fails its schema; 7 the report cannot be rendered (e.g. Chromium missing: apt-get install -y chromium, or set CHROMIUM_PATH); 8 run directory missing or incomplete.

A run still in progress (or whose pts process was killed) is reported as far as it is stored: every page's header says IN PROGRESS, whether the run is still running, and for a stopped run the pts resume command that continues it.`
  static examples = [
    {description: 'Write report.pdf and report.html into the run directory', command: '<%= config.bin %> report reports/20261201-013109-iops-nvme1n1'},
    {description: 'Every format, the PDF to a chosen file (the others beside it: acme-iops.html, acme-iops.csv, acme-iops-windows.csv, acme-iops-histograms.csv, acme-iops.json)', command: '<%= config.bin %> report reports/<run> --format pdf,html,csv,json --out /tmp/acme-iops.pdf'},
    {description: 'Only the CSV, into a directory', command: '<%= config.bin %> report reports/<run> --format csv --out /tmp/exports'},
  ]
  static args = {
    runDir: Args.string({description: 'run directory written by `pts run` (holds manifest.json, results.json, raw/)', required: true}),
  }
  static flags = {
    format: Flags.string({char: 'f', description: `comma-separated output formats: ${FORMATS.join(', ')}`, default: 'pdf,html'}),
    out: Flags.string({char: 'o', description: 'output file (its extension picks the format it is used for; other formats go beside it) or directory (default: the run directory)'}),
  }

  async run(): Promise<ReportJson> {
    const {args, flags} = await this.parse(Report)
    const formats = flags.format.split(',').map(s => s.trim().toLowerCase()).filter(Boolean)
    const bad = formats.filter(f => !(FORMATS as readonly string[]).includes(f))
    if (bad.length > 0 || formats.length === 0) throw new UsageError(M.usage.unknownFormat(flags.format, bad, FORMATS))
    const {existsSync} = await import('node:fs')
    const {join} = await import('node:path')
    if (existsSync(join(args.runDir, 'fleet.json'))) {
      // a fleet directory: the fleet report (one row per drive), PDF and HTML only
      const {renderFleetReport} = await import('../report/fleet/index.js')
      const fleetFormats = formats.filter((f): f is 'pdf' | 'html' => f === 'pdf' || f === 'html')
      if (fleetFormats.length === 0) throw new UsageError(M.lanes.fleetFormats(flags.format))
      const files = await renderFleetReport(args.runDir, {formats: fleetFormats})
      if (!this.jsonEnabled()) for (const f of files) this.log(f)
      return {files}
    }
    const {renderReport} = await import('../report/index.js')
    const result = await renderReport(args.runDir, {formats: formats as Format[], out: flags.out})
    if (!this.jsonEnabled()) for (const f of result.files) this.log(f)
    for (const w of result.warnings ?? []) process.stderr.write(`Warning: ${w}\n`)
    return result
  }
}
