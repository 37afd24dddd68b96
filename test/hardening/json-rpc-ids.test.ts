import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';

const app = useTestApp();
let account: AccountFixture;

beforeAll(async () => {
  account = await accountWithToken(app().em());
});

async function rpc(body: unknown) {
  const response = await fetch(`${app().url}/api/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('JSON-RPC ids (JSON-RPC 2.0 §4: a string, a number or null)', () => {
  it.each([[{}], [{ a: 1 }], [[1]], [[]], [true], [false]])(
    'id %j is -32600 Invalid Request with id null',
    async (id) => {
      const answer = await rpc({ jsonrpc: '2.0', id, method: 'tools/list' });
      expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(answer.body.result).toBeUndefined();
    },
  );

  it.each([[1], ['abc'], [0], [2.5]])('id %j is answered with that id', async (id) => {
    const answer = await rpc({ jsonrpc: '2.0', id, method: 'ping' });
    expect(answer.body).toMatchObject({ jsonrpc: '2.0', id, result: {} });
  });

  it('in a batch, only the message with a bad id is refused', async () => {
    const answer = await rpc([
      { jsonrpc: '2.0', id: [2], method: 'ping' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ]);
    expect(answer.body).toEqual([
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: 3, result: {} }),
    ]);
  });
});
