/** hir report pages (to be written). */
import type {ProgramReportInput, ProgramSection} from '../model.js'

export function hirPages(input: ProgramReportInput): ProgramSection {
  throw new Error(`no report pages yet for ${input.results.test}`)
}
