// TEMPORARY STAND-IN (not committed): the markdown helper delivers the real module.
import { slug as ghSlug } from 'github-slugger';
import GithubSlugger from 'github-slugger';
export interface FrontMatter { readonly end: number; readonly title: string | null; }
export interface Heading { readonly level: number; readonly text: string; readonly slug: string; readonly start: number; readonly end: number; }
export interface MarkdownStructure { readonly frontMatter: FrontMatter | null; readonly headings: readonly Heading[]; }
export function parseMarkdown(text: string): MarkdownStructure {
  let frontMatter: FrontMatter | null = null;
  const fm = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  if (fm) { const t = /^title:[ \t]*(.*?)[ \t]*$/m.exec(fm[1] as string); frontMatter = { end: fm[0].length, title: t ? (t[1] as string).replace(/^["']|["']$/g, '') : null }; }
  const headings: Heading[] = []; const slugger = new GithubSlugger(); void ghSlug;
  let pos = frontMatter?.end ?? 0; let fence: string | null = null;
  while (pos < text.length) {
    let nl = text.indexOf('\n', pos); const end = nl < 0 ? text.length : nl + 1; const line = text.slice(pos, nl < 0 ? text.length : nl).replace(/\r$/, '');
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) { if (f && (f[1] as string)[0] === fence[0] && (f[1] as string).length >= fence.length) fence = null; }
    else if (f) fence = f[1] as string;
    else { const h = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line); if (h) { const txt = (h[2] ?? '').replace(/[`*_]/g, '').trim(); headings.push({ level: (h[1] as string).length, text: txt, slug: slugger.slug(txt), start: pos, end }); } }
    pos = end;
  }
  return { frontMatter, headings };
}
