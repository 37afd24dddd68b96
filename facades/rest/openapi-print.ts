/** Writes docs/openapi.json from the route table; with --check, fails when the committed file is stale. */
import { writeOrCheckGenerated } from '../../src/platform/generated-file.ts';
import { buildOpenApiDocument, PLACEHOLDER_SERVER_URL, serialiseOpenApi } from './openapi/document.ts';
import { restRoutes } from './routes/index.ts';

writeOrCheckGenerated(
  'docs/openapi.json',
  serialiseOpenApi(buildOpenApiDocument(restRoutes, { serverUrl: PLACEHOLDER_SERVER_URL })),
  'npm run openapi:print',
);
