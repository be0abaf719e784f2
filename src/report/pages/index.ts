/** The report page builder of each test (digest B §6.2). */
import type {ProgramPageBuilder} from '../model.js'
import {compositePages} from './composite.js'
import {hirPages} from './hir.js'
import {iopsPages} from './iops.js'
import {latPages} from './lat.js'
import {tpPages} from './tp.js'
import {wsatPages} from './wsat.js'
import {xsrPages} from './xsr.js'
import {consistencyPages, fillPages, fobSsPages, fourCornersPages, transferSizesPages} from './reviews.js'

export const PROGRAM_PAGE_BUILDERS: Partial<Record<string, ProgramPageBuilder>> = {
  iops: iopsPages,
  tp: tpPages,
  lat: latPages,
  wsat: wsatPages,
  hir: hirPages,
  xsr: xsrPages,
  cbw: compositePages,
  ecw: compositePages,
  dirth: compositePages,
  'fob-ss': fobSsPages,
  consistency: consistencyPages,
  'consistency-128k': consistencyPages,
  'four-corners': fourCornersPages,
  'transfer-sizes': transferSizesPages,
  fill: fillPages,
}
