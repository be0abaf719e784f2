/**
 * Drive health in a run: the monitor's sampling (runner/health.ts: never in a hand-over between fio
 * steps, failures kept, "not available" with its reason) with the tool's answers replayed from
 * real captured outputs, and the report's view of a record (analysis/health.ts: deltas, the
 * drive's count against fio's, warnings), table-driven. No device, no fio.
 */
import {expect} from 'chai'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {healthView} from '../../src/analysis/health.js'
import {healthCheck} from '../../src/audit/checks.js'
import {parseSmartctlHealth} from '../../src/device/parse-health.js'
import type {DriveHealth, HealthFacts} from '../../src/model/health.js'
import type {ProgramResults} from '../../src/model/results.js'
import {healthSource, HealthMonitor, newHealthRecord} from '../../src/runner/health.js'
import {RunStore} from '../../src/store/run-store.js'
import type {ToolOutput} from '../../src/proc.js'

const fx = (p: string) => readFileSync(fileURLToPath(new URL(`../fixtures/devices/${p}`, import.meta.url)), 'utf8')
const facts = (p: string): HealthFacts => { const r = parseSmartctlHealth(fx(p)); if (!r.ok) throw new Error(r.reason); return r.facts }

describe('drive health: where the log comes from (pure)', () => {
  const all = () => true
  const none = () => false
  const cases: Array<{name: string; t: Parameters<typeof healthSource>[0]; has: (c: string) => boolean; want: unknown}> = [
    {name: 'a file', t: {kind: 'file', path: '/x.img', interface: 'file'}, has: all, want: {reason: 'the target is a regular file, which has no drive health log'}},
    {name: 'a loop device', t: {kind: 'block', path: '/dev/loop3', interface: 'loop'}, has: all, want: {reason: /loop device has no drive health log/}},
    {name: 'NVMe with nvme-cli', t: {kind: 'block', path: '/dev/nvme0n1', interface: 'nvme'}, has: all, want: {tool: 'nvme-cli', snapshot: ['nvme', 'smart-log', '/dev/nvme0n1', '-o', 'json']}},
    {name: 'NVMe with only smartctl', t: {kind: 'block', path: '/dev/nvme0n1', interface: 'nvme'}, has: c => c === 'smartctl', want: {tool: 'smartctl', snapshot: ['smartctl', '--json', '-a', '/dev/nvme0n1'], sample: ['smartctl', '--json', '-A', '/dev/nvme0n1']}},
    {name: 'SATA', t: {kind: 'block', path: '/dev/sdb', interface: 'sata'}, has: all, want: {tool: 'smartctl', snapshot: ['smartctl', '--json', '-a', '/dev/sdb']}},
    {name: 'NVMe without either tool', t: {kind: 'block', path: '/dev/nvme0n1', interface: 'nvme'}, has: none, want: {reason: /apt-get install nvme-cli smartmontools/}},
    {name: 'SAS without smartctl', t: {kind: 'block', path: '/dev/sdc', interface: 'sas'}, has: none, want: {reason: /apt-get install smartmontools/}},
  ]
  for (const c of cases) it(c.name, () => {
    const got = healthSource(c.t, c.has) as Record<string, unknown>
    for (const [k, v] of Object.entries(c.want as Record<string, unknown>)) {
      if (v instanceof RegExp) expect(got[k]).to.match(v)
      else expect(got[k]).to.deep.equal(v)
    }
  })
})

describe('drive health: the monitor (tool answers replayed from real captures)', () => {
  let dir = ''
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pts-health-')) })
  afterEach(() => rmSync(dir, {recursive: true, force: true}))
  const src = {tool: 'smartctl' as const, device: '/dev/sdm', snapshot: ['smartctl', '--json', '-a', '/dev/sdm'], sample: ['smartctl', '--json', '-A', '/dev/sdm']}
  const tool = (stdout: string, calls: string[][]) => async (argv: string[]): Promise<ToolOutput> => { calls.push(argv); return {argv, code: 0, stdout, stderr: '', ms: 1} }
  const wait = (ms: number) => new Promise(r => setTimeout(r, ms))

  it('stores the log before and after verbatim, and samples only while a fio step runs', async () => {
    const store = RunStore.create(join(dir, 'run'))
    const calls: string[][] = []
    const events: string[] = []
    const h = newHealthRecord(src, 0.3)
    const out = fx('smartctl/intel-s3520-sat-attributes.json')
    const mon = new HealthMonitor({store, health: h, source: src, note: () => {}, event: (n, d) => events.push(`${n}: ${d}`), run: tool(out, calls)})
    await mon.start()
    expect(h.before!.facts!.temperatureC).to.equal(47)
    expect(readFileSync(join(dir, 'run', h.before!.raw), 'utf8')).to.equal(out)
    const samples = () => calls.filter(c => c.includes('-A')).length
    // between steps: a sample that falls due waits
    await wait(450)
    expect(samples()).to.equal(0)
    // ... and starts as soon as a step runs
    mon.stepStarted()
    await wait(30)
    expect(samples()).to.be.at.least(1)
    await wait(700)
    mon.stepEnded()
    const during = samples()
    expect(during).to.be.at.least(2)
    await wait(700)
    expect(samples(), 'no sample starts in a hand-over').to.equal(during)
    await mon.finish()
    expect(h.after!.facts!.powerOnHours).to.equal(21213)
    expect(h.samples.length).to.equal(during)
    expect(h.samples[0]).to.include({temperatureC: 47, raw: 'raw/health/sample-00001.json'})
    expect(readFileSync(join(dir, 'run', h.samples[0].raw), 'utf8')).to.equal(out)
    expect(events[0]).to.match(/^health: before the test: smartctl \/dev\/sdm: 47 °C/)
  })

  it('a device the tool cannot read is "not available" with the tool\'s own reason, and nothing is sampled', async () => {
    const store = RunStore.create(join(dir, 'run'))
    const calls: string[][] = []
    const notes: string[] = []
    const h = newHealthRecord(src, 0.01)
    const mon = new HealthMonitor({store, health: h, source: src, note: m => notes.push(m), event: () => {}, run: tool(fx('smartctl/local-loop-all-unable.json'), calls)})
    await mon.start()
    mon.stepStarted()
    await wait(60)
    await mon.finish()
    expect(h).to.include({available: false, reason: 'smartctl: /dev/loop0: Unable to detect device type'})
    expect(h.after).to.equal(null)
    expect(calls).to.have.length(1)
    expect(notes).to.deep.equal(['drive health and temperature: not available (smartctl: /dev/loop0: Unable to detect device type)'])
  })
})

describe('drive health: the report\'s view (pure)', () => {
  const results = (health: DriveHealth | undefined, writeBytes = 0): ProgramResults => ({
    phases: [{kind: 'wipc', writtenBytes: writeBytes}], ...(health ? {health} : {}),
  }) as unknown as ProgramResults
  const rec = (b: HealthFacts | null, a: HealthFacts | null, samples: DriveHealth['samples'] = []): DriveHealth => ({
    available: true, reason: null, tool: 'smartctl', device: '/dev/nvme0', intervalSec: 60, samples, problems: [],
    before: b && {at: '2026-01-01T00:00:00.000Z', raw: 'raw/health/before.json', argv: [], exitCode: 0, facts: b},
    after: a && {at: '2026-01-01T01:00:00.000Z', raw: 'raw/health/after.json', argv: [], exitCode: 0, facts: a},
  })
  const evo = facts('smartctl/samsung-970-evo-plus-nvme.json')

  it('a run of an earlier version: not recorded', () => {
    expect(healthView(results(undefined))).to.include({status: 'not-recorded', summary: 'not recorded (run stored by an earlier version of pts)'})
  })
  it('not available: the reason', () => {
    const v = healthView(results(newHealthRecord({reason: 'the target is a regular file, which has no drive health log'}, 60)))
    expect(v).to.include({status: 'not-available', summary: 'not available: the target is a regular file, which has no drive health log'})
  })
  it('the drive\'s count of host writes against what fio wrote', () => {
    // the same drive after fio wrote 1 GB: its Data Units Written grew by 1,953.125 units of 512,000 B
    const after = {...evo, hostBytesWritten: evo.hostBytesWritten! + 1954 * 512_000, temperatureC: 41}
    const v = healthView(results(rec(evo, after, [{at: '2026-01-01T00:00:00.000Z', raw: 'r', temperatureC: 36, criticalWarning: 0, thermalTransitions: null, warningTempMinutes: 0},
      {at: '2026-01-01T00:01:00.000Z', raw: 'r', temperatureC: 41, criticalWarning: 0, thermalTransitions: null, warningTempMinutes: 0}]), 1e9))
    expect(v.status).to.equal('recorded')
    const hw = v.rows.find(r => r.label === "Host bytes written (drive's count)")!
    expect(hw.change).to.match(/ \(1\.000 x what fio wrote\)$/)
    expect(v.rows.find(r => r.label === 'Temperature')).to.deep.include({before: '35 °C', after: '41 °C', change: '36 to 41 °C during the run (2 samples)'})
    expect(v.trace).to.deep.equal([{minutes: 0, temperatureC: 36}, {minutes: 1, temperatureC: 41}])
    expect(v.warnings).to.deep.equal([])
    expect(v.summary).to.equal('36 to 41 °C during the run (2 samples); no throttling and no critical warning')
  })
  const warn: Array<{name: string; b: HealthFacts; a: HealthFacts; want: RegExp[]}> = [
    {name: 'a critical warning (real drive, 0x10)', b: facts('smartctl/samsung-mzwll3t2hajq-nvme-critical-warning.json'), a: facts('smartctl/samsung-mzwll3t2hajq-nvme-critical-warning.json'),
      want: [/^the drive raised a critical warning \(already before the test\): 0x10 \(volatile memory backup device failed\)$/, /SMART overall health assessment is FAILED/]},
    {name: 'thermal throttling (transitions rose)', b: {...evo, thermalTransitions: 2}, a: {...evo, thermalTransitions: 5}, want: [/^the drive throttled during the run: its thermal management transitions rose from 2 to 5$/]},
    {name: 'time above the warning temperature', b: {...evo, warningTempMinutes: 0}, a: {...evo, warningTempMinutes: 3}, want: [/spent 3 min above its warning temperature/]},
  ]
  for (const c of warn) it(`warning: ${c.name}`, () => {
    const v = healthView(results(rec(c.b, c.a)))
    expect(v.warnings).to.have.length(c.want.length)
    c.want.forEach((re, i) => expect(v.warnings[i]).to.match(re))
    expect(v.summary).to.match(/^WARNING: /)
  })
  it('SATA: the vendor-unit attribute is shown raw, never as bytes', () => {
    const s = facts('smartctl/intel-s3520-sat-attributes.json')
    const v = healthView(results(rec(s, {...s, hostWritesAttribute: {...s.hostWritesAttribute!, raw: s.hostWritesAttribute!.raw + 30}}), 1e9))
    expect(v.rows.find(r => r.label.startsWith('SMART 241'))).to.deep.include({before: '129,493', after: '129,523', change: '+30'})
    expect(v.rows.some(r => r.label === "Host bytes written (drive's count)")).to.equal(false)
  })
})

describe('drive health: pts audit recomputes the record from raw/health/ (pure)', () => {
  const text = fx('smartctl/samsung-970-evo-plus-nvme.json')
  const f = facts('smartctl/samsung-970-evo-plus-nvme.json')
  const record = (): DriveHealth => ({available: true, reason: null, tool: 'smartctl', device: '/dev/nvme0', intervalSec: 60, problems: [],
    before: {at: '2026-01-01T00:00:00.000Z', raw: 'raw/health/before.json', argv: [], exitCode: 0, facts: f},
    after: {at: '2026-01-01T01:00:00.000Z', raw: 'raw/health/after.json', argv: [], exitCode: 0, facts: f},
    samples: [{at: '2026-01-01T00:30:00.000Z', raw: 'raw/health/sample-00001.json', temperatureC: 35, criticalWarning: 0, thermalTransitions: null, warningTempMinutes: 0}]})
  const raw = new Map<string, string | null>([['raw/health/before.json', text], ['raw/health/after.json', text], ['raw/health/sample-00001.json', text]])
  const run = (h: DriveHealth | undefined, r = raw) => healthCheck({health: h} as unknown as ProgramResults, r)

  it('an unchanged record passes; a run without one is skipped with the reason', () => {
    expect(run(record())).to.include({status: 'pass'})
    expect(run(undefined)).to.include({status: 'skip', reason: 'not recorded (the run was stored by an earlier version of pts)'})
    expect(run(newHealthRecord({reason: 'the target is a regular file, which has no drive health log'}, 60))).to.include({status: 'skip', reason: 'not available: the target is a regular file, which has no drive health log'})
  })
  it('a stored temperature that is not the log\'s fails, naming the place; a missing log fails', () => {
    const h = record()
    h.samples[0].temperatureC = 30
    const c = run(h)
    expect(c.status).to.equal('fail')
    expect(c.problems).to.deep.equal(['results.json /health/samples/0/temperatureC: 30 ≠ 35 (recomputed from raw/health/sample-00001.json)'])
    const gone = new Map(raw)
    gone.delete('raw/health/after.json')
    expect(run(record(), gone).problems).to.deep.equal(['results.json /health/after: raw file raw/health/after.json is missing'])
  })
})
