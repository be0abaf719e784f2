/**
 * Error classes and the exit-code table (documented in the README). A run that does not reach
 * steady state is a result, not an error.
 */
export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  invalidData: 3,
  unsafeTarget: 4,
  missingTool: 5,
  fioFailed: 6,
  report: 7,
  runDir: 8,
  storage: 9,
  /** pts verify --fail-on-miss: at least one claim was below tolerance or not measured. */
  claimMissed: 10,
  /** pts audit: at least one check failed. */
  auditFailed: 11,
  interrupted: 130,
} as const

export class PtsError extends Error {
  constructor(message: string, readonly exit: number, readonly suggestion?: string) {
    super(message)
  }
}

export class UsageError extends PtsError {
  constructor(message: string, suggestion?: string) { super(message, EXIT.usage, suggestion) }
}

export interface SchemaProblem { pointer: string; message: string }

export class InvalidDataError extends PtsError {
  constructor(readonly file: string, readonly problems: SchemaProblem[], what = 'file', suggestion?: string) {
    super(`Invalid ${what} ${file}:\n${problems.map(p => `  at ${p.pointer || '/'}: ${p.message}`).join('\n')}`, EXIT.invalidData, suggestion)
  }
}

export class UnsafeTargetError extends PtsError {
  constructor(readonly target: string, readonly reasons: string[], suggestion?: string) {
    super(`Refusing to write to ${target}:\n${reasons.map(r => `  - ${r}`).join('\n')}`, EXIT.unsafeTarget, suggestion)
  }
}

export class MissingToolError extends PtsError {
  constructor(tool: string, pkg: string) {
    super(`${tool} was not found on PATH`, EXIT.missingTool, `install it: apt-get install -y ${pkg}`)
  }
}

export class FioFailedError extends PtsError {
  constructor(message: string, suggestion?: string) { super(message, EXIT.fioFailed, suggestion) }
}

export class RunDirError extends PtsError {
  constructor(message: string, suggestion?: string) { super(message, EXIT.runDir, suggestion) }
}

/** The run directory cannot be written (disk full, read-only, I/O error). */
export class StorageError extends PtsError {
  constructor(path: string, cause: NodeJS.ErrnoException) {
    const why = cause.code === 'ENOSPC' ? 'no space left on the device that holds the run directory'
      : cause.code === 'EDQUOT' ? 'disk quota exceeded'
        : cause.code === 'EROFS' ? 'the file system is read-only'
          : `${cause.code ?? 'error'}: ${cause.message}`
    super(`cannot write ${path}: ${why}; the run stopped and every measurement written before is kept`, EXIT.storage, 'free space (or choose another --out), then continue with pts resume <run-dir>')
  }
}

/** A plan that cannot be made from this definition, these options and this target (pure planner; shown as a usage error). */
export class PlanError extends Error {}

/** Output that is not fio's JSON (pure parser; the runner and the audit name the file). */
export class FioOutputError extends Error {}

/** A run stopped by SIGINT/SIGTERM: every completed step is kept; `pts resume` continues it. */
export class InterruptedError extends PtsError {
  constructor(signal: string, runDir: string) {
    super(`interrupted by ${signal}; every completed test point is kept in ${runDir}`, EXIT.interrupted, `resume with: pts resume ${runDir}`)
  }
}
