// The text of every page of both relevance dev sets (bench/relevance), in a fixed order: real
// documentation the token tests count, cut and merge.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function devPages(): string[] {
  const pages: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(md|mdx|txt|markdown)$/u.test(name)) pages.push(readFileSync(p, 'utf8'));
    }
  };
  walk(join(import.meta.dirname, '..', '..', '..', 'bench', 'relevance'));
  return pages;
}
