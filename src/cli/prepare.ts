/** What `pts run`, `pts plan` and `pts demo` share: spec, options, target facts and the plan. */
import {randomInt} from 'node:crypto'
import {UsageError} from '../errors.js'
import {parseTarget, resolveTarget, refusals, type ResolvedTarget} from '../device/target.js'
import {loadSpec} from '../spec/load.js'
import {expandPlan, PlanError, type Plan} from '../spec/expand.js'
import {parseSizeFlag, resolveOptions, type FlagValues} from './options.js'

export interface Prepared {
  plan: Plan
  target: ResolvedTarget
  /** Why the safety gate would refuse (empty = would proceed). */
  refusals: string[]
}

export function prepare(test: string, flags: FlagValues): Prepared {
  const spec = loadSpec(test, flags.revision)
  const options = resolveOptions(flags, spec, randomInt(1, 2 ** 31))
  const parsed = parseTarget(flags.device)
  const sizeBytes = parseSizeFlag(flags.size)
  if (parsed.kind === 'block' && sizeBytes !== null) throw new UsageError('--size applies only to file: targets; a block device is used whole')
  const target = resolveTarget(parsed, sizeBytes)
  let plan: Plan
  try {
    plan = expandPlan(spec, options, {kind: target.kind, path: target.path, sizeBytes: target.sizeBytes, logicalSectorBytes: target.identity.logicalSectorBytes})
  } catch (error) {
    if (error instanceof PlanError) throw new UsageError(error.message)
    throw error
  }
  return {plan, target, refusals: refusals(target, flags['yes-destroy-data'])}
}
