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
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`pts ${args.join(' ')} timed out\n${stderr.slice(-2000)}`)) }, opts.timeoutMs ?? 600_000)
    child.on('exit', code => { clearTimeout(timer); resolve({code, stdout, stderr}) })
  })
}
