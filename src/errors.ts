/**
 * Error classes and the exit-code table (documented in the README). A run that does not reach
 * steady state is a result, not an error. Every class takes a Msg of the message catalog
 * (messages.ts), which holds the wording.
 */
import type {Msg} from './messages.js'

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
  /** pts plan: at least one preflight check failed (fio, Chromium, purge tool, free space). */
  preflightFailed: 12,
  interrupted: 130,
} as const

export class PtsError extends Error {
  readonly suggestion?: string
  constructor(msg: Msg, readonly exit: number) {
    super(msg.message)
    if (msg.suggestion !== undefined) this.suggestion = msg.suggestion
  }
}

export class UsageError extends PtsError {
  constructor(msg: Msg) { super(msg, EXIT.usage) }
}

/** A field of a file that fails its schema: the JSON pointer and the validator's complaint. */
export interface SchemaProblem { pointer: string; message: string }

/** A file that fails its schema (M.data.invalid). */
export class InvalidDataError extends PtsError {
  constructor(msg: Msg) { super(msg, EXIT.invalidData) }
}

/** The safety gate refused the target (M.target.refused). */
export class UnsafeTargetError extends PtsError {
  constructor(msg: Msg) { super(msg, EXIT.unsafeTarget) }
}

export class MissingToolError extends PtsError {
  constructor(msg: Msg) { super(msg, EXIT.missingTool) }
}

export class FioFailedError extends PtsError {
  constructor(msg: Msg) { super(msg, EXIT.fioFailed) }
}

export class RunDirError extends PtsError {
  constructor(msg: Msg) { super(msg, EXIT.runDir) }
}

/** The run directory cannot be written (disk full, read-only, I/O error; M.runDir.cannotWrite). */
export class StorageError extends PtsError {
  constructor(msg: Msg) { super(msg, EXIT.storage) }
}

/** A plan that cannot be made from this definition, these options and this target (pure planner; shown as a usage error). */
export class PlanError extends Error {
  readonly suggestion?: string
  constructor(msg: Msg) {
    super(msg.message)
    if (msg.suggestion !== undefined) this.suggestion = msg.suggestion
  }
}

/** Output that is not fio's JSON (pure parser; the runner and the audit name the file). */
export class FioOutputError extends Error {
  constructor(msg: Msg) { super(msg.message) }
}

/** A run stopped by SIGINT/SIGTERM: every completed step is kept; `pts resume` continues it (M.runDir.interrupted). */
export class InterruptedError extends PtsError {
  constructor(msg: Msg) { super(msg, EXIT.interrupted) }
}
