// The output shapes the three citation tools share (docs/citations.md "Output shapes"):
// a refusal, one verified claim, a verification report. Declared once so the tools'
// schemas cannot drift from each other or from lib/core/citations/render.ts.

import { REASONS, STRUCTURE_KINDS } from '../../core/citations/reasons.js';
import { arrayOf, BOOLEAN, COUNT, objectOf, STRING, stringEnum } from './output-schema.js';

export const REASON = stringEnum(REASONS);
export const STRUCTURE_KIND = stringEnum(STRUCTURE_KINDS);

/** `{"ok":false,"reason":R}`: a refused cite, claim or verification. */
export const REFUSAL = objectOf({ ok: { const: false }, reason: REASON });

/** A citation token `[[vctx:PATH#LSTART-LEND@HASH8]]`. */
export const CITATION = { type: 'string', pattern: '^\\[\\[vctx:[\\s\\S]*#L[0-9]+-L[0-9]+@[0-9a-f]{8}\\]\\]$' } as const;

const MOVED = objectOf({ start_line: COUNT, end_line: COUNT, citation: CITATION });

/** One checked token: {claim, kind, ok, reason?, moved_to?}. */
const CHECK = objectOf(
  { claim: STRING, kind: stringEnum(['citation', 'structure']), ok: BOOLEAN },
  { reason: REASON, moved_to: arrayOf(MOVED) },
);

const TOTALS = { ok: BOOLEAN, total: COUNT, ok_count: COUNT, fail_count: COUNT } as const;

/** A document's (or inline text's) report. */
export const DOCUMENT_REPORT = objectOf({ ...TOTALS, results: arrayOf(CHECK) });

/** A directory's report: one entry per Markdown file, `reason` when it could not be read. */
export const DIRECTORY_REPORT = objectOf({
  ...TOTALS,
  files: arrayOf(objectOf({ path: STRING, ok: BOOLEAN, total: COUNT, ok_count: COUNT, fail_count: COUNT, results: arrayOf(CHECK) }, { reason: REASON })),
});
