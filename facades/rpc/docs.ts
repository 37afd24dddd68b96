import { type Request, type Response, Router } from 'express';
import { authenticate, bearerToken } from '../../schema/context.ts';
import { prepareOperation } from '../../schema/execute.ts';
import type { AppServices } from '../../schema/services.ts';
import { routeHandler } from '../route-handler.ts';
import { runAndSelect, sendOperationError } from '../run-operation.ts';

/** A public markdown page under /api/mcp: markdown by default, a JSON wrapper for Accept: application/json. */
interface DocRow {
  path: string;
  document: string;
  select: string;
  markdown: (value: unknown) => string;
  json: (value: unknown) => Record<string, unknown>;
}

const docRows: DocRow[] = [
  {
    path: '/docs',
    document: /* GraphQL */ `
      query AgentGuideDoc {
        agentGuide
      }
    `,
    select: 'agentGuide',
    markdown: (value) => String(value ?? ''),
    json: (value) => ({ uri: 'mcp://docs/agent-guide', format: 'markdown', markdown: String(value ?? '') }),
  },
  {
    path: '/docs/metadata-rules',
    document: /* GraphQL */ `
      query AgentMetadataRulesDoc {
        metadataRules {
          version
          markdown
        }
      }
    `,
    select: 'metadataRules',
    markdown: (value) => String((value as { markdown?: unknown } | null)?.markdown ?? ''),
    json: (value) => {
      const rules = (value ?? {}) as { version?: unknown; markdown?: unknown };
      return { version: rules.version, format: 'markdown', markdown: String(rules.markdown ?? '') };
    },
  },
];

export function createDocsRouter(app: AppServices): Router {
  const router = Router();
  for (const row of docRows) {
    const operation = prepareOperation(row.document);
    router.get(
      row.path,
      routeHandler(async (req: Request, res: Response) => {
        const requestId = String(res.locals.requestId ?? crypto.randomUUID());
        // Public, but a presented token must be valid (docs/decisions.md: an invalid token fails everywhere).
        const principal = await authenticate(app, bearerToken(req.headers.authorization));
        const outcome = await runAndSelect(app, operation, row.select, {
          principal,
          channel: 'agent_http',
          requestId,
        });
        if ('error' in outcome) {
          sendOperationError(res, outcome.error);
          return;
        }
        res.vary('Accept');
        if (req.accepts(['text/markdown', 'application/json']) === 'application/json') {
          res.json(row.json(outcome.value));
          return;
        }
        res.type('text/markdown; charset=utf-8').send(row.markdown(outcome.value));
      }),
    );
  }
  return router;
}
