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
