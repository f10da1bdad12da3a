// What a build reports while it runs, for people (a TTY progress line) and hosts (MCP
// notifications/progress). Reports are advisory: they never change what is built, and a
// build with no listener does the same work.

export type BuildPhase = 'scan' | 'read' | 'analyze' | 'index' | 'write' | 'done';

export interface BuildProgress {
  readonly phase: BuildPhase;
  /** Source files handled so far in this phase (read, analyzed...). */
  readonly files: number;
  /** Source files the build will handle (0 while scanning). */
  readonly filesTotal: number;
  /** Source bytes handled so far. */
  readonly bytes: number;
}

export type ProgressListener = (progress: BuildProgress) => void;
