import { createServer } from 'node:http';
import express from 'express';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { unexpectedErrors } from '../../facades/http-errors.ts';
import { createRestApi } from '../../facades/rest/index.ts';
import type { RestRoute } from '../../facades/rest/route.ts';
import { RouteTable } from '../../facades/route-table.ts';
import { normaliseError } from '../../schema/errors.ts';
import { AppError } from '../../src/platform/errors.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { useTestApp } from '../support/app.ts';

describe('one error vocabulary, unexpected errors masked', () => {
  const app = useTestApp();

  it("keeps a domain error's type, code, details and retry hint in GraphQL extensions", () => {
    const domain = new AppError('rate_limit_error', 'rate_limited', 'Slow down.', { retryAfterSeconds: 42 });
    const normalised = normaliseError(
      new GraphQLError('x', { originalError: domain }),
      createLogger('silent'),
      'req-1',
    );
    expect(normalised.message).toBe('Slow down.');
    expect(normalised.extensions).toEqual({
      type: 'rate_limit_error',
      code: 'rate_limited',
      retryAfterSeconds: 42,
    });
  });

  it('masks anything else and logs it with the request id', () => {
    const logged: unknown[] = [];
    const logger = createLogger('silent');
    logger.error = ((obj: unknown) => logged.push(obj)) as typeof logger.error;
    const secret = new Error('password=hunter2 at db.internal:5432');
    const normalised = normaliseError(
      new GraphQLError(secret.message, { originalError: secret }),
      logger,
      'req-9',
    );
    expect(normalised.message).not.toContain('hunter2');
    expect(normalised.extensions).toEqual({ type: 'api_error', code: 'internal_error', requestId: 'req-9' });
    expect(logged).toHaveLength(1);
  });

  it.each(['express', 'the route table'])(
    'a REST route that fails unexpectedly answers 500 api_error with a request id, no internals (%s)',
    async (via) => {
      const exploding: RestRoute = {
        operationId: 'explode',
        method: 'GET',
        path: '/explode',
        summary: 'test only',
        tag: 'test',
        auth: 'public',
        document: 'query { pricing { currency } }',
        variables: {
          x: {
            from: 'query',
            name: 'x',
            parse: () => {
              throw new Error('internal detail: /srv/secret');
            },
          },
        },
      };
      const table = new RouteTable([], (_req, _res, next) => next(), [unexpectedErrors(app().services)]);
      const http = express();
      http.use('/v1', createRestApi(app().services, [exploding], table));
      http.use(unexpectedErrors(app().services));
      const server = createServer(via === 'express' ? http : table.listener(http));
      server.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const port = (server.address() as { port: number }).port;
        const response = await fetch(`http://127.0.0.1:${port}/v1/explode?x=1`);
        expect(response.status).toBe(500);
        const body = (await response.json()) as Record<string, string>;
        expect(body.type).toBe('api_error');
        expect(JSON.stringify(body)).not.toContain('/srv/secret');
        expect(typeof body.requestId).toBe('string');
      } finally {
        server.close();
      }
    },
  );
});
