/** Base command: --json on every command, and every error -> one clear message + documented exit code. */
import {Command} from '@oclif/core'
import {EXIT, PtsError} from '../errors.js'
import * as M from '../messages.js'

/** What every command prints on stdout with --json when it fails (the exit code is also the process's). */
export interface JsonError {
  error: {
    message: string
    suggestion: string | null
    /** @integer */
    exit: number
  }
}

export abstract class BaseCommand extends Command {
  static enableJsonFlag = true

  protected async catch(err: Error & {exitCode?: number; oclif?: {exit?: number}; code?: string}): Promise<unknown> {
    // A parse error is reported here; oclif's dev-mode "did not parse" warning would only add noise.
    ;(this as unknown as {parsed: boolean}).parsed = true
    let exit: number
    let message: string
    let suggestion: string | undefined
    if (err instanceof PtsError) {
      exit = err.exit
      message = err.message
      suggestion = err.suggestion
    } else if (err.oclif?.exit !== undefined) {
      // oclif's own errors carry oclif.exit (parse errors: unknown flag, bad option value, missing argument): usage errors
      exit = err.oclif?.exit === 0 ? 0 : EXIT.usage
      if (exit === 0) return super.catch(err) // --help / --version
      ;({message, suggestion} = M.usage.parseError(err.message, this.id))
    } else {
      exit = EXIT.internal
      message = M.internal.unexpected(err.message).message
      if (process.env.DEBUG?.includes('pts')) process.stderr.write(`${err.stack}\n`)
    }
    process.exitCode = exit
    if (this.jsonEnabled()) {
      this.logJson({error: {message, suggestion: suggestion ?? null, exit}} satisfies JsonError)
    } else {
      process.stderr.write(`Error: ${message}\n${suggestion ? `Hint: ${suggestion}\n` : ''}`)
    }
  }
}
