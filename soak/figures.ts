// The soak suite's report: one line per figure. A check says PASS or FAIL with what was
// tried, how often and what broke; a measurement (time, memory, throughput) is printed
// with "    " and never fails (speed is measured, not asserted). The runner ends with
// "N passed, N failed".

export interface Figure {
  readonly suite: string;
  readonly text: string;
  /** true: passed; false: failed; null: a measurement. */
  readonly ok: boolean | null;
}

export class Report {
  readonly figures: Figure[] = [];
  private readonly print: (line: string) => void;

  constructor(print: (line: string) => void = () => undefined) {
    this.print = print;
  }

  /** A check: passes when `ok`. */
  check(suite: string, ok: boolean, text: string): boolean {
    this.add({ suite, text, ok });
    return ok;
  }

  /** A measured figure, printed as is. */
  measure(suite: string, text: string): void {
    this.add({ suite, text, ok: null });
  }

  get passed(): number {
    return this.figures.filter((f) => f.ok === true).length;
  }

  get failed(): number {
    return this.figures.filter((f) => f.ok === false).length;
  }

  /** The figures of one suite that failed (for the short soak's assertions). */
  failures(): Figure[] {
    return this.figures.filter((f) => f.ok === false);
  }

  private add(f: Figure): void {
    this.figures.push(f);
    const mark = f.ok === null ? '    ' : f.ok ? 'PASS' : 'FAIL';
    this.print(`${mark} ${f.suite}: ${f.text}`);
  }
}

/** 1234567 -> "1,234,567" (figures are read by people). */
export function thousands(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
