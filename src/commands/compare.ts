import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../app/base-command.js'
import {UsageError} from '../errors.js'
import * as M from '../messages.js'
import {toolVersion} from '../host.js'
import type {CompareResult} from '../compare/index.js'

/** What `pts compare --json` prints: the files written, the runs compared, their differences and the headline ones. */
export type CompareJson = Pick<CompareResult, 'files' | 'runs' | 'differences' | 'headlines'>

const FORMATS = ['pdf', 'html', 'json'] as const
type Format = (typeof FORMATS)[number]

export default class Compare extends BaseCommand {
  static summary = 'Compare two or more stored runs side by side (PDF, HTML, JSON model).'
  static description = `Builds a side-by-side report only from the run directories (manifest.json, results.json), phase by phase (phases matched by id): a summary page (the runs side by side: device, test, revision, profile, TC/QD, point duration, steady-state window and verdict, compliance with reasons, deviations; and the differences in test conditions), the block size x R/W mix matrices of window averages of every run for IOPS, MB/s, mean and maximum response time, each with a ratio table (run k / run 1: the first run is the baseline; ratios below 0.90 or above 1.10 are highlighted), one convergence plot per tracking variable with a line per run and each run's measurement window marked, and, when the runs are samples of one model, the sample variation per point (min, median, max and coefficient of variation of IOPS, sample standard deviation); these are the first loop's pages (LAT adds its 99.999th percentile response times). Then every further phase: each later loop (TP 1024KiB, CBW/DIRTH demand variation) as a per-point table of window-average IOPS, MB/s and mean response time with ratios; each series phase (WSAT, XSR access groups, HIR baselines) as an overlaid IOPS trace (WSAT: vs TGBW) with a per-run table of samples, mean IOPS, mean of the last 5 samples and mean response time, with ratios; each HIR wait state as burst IOPS per burst with the mean burst IOPS per run; and the CBW/ECW/DIRTH operating points (Max/Mid/Min: TC/QD, IOPS, mean response time, IOPS ratio). Tests without a loop (WSAT, XSR) have only the summary and the phase pages. Without --json, stdout lists the written files, then the headline differences (at most 15 lines: tracking variables, series and burst means, operating points). Every page carries a header with the compared runs' identities, steady-state verdicts and compliance; for review runs (fob-ss, consistency, ...) the header says instead that they are review tests, not part of the SNIA PTS, with each run's status and the other reasons the runs are not PTS results, and no steady-state or compliance verdict.

Runs are compared point by point only when they are of the same test and revision (the same R/W mix x block size matrix); profile, TC/QD, ActiveRange, point duration, compliance and steady-state verdict may differ and are listed as differences. Runs are samples of one model when every run is on a block device of the same model (file targets never are), or with --samples.

Outputs, written atomically: compare.pdf (A4, printed by Chromium with no network), compare.html (one self-contained file) and compare.json (the comparison model), into --out (default reports/compare-<UTC timestamp>/).

Exit codes: 2 fewer than 2 runs, runs of different tests or revisions (the message says what differs and what can be compared), the same run twice, a --label count that does not match the runs, or a bad --format; 3 a results.json or manifest.json fails its schema; 7 the report cannot be rendered (e.g. Chromium missing: apt-get install -y chromium, or set CHROMIUM_PATH; --format html,json needs no Chromium); 8 a run directory is missing or incomplete, a run is still in progress, a run has no measurement-window averages in its first loop, or (a test without a loop) nothing measured.`
  static examples = [
    {description: 'Compare two runs (the first is the baseline); writes reports/compare-<timestamp>/compare.{pdf,html,json}', command: '<%= config.bin %> compare reports/20261201-013109-iops-nvme1n1 reports/20261208-091500-iops-nvme1n1'},
    {description: 'Label the runs and write the PDF to a chosen file (compare.html and .json beside it: fw.html, fw.json)', command: '<%= config.bin %> compare reports/<run-a> reports/<run-b> --label "FW 1.0" --label "FW 2.0" --out /tmp/fw.pdf'},
    {description: 'Three drives of one model: sample variation (min, median, max, CV) per point', command: '<%= config.bin %> compare reports/<run-1> reports/<run-2> reports/<run-3> --samples --out /tmp/samples'},
    {description: 'Only the model, as JSON, and the written files and differences on stdout', command: '<%= config.bin %> compare reports/<run-a> reports/<run-b> --format json --out /tmp/cmp --json'},
  ]
  static strict = false
  static args = {
    runs: Args.string({description: 'two or more run directories written by `pts run`; the first is the baseline', required: true}),
  }
  static flags = {
    label: Flags.string({char: 'l', multiple: true, multipleNonGreedy: true, description: 'label of a run, one per run in the order of the runs (default: device model + serial or file path, run id and date)'}),
    samples: Flags.boolean({description: 'treat the runs as samples of one model (adds the sample-variation pages) even when the manifests do not name one common drive model', default: false}),
    format: Flags.string({char: 'f', description: `comma-separated output formats: ${FORMATS.join(', ')}`, default: FORMATS.join(',')}),
    out: Flags.string({char: 'o', description: 'output directory, or a file (.pdf/.html/.json: used for that format, the others go beside it); default reports/compare-<UTC timestamp>/'}),
  }

  async run(): Promise<CompareJson> {
    const {argv, flags} = await this.parse(Compare)
    const formats = flags.format.split(',').map(s => s.trim().toLowerCase()).filter(Boolean)
    const bad = formats.filter(f => !(FORMATS as readonly string[]).includes(f))
    if (bad.length > 0 || formats.length === 0) throw new UsageError(M.usage.unknownFormat(flags.format, bad, FORMATS))
    const {renderCompare} = await import('../compare/index.js')
    const result = await renderCompare(argv as string[], {formats: formats as Format[], out: flags.out, labels: flags.label, samples: flags.samples, toolVersion: toolVersion()})
    if (!this.jsonEnabled()) {
      for (const f of result.files) this.log(f)
      if (result.headlines.length > 0) {
        this.log('')
        this.log(`Headline differences (ratios Rk / R1; R1 = ${result.runs[0].runDir}):`)
        for (const line of result.headlines) this.log(`  ${line}`)
      }
    }
    return {files: result.files, runs: result.runs, differences: result.differences, headlines: result.headlines}
  }
}
