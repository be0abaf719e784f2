/**
 * The words a user reads for a test definition's provenance, and for text an earlier pts stored
 * with a run. Pure.
 *
 * Test definitions keep their internal provenance (digest sections and source tags) in `ref` and
 * `clauseRef`, which are never printed (digest Part A 12, last item). Runs stored by an earlier pts
 * carry the old wording in results.json and manifest.json (parameter notes citing the digest, a
 * purge deviation ending "(digest Part A 8)"); reports and comparisons print that stored text
 * through plainStoredText / plainStoredNote, which drop the internal citations and nothing else.
 */
import type {ProgramParameter} from './definition.js'

/** How a parameter's `source` is printed (pts plan, the report's parameters page, the stored runs' reports). */
export const SOURCE_LABELS: Readonly<Record<ProgramParameter['source'], string>> = {
  'spec': 'SNIA PTS',
  'implementation-derived': 'public implementations',
  'open': "open (pts's choice)",
  'pts': "pts's choice",
  'review': 'the review',
}

/** The legend of SOURCE_LABELS, one sentence. */
export const SOURCE_LEGEND =
  "SNIA PTS: stated by the specification; public implementations: as the public implementations of the PTS do it, not confirmed against the PTS text; open (pts's choice): the spec's value is not confirmed, the note says what pts does and why; pts's choice: the spec is silent, the note gives pts's reason"

/** The legend of the review tests' parameters (specs/reviews/), one sentence. */
export const REVIEW_SOURCE_LEGEND =
  "the review: as the review this test comes from ran it (a review test, not part of the SNIA PTS); pts's choice: the review does not say, the note gives pts's reason"

/** A stored source mark in words (an unknown mark is printed as stored). */
export function sourceLabel(source: string): string {
  return (SOURCE_LABELS as Record<string, string>)[source] ?? source
}

/** A definition parameter as users see it: without its internal `ref`. */
export function userParameter(p: ProgramParameter): Omit<ProgramParameter, 'ref'> {
  return {name: p.name, value: p.value, source: p.source, ...(p.note !== undefined ? {note: p.note} : {})}
}

/** Citations of the project's internal notes that an earlier pts wrote into stored text. */
const INTERNAL_CITATION = /\bdigest\b|\bPart A\b|\bG-[A-Z]{2,4}\b|\bP-[A-Z0-9]{3,}\b|\[BK\]|\[R\]|\bissue \d+|verify before citing/i

/** Stored text without the parenthetical internal citations: "no purge: ... purged (digest Part A 8)" -> "no purge: ... purged". */
export function plainStoredText(text: string): string {
  return text.replace(/\s*\(([^()]*)\)/g, (whole, inner: string) => (INTERNAL_CITATION.test(inner) ? '' : whole)).trim()
}

/** A stored parameter note in words, or undefined when it was an internal citation throughout. */
export function plainStoredNote(note: string | undefined): string | undefined {
  if (note === undefined) return undefined
  const text = plainStoredText(note)
  return text === '' || INTERNAL_CITATION.test(text) ? undefined : text
}
