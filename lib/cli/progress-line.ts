// A build's progress as one self-overwriting line on a terminal's stderr: phase, files,
// bytes and read rate, redrawn at most every `intervalMs`, first drawn only once the build
// has run `delayMs` (a quick build prints nothing), erased when the build ends. Only for
// a TTY: the caller decides, so pipes, CI logs and the MCP server never see a byte of it.

import { describeProgress, formatBytes, type BuildProgress } from '../core/store/progress.js';

export interface ProgressLineOptions {
  /** Writes to the terminal (stderr). */
  readonly write: (text: string) => void;
  /** Milliseconds from a monotonic clock (the CLI owns the clock). */
  readonly now: () => number;
  /** Terminal width: the line is cut to fit so that "\r" can redraw it. */
  readonly columns?: number | undefined;
  readonly delayMs?: number;
  readonly intervalMs?: number;
}

const ERASE = '\r\x1b[K';

/** The terminal's text of one report: the core's words, plus the read rate while reading. */
export function describeProgressLine(p: BuildProgress, elapsedMs: number): string {
  const rate = p.phase === 'read' && elapsedMs > 0 ? `, ${formatBytes((p.bytes * 1000) / elapsedMs)}/s` : '';
  return `context build: ${describeProgress(p)}${rate}`;
}

export class ProgressLine {
  private readonly options: ProgressLineOptions;
  private readonly started: number;
  private lastDraw: number | null = null;
  private drawn = false;
  private readStarted: number | null = null;

  constructor(options: ProgressLineOptions) {
    this.options = options;
    this.started = options.now();
  }

  /** A ProgressListener: draws when the delay and the interval allow. */
  readonly report = (p: BuildProgress): void => {
    const now = this.options.now();
    if (p.phase === 'read' && this.readStarted === null) this.readStarted = now;
    if (p.phase === 'done') return; // the line is erased by finish()
    if (now - this.started < (this.options.delayMs ?? 250)) return;
    if (this.lastDraw !== null && now - this.lastDraw < (this.options.intervalMs ?? 100)) return;
    this.lastDraw = now;
    let text = describeProgressLine(p, now - (this.readStarted ?? now));
    const width = this.options.columns;
    if (width !== undefined && width > 1 && text.length > width - 1) text = text.slice(0, width - 1);
    this.options.write(ERASE + text);
    this.drawn = true;
  };

  /** Erases the line if one was drawn, so the command's own output starts clean. */
  finish(): void {
    if (this.drawn) this.options.write(ERASE);
    this.drawn = false;
  }
}
