/** Host facts for the manifest and the report header (I/O). */
import {cpus, hostname, release, totalmem, arch} from 'node:os'
import {readFileSync} from 'node:fs'

export function hostFacts(): {hostname: string; cpu: string; cores: number; memoryBytes: number; os: string; kernel: string; arch: string} {
  let os = 'Linux'
  try {
    const m = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))
    if (m) os = m[1]
  } catch { /* keep default */ }
  return {hostname: hostname(), cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryBytes: totalmem(), os, kernel: release(), arch: arch()}
}

export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {version: string}
  return pkg.version
}
