// How a v1 cache's document contents are cut into packs (./manifest.ts). Each distinct
// content is placed once, in path order of first use (as in a single pack); a pack ends
// after a placed content whose path "cuts" (the top PACK_CUT_BITS bits of its 32-bit
// FNV-1a hash over the path's UTF-16 code units are zero: one path in 64), or once it
// holds PACK_MAX_BYTES. The cut depends on the path alone, so an edit, add or delete
// changes the pack it falls in (and, when it moves a cut, the next one), never the rest:
// a rebuild writes those packs and links every other from the cache it replaces. A full
// build and an incremental one place contents by this same rule, which is why both write
// the same packs, byte for byte.

export const PACK_CUT_BITS = 6;
export const PACK_MAX_BYTES = 8 * 1024 * 1024;

export function cutsPack(path: string): boolean {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) {
    h ^= path.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> (32 - PACK_CUT_BITS) === 0;
}

export interface PlannedPack {
  /** Document index (of the planned list) of each content's first use, in placement order. */
  readonly firstUse: number[];
  /** The contents' versions, space-separated: what a pack holds, and its identity. */
  key: string;
  bytes: number;
}

export interface PackPlan {
  /** Per document: its pack and the offset of its content there. */
  readonly placement: readonly { readonly pack: number; readonly offset: number }[];
  readonly packs: readonly PlannedPack[];
}

export function planPacks(documents: readonly { readonly path: string; readonly version: string; readonly bytes: number }[]): PackPlan {
  const placed = new Map<string, { pack: number; offset: number }>();
  const placement: { pack: number; offset: number }[] = [];
  const packs: PlannedPack[] = [];
  let open: PlannedPack | null = null;
  documents.forEach((d, i) => {
    let at = placed.get(d.version);
    if (at === undefined) {
      if (open === null) packs.push((open = { firstUse: [], key: '', bytes: 0 }));
      at = { pack: packs.length - 1, offset: open.bytes };
      placed.set(d.version, at);
      open.firstUse.push(i);
      open.key = open.key === '' ? d.version : `${open.key} ${d.version}`;
      open.bytes += d.bytes;
      if (cutsPack(d.path) || open.bytes >= PACK_MAX_BYTES) open = null;
    }
    placement.push(at);
  });
  return { placement, packs };
}

/**
 * The key (see PlannedPack) of each pack a manifest lists, recovered from its documents;
 * null for a pack whose contents do not lie end to end in placement order (never reused).
 */
export function packKeys(
  documents: readonly { readonly version: string; readonly pack: number; readonly offset: number; readonly bytes: number }[],
  packs: readonly { readonly bytes: number }[],
): (string | null)[] {
  const versions: string[][] = packs.map(() => []);
  const filled = packs.map(() => 0);
  const broken = packs.map(() => false);
  const seen = new Set<string>();
  for (const d of documents) {
    if (seen.has(d.version)) continue;
    seen.add(d.version);
    if (d.offset !== filled[d.pack]) broken[d.pack] = true;
    filled[d.pack] = d.offset + d.bytes;
    versions[d.pack]?.push(d.version);
  }
  return versions.map((v, k) => (broken[k] || filled[k] !== packs[k]?.bytes || v.length === 0 ? null : v.join(' ')));
}
