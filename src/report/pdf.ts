/**
 * HTML -> A4 PDF with puppeteer-core driving Debian's Chromium (toolchain.md: pipe: true, temporary
 * HOME/XDG dirs and profile, no network: every request that is not data:/about: is aborted).
 * One browser per process, launched on first use and closed by closeBrowser().
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {Browser} from 'puppeteer-core'
import {EXIT, PtsError} from '../errors.js'
import * as M from '../messages.js'

export const DEFAULT_CHROMIUM = '/usr/bin/chromium'

let browser: Promise<{browser: Browser; home: string}> | undefined

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM
}

async function launch(): Promise<{browser: Browser; home: string}> {
  const executablePath = chromiumPath()
  const home = mkdtempSync(join(tmpdir(), 'pts-chromium-'))
  try {
    const {default: puppeteer} = await import('puppeteer-core')
    const b = await puppeteer.launch({
      executablePath,
      headless: true,
      pipe: true,
      userDataDir: join(home, 'profile'),
      env: {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache')},
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run', '--font-render-hinting=none',
        '--disable-extensions', '--mute-audio'],
    })
    return {browser: b, home}
  } catch (error) {
    rmSync(home, {recursive: true, force: true})
    const msg = error instanceof Error ? error.message : String((error as {message?: unknown})?.message ?? error)
    throw new PtsError(M.report.chromiumNoStart(executablePath, msg.split('\n')[0]), EXIT.report)
  }
}

/**
 * Start Chromium now, without waiting for it: its start-up (a separate process) then overlaps
 * the work that comes before the first print (reading the run, drawing the charts). A launch
 * failure is reported by the htmlToPdf() that follows; closeBrowser() ends it either way.
 */
export function warmBrowser(): void {
  if (browser) return
  browser = launch()
  browser.catch(() => {})
}

/** Print self-contained HTML to an A4 PDF; returns the PDF bytes. */
export async function htmlToPdf(html: string): Promise<Uint8Array> {
  browser ??= launch()
  let b: Browser
  try {
    b = (await browser).browser
  } catch (error) {
    browser = undefined
    throw error
  }
  const page = await b.newPage()
  try {
    await page.setRequestInterception(true)
    page.on('request', req => {
      const url = req.url()
      if (url.startsWith('data:') || url.startsWith('about:')) void req.continue()
      else void req.abort('blockedbyclient')
    })
    await page.setJavaScriptEnabled(false)
    await page.setContent(html, {waitUntil: 'load', timeout: 120_000})
    await page.emulateMediaType('print')
    return await page.pdf({format: 'A4', printBackground: true, preferCSSPageSize: true,
      margin: {top: 0, right: 0, bottom: 0, left: 0}, timeout: 120_000})
  } catch (error) {
    throw new PtsError(M.report.printFailed((error as Error).message), EXIT.report)
  } finally {
    await page.close().catch(() => {})
  }
}

export async function closeBrowser(): Promise<void> {
  const b = browser
  browser = undefined
  if (!b) return
  try {
    const {browser: br, home} = await b
    await br.close().catch(() => {})
    rmSync(home, {recursive: true, force: true})
  } catch {
    // launch failed: nothing to close
  }
}
