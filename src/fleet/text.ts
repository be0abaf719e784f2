/** What `pts fleet` prints (pure): one line per host, one per lane. */
import type {FleetPlanJson, HostOutcome, LaneReport} from './hosts.js'

function laneLine(host: string, l: LaneReport): string {
  const dev = l.device ? `${l.device.model ?? '?'} serial ${l.device.serial ?? 'none'} fw ${l.device.firmware ?? '?'} ${l.device.capacityBytes} B` : ''
  const progress = [l.phase, l.round ? `round ${l.round}` : null, l.eta ? `ETA ${l.eta}` : null].filter(Boolean).join(' | ')
  return [`  ${host}:${l.serial ?? l.path}  ${l.path}  ${l.state}${l.pid ? ` (pid ${l.pid})` : ''}`, dev ? `    device  ${dev}` : '',
    l.safety ? `    safety  ${l.safety.proceed ? 'may be used' : `REFUSED: ${l.safety.refusals.join('; ')}`}` : '',
    progress ? `    progress ${progress}` : '', l.action ? `    ${l.action}` : ''].filter(Boolean).join('\n')
}

export function outcomesText(outcomes: readonly HostOutcome[]): string {
  return outcomes.map(o => o.reply
    ? [`${o.host} (hostname ${o.reply.hostname}, pts ${o.reply.ptsVersion}, ${o.reply.fioVersion ?? 'no fio'})`, ...o.reply.lanes.map(l => laneLine(o.host, l))].join('\n')
    : `${o.host}: ${o.error}`).join('\n')
}

export function planText(p: FleetPlanJson): string {
  const lines = [`Fleet ${p.fleet}: ${p.test} on ${p.confirmations.length} drive(s) of ${p.hosts.length} host(s)`,
    ...p.hosts.map(h => [`${h.host} (hostname ${h.hostname ?? '?'}, pts ${h.ptsVersion ?? '?'}, ${h.fioVersion ?? 'no fio'})${h.error ? `: ${h.error}` : ''}`, ...h.lanes.map(l => laneLine(h.host, l))].join('\n'))]
  if (p.problems.length > 0) lines.push('REFUSED: the fleet may not run:', ...p.problems.map(x => `  - ${x}`))
  else lines.push('The fleet may run. Confirm every drive to destroy its data:', `  pts fleet run <inventory> ${p.confirmations.map(c => `--yes-destroy-data ${c}`).join(' ')}`)
  return lines.join('\n')
}
