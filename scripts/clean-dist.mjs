// Empties dist/ before a build, so that what is packed and published holds only the output
// of today's sources: tsc never deletes the .js of a source file that was removed.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true });
