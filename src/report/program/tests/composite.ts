/** composite report pages (to be written). */
import type {ProgramReportInput, ProgramSection} from '../model.js'

export function compositePages(input: ProgramReportInput): ProgramSection {
  throw new Error(`no report pages yet for ${input.results.test}`)
}
