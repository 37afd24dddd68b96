/** Writes docs/openapi.json from the route table; with --check, fails when the committed file is stale. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, PLACEHOLDER_SERVER_URL, serialiseOpenApi } from './openapi/document.ts';
import { restRoutes } from './routes/index.ts';

const target = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
const printed = serialiseOpenApi(buildOpenApiDocument(restRoutes, { serverUrl: PLACEHOLDER_SERVER_URL }));

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {}
  if (committed !== printed) {
    console.error('docs/openapi.json is stale: run npm run openapi:print');
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date');
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
}
