/**
 * Tier requirements (house style "requires()"): a test that needs root skips only where the
 * machine cannot give it, and says why, on stderr and in the test title. CI and the developers'
 * machines run as root, so there these tests always run.
 */
export function requireRoot(ctx: Mocha.Context, what: string): void {
  if (process.getuid?.() === 0) return
  const reason = `skipped: ${what} needs root (run the tests as root, as CI does)`
  if (ctx.currentTest) ctx.currentTest.title += ` [${reason}]`
  process.stderr.write(`${reason}\n`)
  ctx.skip()
}
