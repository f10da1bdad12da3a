// Copies of a text among an answer's units (docs/engine.md "Repeated text"). A unit whose
// text is that of a unit ranked above it adds nothing the answer does not hold: it leaves
// the order (never taken, omitted or a skip), and an explained entry names it. Two ways to
// be a copy: byte for byte the same text, or, under the same heading, the same text as its
// reader sees it (../../analysis/visible-text.ts: heading markers, underlines, blank lines
// and lines that show nothing set aside). Texts are read only for units that share a shape
// — the same length and word count, read from the index — or a heading with another, and
// then looked up by text, so each unit pulled costs a lookup or two. Copies as seen are
// looked for among the first SEEN_COPIES_WITHIN units of the answer's order only: a heading
// such as "Examples" stands over thousands of units in a large cache, and an explained
// answer names copies whatever the budget, so it would read all their documents.

import { compareBytes } from '../../../json.js';
import { visibleText } from '../../analysis/visible-text.js';
import type { UnitIndex } from '../../index/packed-index.js';
import { formatOfPath } from '../../sources/extensions.js';
import type { DocumentList } from './manifest.js';

/** Copies as seen (same heading, same text as its reader sees it) are looked for among this many of the first units of the order. */
export const SEEN_COPIES_WITHIN = 100;

interface Group {
  readonly first: number;
  texts: Map<string, number> | null;
}

/** One answer's view of copies: the units pulled so far, and every matching unit's copies. */
export class Copies {
  private readonly visible = new Map<number, string>();
  private readonly byShape = new Map<number, Group>();
  private readonly byHeading = new Map<string, Group>();
  private readonly sameBytes: (u: number) => readonly number[];
  private readonly sameSeen: (u: number) => readonly number[];

  /** The first SEEN_COPIES_WITHIN units of the order, once drawn (for explained lists). */
  private firstUnits: ReadonlySet<number> | null = null;

  /**
   * `textOf` gives a document's text (read once per answer by the caller), `matched` every
   * unit that matches the query, `firstOf(k)` the first k units of the answer's order
   * (drawing them if the selection has not yet), `idOf` a unit's id (for the byte order of
   * explained lists).
   */
  constructor(
    private readonly index: UnitIndex,
    private readonly documents: DocumentList,
    private readonly textOf: (doc: number) => string,
    matched: ArrayLike<number>,
    private readonly firstOf: (k: number) => readonly number[],
    private readonly idOf: (u: number) => string,
  ) {
    this.sameBytes = this.copiesAmong(() => matched, (u) => this.shapeOf(u), (u) => this.contentOf(u));
    this.sameSeen = this.copiesAmong(() => this.firstOf(SEEN_COPIES_WITHIN), (u) => (this.isFirst(u) ? this.headingOf(u) : null), (u) => this.seenOf(u));
  }

  /** Whether `u`, the `drawn`-th unit of the order (from 0), is a copy of a unit drawn before it. */
  repeatsAbove(u: number, drawn: number): boolean {
    if (this.seenBefore(this.byShape, this.shapeOf(u), u, (v) => this.contentOf(v))) return true;
    if (drawn >= SEEN_COPIES_WITHIN) return false;
    const heading = this.headingOf(u);
    return heading !== null && this.seenBefore(this.byHeading, heading, u, (v) => this.seenOf(v));
  }

  private isFirst(u: number): boolean {
    if (this.firstUnits === null) this.firstUnits = new Set(this.firstOf(SEEN_COPIES_WITHIN));
    return this.firstUnits.has(u);
  }

  /**
   * The other matching units that are copies of one of `group`'s units (whatever the
   * budget: all matches are looked at, by shape or heading first), in id byte order.
   */
  repeatsOf(group: readonly number[]): number[] {
    const out = new Set<number>();
    for (const u of group) for (const v of [...this.sameBytes(u), ...this.sameSeen(u)]) if (!group.includes(v)) out.add(v);
    return [...out].sort((a, b) => compareBytes(this.idOf(a), this.idOf(b)));
  }

  private contentOf(u: number): string {
    const { index } = this;
    return this.textOf(index.unitDoc(u)).slice(index.unitStart(u), index.unitEnd(u));
  }

  /** Length and word count (a key two shapes share — past 2^53 — only costs a comparison of texts). */
  private shapeOf(u: number): number {
    const { index } = this;
    return index.unitEnd(u) - index.unitStart(u) + index.unitWordCount(u) * 4294967296;
  }

  /** The heading a unit stands under, by its slug less a piece's `~k` (the same heading text gives the same slug); null before any heading. */
  private headingOf(u: number): string | null {
    const slug = this.index.unitSlug(u);
    const cut = slug.indexOf('~');
    const heading = cut < 0 ? slug : slug.slice(0, cut);
    return heading === '' ? null : heading;
  }

  private seenOf(u: number): string {
    let text = this.visible.get(u);
    if (text === undefined) {
      const path = this.documents.at(this.index.unitDoc(u)).path;
      text = visibleText(this.contentOf(u), formatOfPath(path) !== 'rst');
      this.visible.set(u, text);
    }
    return text;
  }

  private seenBefore<K>(groups: Map<K, Group>, key: K, u: number, textOfUnit: (u: number) => string): boolean {
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, { first: u, texts: null });
      return false;
    }
    if (group.texts === null) group.texts = new Map([[textOfUnit(group.first), group.first]]);
    const text = textOfUnit(u);
    if (group.texts.has(text)) return true;
    group.texts.set(text, u);
    return false;
  }

  /** For each unit, the units of `among()` with its key and its text (itself included); grouped on first use. */
  private copiesAmong<K>(among: () => ArrayLike<number>, keyOf: (u: number) => K | null, textOfUnit: (u: number) => string): (u: number) => readonly number[] {
    let groups: Map<K, number[]> | null = null;
    const texts = new Map<K, Map<string, number[]>>();
    return (u) => {
      if (groups === null) {
        groups = new Map();
        const units = among();
        for (let k = 0; k < units.length; k++) {
          const v = units[k] as number;
          const key = keyOf(v);
          if (key === null) continue;
          const list = groups.get(key);
          if (list === undefined) groups.set(key, [v]);
          else list.push(v);
        }
      }
      const key = keyOf(u);
      if (key === null) return [];
      const same = groups.get(key) as number[];
      if (same.length === 1) return [];
      let byText = texts.get(key);
      if (byText === undefined) {
        byText = new Map();
        for (const v of same) {
          const text = textOfUnit(v);
          const list = byText.get(text);
          if (list === undefined) byText.set(text, [v]);
          else list.push(v);
        }
        texts.set(key, byText);
      }
      return byText.get(textOfUnit(u)) as number[];
    };
  }
}
