import { describe, expect, it } from 'vitest';
import { restRoutes } from '../../facades/rest/routes/index.ts';
import { prepareOperation } from '../../schema/execute.ts';
import { toDomainValues } from '../../schema/facade-values.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';

function row(operationId: string) {
  const route = restRoutes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  return route;
}

/** The REST body and the same document's `data` (after the row's select) over POST /graphql. */
async function twins(
  baseUrl: string,
  operationId: string,
  path: string,
  options: { token?: string; variables?: Record<string, unknown> } = {},
) {
  const route = row(operationId);
  const rest = await request(baseUrl, route.method, path, { token: options.token });
  const gql = await graphql(baseUrl, route.document, options.variables, options.token);
  expect(rest.status, JSON.stringify(rest.body)).toBe(route.status ?? 200);
  expect(gql.status).toBe(200);
  expect(gql.body.errors).toBeUndefined();
  // REST writes enums as the domain's strings (`grant`), GraphQL as enum names (`GRANT`): compare in the
  // facade's terms.
  const data = gql.body.data as Record<string, unknown>;
  toDomainValues(data, prepareOperation(route.document).enums.output);
  return { rest: rest.body, graphql: route.select ? data[route.select] : data };
}

describe('every REST answer is its GraphQL twin', () => {
  const app = useTestApp();

  it('GET /v1/me', async () => {
    const account = await accountWithToken(app().em(), { insider: true });
    const { rest, graphql: twin } = await twins(app().url, 'getProfile', '/v1/me', { token: account.token });
    expect(rest).toEqual(twin);
    expect(rest.profile).toMatchObject({ email: account.email, is_insider: true, first_name: 'Ada' });
  });

  it('GET /v1/me/credits?transactions=5', async () => {
    const account = await accountWithToken(app().em(), { credits: 7 });
    const { rest, graphql: twin } = await twins(app().url, 'getCredits', '/v1/me/credits?transactions=5', {
      token: account.token,
      variables: { transactionLimit: 5 },
    });
    expect(rest).toEqual(twin);
    expect(rest.balance).toBe(7);
    expect(rest.transactions).toHaveLength(1);
    expect(rest.transactions[0]).toHaveProperty('balance_after', 7);
  });

  it('GET /v1/pricing', async () => {
    const { rest, graphql: twin } = await twins(app().url, 'getPricing', '/v1/pricing');
    expect(rest).toEqual(twin);
    expect(rest.currency).toBeTypeOf('string');
  });

  it('GET /v1/status (stable fields)', async () => {
    const { rest, graphql: twin } = await twins(app().url, 'getStatus', '/v1/status');
    const stable = ({ status, version, startedAt, database }: Record<string, unknown>) => ({
      status,
      version,
      startedAt,
      database,
    });
    expect(stable(rest)).toEqual(stable(twin as Record<string, unknown>));
    expect(rest).toMatchObject({ status: 'ok', database: 'ok' });
    expect(Object.keys(rest).sort()).toEqual(Object.keys(twin as object).sort());
  });
});
