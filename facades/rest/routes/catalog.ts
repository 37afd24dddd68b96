import type { Request, Response } from 'express';
import { STORE_CATALOG_FIELDS } from '../../selections.ts';
import type { RestRoute } from '../route.ts';

/** Markdown by default; the JSON wrapper when the client prefers application/json. */
function markdownOrJson(body: unknown, req: Request, res: Response): boolean {
  const rules = body as { markdown: string; version: string };
  if (req.accepts(['text/markdown', 'application/json']) === 'application/json') {
    res.json({ format: 'markdown', generatedFrom: 'rules-engine', ...rules });
    return true;
  }
  res.type('text/markdown; charset=utf-8').setHeader('ETag', `"${rules.version}"`);
  res.send(rules.markdown);
  return true;
}

export const catalogRoutes: RestRoute[] = [
  {
    operationId: 'getMetadataRules',
    method: 'GET',
    path: '/metadata-rules',
    summary: 'Metadata policy as markdown; a JSON wrapper with Accept: application/json',
    tag: 'Discovery and metadata',
    auth: 'public',
    document: /* GraphQL */ `
      query GetMetadataRules {
        metadataRules {
          version
          markdown
          rules { id severity topic title description fieldPaths example { bad good } }
        }
      }
    `,
    select: 'metadataRules',
    render: markdownOrJson,
    produces: ['text/markdown', 'application/json'],
  },
  {
    operationId: 'getReleaseSchema',
    method: 'GET',
    path: '/release-schema',
    summary: 'Authoritative required fields, aliases and an example payload',
    tag: 'Discovery and metadata',
    auth: 'bearer',
    document: /* GraphQL */ `
      query GetReleaseSchema {
        releaseSchema: releaseSchemaWire
      }
    `,
    select: 'releaseSchema',
  },
  {
    operationId: 'getDistributionStores',
    method: 'GET',
    path: '/distribution-stores',
    summary: 'The store catalog, default selection and selection semantics',
    tag: 'Discovery and metadata',
    auth: 'public',
    document: /* GraphQL */ `
      query GetDistributionStores {
        distributionStores { ${STORE_CATALOG_FIELDS} }
      }
    `,
    select: 'distributionStores',
  },
  {
    operationId: 'getLanguageScriptCodes',
    method: 'GET',
    path: '/language-script-codes',
    summary: 'Valid language_and_script_code values and the language each pairs with',
    tag: 'Discovery and metadata',
    auth: 'bearer',
    document: /* GraphQL */ `
      query GetLanguageScriptCodes {
        codes: languageScriptCodes { code language languageName script scriptName }
      }
    `,
  },
];
