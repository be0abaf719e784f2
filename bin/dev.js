#!/usr/bin/env node
import {fileURLToPath} from 'node:url'
import {execute} from '@oclif/core'

// Development: read the commands from the TypeScript sources, never from a (possibly stale) oclif.manifest.json.
await execute({development: true, dir: import.meta.url, loadOptions: {root: fileURLToPath(new URL('..', import.meta.url)), ignoreManifest: true}})
