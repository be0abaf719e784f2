/**
 * `pts serve` (I/O): a read-only HTTP server over a directory of run directories. It lists every
 * run directory found under the served directory (grouped by the folder that holds it; a folder
 * with a fleet.json or suite.json is shown as such) and, for a selected run, its convergence and
 * per-step charts (snapshot.ts builds both from one read). The page polls GET /api/state.
 *
 * Read-only by construction: only GET and HEAD are answered (anything else: 405), no handler
 * writes, starts or ends anything. Files are served only from inside the served directory (the
 * real path, after symlinks, must stay inside it). Away from loopback every request needs the
 * token printed at start (401 without it); on loopback the Host header must name a loopback
 * address (a web page elsewhere cannot reach the server through a rebound DNS name).
 */
import {randomBytes, timingSafeEqual} from 'node:crypto'
import {existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync} from 'node:fs'
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import {dirname, extname, join, relative, resolve, sep} from 'node:path'
import {isIP} from 'node:net'
import {createRequire} from 'node:module'
import {PtsError} from '../errors.js'
import {expandProgram, storedRunOptions} from '../plan/expand.js'
import type {RunManifest} from '../model/manifest.js'
import type {ProgramResults} from '../model/results.js'
import {readStoredRun} from '../store/read.js'
import {loadProgramSpec} from '../store/spec-files.js'
import {runProcessAlive} from '../store/lock.js'
import {liveDetail, liveRow, unreadableRow, type LiveRunDetail, type LiveRunRow, type ServeStateJson, type TimelineFacts} from './snapshot.js'

export const LIVE_DIR = new URL('../../templates/live/', import.meta.url)

/** Is this a loopback address (127.0.0.0/8, ::1, localhost)? */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (h === 'localhost' || h === '::1') return true
  return isIP(h) === 4 && h.startsWith('127.')
}

interface CachedRun {
  key: string
  manifest: RunManifest
  results: ProgramResults
  timeline: TimelineFacts | null
  /** The detail, built when first asked for (the files are re-read, and this rebuilt, only when they change). */
  detail?: LiveRunDetail
}

/** The plan's timeline of a stored run (the same expansion as `pts resume`), null when the definition no longer matches. */
function timelineOf(m: RunManifest, r: ProgramResults): TimelineFacts | null {
  try {
    const spec = loadProgramSpec(r.test, r.revision)
    const purge = r.phases.find(x => x.kind === 'purge') as {method: string; deviation: string | null} | undefined
    const plan = expandProgram(spec, storedRunOptions(r), {kind: m.target.kind, path: m.target.path, sizeBytes: m.target.sizeBytes, logicalSectorBytes: m.target.identity.logicalSectorBytes,
      purge: {method: purge?.method ?? 'none', deviation: purge?.deviation ?? null}})
    return {phases: plan.timeline.map((t, k) => ({phase: t.phase, title: t.title, minSec: t.minSec, maxSec: t.maxSec,
      dependsOnDevice: plan.phases[k]?.kind === 'purge' || plan.phases[k]?.kind === 'wipc'}))}
  } catch { return null }
}

const TOKEN_COOKIE = 'pts_token'
const SKIP_DIRS = new Set(['raw', 'node_modules'])
const MAX_DEPTH = 6

export class LiveServer {
  readonly root: string
  private readonly cache = new Map<string, CachedRun>()
  private server: Server | null = null
  private readonly vendor: Record<string, string>

  constructor(root: string, readonly opts: {host: string; port: number; token: string | null}) {
    this.root = realpathSync(resolve(root))
    const require = createRequire(import.meta.url)
    const vega = dirname(require.resolve('vega'))
    const vl = dirname(require.resolve('vega-lite'))
    this.vendor = {'/vendor/vega.min.js': join(vega, 'vega.min.js'), '/vendor/vega-lite.min.js': join(vl, 'vega-lite.min.js')}
  }

  /** A fresh token for a non-loopback address. */
  static newToken(): string {
    return randomBytes(18).toString('base64url')
  }

  /** Every run directory under the root: [relative dir, relative parent folder, that folder's kind]. */
  private scan(): Array<{id: string; folder: string}> {
    const out: Array<{id: string; folder: string}> = []
    const walk = (abs: string, depth: number): void => {
      let names: string[]
      try { names = readdirSync(abs).sort() } catch { return }
      if (names.includes('manifest.json') && names.includes('results.json')) {
        const id = relative(this.root, abs).split(sep).join('/')
        out.push({id, folder: id.includes('/') ? id.slice(0, id.lastIndexOf('/')) : ''})
        return
      }
      if (depth >= MAX_DEPTH) return
      for (const n of names) {
        if (n.startsWith('.') || SKIP_DIRS.has(n)) continue
        const p = join(abs, n)
        let st
        try { st = lstatSync(p) } catch { continue }
        if (st.isDirectory()) walk(p, depth + 1) // symbolic links are not followed
      }
    }
    walk(this.root, 0)
    return out
  }

  /** The folder itself or the nearest one above it (inside the root) that holds a fleet.json. */
  private fleetOf(folder: string): string | null {
    for (let f: string | null = folder; f !== null; f = f === '' ? null : (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '')) {
      if (existsSync(join(this.root, f, 'fleet.json'))) return f
    }
    return null
  }

  private folderKind(folder: string): 'fleet' | 'suite' | 'folder' {
    const abs = join(this.root, folder)
    if (existsSync(join(abs, 'fleet.json'))) return 'fleet'
    if (existsSync(join(abs, 'suite.json'))) return 'suite'
    return 'folder'
  }

  /** One read of a run (re-read only when manifest.json or results.json changed). */
  private read(id: string): CachedRun | string {
    const dir = join(this.root, id)
    let key: string
    try {
      const a = statSync(join(dir, 'manifest.json'))
      const b = statSync(join(dir, 'results.json'))
      key = `${a.mtimeMs}:${a.size}:${a.ino}/${b.mtimeMs}:${b.size}:${b.ino}`
    } catch (error) { return (error as Error).message }
    const hit = this.cache.get(id)
    if (hit && hit.key === key) return hit
    try {
      const {manifest, results} = readStoredRun(dir)
      const timeline = hit && hit.results.runId === results.runId ? hit.timeline : timelineOf(manifest, results)
      const c = {key, manifest, results, timeline}
      this.cache.set(id, c)
      return c
    } catch (error) {
      if (error instanceof PtsError) return error.message
      return (error as Error).message
    }
  }

  /** GET /api/state: every run's row, and the selected run's row and detail from the same read. */
  state(selected: string | null): ServeStateJson {
    const now = new Date().toISOString()
    const groups = new Map<string, LiveRunRow[]>()
    let sel: ServeStateJson['selected'] = null
    for (const {id, folder} of this.scan()) {
      const path = join(this.root, id)
      const c = this.read(id)
      let row: LiveRunRow
      if (typeof c === 'string') row = unreadableRow(id, folder, path, c)
      else row = liveRow({id, group: folder, path, manifest: c.manifest, results: c.results, alive: c.manifest.status === 'running' ? runProcessAlive(path, c.manifest) : false, timeline: c.timeline, now})
      if (!groups.has(folder)) groups.set(folder, [])
      groups.get(folder)!.push(row)
      if (id === selected) sel = {row, detail: typeof c === 'string' ? null : (c.detail ??= liveDetail(c.results))}
    }
    return {at: now, root: this.root, groups: [...groups].map(([folder, runs]) => ({folder, kind: this.folderKind(folder), fleet: this.fleetOf(folder), runs})), selected: sel}
  }

  /** A path inside the root, after symlinks, or null. */
  insideRoot(rel: string): string | null {
    if (rel.includes('\0')) return null
    const abs = resolve(this.root, `.${sep}${rel}`)
    let real: string
    try { real = realpathSync(abs) } catch { return null }
    return real === this.root || real.startsWith(this.root + sep) ? real : null
  }

  private authorized(req: IncomingMessage, url: URL): boolean {
    if (this.opts.token === null) return true
    const cookie = (req.headers.cookie ?? '').split(';').map(c => c.trim()).find(c => c.startsWith(`${TOKEN_COOKIE}=`))?.slice(TOKEN_COOKIE.length + 1)
    const given = url.searchParams.get('token') ?? req.headers.authorization?.match(/^Bearer (.+)$/)?.[1] ?? cookie ?? ''
    const a = Buffer.from(given)
    const b = Buffer.from(this.opts.token)
    return a.length === b.length && timingSafeEqual(a, b)
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const send = (code: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void => {
      res.writeHead(code, {'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer',
        'Content-Security-Policy': "default-src 'none'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'", ...extra})
      res.end(req.method === 'HEAD' ? undefined : body)
    }
    const text = (code: number, body: string, extra: Record<string, string> = {}) => send(code, 'text/plain; charset=utf-8', `${body}\n`, extra)
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'This page is read-only: only GET and HEAD requests are answered.', {Allow: 'GET, HEAD'})
    if (this.opts.token === null && !isLoopback((req.headers.host ?? '').replace(/:\d+$/, ''))) return text(403, 'This server answers only requests addressed to a loopback address.')
    let url: URL
    try { url = new URL(req.url ?? '/', 'http://localhost') } catch { return text(400, 'Bad request.') }
    if (!this.authorized(req, url)) return text(401, 'A token is needed: open the address that pts serve printed (it ends with ?token=...).')
    const p = url.pathname
    try {
      // the page's scripts and API calls carry the token as a cookie once the printed address was opened
      if (p === '/' || p === '/index.html') return send(200, 'text/html; charset=utf-8', readFileSync(new URL('index.html', LIVE_DIR)),
        this.opts.token ? {'Set-Cookie': `${TOKEN_COOKIE}=${this.opts.token}; HttpOnly; SameSite=Strict; Path=/`} : {})
      if (p === '/app.js') return send(200, 'text/javascript; charset=utf-8', readFileSync(new URL('app.js', LIVE_DIR)))
      if (p === '/live.css') return send(200, 'text/css; charset=utf-8', readFileSync(new URL('live.css', LIVE_DIR)))
      if (p in this.vendor) return send(200, 'text/javascript; charset=utf-8', readFileSync(this.vendor[p]), {'Cache-Control': 'max-age=3600'})
      if (p === '/api/state') {
        const run = url.searchParams.get('run')
        return send(200, 'application/json; charset=utf-8', JSON.stringify(this.state(run)))
      }
      if (p.startsWith('/files/')) {
        let rel: string
        try { rel = decodeURIComponent(p.slice('/files/'.length)) } catch { return text(400, 'Bad file name.') }
        const abs = this.insideRoot(rel)
        if (abs === null) return text(404, 'No such file in the served directory.')
        if (!statSync(abs).isFile()) return text(404, 'Not a file.')
        // a stored HTML report is shown in a sandbox: no script of it runs with this page's rights
        return send(200, CONTENT_TYPES[extname(abs).toLowerCase()] ?? 'application/octet-stream', readFileSync(abs),
          extname(abs).toLowerCase() === '.html' ? {'Content-Security-Policy': "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:"} : {})
      }
      return text(404, 'Not found.')
    } catch (error) {
      return text(500, `The server could not answer: ${(error as Error).message}`)
    }
  }

  async listen(): Promise<{url: string; port: number}> {
    const server = createServer((req, res) => this.handle(req, res))
    this.server = server
    await new Promise<void>((ok, fail) => {
      server.once('error', fail)
      server.listen(this.opts.port, this.opts.host, () => { server.off('error', fail); ok() })
    })
    const port = (server.address() as {port: number}).port
    const h = this.opts.host.includes(':') ? `[${this.opts.host}]` : this.opts.host
    return {url: `http://${h}:${port}/${this.opts.token ? `?token=${this.opts.token}` : ''}`, port}
  }

  async close(): Promise<void> {
    const s = this.server
    this.server = null
    if (s) await new Promise<void>(ok => { s.close(() => ok()); s.closeAllConnections() })
  }
}

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8', '.fio': 'text/plain; charset=utf-8', '.txt': 'text/plain; charset=utf-8', '.log': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8', '.pdf': 'application/pdf', '.html': 'text/html; charset=utf-8', '.md': 'text/plain; charset=utf-8', '.sh': 'text/plain; charset=utf-8',
}
