/** Run the pts CLI from the TS sources as a child process (bin/dev.js), as a user would. */
import {spawn} from 'node:child_process'
import {fileURLToPath} from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface CliResult { code: number | null; stdout: string; stderr: string }

export function runCli(args: string[], opts: {env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string} = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${ROOT}bin/dev.js`, ...args], {cwd: opts.cwd ?? ROOT, env: {...process.env, ...opts.env}, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => { stdout += d })
    child.stderr.on('data', d => { stderr += d })
    // on a timeout pts is interrupted as an operator would (SIGTERM: it stops its fio jobs and keeps what it measured),
    // and killed 20 s later if still running; a SIGKILL alone leaves its fio jobs waiting at their start gates for ever
    let killer: NodeJS.Timeout | undefined
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGTERM')
      killer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    }, opts.timeoutMs ?? 600_000)
    child.on('exit', code => {
      clearTimeout(timer)
      clearTimeout(killer)
      if (timedOut) reject(new Error(`pts ${args.join(' ')} timed out\n${stderr.slice(-2000)}`))
      else resolve({code, stdout, stderr})
    })
  })
}
