// `context build --engine v1`: sources -> cache format 20. Every source is read, checked and
// analyzed before anything is written; the cache is then written into a temporary sibling
// and swapped into place (../../store/staging.ts), so a failed build leaves nothing behind
// and an old cache stays whole until the new one is. Files that cannot be documents (not
// UTF-8, not regular files...) are skipped and reported, so one odd file never stops a
// real tree from building.
//
// Incremental: `--force` over a v1 cache built with the same build_config reuses what the
// old cache already holds. A file whose stat stamp is unchanged (./state.ts) is not read
// again; a file whose bytes still hash to its old version is not analyzed again; only new
// and changed files are. A pack of the old cache that the packing rule (./packs.ts) would
// cut again, with the same documents, is linked and never read; every other pack is
// encoded from its documents, whatever their origin, old ones taken from the old packs
// (their units recovered from the old pack's index, ./previous.ts); a pack linked is first
// found intact (./pack-check.ts), so damage is never carried over. So the work follows
// the change, not the corpus, and the result is byte for byte the cache a full build
// writes. When nothing changed at all, the cache is left untouched (its created_at
// included) and only the build state is refreshed, if it needs to be.

import { join, relative, sep } from 'node:path';
import { canonical, compareBytes } from '../../../json.js';
import { ContextError, osFailure } from '../../../errors.js';
import { checkCacheTarget, writeCacheAtomically } from '../../store/staging.js';
import { CACHE_LAYOUTS } from '../layouts.js';
import type { TargetGuard } from '../../store/target.js';
import type { ProgressListener } from '../../store/progress.js';
import * as fs from '../../fs.js';
import { sha256Hex } from '../../hash.js';
import { DEFAULT_EXTENSIONS, listSources, requireSourcesDir, sourceVanished, type SkippedSource } from '../../sources/walk.js';
import { formatCounts } from '../../sources/extensions.js';
import type { AnalyzedDocument } from './assemble.js';
import { EarlyPacks } from './early-packs.js';
import type { BatchItem, BatchResult } from './batch.js';
import { buildConfig, type V1Options } from './config.js';
import {
  computeCacheVersion,
  type FileRecord,
  type HeadDocument,
  MANIFEST_FILE,
  type ManifestTop,
  manifestText,
  type PackHead,
  packPath,
  type PackRecord,
  PACKS_DIR,
  readManifest,
  termPath,
  type TermRecord,
} from './manifest.js';
import type { LocalPack, PackInput } from './packs.js';
import { PackCheck } from './pack-check.js';
import type { PreviousIndex } from './previous.js';
import {
  type BuildState,
  readState,
  sourcesLine,
  STATE_FILE,
  type StateHeader,
  stampOf,
  stateStamps,
  stateText,
  trustedAt,
  trustedTimes,
} from './state.js';

export interface V1BuildOptions {
  readonly sources: string;
  readonly cache: string;
  readonly force: boolean;
  /** The manifest's informational `created_at` (the caller owns the clock). */
  readonly createdAt: string;
  readonly options: V1Options;
  /**
   * The manifest's informational label (./label.ts), checked by the caller; absent or null:
   * none. A rebuild writes what it is given, so a rebuild without one drops an old label.
   */
  readonly label?: string | null;
  readonly onProgress?: ProgressListener;
  /** Called once, just before the build first writes (it may throw to stop the build there). */
  readonly beforeWrite?: () => void;
  /**
   * For a caller that may end the build at once before `beforeWrite` (and then removes what
   * the build staged): makes the staging directory a full build writes its packs into while
   * it analyses, by calling `make`, so that the caller knows where it is before anything is
   * written there; returns it, or null (the build then writes at the end). Without it, a
   * build with `beforeWrite` writes nothing before that call.
   */
  readonly stageEarly?: (make: () => string) => string | null;
  /** Threads to analyze on (1 = this thread only). */
  readonly threads?: number;
  /** What the target may not be or hold (../../store/target.ts). */
  readonly guard?: TargetGuard;
  /** Roots a source must lie inside by real path (a symlink leading out is skipped); absent: no such rule. */
  readonly confine?: readonly string[];
}

export interface V1BuildSummary {
  readonly cacheVersion: string;
  readonly documentCount: number;
  readonly unitCount: number;
  readonly skipped: readonly SkippedSource[];
  /** What an incremental build did: documents reused, analyzed anew, and whether it wrote. */
  readonly reused: number;
  readonly analyzed: number;
  readonly unchanged: boolean;
  /** Documents per format (`md`, `rst`, `adoc`, `txt`), formats with none left out, keys sorted. */
  readonly formats: Readonly<Record<string, number>>;
}

/** The sources root as seen from the cache directory, `/`-separated (null if none exists). */
export function sourceRootFrom(cache: string, sources: string): string | null {
  const rel = relative(cache, sources);
  if (rel === '' || /^[a-zA-Z]:/.test(rel) || rel.startsWith(sep)) return rel === '' ? '.' : null;
  return rel.split(sep).join('/');
}

/** A pack of the cache being replaced, read whole when a rebuild takes documents from it. */
interface OldPack {
  readonly record: PackRecord;
  /** Its first document, in the old cache's numbering. */
  readonly first: number;
  /** Its head (read to learn old versions, or to re-encode the pack), and its whole bytes (to re-encode it). */
  head: { readonly head: PackHead; readonly previous: PreviousIndex; readonly bytes: Uint8Array } | null;
  bytes: Buffer | null;
}

/** The cache being replaced, when it can be reused: format 20 with the same build_config. */
interface OldCache {
  readonly top: ManifestTop;
  readonly packs: readonly OldPack[];
  /** Pack (index into `packs`) of each old document, and each old document's path (in order: UTF-8 byte order). */
  readonly packOf: Uint32Array;
  readonly paths: readonly string[];
  /**
   * The stamp its build state records for each old document (aligned with `paths`), when
   * the state was written for this very manifest.
   */
  readonly recorded: { readonly stamps: readonly string[] } | null;
  readonly sourceRoot: string | null;
  readonly manifestSha256: string;
  /** Which of its packs are intact (checked when first reused). */
  readonly check: PackCheck;
}

/** The cache's build state (./state.ts), or null. */
function readStateOf(cache: string): BuildState | null {
  try {
    const statePath = join(cache, STATE_FILE);
    const st = fs.statBigOrNull(statePath);
    return st === null ? null : readState(fs.readText(statePath), st.mtimeNs);
  } catch {
    return null;
  }
}

/** Whether every pack is a regular file of its recorded size (their bytes are checked when read). */
function filesMatch(cache: string, files: readonly FileRecord[], pathOf: (sha256: string) => string): boolean {
  for (const p of files) {
    const st = fs.statOrNull(join(cache, pathOf(p.sha256)));
    if (st === null || !st.isFile() || st.size !== p.bytes) return false;
  }
  return true;
}

/**
 * Whether every pack is a regular file of its recorded size last modified before the state
 * file was written (./pack-check.ts): then none was written since, and none needs reading.
 */
function filesUnwritten(cache: string, files: readonly FileRecord[], pathOf: (sha256: string) => string, writtenNs: bigint): boolean {
  for (const p of files) {
    const st = fs.statBigOrNull(join(cache, pathOf(p.sha256)));
    if (st === null || !st.isFile() || st.size !== BigInt(p.bytes) || st.mtimeNs >= writtenNs) return false;
  }
  return true;
}

/**
 * Whether the cache is the one `state` was written with and still whole: its manifest hashes
 * to the recorded sha256, every pack unwritten since it was written or last found intact.
 */
function stateVouches(cache: string, state: BuildState, configSha256: string, sourceRoot: string | null, label: string | null): boolean {
  const h = state.header;
  if (h.configSha256 !== configSha256 || h.sourceRoot !== sourceRoot || h.label !== label) return false;
  try {
    return sha256Hex(fs.readFile(join(cache, MANIFEST_FILE))) === h.manifestSha256 && filesUnwritten(cache, h.packs, packPath, state.writtenNs) && filesUnwritten(cache, h.terms, termPath, state.writtenNs);
  } catch {
    return false;
  }
}

async function openOldCache(cache: string, configKey: string, state: BuildState | null): Promise<OldCache | null> {
  try {
    const manifestBytes = fs.readFile(join(cache, MANIFEST_FILE));
    const manifestSha256 = sha256Hex(manifestBytes);
    const top = readManifest(manifestBytes.toString('utf8'));
    if (Array.isArray(top) || canonical(top.buildConfig) !== configKey) return null;
    if (computeCacheVersion(top.buildConfig, top.packs) !== top.cacheVersion || !filesMatch(cache, top.packs, packPath) || !filesMatch(cache, top.terms, termPath)) return null;
    // The state written with exactly this manifest lists its documents' paths, in order:
    // no pack need be opened to know which document is where. Otherwise the heads say.
    const mine = state !== null && state.header.manifestSha256 === manifestSha256 && state.header.cacheVersion === top.cacheVersion ? state : null;
    let recorded = mine === null ? null : stateStamps(mine);
    if (recorded !== null && recorded.paths.length !== top.documentCount) recorded = null;
    const paths = recorded?.paths ?? (await import('./load.js')).readPackHeads(cache, top).documents.map((d) => d.path);
    const packOf = new Uint32Array(paths.length);
    const packs: OldPack[] = [];
    let first = 0;
    top.packs.forEach((record, k) => {
      packOf.fill(k, first, first + record.documents);
      packs.push({ record, first, head: null, bytes: null });
      first += record.documents;
    });
    return {
      top,
      packs,
      packOf,
      paths,
      recorded,
      sourceRoot: top.sourceRoot,
      manifestSha256,
      check: new PackCheck(cache, state),
    };
  } catch {
    return null; // anything unusable: a full build, which is always correct
  }
}

/** Reads `length` bytes at the start of old pack `name`; a failure means the old cache is damaged. */
function readOldPack(cache: string, name: string, length: number): Buffer {
  try {
    const fd = fs.openRead(join(cache, name));
    try {
      return fs.readAt(fd, length, 0);
    } finally {
      fs.closeFile(fd);
    }
  } catch (err) {
    throw damaged(`${name} cannot be read (${(err as { code?: unknown }).code === 'ESHORT' ? 'truncated' : String((err as { code?: unknown }).code ?? err)})`);
  }
}

/**
 * Old pack `k`'s head, read (once) and checked against its record, decoded. A pack whose
 * head cannot be read or is not the recorded one throws OldCacheDamaged: the rebuild then
 * starts over as a full build (and the old cache stays as it is until replaced).
 */
async function oldHead(cache: string, old: OldCache, k: number): Promise<NonNullable<OldPack['head']>> {
  const pack = old.packs[k] as OldPack;
  if (pack.head !== null) return pack.head;
  const { record } = pack;
  const name = packPath(record.sha256);
  const bytes = readOldPack(cache, name, record.head.bytes);
  if (sha256Hex(bytes) !== record.head.sha256) throw damaged(`the head of ${name} is not the recorded one`);
  const [{ decodeHead }, { PreviousIndex }] = await Promise.all([import('./manifest.js'), import('./previous.js')]);
  let head: PackHead;
  try {
    head = decodeHead(bytes, record);
  } catch (err) {
    throw damaged(`${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  pack.head = { head, previous: new PreviousIndex(head.index), bytes };
  return pack.head;
}

/** Old pack `k`'s whole bytes, read (once) when a pack is re-encoded from it, checked against its name (OldCacheDamaged otherwise). */
function oldBytes(cache: string, old: OldCache, k: number): Buffer {
  const pack = old.packs[k] as OldPack;
  if (pack.bytes !== null) return pack.bytes;
  const name = packPath(pack.record.sha256);
  const bytes = readOldPack(cache, name, pack.record.bytes);
  if (sha256Hex(bytes) !== pack.record.sha256) throw damaged(`${name} does not hash to its name`);
  pack.bytes = bytes;
  return bytes;
}

/** A pack of the cache being replaced is not what its manifest records: that cache is not reused. */
class OldCacheDamaged extends Error {}
const damaged = (what: string): OldCacheDamaged => new OldCacheDamaged(`the cache being replaced is damaged: ${what}`);

/**
 * The old document `d` is, unchanged (trusted by its stamp, or read and found to hash to its
 * old version), or -1.
 */
function sameOldDoc(reread: ReadonlyMap<string, number>, d: NewDocument): number {
  if (d.kind === 'old') return d.oldDoc;
  return d.doc.unchanged ? (reread.get(d.path) ?? -1) : -1;
}

/** A document of the new cache: analyzed now, or an old one trusted by its stamp. */
type NewDocument =
  | { readonly kind: 'analyzed'; readonly path: string; readonly doc: AnalyzedDocument }
  | { readonly kind: 'old'; readonly path: string; readonly oldDoc: number };

export async function buildCacheV1(o: V1BuildOptions): Promise<V1BuildSummary> {
  requireSourcesDir(o.sources);
  checkCacheTarget(o.cache, o.force, o.guard, CACHE_LAYOUTS);
  const report = o.onProgress ?? (() => undefined);
  report({ phase: 'scan', files: 0, filesTotal: 0, bytes: 0 });
  const config = buildConfig(o.options);
  const configKey = canonical(config);
  const configSha256 = sha256Hex(configKey);
  const sourceRoot = sourceRootFrom(o.cache, o.sources);
  const label = o.label ?? null;
  const state = o.force ? readStateOf(o.cache) : null;
  const listing = listSources(o.sources, {
    extensions: DEFAULT_EXTENSIONS,
    include: o.options.include,
    exclude: o.options.exclude,
    gitignore: true,
    ...(o.confine === undefined ? {} : { confine: o.confine }),
  });
  const files = listing.files;

  // Stamps first, before any read: a file changed after its stamp was taken is re-read
  // next time, never trusted with stale contents.
  const stamps: string[] = new Array<string>(files.length);
  /** Whether each file's times are old enough for the state to vouch for its stamp (git's racy rule). */
  const oldEnough = new Uint8Array(files.length);
  const base = o.sources.endsWith(sep) ? o.sources : o.sources + sep; // one join, not 10,000
  const fileOf = (path: string): string => (sep === '/' ? base + path : join(o.sources, path));
  let newestNs = 0n;
  for (let i = 0; i < files.length; i++) {
    const path = files[i] as string;
    let st: fs.BigIntStats | null;
    try {
      st = fs.statBigOrNull(fileOf(path));
    } catch (err) {
      throw osFailure(err, { op: 'examine', role: 'sources', subject: o.sources });
    }
    if (st === null) throw sourceVanished(o.sources, fileOf(path));
    stamps[i] = stampOf(st);
    if (state !== null && trustedTimes(st.mtimeNs, st.ctimeNs, state.writtenNs)) oldEnough[i] = 1;
    if (st.mtimeNs > newestNs) newestNs = st.mtimeNs;
    if (st.ctimeNs > newestNs) newestNs = st.ctimeNs;
  }
  // Nothing changed, by the build state's word (every file a document whose stamp equals
  // the recorded one, in order, and all of them trusted) and the cache still the one it was
  // written with: leave it, without even parsing its manifest or the recorded stamps.
  if (
    state !== null && trustedAt(newestNs, state.writtenNs) && state.sources === sourcesLine(files, stamps) &&
    stateVouches(o.cache, state, configSha256, sourceRoot, label)
  ) {
    report({ phase: 'done', files: files.length, filesTotal: files.length, bytes: state.header.bytes });
    return {
      cacheVersion: state.header.cacheVersion,
      documentCount: files.length,
      unitCount: state.header.unitCount,
      skipped: [...listing.skipped].sort((a, b) => compareBytes(a.path, b.path)),
      reused: files.length,
      analyzed: 0,
      unchanged: true,
      formats: formatCounts(files),
    };
  }

  const opened = o.force ? await openOldCache(o.cache, configKey, state) : null;
  try {
    return await buildFrom(opened);
  } catch (err) {
    // A damaged old cache is never copied from: the rebuild starts over as a full build.
    if (opened !== null && err instanceof OldCacheDamaged) return await buildFrom(null);
    throw err;
  }

  async function buildFrom(old: OldCache | null): Promise<V1BuildSummary> {
    const trusted: Extract<NewDocument, { kind: 'old' }>[] = [];
    const items: BatchItem[] = [];
    /** The old document of each file read again that was one. */
    const reread = new Map<string, number>();
    // The files and the old documents are both in UTF-8 byte order: one walk matches them.
    let j = 0;
    for (let i = 0; i < files.length; i++) {
      const path = files[i] as string;
      let oldDoc = -1;
      if (old !== null) {
        if (old.paths[j] !== path) while (j < old.paths.length && compareBytes(old.paths[j] as string, path) < 0) j++;
        if (old.paths[j] === path) oldDoc = j;
      }
      if (old !== null && oldDoc >= 0) {
        const recorded = old.recorded;
        if (recorded !== null && oldEnough[i] === 1 && recorded.stamps[oldDoc] === stamps[i]) {
          trusted.push({ kind: 'old', path, oldDoc });
          continue;
        }
        reread.set(path, oldDoc);
        // Read again: if its bytes still hash to its old version, its old analysis is reused.
        const k = old.packOf[oldDoc] as number;
        const { head } = await oldHead(o.cache, old, k);
        const previousVersion = (head.documents[oldDoc - (old.packs[k] as OldPack).first] as HeadDocument).version;
        items.push({ path, file: fileOf(path), offset: 0, length: -1, previousVersion });
        continue;
      }
      items.push({ path, file: fileOf(path), offset: 0, length: -1 });
    }

    report({ phase: 'read', files: trusted.length, filesTotal: files.length, bytes: 0 });
    // A full build writes each pack into the cache's staging directory as soon as the thread
    // that made it hands it back (./early-packs.ts); a rebuild writes what it writes at the
    // end. A build its caller may end before it writes (`beforeWrite`: the MCP server's
    // background build, whose worker is ended at once when cancelled mid-analysis) writes
    // early only into a directory its caller knows of (`stageEarly`), and removes then.
    const early = old === null && items.length > 0 ? EarlyPacks.open(o.cache, o.beforeWrite === undefined ? null : (o.stageEarly ?? (() => null))) : null;
    try {
      return await buildWith(old, trusted, items, reread, early);
    } finally {
      await early?.discard();
    }
  }

  async function buildWith(
    old: OldCache | null,
    trusted: readonly Extract<NewDocument, { kind: 'old' }>[],
    items: readonly BatchItem[],
    reread: ReadonlyMap<string, number>,
    early: EarlyPacks | null,
  ): Promise<V1BuildSummary> {
    const assemble = await import('./assemble.js');
    const arrived = early === null ? undefined : earlyWrites(early, assemble);
    const batches = items.length === 0
      ? []
      : await (await import('./analyze-corpus.js')).analyzeCorpus(
          { granularity: o.options.granularity, tokenizer: o.options.tokenizer, items, keepContents: true, encodePacks: old === null },
          o.threads ?? 1,
          arrived,
          (done) => report({ phase: 'analyze', files: trusted.length + done, filesTotal: files.length, bytes: 0 }),
          { role: 'sources', subject: o.sources },
        );
    const analyzed = assemble.analyzedDocuments(batches);
    const skipped = [...listing.skipped, ...analyzed.skipped].sort((a, b) => compareBytes(a.path, b.path));
    // The new cache's documents: the trusted old ones and the analyzed ones, in path order.
    const documents: NewDocument[] = [];
    {
      let i = 0;
      let j = 0;
      const fresh = analyzed.documents;
      while (i < fresh.length || j < trusted.length) {
        const a = fresh[i];
        const t = trusted[j];
        if (t !== undefined && (a === undefined || compareBytes(t.path, a.path) < 0)) {
          documents.push(t);
          j++;
        } else {
          documents.push({ kind: 'analyzed', path: (a as AnalyzedDocument).path, doc: a as AnalyzedDocument });
          i++;
        }
      }
    }
    const reused = documents.filter((d) => d.kind === 'old' || d.doc.unchanged).length;
    // Stamps of files that did not become documents are not kept: they are read every time.
    // (The documents are a subset of the files, in the same order.)
    const docPaths: string[] = [];
    const docStamps: string[] = [];
    for (let i = 0, f = 0; i < documents.length; i++) {
      const path = (documents[i] as NewDocument).path;
      while (files[f] !== path) f++;
      docPaths.push(path);
      docStamps.push(stamps[f] as string);
    }

    report({ phase: 'index', files: files.length, filesTotal: files.length, bytes: 0 });
    // The packs (./packs.ts), in order. Where a pack of the old cache begins at the same
    // document and holds exactly the same documents, all trusted, and ended there for the
    // same reason, the rule would cut the same pack: it is linked, never read. Every other
    // pack is encoded from its documents, old ones taken from their old packs.
    const { encodePack, packEnds, placeContents } = await import('./packs.js');
    // A full build's packs were encoded by the threads that analysed them, each chunk's as
    // if a pack began at its first document (./packs.ts packsWithin); by where they begin
    // among the documents (in a full build, exactly the analysed ones, in the batches' order).
    // One is taken where the build's previous pack ended: that is, at the top of this loop.
    const localAt = new Map<number, LocalPack>();
    if (old === null) {
      let base = 0;
      for (const batch of batches) {
        for (const pack of batch.packs ?? []) localAt.set(base + pack.first, pack);
        base += batch.documents.filter((d) => d.skip === null).length;
      }
    }
    // A rebuild: the analysed terms in byte order, sorted once for every pack it encodes
    // (../../index/build-index.ts). A full build encodes here only a pack that a chunk began
    // without beginning it (a file that is not UTF-8 ended the chunk before), which sorts its own.
    const order = old === null ? undefined : new (await import('../../index/build-index.js')).TermOrder(batches.map((b) => b.dictionary));
    const packs: PackRecord[] = [];
    /** Each pack's number in the old cache when linked from it, else -1. */
    const linkedPack: number[] = [];
    /** Each pack of the new cache: its bytes, null for a pack linked from the old cache, or 'written' (./early-packs.ts). */
    const packWrites: { readonly name: string; readonly chunks: readonly Uint8Array[] | null | 'written' }[] = [];
    const inputOf = async (d: NewDocument): Promise<PackInput> => {
      const fresh = d.kind === 'analyzed' ? d.doc : null;
      const content = fresh === null ? null : contentsOf(batches[fresh.batch] as BatchResult).subarray(fresh.contentOffset, fresh.contentOffset + fresh.bytes);
      if (fresh !== null && !fresh.unchanged) return { path: d.path, version: fresh.version, units: fresh.units, old: null, content: content as Uint8Array };
      // Unchanged: its units from the old pack's index; its bytes as just read, or (trusted
      // by its stamp, never read) from the old pack.
      const oldDoc = d.kind === 'old' ? d.oldDoc : (reread.get(d.path) as number);
      const k = (old as OldCache).packOf[oldDoc] as number;
      const { head, previous } = await oldHead(o.cache, old as OldCache, k);
      const local = oldDoc - ((old as OldCache).packs[k] as OldPack).first;
      const h = head.documents[local] as HeadDocument;
      const at = ((old as OldCache).packs[k] as OldPack).record.head.bytes + h.offset;
      return { path: d.path, version: h.version, units: null, old: { previous, doc: local }, content: content ?? oldBytes(o.cache, old as OldCache, k).subarray(at, at + h.bytes) };
    };
    try {
      let s = 0;
      while (s < documents.length) {
        const d = documents[s] as NewDocument;
        const first = old === null ? -1 : sameOldDoc(reread, d);
        if (old !== null && first >= 0) {
          const k = old.packOf[first] as number;
          const p = old.packs[k] as OldPack;
          const n = p.record.documents;
          if (p.first === first && s + n <= documents.length) {
            let same = true;
            for (let i = 1; same && i < n; i++) same = sameOldDoc(reread, documents[s + i] as NewDocument) === p.first + i;
            if (same && (s + n === documents.length || packEnds(old.paths[p.first + n - 1] as string, p.record.bytes - p.record.head.bytes))) {
              // Linked, never read: only if it is intact (a damaged pack is never carried over).
              if (!old.check.isIntact(p.record)) throw damaged(`${packPath(p.record.sha256)} is not the recorded pack`);
              packs.push(p.record);
              linkedPack.push(k);
              packWrites.push({ name: packPath(p.record.sha256), chunks: null });
              s += n;
              continue;
            }
          }
        }
        const local = localAt.get(s);
        if (local !== undefined) {
          packs.push(local.record);
          linkedPack.push(-1);
          const name = packPath(local.record.sha256);
          if (early?.has(name) === true) {
            packWrites.push({ name, chunks: 'written' }); // while the analysis ran: the same head and contents
          } else {
            // Its documents' bytes, as the pack lists them (their units are not needed here).
            const inputs = documents.slice(s, s + local.count).map((d) => {
              if (d.kind !== 'analyzed') throw new ContextError('internal_error', 'a pack made beside the analysis holds a document not analysed');
              const batch = batches[d.doc.batch] as BatchResult;
              return { path: d.path, version: d.doc.version, content: contentsOf(batch).subarray(d.doc.contentOffset, d.doc.contentOffset + d.doc.bytes) };
            });
            packWrites.push({ name, chunks: [local.head, ...placeContents(inputs).contents] });
          }
          s += local.count;
          continue;
        }
        const inputs: PackInput[] = [];
        const placed = new Set<string>();
        let contentBytes = 0;
        while (s < documents.length) {
          const input = await inputOf(documents[s] as NewDocument);
          s++;
          inputs.push(input);
          if (!placed.has(input.version)) {
            placed.add(input.version);
            contentBytes += input.content.length;
          }
          if (packEnds(input.path, contentBytes)) break;
        }
        const encoded = encodePack(inputs, order);
        packs.push(encoded.record);
        linkedPack.push(-1);
        packWrites.push({ name: packPath(encoded.record.sha256), chunks: encoded.chunks });
      }
    } catch (err) {
      throw err instanceof ContextError || err instanceof OldCacheDamaged ? err : osFailure(err, { op: 'read', role: 'cache', subject: o.cache });
    }
    // The term files (./segments.ts): each segment's of the old cache whose packs are these
    // exactly, intact, is linked; every other is made from its packs' heads as it is written.
    const segments = await import('./segments.js');
    const segmentPlan: { readonly first: number; readonly count: number; readonly linked: TermRecord | null }[] = [];
    {
      const lastPaths: string[] = [];
      let d = 0;
      for (const p of packs) {
        d += p.documents;
        lastPaths.push((documents[d - 1] as NewDocument).path);
      }
      const oldTerms = new Map<string, TermRecord>();
      if (old !== null) {
        let k = 0;
        for (const t of old.top.terms) {
          oldTerms.set(old.top.packs.slice(k, k + t.packs).map((p) => p.head.sha256).join(','), t);
          k += t.packs;
        }
      }
      let first = 0;
      for (const count of segments.segmentSizes(lastPaths)) {
        const linked = oldTerms.get(packs.slice(first, first + count).map((p) => p.head.sha256).join(',')) ?? null;
        segmentPlan.push({ first, count, linked: linked !== null && (old as OldCache).check.isIntact(linked, termPath(linked.sha256)) ? linked : null });
        first += count;
      }
    }
    // A term file made anew of packs linked from the old cache is made from their heads as
    // those packs record them: checked here (a damaged one: a full build instead).
    for (const s of segmentPlan) {
      if (s.linked !== null) continue;
      for (let i = s.first; i < s.first + s.count; i++) if ((linkedPack[i] as number) >= 0) await oldHead(o.cache, old as OldCache, linkedPack[i] as number);
    }
    const cacheVersion = computeCacheVersion(config, packs);
    const unitCount = packs.reduce((n, p) => n + p.units, 0);
    const bytesStored = packs.reduce((n, p) => n + p.bytes - p.head.bytes, 0);
    const summary = (unchanged: boolean): V1BuildSummary => ({
      cacheVersion,
      documentCount: documents.length,
      unitCount,
      skipped,
      reused,
      analyzed: documents.length - reused,
      unchanged,
      formats: formatCounts(documents.map((d) => d.path)),
    });
    // Same configuration, same packs, every one of them intact, the same label: the cache
    // already is what a full build would write (bar created_at). A new label alone rewrites
    // the manifest (the packs are linked), with the same cache_version. Leave it; refresh the stamps so the next
    // build trusts them (unless the state already holds exactly these, all trusted, and no
    // pack needed hashing: the steady state). A damaged pack is written anew.
    const intact = old !== null && old.top.cacheVersion === cacheVersion && old.sourceRoot === sourceRoot && old.top.label === label && packs.every((p) => old.check.isIntact(p)) &&
      segmentPlan.length === old.top.terms.length && segmentPlan.every((s, i) => s.linked === old.top.terms[i]);
    if (old !== null && intact) {
      // (A pack hashed whole and found intact is trusted again once the state is written after it.)
      const steady = old.recorded !== null && trusted.length === documents.length && documents.length === old.paths.length && old.check.hashed === 0;
      if (!steady) o.beforeWrite?.();
      if (!steady) writeStateQuietly(o.cache, { configSha256, cacheVersion, manifestSha256: old.manifestSha256, sourceRoot, label, unitCount, bytes: bytesStored, packs, terms: old.top.terms }, docPaths, docStamps);
      report({ phase: 'done', files: files.length, filesTotal: files.length, bytes: bytesStored });
      return summary(true);
    }

    report({ phase: 'write', files: files.length, filesTotal: files.length, bytes: bytesStored });
    // A full build's term files whose packs were all written early are made now, into the
    // same staging directory, on this thread and a worker (./segments.ts makeTermFiles).
    const madeEarly = new Map<number, TermRecord>();
    if (early !== null) {
      await early.settle();
      early.prune(new Set(packWrites.map((w) => w.name)));
      const ready: number[] = [];
      segmentPlan.forEach((s, i) => {
        if (s.linked === null && packWrites.slice(s.first, s.first + s.count).every((w) => w.chunks === 'written')) ready.push(i);
      });
      try {
        const records = await segments.makeTermFiles(early.dir, packs, ready.map((i) => segmentPlan[i] as { first: number; count: number }), o.threads ?? 1);
        ready.forEach((i, j) => madeEarly.set(i, records[j] as TermRecord));
      } catch (err) {
        throw err instanceof ContextError ? err : osFailure(err, { op: 'write', role: 'cache', subject: o.cache });
      }
    }
    o.beforeWrite?.();
    writeCacheAtomically(
      o.cache,
      (temp) => {
        fs.mkdir(join(temp, PACKS_DIR));
        for (const w of packWrites) {
          if (w.chunks === 'written') continue;
          if (w.chunks === null) fs.linkOrCopy(join(o.cache, w.name), join(temp, w.name));
          else fs.createFileFrom(join(temp, w.name), w.chunks);
        }
        // Each term file made, written and let go before the next (at 100,000 documents
        // they hold ~0.4 GB).
        const terms: TermRecord[] = [];
        for (const [i, s] of segmentPlan.entries()) {
          const madeHere = madeEarly.get(i);
          if (madeHere !== undefined) {
            terms.push(madeHere); // written above
            continue;
          }
          if (s.linked !== null) {
            fs.linkOrCopy(join(o.cache, termPath(s.linked.sha256)), join(temp, termPath(s.linked.sha256)));
            terms.push(s.linked);
            continue;
          }
          // Its packs' heads: those linked, as checked above; the others read back from the new
          // cache (a thread that made a pack kept only its record).
          const made = segments.encodeSegment(packs.slice(s.first, s.first + s.count).map((record, i) => {
            const k = linkedPack[s.first + i] as number;
            const checked = k >= 0 ? ((old as OldCache).packs[k] as OldPack).head : null;
            return checked === null ? { record, ...segments.headAt(temp, record) } : { record, head: checked.bytes, index: checked.head.index };
          }));
          const name = termPath(made.record.sha256);
          if (fs.lstatOrNull(join(temp, name)) === null) fs.createFileFrom(join(temp, name), [made.bytes]);
          terms.push(made.record);
        }
        const manifest = manifestText({
          cacheVersion,
          buildConfig: config,
          createdAt: o.createdAt,
          sourceRoot,
          label,
          documentCount: documents.length,
          packs,
          terms,
        });
        fs.writeFile(join(temp, MANIFEST_FILE), manifest);
        // The state's time must be later than every pack's (./pack-check.ts).
        fs.waitForNextFileTime(temp);
        fs.writeFile(join(temp, STATE_FILE), stateText({ configSha256, cacheVersion, manifestSha256: sha256Hex(manifest), sourceRoot, label, unitCount, bytes: bytesStored, packs, terms }, docPaths, docStamps));
      },
      o.force, // without --force, a cache another build put there meanwhile is not replaced
      early?.handOver(),
    );
    report({ phase: 'done', files: files.length, filesTotal: files.length, bytes: bytesStored });
    return summary(false);
  }
}

/** The build state is a hint: failing to refresh it costs the next build time, nothing else. */
function writeStateQuietly(cache: string, header: StateHeader, paths: readonly string[], stamps: readonly string[]): void {
  try {
    fs.waitForNextFileTime(cache);
    fs.replaceFile(join(cache, STATE_FILE), stateText(header, paths, stamps));
  } catch {
    // e.g. a read-only cache directory: the cache itself is current and intact.
  }
}

/** A batch's contents; a batch let go of (earlyWrites) has none, and asking is a bug, never other bytes. */
function contentsOf(batch: BatchResult): Uint8Array {
  if (batch.contents === null) throw new ContextError('internal_error', 'the contents of a chunk already written were asked for');
  return batch.contents;
}

/**
 * A full build's `arrived` (./analyze-corpus.ts): writes each chunk's packs as it comes back
 * (./early-packs.ts), then lets go of what the chunk holds — its documents' bytes, units,
 * terms and pack heads — once nothing later can need them, so that a build holds a chunk or
 * two per thread, not the corpus (a full build of 100,000 real-text files held ~4.8 GB).
 * The build needs a chunk's contents again only for a pack it encodes itself, and it encodes
 * one only where a chunk's packs are not the build's: when the chunk's first pack does not
 * begin where the build's previous pack ended. Chunks end just after a path that cuts a pack
 * (./analyze-corpus.ts chunkStarts), and a document whose path cuts ends its pack wherever
 * that pack began; so the first pack of chunk k is the build's when k is 0 or the last item
 * of chunk k - 1 is a document (not skipped: a file that is not UTF-8 is no document and ends
 * no pack). That is known once chunk k - 1 is back, which may be after chunk k: until then
 * chunk k is held whole. A chunk is let go of when, besides, its packs hold all its
 * documents and every one of them was written early.
 */
function earlyWrites(early: EarlyPacks, assemble: typeof import('./assemble.js')): (batch: BatchResult, chunk: number, keep: (chunk: number, batch: BatchResult) => void) => void {
  /** Whether each chunk back so far ended with a document (true) or a skipped file (false). */
  const endsWithDocument = new Map<number, boolean>();
  /** Chunks whose packs are all written, whole, until the chunk before them is back. */
  const waiting = new Map<number, BatchResult>();
  return (batch, chunk, keep) => {
    early.add(assemble.localPackFiles(batch));
    endsWithDocument.set(chunk, batch.documents.at(-1)?.skip === null);
    if (assemble.packsHoldAll(batch, (name) => early.has(name))) waiting.set(chunk, batch);
    for (const k of [chunk, chunk + 1]) {
      const held = waiting.get(k);
      const before = k === 0 ? true : endsWithDocument.get(k - 1);
      if (held === undefined || before === undefined) continue;
      waiting.delete(k);
      if (before) keep(k, assemble.withoutContents(held));
    }
  };
}
