// TEMPORARY STAND-IN (not committed): the markdown helper delivers the real module.
import type { MarkdownStructure } from './markdown.js';
export interface SectionOptions { readonly splitLevel: number; readonly minBytes: number; }
export interface Section { readonly start: number; readonly end: number; readonly slug: string; readonly trail: readonly string[]; readonly headings: readonly string[]; }
export function splitSections(text: string, structure: MarkdownStructure, options: SectionOptions): Section[] {
  const cuts: { start: number; slug: string; trail: string[] }[] = [{ start: 0, slug: '', trail: [] }];
  const stack: { level: number; text: string }[] = [];
  for (const h of structure.headings) {
    while (stack.length && (stack[stack.length - 1] as { level: number }).level >= h.level) stack.pop();
    stack.push({ level: h.level, text: h.text });
    if (h.level <= options.splitLevel) { if (h.start === 0) cuts.shift(); cuts.push({ start: h.start, slug: h.slug, trail: stack.map((s) => s.text) }); }
  }
  let secs: Section[] = cuts.map((c, i) => ({ start: c.start, end: i + 1 < cuts.length ? (cuts[i + 1] as { start: number }).start : text.length, slug: c.slug, trail: c.trail, headings: [] as string[] }));
  secs = secs.map((s) => ({ ...s, headings: structure.headings.filter((h) => h.start >= s.start && h.start < s.end).map((h) => h.text) }));
  const size = (s: Section): number => Buffer.byteLength(text.slice(s.start, s.end));
  let changed = true;
  while (changed && secs.length > 1) {
    changed = false;
    for (let i = 0; i < secs.length; i++) {
      const s = secs[i] as Section;
      if (size(s) >= options.minBytes) continue;
      if (i > 0) { const p = secs[i - 1] as Section; secs.splice(i - 1, 2, { ...p, end: s.end, headings: [...p.headings, ...s.headings] }); }
      else { const n = secs[1] as Section; secs.splice(0, 2, { ...s, end: n.end, headings: [...s.headings, ...n.headings] }); }
      changed = true; break;
    }
  }
  return secs;
}
