/** Helpers of the report tests: the fixture run, goldens, and the CLI as a child process. */
import {spawn} from 'node:child_process'
import {cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {expect} from 'chai'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const FIXTURE = join(ROOT, 'test/fixtures/runs/iops-file-short')
export const GOLDEN = join(ROOT, 'test/golden/report/iops-file-short')
/** Fixed report date, so the model is deterministic. */
export const GENERATED_AT = '2026-12-01T12:00:00Z'

/** Compare with a golden JSON file; UPDATE_GOLDEN=1 rewrites it (review the diff). */
export function expectGolden(relPath: string, actual: unknown): void {
  const path = join(GOLDEN, relPath)
  const text = JSON.stringify(actual, null, 2) + '\n'
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(path)) {
    if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`golden ${path} is missing; create it with UPDATE_GOLDEN=1 npx mocha test/report/`)
    mkdirSync(dirname(path), {recursive: true})
    writeFileSync(path, text)
    return
  }
  expect(JSON.parse(text)).to.deep.equal(JSON.parse(readFileSync(path, 'utf8')), `differs from golden ${relPath} (UPDATE_GOLDEN=1 to regenerate)`)
}

/** A copy of the fixture run in a temp dir (the fixture itself is read-only). */
export function copyFixture(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'pts-report-test-')), 'run')
  cpSync(FIXTURE, dir, {recursive: true})
  return dir
}

export interface CliResult { code: number | null; stdout: string; stderr: string }

export function pts(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/dev.js'), ...args], {cwd: ROOT, env: {...process.env, ...env}, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => { stdout += d })
    child.stderr.on('data', d => { stderr += d })
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`pts ${args.join(' ')} timed out\n${stderr}`)) }, timeoutMs)
    child.on('exit', code => { clearTimeout(timer); resolve({code, stdout, stderr}) })
  })
}

export function tool(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    child.stdout.on('data', d => { out += d })
    child.stderr.on('data', d => { err += d })
    child.on('error', reject)
    child.on('exit', code => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err}`))))
  })
}
