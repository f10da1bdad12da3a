// The engines the suite runs against: v0 always; v1 when `context build --help` offers
// `--engine` (engine v1 lands separately). Every build and crash figure is per engine.

import { minimalEnv, runContext } from './child.js';

export type Engine = 'v0' | 'v1';

/** Engines this checkout's `context build` supports. */
export async function availableEngines(cwd: string): Promise<Engine[]> {
  const help = await runContext(['build', '--help'], { cwd, env: minimalEnv(cwd) });
  return /--engine\b[^\n]*v1/.test(help.stdout) ? ['v0', 'v1'] : ['v0'];
}

/** `build` argv for an engine (named always: the default is v1, with sections and o200k_base). */
export function buildArgs(engine: Engine, sources: string, cache: string, force: boolean): string[] {
  return ['build', '--sources', sources, '--cache', cache, ...(force ? ['--force'] : []), '--engine', engine];
}
