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

/** 1234567 -> "1,234,567" (fixed: not the locale's grouping). */
function grouped(n: number): string {
  return String(Math.floor(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Bytes in binary units with one decimal: "512 B", "13.3 MiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit] as string}`;
}

/**
 * A report in words, the same on every run (no time, no rate): "reading 3,412/10,000
 * files, 13.3 MiB". The terminal line and MCP progress messages both start from it.
 */
export function describeProgress(p: BuildProgress): string {
  const of = (noun: string): string => `${grouped(p.files)}/${grouped(p.filesTotal)} ${noun}`;
  switch (p.phase) {
    case 'scan':
      return `scanning, ${grouped(p.files)} files found`;
    case 'read':
      return `reading ${of('files')}, ${formatBytes(p.bytes)}`;
    case 'analyze':
      return `analyzing ${of('files')}`;
    case 'index':
      return `indexing ${of('files')}`;
    case 'write':
      return `writing ${of('documents')}`;
    case 'done':
      return `done, ${grouped(p.files)} documents, ${formatBytes(p.bytes)}`;
  }
}
