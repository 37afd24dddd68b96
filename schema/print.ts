/** Prints the schema to schema/schema.graphql; with --check, fails when the committed file is stale. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { getSchema } from './index.ts';

const target = fileURLToPath(new URL('./schema.graphql', import.meta.url));
const printed = `${printSchema(lexicographicSortSchema(getSchema()))}\n`;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {}
  if (committed !== printed) {
    console.error('schema/schema.graphql is stale: run `npm run schema:print` and commit the result.');
    process.exit(1);
  }
  console.log('schema/schema.graphql is up to date');
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
}
