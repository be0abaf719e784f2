#!/usr/bin/env node
/**
 * Makes dist/ the root oclif starts bin/run.js from: dist/package.json (the project's oclif
 * settings, commands in ./commands) and dist/oclif.manifest.json (every command's id, summary,
 * flags and args, from oclif itself). With the manifest, `pts --help` imports no command module
 * and each command only its own. bin/dev.js keeps the project root, which has no manifest, so
 * it always runs the TypeScript sources. Run by `npm run build`.
 */
import {readFileSync, writeFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {Config} from '@oclif/core'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const dist = fileURLToPath(new URL('../dist/', import.meta.url))
const distPkg = {name: pkg.name, version: pkg.version, description: pkg.description, type: pkg.type, oclif: {...pkg.oclif, commands: './commands'}}
writeFileSync(`${dist}package.json`, JSON.stringify(distPkg, null, 2) + '\n')
const config = await Config.load({root: dist})
const plugin = config.plugins.get(pkg.name)
if (!plugin) throw new Error(`oclif found no plugin ${pkg.name} in ${dist}`)
writeFileSync(`${dist}oclif.manifest.json`, JSON.stringify(plugin.manifest) + '\n')
console.log(`dist/oclif.manifest.json: ${Object.keys(plugin.manifest.commands).length} commands (pts ${plugin.manifest.version})`)

// dist/help.txt: what `pts --help` prints when stdout is not a terminal, rendered by oclif itself
// (bin/run.js prints it without loading oclif; see there). The VERSION line is a placeholder,
// filled in at run time for the Node and platform pts runs on.
const {spawnSync} = await import('node:child_process')
const help = spawnSync(process.execPath, [fileURLToPath(new URL('../bin/run.js', import.meta.url)), '--help'], {encoding: 'utf8', env: {...process.env, PTS_NO_HELP_CACHE: '1', OCLIF_COLUMNS: ''}})
const versionLine = `pts/${pkg.version} ${process.platform}-${process.arch} node-${process.version}`
if (help.status !== 0 || !help.stdout.includes(versionLine)) throw new Error(`pts --help for dist/help.txt failed (${help.status}): ${help.stderr}`)
writeFileSync(`${dist}help.txt`, help.stdout.replace(versionLine, '{{VERSION}}'))
console.log('dist/help.txt: pts --help as oclif prints it')
