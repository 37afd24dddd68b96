import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The files under `dir` (a path as given: relative stays relative), recursively, that `keep` accepts by
 * name; node_modules is never entered. By default, TypeScript sources.
 */
export function filesUnder(
  dir: string,
  keep: (name: string) => boolean = (name) => name.endsWith('.ts'),
): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(full, keep);
    return keep(entry.name) ? [full] : [];
  });
}
