/**
 * fleet.json of a fleet directory, either variant: the lanes of pts run with several --device on
 * this host (kind "fleet", schemas/fleet.schema.json), or the lanes of every host of pts fleet,
 * copied back by pts fleet collect (kind "hosts", schemas/fleet-hosts.schema.json).
 */
import {existsSync, readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {EXIT, PtsError} from '../errors.js'
import * as M from '../messages.js'
import type {FleetIndex} from '../fleet/model.js'
import type {HostsFleetIndex} from '../fleet/hosts.js'
import {assertValid} from '../validate.js'

export const FLEET_FILE = 'fleet.json'

export type AnyFleetIndex = {kind: 'fleet'; index: FleetIndex} | {kind: 'hosts'; index: HostsFleetIndex}

/** The fleet.json of a directory, checked against its variant's schema; null when there is none. */
export function readFleetFile(dir: string): AnyFleetIndex | null {
  const p = join(resolve(dir), FLEET_FILE)
  if (!existsSync(p)) return null
  let data: unknown
  try { data = JSON.parse(readFileSync(p, 'utf8')) } catch (error) {
    throw new PtsError(M.lanes.fleetNotJson(p, (error as Error).message), EXIT.runDir)
  }
  if ((data as {kind?: unknown} | null)?.kind === 'hosts') {
    return {kind: 'hosts', index: assertValid<HostsFleetIndex>('fleet-hosts.schema.json', data, problems => M.lanes.invalidFleet(p, problems))}
  }
  return {kind: 'fleet', index: assertValid<FleetIndex>('fleet.schema.json', data, problems => M.lanes.invalidFleet(p, problems))}
}
