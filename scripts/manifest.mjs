#!/usr/bin/env node
/**
 * Writes oclif.manifest.json (the commands' ids, summaries, flags and args) from the built
 * dist/commands, so that `pts --help` and every command start without importing every command
 * module (oclif reads the manifest instead). Run by `npm run build`; the file is git-ignored.
 */
import {writeFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'
import {Config} from '@oclif/core'

const root = fileURLToPath(new URL('..', import.meta.url))
const config = await Config.load({root, ignoreManifest: true})
const plugin = config.plugins.get(config.pjson.name)
if (!plugin) throw new Error(`plugin ${config.pjson.name} not found`)
writeFileSync(new URL('../oclif.manifest.json', import.meta.url), JSON.stringify(plugin.manifest, null, 2) + '\n')
console.log(`oclif.manifest.json: ${Object.keys(plugin.manifest.commands).length} commands (pts ${plugin.manifest.version})`)
