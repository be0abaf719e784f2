/**
 * The message catalog: the wording of every error a user of pts can see (the CLI prints
 * `Error: <message>` and, when there is something to do, `Hint: <suggestion>`; with --json both go
 * into {"error": {...}}). The error classes of errors.ts take a Msg from here, and nothing else:
 * test/unit/messages.test.ts fails when one is built from a string or template literal anywhere in
 * src/ outside this file, and when an entry's wording cites internal documents.
 *
 * What is user-facing: every error class of errors.ts (PtsError and its subclasses, PlanError,
 * FioOutputError; their message reaches the user, PlanError's as a usage error, FioOutputError's
 * inside a fio or audit message). What is internal and may keep a literal `new Error(...)` /
 * `new RangeError(...)` where it is thrown: a programmer error, i.e. a state that valid input cannot
 * reach (a missing template partial, a chart that was not rendered, a function called with
 * arguments its caller guarantees never to pass), and the parsers' complaints about a tool's
 * output (lsblk, nvme, sg_inq, hdparm, smartctl), which the caller wraps into a message of this
 * catalog (M.target.cannotIdentify) or records as a probe that failed. The base command shows an
 * error of neither kind as M.internal.unexpected.
 *
 * Pure and the lowest layer: no imports (the facts come in as plain values). Entries are grouped by
 * what the user was doing; each is a function of the facts it needs (or a Msg when it needs none)
 * and returns {message, suggestion?}. Wording: name the thing (flag and value, path, test, run),
 * say what is wrong, and in the suggestion what to do; never cite internal documents or issue
 * numbers.
 */

/** What the user sees: the error line, and the hint line when there is something to do. */
export interface Msg {
  readonly message: string
  readonly suggestion?: string
}

const msg = (message: string, suggestion?: string): Msg => (suggestion === undefined ? {message} : {message, suggestion})

// ------------------------------------------------------------------------------------------------
// Shared phrases (each defined once)
// ------------------------------------------------------------------------------------------------

/** A refusal before the first write. */
const NOTHING_WRITTEN = 'nothing was written'
const keptIn = (dir: string): string => `every completed test point is kept in ${dir}`
const resumeCmd = (dir: string): string => `pts resume ${dir}`
const resumeWith = (dir: string): string => `resume with: ${resumeCmd(dir)}`
const continueWith = (what: string, dir: string): string => `continue ${what} with: ${resumeCmd(dir)}`
const CLAIMS_EXAMPLE = 'specs/claims/crucial-mx100-256gb.json'
const CLAIMS_HINT = `fix the file (see schemas/claims.schema.json and the example ${CLAIMS_EXAMPLE})`
const WRITABLE_OUT = 'pass a writable --out'
const PEM_KEYGEN = 'openssl genpkey -algorithm ed25519 -out pts-signing.pem'
const install = (pkg: string): string => `install it: apt-get install -y ${pkg}`
const INSTALL_CHROMIUM = `${install('chromium fonts-dejavu-core')}; or set CHROMIUM_PATH to a Chromium binary`
const list = (xs: readonly (string | number)[]): string => xs.join(', ')
const problemLines = (problems: readonly Problem[]): string => problems.map(p => `  at ${p.pointer || '/'}: ${p.message}`).join('\n')
const RESTORE_SUITE = 'restore suite.json from a copy'
const RESTORE_STORED = 'the file was changed or written by another version of pts; restore it from the original run'

/** A field of a file that fails its schema (the validator's JSON pointer and complaint). */
export interface Problem { readonly pointer: string; readonly message: string }

// ------------------------------------------------------------------------------------------------
// Flags and usage
// ------------------------------------------------------------------------------------------------

export const usage = {
  notASize: (text: string): Msg => msg(`--size ${text}: expected a size such as 8GiB, 512MiB or 1073741824`),
  maxWrittenNotASize: (text: string): Msg => msg(`--max-written ${text}: expected a size such as 2TB or 512GiB`),
  sizeNotSectorMultiple: (text: string, bytes: number): Msg => msg(`--size ${text}: ${bytes} bytes is not a multiple of 512 B`),
  sizeOnBlockDevice: msg('--size applies only to file: targets; a block device is used whole'),
  profileNotDefined: (profile: string, test: string, revision: string, available: readonly string[]): Msg =>
    msg(`--profile ${profile}: ${test} ${revision} defines only ${list(available)}`, `use --profile ${available[0]} or another --revision`),
  notAnIoengine: (text: string): Msg => msg(`--ioengine ${text}: not an fio ioengine name`),
  notANumber: (flag: string, text: string, integer: boolean): Msg => msg(`--${flag} ${text}: expected ${integer ? 'an integer' : 'a number'}`),
  atLeast: (flag: string, text: string, min: number): Msg => msg(`--${flag} ${text}: must be at least ${min}`),
  greaterThan: (flag: string, text: string, min: number): Msg => msg(`--${flag} ${text}: must be greater than ${min}`),
  timeScaleRange: (text: string | undefined): Msg => msg(`--time-scale ${text}: must be greater than 0 and at most 1`),
  roundCapNeedsContinue: msg('--round-cap applies with --on-no-steady-state continue'),
  roundCapBelowMaxRounds: (roundCap: number, maxRounds: number): Msg => msg(`--round-cap ${roundCap}: must be at least the round limit (--max-rounds ${maxRounds})`),
  noWipcPhase: (test: string): Msg => msg(`--wipc-multiple: the ${test} test has no WIPC phase`),
  noSteadyStateLoop: (test: string): Msg => msg(`--on-no-steady-state continue: the ${test} test has no steady-state loop`),
  testsOnlyForAll: (command: 'run' | 'plan'): Msg => msg(`--tests applies to pts ${command} all`),
  metadataEmpty: (flag: string, example: string): Msg =>
    msg(`--${flag}: expected text, got an empty value`, `leave out --${flag}, or give it a value such as --${flag} "${example}"`),
  metadataControlCharacters: (flag: string): Msg => msg(`--${flag}: control characters are not allowed`),
  metadataTooLong: (flag: string, length: number, max: number): Msg =>
    msg(`--${flag}: ${length} characters, at most ${max} (it is printed in the header of every report page)`, 'shorten it; longer notes belong in a file beside the run'),
  /** oclif's own parse errors (unknown flag, bad option value, missing argument), on one line. */
  parseError: (oclifMessage: string, command: string | undefined): Msg =>
    msg(oclifMessage.replace(/See more help with --help/, '').split('\n').map(l => l.trim()).filter(Boolean).join(' '), `see: pts ${command ?? ''} --help`.replace(/\s+--help/, ' --help')),
  unknownFormat: (text: string, bad: readonly string[], known: readonly string[]): Msg =>
    msg(`--format ${text}: unknown format ${list(bad) || '(none)'}`, `use a comma-separated list of ${list(known)}`),
  unknownTest: (test: string, known: readonly string[]): Msg => msg(`unknown test "${test}"`, `known tests: ${list(known)}`),
  unknownRevision: (revision: string, known: readonly string[]): Msg => msg(`unknown revision "${revision}"`, `known revisions: ${list(known)}`),
  /** A test or revision definition under specs/ that is missing. */
  revisionFileMissing: (path: string): Msg => msg(`revision definition ${path} is missing`, 'reinstall pts or restore the specs/ folder'),
  testNotInRevision: (revision: string, test: string, definedFor: readonly string[]): Msg =>
    msg(`revision ${revision} has no ${test} test`, definedFor.length ? `${test} is defined for: ${list(definedFor)} (--revision)` : 'restore the specs/ folder'),
  keyUnreadable: (flag: string, file: string, why: string): Msg =>
    msg(`${flag} ${file}: cannot read the key file (${why})`, `pass a PEM key file, e.g. made with: ${PEM_KEYGEN}`),
  notAPrivateKey: (file: string, why: string): Msg => msg(`--sign-key ${file}: not a PEM private key (${why})`, `make one with: ${PEM_KEYGEN}`),
  notAPublicKey: (file: string, why: string): Msg =>
    msg(`--verify-key ${file}: not a PEM public key (${why})`, 'export it with: openssl pkey -in pts-signing.pem -pubout -out pts-signing.pub'),
}

// ------------------------------------------------------------------------------------------------
// Targets and safety
// ------------------------------------------------------------------------------------------------

export const target = {
  /** The safety gate: each reason on its own line. */
  refused: (targetText: string, reasons: readonly string[]): Msg =>
    msg(`Refusing to write to ${targetText}:\n${reasons.map(r => `  - ${r}`).join('\n')}`, NOTHING_WRITTEN),
  notTheRunDevice: (path: string, diffs: readonly string[]): Msg => target.refused(path, [`this is not the device of the run: ${diffs.join('; ')}`]),
  fileNeedsPath: msg('--device file: needs a path, e.g. file:/scratch/pts.img'),
  notADevicePath: (device: string): Msg => msg(`--device ${device}: expected a block device path such as /dev/nvme1n1, or file:<path>`),
  notARegularFile: (path: string): Msg => msg(`file:${path} is not a regular file`, 'use a block device path without file: for devices'),
  fileMissingNoSize: (path: string): Msg => msg(`file:${path} does not exist and no --size was given`, 'add --size, e.g. --size 8GiB'),
  deviceMissing: (path: string): Msg => msg(`${path} does not exist`, 'list block devices with: pts devices'),
  notABlockDevice: (path: string): Msg => msg(`${path} is not a block device`, 'for a regular file use --device file:<path> --size <n>GiB'),
  cannotIdentify: (path: string, why: string): Msg => msg(`cannot identify ${path}: ${why}`),
  inUse: (device: string, pid: number, runDir: string): Msg =>
    msg(`${device} is in use by another pts run (pid ${pid}, run directory ${runDir})`, 'wait for that run to finish, or stop it (Ctrl-C) and resume it later'),
  cannotLock: (lockPath: string): Msg => msg(`cannot take the device lock ${lockPath}`),
}

// ------------------------------------------------------------------------------------------------
// Tools
// ------------------------------------------------------------------------------------------------

export const tools = {
  missing: (tool: string, pkg: string): Msg => msg(`${tool} was not found on PATH`, install(pkg)),
  noAnswer: (tool: string, path: string, pkg: string): Msg => msg(`${tool} at ${path} did not answer --version`, `check that it runs, or ${install(pkg)}`),
}

// ------------------------------------------------------------------------------------------------
// Run directory and resume
// ------------------------------------------------------------------------------------------------

export const runDir = {
  phasesChanged: (was: string, now: string, test: string, revision: string, dir: string): Msg =>
    msg(`the stored run's phases (${was}) are not this pts's phases of ${test} ${revision} (${now}): it cannot be continued`, `start it again from the purge: pts resume ${dir} --restart-from purge`),
  outNotEmpty: (dir: string): Msg => msg(`run directory ${dir} already exists and is not empty`, 'choose another --out, or remove it'),
  notFound: (dir: string): Msg => msg(`Run directory not found: ${dir}`, 'pass the directory that `pts run` wrote (it holds manifest.json, results.json and raw/)'),
  notADirectory: (dir: string): Msg => msg(`Not a directory: ${dir}`, 'pass the run directory, not a file inside it'),
  fileMissing: (dir: string, file: string): Msg =>
    msg(`Incomplete run directory ${dir}: ${file} is missing`, 'pass the directory that `pts run` wrote; a run that failed before its first test point has no results to report'),
  cannotRead: (what: string, path: string, why: string): Msg => msg(`Cannot read ${what} ${path}: ${why}`, 'check the run directory and its permissions'),
  notJson: (what: string, path: string, why: string): Msg =>
    msg(`${what} ${path} is not valid JSON (${why}); the run directory is incomplete or damaged`, 'pts writes these files atomically; restore the file from a copy of the run'),
  invalidManifest: (path: string, problems: readonly Problem[]): Msg => data.invalid('run manifest', path, problems, RESTORE_STORED),
  invalidResults: (path: string, problems: readonly Problem[]): Msg => data.invalid('results file', path, problems, RESTORE_STORED),
  differentRuns: (dir: string, manifestRunId: string, resultsRunId: string): Msg =>
    msg(`manifest.json (run ${manifestRunId}) and results.json (run ${resultsRunId}) in ${dir} belong to different runs`, 'restore the files of one run into the directory'),
  stillRunning: (dir: string, startedAt: string, pid: number, command: string): Msg =>
    msg(`Run still in progress: ${dir} (status "running", started ${startedAt}, pid ${pid})`,
      `wait for the run to finish, then run ${command} again; if that process is gone, continue the run with: ${resumeCmd(dir)}`),
  noMeasurement: (dir: string, status: string): Msg =>
    msg(`Incomplete run directory ${dir}: results.json holds no measurement (status "${status}")`, 'there is nothing to report; re-run the test'),
  rawMissing: (dir: string, missing: readonly string[]): Msg =>
    msg(`Incomplete run directory ${dir}: ${missing.length} raw file(s) named in results.json are missing, e.g. ${list(missing.slice(0, 3))}`,
      'the report lists every raw file with its SHA-256; restore raw/ from the original run'),
  noReportPages: (test: string): Msg => msg(`no report pages are defined for the ${test} test`, 'use a newer pts'),
  resumeInProgress: (dir: string, pid: number): Msg => msg(`the run in ${dir} is still in progress (pts pid ${pid})`, 'wait for it, or stop it with Ctrl-C / kill, then resume'),
  alreadyComplete: (dir: string): Msg => msg(`the run in ${dir} is already complete; there is nothing to resume`, `render its report with: pts report ${dir}`),
  inUse: (dir: string, pid: number): Msg => msg(`run directory ${dir} is in use by pts pid ${pid}`, 'wait for it to finish'),
  fioLeftOver: (pids: readonly number[]): Msg => msg(`fio processes of the previous pts (${list(pids)}) did not end`, 'end them (kill -9) and resume again'),
  /** A write to the run directory failed (StorageError). */
  cannotWrite: (path: string, cause: {code?: string; message: string}): Msg => {
    const why = cause.code === 'ENOSPC' ? 'no space left on the device that holds the run directory'
      : cause.code === 'EDQUOT' ? 'disk quota exceeded'
        : cause.code === 'EROFS' ? 'the file system is read-only'
          : `${cause.code ?? 'error'}: ${cause.message}`
    return msg(`cannot write ${path}: ${why}; the run stopped and every measurement written before is kept`, 'free space (or choose another --out), then continue with pts resume <run-dir>')
  },
  interrupted: (signal: string, dir: string): Msg => msg(`interrupted by ${signal}; ${keptIn(dir)}`, resumeWith(dir)),
}

// ------------------------------------------------------------------------------------------------
// fio
// ------------------------------------------------------------------------------------------------

export const fio = {
  threadBytesUnknown: (json: string, job: string): Msg =>
    msg(`${json} has no job ${job}: the thread's bytes are unknown, so the next sample's offset cannot be set`),
  failed: (how: {code: number | null; signal?: string | null}, job: string, stderrTail: string, jobPath: string, dir: string): Msg =>
    msg(`fio failed (${how.code === null ? `signal ${how.signal}` : `exit ${how.code}`}) on ${job}.fio:\n${stderrTail}`, `the job file is ${jobPath}; ${keptIn(dir)}`),
  badOutput: (file: string, why: string): Msg => msg(`${file}: ${why}`),
  wrongByteCount: (phase: string, written: number, expected: number): Msg => msg(`${phase} wrote ${written} bytes, expected exactly ${expected}`),
  gateHolderExited: (seq: number, code: number | null): Msg => msg(`the gate holder for job ${seq} exited (${code}); is flock (util-linux) installed?`),
  // fio's JSON output (engine/parse.ts; `where` names the job group)
  noMeasurement: (where: string): Msg => msg(`fio JSON ${where}: missing iops, bw_bytes or lat_ns`),
  jobError: (error: number, where: string, job: string): Msg => msg(`fio reports error ${error} for ${where} ${job}`),
  noJsonObject: msg('not fio JSON: no JSON object in the output'),
  invalidJson: (why: string): Msg => msg(`not valid fio JSON: ${why}`),
  notFioJson: msg('not fio JSON: "fio version" or "jobs" missing'),
}

// ------------------------------------------------------------------------------------------------
// Purge
// ------------------------------------------------------------------------------------------------

export const purge = {
  refused: (why: string): Msg => msg(`purge refused, ${NOTHING_WRITTEN}: ${why}`),
  refusedOnRestart: (path: string, why: string): Msg => target.refused(path, [`purge: ${why}`]),
  failed: (method: string, detail: string, logPath: string): Msg => msg(`purge ${method} failed, nothing else was written: ${detail}`, `the tool output is in ${logPath}`),
  notForFile: (requested: string): Msg => msg(`--purge ${requested} does not apply to a regular file`),
  unknownMethod: (requested: string, known: readonly string[]): Msg => msg(`--purge ${requested}: unknown purge method`, `known: ${list(known)}`),
}

// ------------------------------------------------------------------------------------------------
// Plan (shown as usage errors)
// ------------------------------------------------------------------------------------------------

export const plan = {
  noSelectedWorkload: (where: string): Msg => msg(`${where}: the workload refers to the selected workload, but the spec has none`),
  noAccess: (where: string): Msg => msg(`${where}: the workload has no access or readPct`),
  noBlockSize: (where: string): Msg => msg(`${where}: the workload has neither blockSizeBytes nor bssplit`),
  noProfile: (revision: string, profile: string, test: string, has: readonly string[]): Msg => msg(`revision ${revision} has no ${profile} profile for ${test} (it has: ${list(has)})`),
  timeScaleRange: (scale: number): Msg => msg(`time scale ${scale}: must be greater than 0 and at most 1`),
  unknownWorkload: (key: string, test: string, revision: string, choices: readonly string[]): Msg =>
    msg(`workload "${key}" is not defined for ${test} ${revision} (choose one of: ${list(choices)})`),
  noAlternativeWorkloads: (test: string): Msg => msg(`${test} has no alternative workloads; --workload does not apply`),
  sectorMismatch: (sectorBytes: number, blockSize: string): Msg =>
    msg(`the target's logical sector is ${sectorBytes} bytes; ${blockSize} IOs cannot run on it (every IO must be a whole number of logical sectors)`),
  targetTooSmall: (activeRangeBytes: number, blockSize: string, threads: number): Msg =>
    msg(`the target is too small: the ActiveRange of ${activeRangeBytes} bytes must hold at least one ${blockSize} block per thread (${threads} threads)`),
  trackingSelectsNothing: (test: string, phase: string, variable: string): Msg => msg(`${test} phase ${phase}: tracking variable ${variable} selects no point of the round`),
  noSteadyStateExit: (test: string, phase: string): Msg => msg(`${test} phase ${phase} has no steady-state exit`),
  rangeTooSmall: (rangeBytes: number, jobs: number, alignBytes: number): Msg => msg(`the range of ${rangeBytes} bytes is too small for ${jobs} threads of ${alignBytes}-byte blocks`),
}

// ------------------------------------------------------------------------------------------------
// Files pts reads (schemas)
// ------------------------------------------------------------------------------------------------

export const data = {
  /** A file that fails its schema: each problem on its own line. */
  invalid: (what: string, file: string, problems: readonly Problem[], suggestion?: string): Msg =>
    msg(`Invalid ${what} ${file}:\n${problemLines(problems)}`, suggestion),
  notJson: (what: string, file: string, why: string): Msg => data.invalid(what, file, [{pointer: '', message: `is not valid JSON (${why})`}]),
  invalidRevision: (file: string, problems: readonly Problem[]): Msg => data.invalid('revision definition', file, problems, 'fix the file so it matches schemas/revision.schema.json'),
  invalidTestDefinition: (file: string, problems: readonly Problem[]): Msg => data.invalid('test definition', file, problems, 'fix the file so it matches schemas/test-program.schema.json'),
}

// ------------------------------------------------------------------------------------------------
// Reports, Chromium and output
// ------------------------------------------------------------------------------------------------

export const report = {
  cannotWrite: (path: string, why: string): Msg => msg(`Cannot write ${path}: ${why}`, 'check that the output directory exists and is writable, or pass --out'),
  cannotCreateDir: (dir: string, why: string): Msg => msg(`Cannot create output directory ${dir}: ${why}`, WRITABLE_OUT),
  outNotADirectory: (dir: string): Msg => msg(`Output directory ${dir} is not a directory`, WRITABLE_OUT),
  chromiumMissing: (path: string): Msg => msg(`Cannot start Chromium at ${path}: no such file`, `${INSTALL_CHROMIUM}; \`--format html\` needs no Chromium`),
  chromiumNoStart: (path: string, why: string): Msg => msg(`Cannot start Chromium at ${path}: ${why}`, INSTALL_CHROMIUM),
  printFailed: (why: string): Msg => msg(`Chromium failed to print the report: ${why}`, 'run `pts report <run-dir> --format html` to get the HTML report, and check that Chromium works'),
  chartFailed: (id: string, why: string): Msg => msg(`Cannot render chart "${id}": ${why}`),
  /** A later output failed after earlier files were written: the failure, naming those files. */
  writtenBefore: (failure: Msg, files: readonly string[]): Msg => msg(`${failure.message}\n(written before the failure: ${list(files)})`, failure.suggestion),
  pageCount: (path: string, why: string): Msg => msg(`cannot read the page count of ${path}: ${why}`, 'install poppler-utils (pdfinfo, pdfunite)'),
  pdfuniteFailed: (why: string): Msg => msg(`pdfunite failed: ${why}`, 'install poppler-utils'),
}

// ------------------------------------------------------------------------------------------------
// Claims and pts verify
// ------------------------------------------------------------------------------------------------

export const claims = {
  fileNotFound: (path: string): Msg => msg(`Claims file not found: ${path}`, `pass --claims <file.json> naming a datasheet claims file, e.g. ${CLAIMS_EXAMPLE}`),
  isADirectory: (arg: string): Msg => msg(`--claims ${arg} is a directory, not a claims file`, `pass the JSON file, e.g. ${CLAIMS_EXAMPLE}`),
  cannotRead: (path: string, why: string): Msg => msg(`Cannot read claims file ${path}: ${why}`, 'check the path and its permissions'),
  notJson: (path: string, where: string): Msg => msg(`Invalid claims file ${path}: not valid JSON: ${where}`, `fix the JSON syntax at that place; ${CLAIMS_HINT}`),
  invalid: (path: string, problems: readonly Problem[]): Msg => data.invalid('claims file', path, problems, CLAIMS_HINT),
  toleranceNotPercent: (text: string): Msg =>
    msg(`--tolerance ${text}: expected a percentage such as 10 or 10%`, 'pass --tolerance 10% (a claim is met when the measurement is within 10% of it)'),
  toleranceRange: (text: string): Msg => msg(`--tolerance ${text}: must be between 0 and 100 %`, 'pass --tolerance 10%'),
  cannotWriteResult: (path: string, cause: {code?: string; message: string}, dirKind: 'suite' | 'run'): Msg =>
    msg(`Cannot write ${path}: ${cause.code ?? 'error'}: ${cause.message}`, `free space or make the ${dirKind} directory writable, then run pts verify again`),
  cannotWritePdf: (path: string, why: string): Msg => msg(`Cannot write ${path}: ${why}`, 'make the directory writable, then run pts verify again'),
  suiteRunning: (dir: string, startedAt: string): Msg =>
    msg(`Suite still in progress: ${dir} (status "running", started ${startedAt})`, `wait for the suite to finish, then run pts verify again; if that process is gone, ${continueWith('it', dir)}`),
  suiteHasNoRuns: (dir: string, tests: ReadonlyArray<{test: string; status: string}>): Msg =>
    msg(`Suite ${dir} has no IOPS, TP, LAT, DIRTH, CBW or ECW run with results to verify claims against (tests: ${list(tests.map(t => `${t.test} ${t.status}`))})`,
      'run the suite with those tests (pts run all --tests iops,tp,lat ...), or continue it with pts resume'),
  notAClaimsTest: (dir: string, test: string): Msg =>
    msg(`${dir} holds a ${test} run; pts verify matches claims against IOPS, TP, LAT, DIRTH, CBW and ECW runs, or a suite directory of pts run all`, 'pass an IOPS, TP, LAT, DIRTH, CBW or ECW run directory, or the suite directory'),
}

// ------------------------------------------------------------------------------------------------
// Suite (pts run all)
// ------------------------------------------------------------------------------------------------

export const suite = {
  unknownTests: (requested: string, unknown: readonly string[], revision: string, available: readonly string[]): Msg =>
    msg(`--tests ${requested}: ${unknown.length ? `${list(unknown)} not defined for revision ${revision}` : 'no test named'}`, `revision ${revision} defines: ${list(available)}`),
  manifestNotJson: (path: string, why: string): Msg => msg(`${path} is not valid JSON (${why})`, RESTORE_SUITE),
  invalidManifest: (path: string, problems: readonly Problem[]): Msg => data.invalid('suite manifest', path, problems, RESTORE_SUITE),
  dirNotEmpty: (dir: string): Msg => msg(`suite directory ${dir} already exists and is not empty`, 'choose another --out, or continue it with pts resume'),
  testStopped: (test: string, status: string, why: string, dir: string): Msg => msg(`${test} ${status}: ${why}`, continueWith('the suite', dir)),
  combinedReportFailed: (why: string, dir: string): Msg => msg(`the combined report could not be rendered: ${why}; every test's results and own report are kept in ${dir}`),
  alreadyComplete: (dir: string): Msg => msg(`the suite in ${dir} is already complete`, 'its combined report is suite.pdf'),
  restartFromSuite: (testDir: string): Msg => msg('--restart-from applies to one test run, not a suite', `pass the test's directory, e.g. ${testDir}`),
}

// ------------------------------------------------------------------------------------------------
// pts compare
// ------------------------------------------------------------------------------------------------

export const compare = {
  tooFewRuns: (n: number): Msg =>
    msg(`pts compare needs at least 2 run directories, got ${n}`, 'pass two or more run directories (the first is the baseline); for one run use: pts report <run>'),
  labelCount: (labels: number, runs: number): Msg => msg(`${labels} --label flag(s) for ${runs} runs`, 'give one --label per run, in the order of the runs, or none'),
  sameRunTwice: (i: number, dir: string, prev: number, prevDir: string): Msg =>
    msg(`Run ${i + 1} (${dir}) is the same run directory as run ${prev + 1} (${prevDir})`, 'pass each run once'),
  cannotCompare: (i: number, dir: string, problem: string, running: {pid: number} | null): Msg =>
    msg(`Cannot compare run ${i + 1} (${dir}): ${problem}`, running
      ? `wait for the run to finish; if its process (pid ${running.pid}) is gone, ${continueWith('it', dir)}`
      : `continue it with ${resumeCmd(dir)}, or leave it out of the comparison`),
  notComparable: (problems: readonly string[]): Msg =>
    msg(`These runs cannot be compared point by point: ${problems.join('; ')}`,
      'compare runs of the same test and revision; profile, TC/QD, ActiveRange, point duration, compliance and steady-state verdict may differ (they are listed as differences)'),
}

// ------------------------------------------------------------------------------------------------
// pts audit
// ------------------------------------------------------------------------------------------------

export const audit = {
  maxGapNotPositive: (text: string): Msg => msg(`--max-gap-ms ${text}: expected a positive number of milliseconds`),
}

// ------------------------------------------------------------------------------------------------
// Internal (a bug in pts: exit 1)
// ------------------------------------------------------------------------------------------------

export const internal = {
  /** An error of no class of errors.ts reached the command (its stack is printed with DEBUG=pts). */
  unexpected: (why: string): Msg => msg(`internal error: ${why} (this is a bug in pts; set DEBUG=pts for the stack trace)`),
  /** Inside a run: recorded in results.json with its stack. */
  inRun: (stackOrMessage: string): Msg => msg(`internal error: ${stackOrMessage}`),
  missingLoopPhase: (phase: string, loopPhase: string): Msg => msg(`internal error: ${phase} needs loop phase ${loopPhase}`),
  /** pts is about to write a file that fails its own schema. */
  builtInvalid: (file: string, problems: readonly Problem[]): Msg => msg(`internal error: pts built an invalid ${file}:\n${problemLines(problems)}`),
}

// ------------------------------------------------------------------------------------------------
// pts serve (the live page)
// ------------------------------------------------------------------------------------------------

export const serve = {
  dirNotFound: (dir: string): Msg => msg(`Folder not found: ${dir}`, 'pass the folder that holds the run directories (default: reports/)'),
  notADirectory: (dir: string): Msg => msg(`Not a folder: ${dir}`, 'pass the folder that holds the run directories, not a file'),
  cannotListen: (host: string, port: number, why: string): Msg =>
    msg(`Cannot serve on ${host} port ${port}: ${why}`, port === 0 ? 'choose another --host' : 'choose another --port (0 picks a free one), or end the program that uses it'),
  badHost: (host: string): Msg => msg(`--host ${host}: expected an IP address of this host (127.0.0.1, ::1, 0.0.0.0, ...) or localhost`),
}

// ------------------------------------------------------------------------------------------------
// Several drives at once (pts run --device A --device B ...: one lane per drive, a fleet directory)
// ------------------------------------------------------------------------------------------------

const RESTORE_FLEET = 'restore fleet.json from a copy; every lane\'s own run directory is untouched'

export const lanes = {
  fleetNotJson: (path: string, why: string): Msg => msg(`${path} is not valid JSON (${why})`, RESTORE_FLEET),
  invalidFleet: (path: string, problems: readonly Problem[]): Msg => data.invalid('fleet index', path, problems, RESTORE_FLEET),
  duplicateDevice: (devices: readonly string[]): Msg => msg(`--device names the same drive more than once (${list(devices)})`, 'name each drive once: one lane per drive'),
  fleetExists: (dir: string): Msg => msg(`${dir} already holds a fleet (fleet.json)`, `choose another --out, or continue it with: ${resumeCmd(dir)}`),
  notAFleet: (dir: string): Msg => msg(`${dir} holds no fleet.json`, 'pass the directory that pts run with several --device wrote'),
  nothingToResume: (dir: string): Msg => msg(`every lane of the fleet in ${dir} is complete or was refused by the safety gate; there is nothing to resume`, `its report is ${dir}/fleet.pdf (render it again with: pts report ${dir})`),
  reportFailed: (why: string, dir: string): Msg => msg(`the fleet report could not be rendered: ${why}; every lane's results and own report are kept in ${dir}; render it again with: pts report ${dir}`),
  restartFromFleet: (laneDir: string): Msg => msg('--restart-from applies to one run, not a fleet of lanes', `pass the lane's directory, e.g. ${laneDir}`),
  hostsFleet: (dir: string, inventory: string): Msg => msg(`${dir} holds a fleet that ran on several hosts (pts fleet): its run directories are copies collected from the hosts, and its drives are not on this machine`,
    `continue its lanes on their hosts with: pts fleet resume ${inventory}, then copy them back with: pts fleet collect ${inventory}`),
  fleetFormats: (formats: string): Msg => msg(`--format ${formats}: a fleet report is written as pdf and html`, 'pass --format pdf, html or pdf,html'),
}

// ------------------------------------------------------------------------------------------------
// pts fleet (many hosts through Ansible)
// ------------------------------------------------------------------------------------------------

const FLEET_INVENTORY_HINT = 'fix the inventory (see schemas/fleet-inventory.schema.json and the README section "Many hosts: pts fleet")'

export const fleet = {
  inventoryUnreadable: (file: string, why: string): Msg => msg(`Cannot read the fleet inventory ${file}: ${why}`, 'pass the path of a pts fleet inventory (JSON)'),
  inventoryInvalid: (file: string, problems: readonly Problem[]): Msg => data.invalid('fleet inventory', file, problems, FLEET_INVENTORY_HINT),
  secretInInventory: (file: string, pointers: readonly string[]): Msg =>
    data.invalid('fleet inventory', file, pointers.map(p => ({pointer: p, message: 'looks like a password or secret: pts never stores one'})),
      'remove it and log in with an ssh key (ssh.identityFile, or your ssh agent); pts connects with keys only'),
  ansibleMissing: msg('ansible (ansible-core) is not installed on this controller', `${install('ansible-core openssh-client')}`),
  ansibleFailed: (what: string, why: string): Msg => msg(`ansible could not run ${what}: ${why}`, 'check the inventory, the ssh key and known_hosts; run: ansible all -i <fleet dir>/ansible-inventory.json -m ping'),
  planRefused: (problems: readonly string[]): Msg =>
    msg(`The fleet may not run:\n${problems.map(p => `  - ${p}`).join('\n')}`, `fix each problem above, then run pts fleet plan again; ${NOTHING_WRITTEN}`),
  notConfirmed: (missing: readonly string[]): Msg =>
    msg(`Not every drive is confirmed: ${list(missing)}`, `confirm each drive that will be destroyed as host:serial, e.g. --yes-destroy-data ${missing[0] ?? 'host:serial'} (pts fleet plan lists them); ${NOTHING_WRITTEN}`),
  unknownConfirmation: (extra: readonly string[], known: readonly string[]): Msg =>
    msg(`--yes-destroy-data names drives that are not in the inventory: ${list(extra)}`, `name drives as host:serial: ${list(known)}`),
  lanesRefused: (lanes: readonly string[]): Msg => msg(`Some drives were not started or resumed:\n${lanes.map(l => `  - ${l}`).join('\n')}`, 'see pts fleet status <inventory>; the others run on'),
  packMismatch: (host: string, file: string): Msg => msg(`The copy of ${host}'s run directories (${file}) differs from the host's archive (size or SHA-256)`, 'run pts fleet collect again'),
  nothingCollected: (dir: string): Msg => msg(`No collected run directories in ${dir}`, 'run pts fleet collect <inventory> first'),
  notHostsFleet: (dir: string): Msg => msg(`${dir}/fleet.json is the index of pts run with several --device on one host, not of a fleet across hosts`, `pass --dir the directory pts fleet collect wrote, or render this one with: pts report ${dir}`),
  notCollected: (drive: string, dir: string): Msg => msg(`${drive} is left out of the fleet report: ${dir} holds no collected run`, 'run pts fleet collect <inventory>, then pts fleet report again'),
}
