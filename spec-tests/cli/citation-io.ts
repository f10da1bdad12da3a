// Test helper for the citation commands: runs `context <argv>` in-process through the real
// CLI entry (lib/cli/main.ts) with captured streams, returning stdout, stderr and the exit code.

import { main } from '../../lib/cli/main.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCli(argv: readonly string[], cwd: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: {},
    cwd,
  });
  return { code, stdout, stderr };
}
