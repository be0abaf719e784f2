/** pts plan's text: the project's internal references are dropped from what a user reads (pure). */
import {expect} from 'chai'
import {withoutInternalRefs} from '../../src/app/plan-text.js'

describe('plan text: no internal references', () => {
  it('drops "(digest ...)" and "; digest ..." and keeps the PTS clause', () => {
    const cases: Array<[string, string]> = [
      ['(PTS 2.0.2 section 7 (IOPS pseudo-code p.26; steady state 2.1.24 p.17); digest B 5.1, 3)', '(PTS 2.0.2 section 7 (IOPS pseudo-code p.26; steady state 2.1.24 p.17))'],
      ['no purge: a regular file cannot be purged (digest Part A 8)', 'no purge: a regular file cannot be purged'],
      ['TC x QD loop (digest B 5.7, 8 item 12) of 49 points', 'TC x QD loop of 49 points'],
      ['the same text without references', 'the same text without references'],
    ]
    for (const [input, want] of cases) expect(withoutInternalRefs(input), input).to.equal(want)
  })
})
