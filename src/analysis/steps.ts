/** Every fio step of a stored run, in run order, with where it is in results.json (JSON pointer). Pure. */
import type {PhaseResult, ProgramResults, StepResult} from '../model/results.js'

/** Every fio step of a run with where it is stored (JSON pointer into results.json). */
export function stepsOf(r: ProgramResults): Array<{pointer: string; phase: Extract<PhaseResult, {kind: string}>; step: StepResult; what: string}> {
  const out: Array<{pointer: string; phase: PhaseResult; step: StepResult; what: string}> = []
  r.phases.forEach((p, pi) => {
    const base = `/phases/${pi}`
    if (p.kind === 'loop') {
      p.rounds.forEach((rd, ri) => {
        if (rd.preRound) out.push({pointer: `${base}/rounds/${ri}/preRound`, phase: p, step: rd.preRound, what: `${p.id} round ${rd.round} pre-write`})
        rd.points.forEach((pt, k) => out.push({pointer: `${base}/rounds/${ri}/points/${k}`, phase: p, step: pt, what: `${p.id} round ${rd.round} point ${pt.index + 1} (${pt.id})`}))
      })
    }
    if (p.kind === 'series') p.samples.forEach((x, k) => out.push({pointer: `${base}/samples/${k}`, phase: p, step: x, what: `${p.id} sample ${k + 1}`}))
    if (p.kind === 'bursts' && p.job) out.push({pointer: `${base}/job`, phase: p, step: p.job, what: `${p.id} (Wait State ${p.waitState})`})
    if (p.kind === 'bursts') (p.steps ?? []).forEach((x, k) => out.push({pointer: `${base}/steps/${k}`, phase: p, step: x, what: `${p.id} burst ${k + 1} (Wait State ${p.waitState})`}))
    if (p.kind === 'sweep') p.points.forEach((x, k) => out.push({pointer: `${base}/points/${k}`, phase: p, step: x, what: `${p.id} point ${k + 1} (${x.id})`}))
    if (p.kind === 'fill') p.steps.forEach((x, k) => out.push({pointer: `${base}/steps/${k}`, phase: p, step: x, what: `${p.id} pass ${x.pass} piece ${x.index + 1}`}))
    if (p.kind === 'histogram' && p.job) out.push({pointer: `${base}/job`, phase: p, step: p.job, what: `${p.id} (histogram run)`})
    if (p.kind === 'operating-points') {
      p.points.forEach((o, k) => {
        if (o.prewrite) out.push({pointer: `${base}/points/${k}/prewrite`, phase: p, step: o.prewrite, what: `${p.id} ${o.role} pre-write`})
        ;(o.prewriteSamples ?? []).forEach((x, j) => out.push({pointer: `${base}/points/${k}/prewriteSamples/${j}`, phase: p, step: x, what: `${p.id} ${o.role} pre-write sample ${j + 1}`}))
        if (o.measure) out.push({pointer: `${base}/points/${k}/measure`, phase: p, step: o.measure, what: `${p.id} ${o.role} histogram run`})
      })
    }
  })
  return out
}


/** Where a purge phase's tool output is stored (runs of earlier versions name it in the phase). */
export function purgeLog(p: Extract<PhaseResult, {kind: 'purge'}>, phaseIndex: number): string {
  return p.log ?? `raw/${String(phaseIndex + 1).padStart(2, '0')}-${p.id}.purge.json`
}
