/**
 * Reads the runs to compare (I/O): each through readStoredRun (schema-validated manifest.json and
 * results.json; missing or damaged files are exit 8 or 3), then refuses a run that is still in
 * progress, has no measurement-window averages in its first loop, or (a test without a loop) has no
 * samples, bursts or operating points to compare (RunDirError, exit 8) and the same run given
 * twice (UsageError, exit 2).
 */
import {realpathSync} from 'node:fs'
import {RunDirError, UsageError} from '../errors.js'
import * as M from '../messages.js'
import {readStoredRun} from '../store/read.js'
import {loopView} from '../analysis/loop-view.js'
import {programProblem, runProblem, type CompareRunInput} from './model.js'

export function loadCompareRuns(dirs: readonly string[]): CompareRunInput[] {
  const runs: CompareRunInput[] = []
  const seen = new Map<string, number>()
  dirs.forEach((dir, i) => {
    const {runDir, manifest, results: stored} = readStoredRun(dir)
    // The first steady-state loop is compared as a matrix; a test without one (WSAT, XSR) only phase by phase.
    const results = loopView(stored)
    const real = realpathSync(runDir)
    const prev = seen.get(real)
    if (prev !== undefined) {
      throw new UsageError(M.compare.sameRunTwice(i, dir, prev, dirs[prev]))
    }
    seen.set(real, i)
    const problem = results ? runProblem(manifest, results) : programProblem(manifest, stored)
    if (problem !== null) {
      const running = stored.status === 'running' || manifest.status === 'running'
      throw new RunDirError(M.compare.cannotCompare(i, runDir, problem, running ? {pid: manifest.pid} : null))
    }
    runs.push({runDir, manifest, results, program: stored})
  })
  return runs
}
