// Every engine's cache layout, for the builds' target check: a build of either engine may
// replace a cache of either (../store/target.ts says when).

import type { CacheLayout } from '../store/target.js';
import { V0_LAYOUT } from './v0/layout.js';
import { V1_LAYOUT } from './v1/layout.js';

export const CACHE_LAYOUTS: readonly CacheLayout[] = [V0_LAYOUT, V1_LAYOUT];
