// The yaml library, loaded on first use: only the scope commands parse YAML, and importing
// it eagerly cost every CLI start (a cold `resolve` included) about 100 ms.

import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

export function yamlLib(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return loaded;
}
