import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';

function wsClient(url: string, authorization?: string) {
  return createClient({
    url: `${url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: authorization === undefined ? {} : { authorization },
    retryAttempts: 0,
    lazy: true,
  });
}

async function once<T>(client: ReturnType<typeof createClient>, query: string): Promise<T> {
  const iterator = client.iterate<T>({ query });
  const { value } = await iterator.next();
  await iterator.return?.();
  return value as T;
}

describe('GraphQL over WebSocket (graphql-ws) on /graphql', () => {
  const app = useTestApp();

  it('takes the token from connectionParams.authorization, with or without the Bearer prefix', async () => {
    const account = await accountWithToken(app().em());
    for (const authorization of [`Bearer ${account.token}`, account.token]) {
      const client = wsClient(app().url, authorization);
      const result = await once<{ data: { me: { email: string } } }>(client, '{ me { email } }');
      expect(result.data.me.email).toBe(account.email);
      await client.dispose();
    }
  });

  it('serves public fields anonymously and refuses private ones with the error vocabulary', async () => {
    const client = wsClient(app().url);
    const pricing = await once<{ data: { pricing: { currency: string } } }>(
      client,
      '{ pricing { currency } }',
    );
    expect(pricing.data.pricing.currency).toBe('USD');
    const me = await once<{ errors: { extensions: { type: string } }[] }>(client, '{ me { email } }');
    expect(me.errors[0]?.extensions.type).toBe('authentication_error');
    await client.dispose();
  });

  it('closes the connection for an invalid token', async () => {
    const client = wsClient(app().url, 'Bearer svc_pat_not-a-real-token');
    await expect(once(client, '{ pricing { currency } }')).rejects.toMatchObject({ code: 4403 });
    await client.dispose();
  });
});
