import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Writes a generated, committed file; with `--check` in argv, exits 1 when the committed copy differs
 * (CI's drift check) and tells how to regenerate it.
 */
export function writeOrCheckGenerated(target: string, content: string, regenerate: string): void {
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(target, 'utf8');
    } catch {}
    if (committed !== content) {
      console.error(`${target} is stale: run \`${regenerate}\` and commit the result.`);
      process.exit(1);
    }
    console.log(`${target} is up to date`);
    return;
  }
  writeFileSync(target, content);
  console.log(`wrote ${target}`);
}
