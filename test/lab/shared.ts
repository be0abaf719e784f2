/**
 * One lab guest for the whole lab tier (test/lab/*.integration.test.ts): booted by the first file
 * that asks, stopped by a root-level `after` hook once every file has run (this module registers
 * it when mocha loads the first lab file), and killed on process exit whatever happens.
 * A guest that cannot boot fails the tests with the reason; only a documented machine limit
 * (labMachineLimit: not x86-64 Linux, not root) skips them, saying so.
 */
import {readdirSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {ROOT} from '../helpers/cli.js'
import {Lab, labMachineLimit} from '../helpers/lab.js'

/** pts runs in the guest from dist/ (as installed): a src/ file newer than dist/ fails the tier with what to do. */
function distStale(): string | null {
  let dist: number
  try { dist = statSync(join(ROOT, 'dist/index.js')).mtimeMs } catch { return 'the lab runs pts from dist/, which is missing: run npm run build first (.ci/setup does)' }
  const walk = (d: string): string | null => {
    for (const e of readdirSync(d, {withFileTypes: true})) {
      const p = join(d, e.name)
      if (e.isDirectory()) { const r = walk(p); if (r) return r } else if (e.name.endsWith('.ts') && statSync(p).mtimeMs > dist) return p
    }
    return null
  }
  const newer = walk(join(ROOT, 'src'))
  return newer ? `the lab runs pts from dist/, which is older than ${newer}: run npm run build first` : null
}

let lab: Promise<Lab> | null = null

after(async function () {
  this.timeout(60_000)
  if (!lab) return
  const l = await lab.catch(() => null)
  lab = null
  await l?.stop()
})

/** The shared guest (booting it on first use); skips the calling test only for a machine limit. */
export async function sharedLab(ctx: Mocha.Context): Promise<Lab> {
  const limit = labMachineLimit()
  if (limit) {
    const reason = `skipped: ${limit}`
    if (ctx.currentTest) ctx.currentTest.title += ` [${reason}]`
    process.stderr.write(`${reason}\n`)
    ctx.skip()
  }
  ctx.timeout(Math.max(ctx.timeout(), 300_000))
  const stale = distStale()
  if (stale) throw new Error(stale)
  lab ??= Lab.start().then(l => { process.stderr.write(`lab guest booted in ${(l.bootMs / 1000).toFixed(1)} s\n`); return l })
  return lab
}

/** Block device paths in the guest. */
export const DEV = {nvme: '/dev/nvme0n1', nvmeCtrl: '/dev/nvme0', scsi: '/dev/sda', sata: '/dev/sdb'} as const
