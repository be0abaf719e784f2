/**
 * The built pts (bin/run.js from dist/, as installed) prints `pts --help` without loading oclif
 * when stdout is not a terminal, and prints exactly what oclif prints. Needs `npm run build`
 * (CI's setup builds).
 */
import {spawnSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {expect} from 'chai'
import {ROOT} from '../helpers/cli.js'

// Counts the CommonJS modules of @oclif/core loaded by the process (oclif is CommonJS, so they
// are in the one require cache) and prints the count on stderr at exit.
const PROBE = 'data:text/javascript,' + encodeURIComponent(
  "import {createRequire} from 'node:module'; const r = createRequire(process.cwd() + '/');" +
  "process.on('exit', () => process.stderr.write('OCLIF_MODULES=' + Object.keys(r.cache).filter(k => k.includes('/@oclif/')).length + '\\n'))")

function pts(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', PROBE, `${ROOT}bin/run.js`, ...args], {encoding: 'utf8', env: {...process.env, OCLIF_COLUMNS: '', ...env}})
  const m = /OCLIF_MODULES=(\d+)/.exec(r.stderr)
  return {code: r.status, stdout: r.stdout, oclifModules: m ? Number(m[1]) : -1}
}

describe('start-up: pts --help from the build', () => {
  before(function () {
    if (!existsSync(`${ROOT}dist/help.txt`)) throw new Error('dist/help.txt is missing: run `npm run build` first (bash .ci/setup does)')
  })

  for (const args of [['--help'], []]) {
    it(`pts ${args.join(' ') || '(no arguments)'} prints what oclif prints, without loading oclif`, () => {
      const fast = pts(args)
      const oclif = pts(args, {PTS_NO_HELP_CACHE: '1'})
      expect(oclif.code).to.equal(0)
      expect(oclif.oclifModules, 'the probe sees oclif when it loads').to.be.greaterThan(10)
      expect(fast.code).to.equal(0)
      expect(fast.oclifModules).to.equal(0)
      expect(fast.stdout).to.equal(oclif.stdout)
      expect(fast.stdout).to.include(`node-${process.version}`)
      expect(fast.stdout).to.include('COMMANDS')
    })
  }

  it('a command\'s help and every other command still go through oclif', () => {
    const r = pts(['plan', '--help'])
    expect(r.code).to.equal(0)
    expect(r.oclifModules).to.be.greaterThan(10)
    expect(r.stdout).to.include('USAGE')
  })
})

describe('start-up: what the help cache does not cover', () => {
  it('pts -h is oclif\'s answer (oclif has no root -h), not the cached help', () => {
    const r = pts(['-h'])
    expect(r.code).to.equal(2)
    expect(r.oclifModules).to.be.greaterThan(10)
  })
})
