/** Base command: --json on every command, and PtsError -> one clear message + documented exit code. */
import {Command} from '@oclif/core'
import {EXIT, PtsError} from '../errors.js'

export abstract class BaseCommand extends Command {
  static enableJsonFlag = true

  protected async catch(err: Error & {exitCode?: number; oclif?: {exit?: number}}): Promise<unknown> {
    if (err instanceof PtsError) {
      process.exitCode = err.exit
      if (this.jsonEnabled()) {
        this.logJson({error: {message: err.message, suggestion: err.suggestion ?? null, exit: err.exit}})
      } else {
        process.stderr.write(`Error: ${err.message}\n${err.suggestion ? `Hint: ${err.suggestion}\n` : ''}`)
      }
      return
    }
    // oclif's own parse errors (unknown flag, bad option value) are usage errors.
    if (err.oclif?.exit !== undefined) process.exitCode = err.oclif.exit
    else if (err.name === 'CLIError' || /Expected|Unexpected argument|Nonexistent flag|Missing required/.test(err.message)) process.exitCode = EXIT.usage
    return super.catch(err)
  }
}
