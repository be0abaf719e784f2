#!/usr/bin/env node
// dist/ holds package.json and oclif.manifest.json written by `npm run build` (scripts/manifest.mjs).
//
// `pts` and `pts --help` with stdout not a terminal print dist/help.txt, the text oclif
// printed for them at build time (80 columns, no colour: what oclif prints when stdout is not a
// terminal), with the VERSION line filled in for this Node and platform. This skips loading
// @oclif/core (about 0.25 s of CPU). On a terminal, with OCLIF_COLUMNS set, with PTS_NO_HELP_CACHE=1
// or when the file is missing, oclif renders the help itself.
import {readFileSync} from 'node:fs'

const args = process.argv.slice(2)
if ((args.length === 0 || (args.length === 1 && args[0] === '--help'))
  && !process.stdout.isTTY && !process.env.OCLIF_COLUMNS && process.env.PTS_NO_HELP_CACHE !== '1') {
  let text = null
  try { text = readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8') } catch { /* no cache: oclif renders it */ }
  if (text !== null) {
    const {version} = JSON.parse(readFileSync(new URL('../dist/package.json', import.meta.url), 'utf8'))
    process.stdout.write(text.replace('{{VERSION}}', `pts/${version} ${process.platform}-${process.arch} node-${process.version}`))
    process.exit(0)
  }
}
const {execute} = await import('@oclif/core')
await execute({dir: new URL('../dist/', import.meta.url).href})
