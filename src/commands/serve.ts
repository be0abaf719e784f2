import {Args, Flags} from '@oclif/core'
import {existsSync, statSync} from 'node:fs'
import {isIP} from 'node:net'
import {resolve} from 'node:path'
import {BaseCommand} from '../app/base-command.js'
import {PtsError, RunDirError, UsageError, EXIT} from '../errors.js'
import * as M from '../messages.js'

export default class Serve extends BaseCommand {
  static enableJsonFlag = false
  static summary = 'Serve a read-only live page of the runs under a folder (state, round, time left, steady state, charts).'
  static description = `Lists every run directory found under the folder (grouped by the folder that holds it; a fleet or suite folder is shown as one), with its test, device, state (running, stopped, interrupted, failed, complete), phase, round, test points stored, time left and steady state so far. For a selected run it shows the steady-state tracking values per round with the measurement window, and the IOPS and mean response time of every test point; the page updates every 2 seconds as test points are stored, without a reload. A stopped or interrupted run shows the pts resume command that continues it.

The page is read-only: the server answers only GET and HEAD requests (any other method gets 405), starts, stops, continues or deletes nothing, and serves no file outside the folder (also not through a symbolic link). By default it listens on 127.0.0.1 only. On any other address every request needs the token that pts serve prints at start (as part of the address to open; without it: 401).

The page's data is GET /api/state?run=<run folder> (JSON, schema schemas/cli/serve-state.schema.json): every run's row, and the selected run's row and detail read from the same files at the same moment. Files of the runs: GET /files/<path under the folder>. Runs until Ctrl-C.`
  static examples = [
    {description: 'Watch the runs under reports/ at http://127.0.0.1:8480/', command: '<%= config.bin %> serve reports'},
    {description: 'Serve on every address (prints an address with the token to open)', command: '<%= config.bin %> serve reports --host 0.0.0.0 --port 9000'},
  ]
  static args = {dir: Args.string({description: 'folder that holds the run directories (searched 6 levels deep)', default: 'reports'})}
  static flags = {
    host: Flags.string({description: 'address to listen on; anything but a loopback address needs the printed token', default: '127.0.0.1'}),
    port: Flags.integer({description: 'port to listen on (0: any free port)', default: 8480, min: 0, max: 65535}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Serve)
    const dir = resolve(args.dir)
    if (!existsSync(dir)) throw new RunDirError(M.serve.dirNotFound(dir))
    if (!statSync(dir).isDirectory()) throw new RunDirError(M.serve.notADirectory(dir))
    if (flags.host !== 'localhost' && isIP(flags.host.replace(/^\[|\]$/g, '')) === 0) throw new UsageError(M.serve.badHost(flags.host))
    const {LiveServer, isLoopback} = await import('../live/server.js')
    const host = flags.host.replace(/^\[|\]$/g, '')
    const server = new LiveServer(dir, {host, port: flags.port, token: isLoopback(host) ? null : LiveServer.newToken()})
    let where: {url: string}
    try {
      where = await server.listen()
    } catch (error) {
      throw new PtsError(M.serve.cannotListen(host, flags.port, (error as Error).message), EXIT.usage)
    }
    this.log(`Serving the runs under ${server.root} (read-only) at ${where.url}`)
    if (server.opts.token) this.log('Open that address as printed: it carries the token, and requests without it are refused.')
    this.log('Press Ctrl-C to stop.')
    await new Promise<void>(ok => {
      const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); void server.close().then(ok) }
      process.on('SIGINT', stop)
      process.on('SIGTERM', stop)
    })
  }
}
