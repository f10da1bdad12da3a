// Strings that hot loops read from, kept to a few hidden classes.
//
// V8 keeps a string made by joining others as a "cons" string and one cut from a longer string
// as a "sliced" string, each with hidden classes of its own (one-byte and two-byte), beside the
// flat ones a file's text is decoded into. A character read such as `text.charCodeAt(i)` in
// optimized code is specialised to the classes it has met, up to four; past four it becomes a
// generic lookup on every read ("megamorphic"). Heading texts are rendered by joining and
// slicing, and the term counter reads them with the same code as the documents' texts: with
// them as rendered, a build thread spent ~8 % of its samples (perf) in those generic lookups
// (docs/engine-measurements.md, "Heading texts read as flat strings").

/**
 * `s`, as a flat string of its own: cut into its UTF-16 code units and joined again (any
 * string, lone surrogates too), which builds a new sequential string. (Plain JavaScript: this
 * module is among those checked to need nothing of Node's, tsconfig.pure.json.)
 */
export function flatString(s: string): string {
  return s.split('').join('');
}
