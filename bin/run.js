#!/usr/bin/env node
import {execute} from '@oclif/core'

// dist/ holds package.json and oclif.manifest.json written by `npm run build` (scripts/manifest.mjs).
await execute({dir: new URL('../dist/', import.meta.url).href})
