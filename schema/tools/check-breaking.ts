/**
 * CI's breaking-change check of the GraphQL contract: every commit since the check was introduced that
 * changed schema/schema.graphql is compared with its parent; a breaking change fails unless the commit
 * message carries `Breaking-Change: intended — <why>`.
 */
import { execFileSync } from 'node:child_process';
import { schemaHistory } from './breaking-changes.ts';

const repo = process.cwd();
const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();

if (git(['rev-parse', '--is-shallow-repository']) === 'true') {
  console.error('schema:breaking needs the full history: fetch with --unshallow first.');
  process.exit(1);
}
const introduced = git(['log', '--diff-filter=A', '--format=%H', '--', 'schema/tools/check-breaking.ts'])
  .split('\n')
  .at(-1);
if (!introduced) {
  console.log('schema:breaking: the check is not committed yet; nothing to compare.');
  process.exit(0);
}

let failed = false;
for (const verdict of await schemaHistory(repo, introduced)) {
  if (verdict.breaking.length === 0) continue;
  const label = `${verdict.commit.slice(0, 10)} ${verdict.subject}`;
  if (verdict.intended) {
    console.log(`${label}: ${verdict.breaking.length} breaking change(s), marked intended`);
    continue;
  }
  failed = true;
  console.error(`${label}: breaking change(s) not marked intended:`);
  for (const change of verdict.breaking) console.error(`  - ${change}`);
}
if (failed) {
  console.error(
    'Keep the old fields (deprecate them) or, if the break is deliberate, say so in the commit message: ' +
      '"Breaking-Change: intended — <why>".',
  );
  process.exit(1);
}
console.log('schema:breaking: no unmarked breaking change');
