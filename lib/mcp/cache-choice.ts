// The `cache` property of context.resolve's input schema as tools/list shows it in the
// handshake era (issue 46 item 4, "Caches an agent finds by name"): an `enum` of the caches
// under the cache root while there are at most ENUM_MAX_CACHES of them, their labels in its
// description, so an agent can resolve in one call instead of listing caches first; above
// that, a plain string whose description says to call context.list_caches. Names are in
// UTF-8 byte order, so the same root gives the same bytes.
//
// A root of v0 caches alone (and no v1 cache) is served as the v0 reference server serves
// it: the seed's fixed property and `{"tools":{}}` (no listChanged), so every v0 transcript
// keeps its bytes; so is a root that does not exist (or is no directory) when the client
// initializes, as the seed's own missing-root cases have it. The 2026-07-28 era never gets the enum (session.ts): its tool list must
// not change as a side effect of requests on the connection, and it is cached an hour.

import { join } from 'node:path';
import { compact, compareBytes, parseJson, type Json } from '../json.js';
import * as fs from '../core/fs.js';
import { isV1Manifest, MANIFEST_FILE } from '../core/engine/v1/manifest.js';
import { readV1Top } from '../core/engine/v1/summary.js';
import { CACHE_PROPERTY } from './tools/cache-name.js';

/**
 * The most caches the enum names. Measured (bench/tools-list-size.mjs, 2025-11-25, names and
 * labels of ~6 and ~24 characters): the tools/list reply is 8,339 o200k tokens with no cache;
 * the enum adds ~21 tokens per labelled cache: +41 at 1 (0.5 %), +230 at 10 (2.8 %), +692 at
 * 32 (8.3 %), +2,120 at 100 (25.4 %). A host sends the tool list with every request, so past
 * a few dozen names the list costs more than the one context.list_caches call it saves.
 */
export const ENUM_MAX_CACHES = 32;

/** What tools/list needs to know of the cache root. */
export interface CacheCatalogue {
  /** Folders holding a manifest.json file, not hidden (staging directories are dot names), in byte order. */
  readonly names: readonly string[];
  /** The label of each v1 cache that has one (only read when names fit the enum). */
  readonly labels: ReadonlyMap<string, string>;
  /** The root holds a cache that is not v1 and no v1 cache: the v0 reference's situation. */
  readonly v0Only: boolean;
  /** The root is a directory that could be listed. */
  readonly readable: boolean;
}

const UNREADABLE: CacheCatalogue = { names: [], labels: new Map(), v0Only: false, readable: false };

/** The manifest of `dir` parsed, or undefined when it does not read or parse. */
function manifestOf(dir: string): unknown {
  try {
    return parseJson(fs.readText(join(dir, MANIFEST_FILE)));
  } catch {
    return undefined;
  }
}

/** Reads the cache root: never throws (a missing or unreadable root holds no cache). */
export function readCatalogue(root: string): CacheCatalogue {
  let entries: fs.Dirent[];
  try {
    entries = fs.readDir(root);
  } catch {
    return UNREADABLE;
  }
  const names: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    try {
      if (fs.lstatOrNull(join(root, e.name, MANIFEST_FILE))?.isFile() === true) names.push(e.name);
    } catch {
      // a folder that vanished or turned unreadable meanwhile: no cache
    }
  }
  names.sort(compareBytes);
  const labels = new Map<string, string>();
  let v1 = false;
  for (const name of names) {
    if (names.length <= ENUM_MAX_CACHES) {
      const top = readV1Top(join(root, name));
      if (top !== null) {
        v1 = true;
        if (top.label !== null) labels.set(name, top.label);
        continue;
      }
    }
    if (isV1Manifest(manifestOf(join(root, name)))) {
      v1 = true;
      if (names.length > ENUM_MAX_CACHES) break; // above the cut-off only "is there a v1 cache" matters
    }
  }
  return { names, labels, v0Only: names.length > 0 && !v1, readable: true };
}

/** Whether the server declares tools.listChanged (and may send notifications/tools/list_changed). */
export function listsChanges(c: CacheCatalogue): boolean {
  return c.readable && !c.v0Only;
}

/** The resolve tool's `cache` property for this root. */
export function cacheProperty(c: CacheCatalogue): Json {
  if (c.v0Only || c.names.length === 0) return CACHE_PROPERTY;
  if (c.names.length > ENUM_MAX_CACHES) {
    return {
      type: 'string',
      description:
        `${CACHE_PROPERTY.description}. The cache root holds more than ${ENUM_MAX_CACHES} caches, too many to list here: ` +
        'call context.list_caches for their names and labels',
    };
  }
  return enumProperty(c.names, c.labels);
}

/** The enum form for `names` (in byte order), whatever their number (bench/tools-list-size.mjs measures it past the cut-off). */
export function enumProperty(names: readonly string[], labels: ReadonlyMap<string, string>): Json {
  const labelled = names.filter((n) => labels.has(n)).map((n) => `${n} = ${labels.get(n) as string}`);
  return {
    type: 'string',
    enum: [...names],
    description:
      'The cache to answer from: one of the caches under the server\'s cache root, by name' +
      (labelled.length === 0 ? '' : ` (labelled: ${labelled.join(', ')})`) +
      '. context.list_caches says what each holds (formats, documents); this list is sent again (notifications/tools/list_changed) when the caches change',
  };
}

/** The bytes that tell whether the property changed (what notifications/tools/list_changed is sent for). */
export function propertyKey(property: Json): string {
  return compact(property);
}
