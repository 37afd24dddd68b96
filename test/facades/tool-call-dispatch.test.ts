/**
 * tools/call goes to the tool directly (facades/rpc/server.ts), not through json-rpc-2.0's generic
 * dispatch; every other message still does. The direct path must answer exactly what the library's
 * would, for successes and for every kind of failure.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compileTools } from '../../facades/rpc/registry.ts';
import { agentResources, compileResources } from '../../facades/rpc/resources.ts';
import { answerMessage, createRpcServer } from '../../facades/rpc/server.ts';
import { agentTools, documentedAliases } from '../../facades/rpc/tools/index.ts';
import { authenticate } from '../../schema/context.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';

const app = useTestApp();
const surface = () => ({
  app: app().services,
  tools: compileTools(agentTools, documentedAliases),
  resources: compileResources(agentResources),
});
let token: string;

beforeAll(async () => {
  ({ token } = await accountWithToken(app().em()));
});

const call = (id: string | number, name: unknown, args?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: args === undefined ? { name } : { name, arguments: args },
});

describe('tools/call answered directly', () => {
  const messages: [string, Record<string, unknown>][] = [
    ['a tool that answers', call(1, 'get_profile', {})],
    ['an alias', call('s-1', 'get_status', { releaseId: '00000000-0000-4000-8000-000000000000' })],
    ['a release that is not found', call(2, 'get_release_status', { releaseId: crypto.randomUUID() })],
    ['invalid arguments', call(3, 'get_release_status', { releaseId: 7 })],
    ['an unknown argument', call(4, 'get_profile', { colour: 'blue' })],
    ['an unknown tool', call(5, 'get_profil', {})],
    ['no name', { jsonrpc: '2.0', id: 6, method: 'tools/call', params: {} }],
    ['arguments not an object', call(7, 'get_profile', [1, 2])],
    ['an access_token argument that is not a string', call(8, 'get_profile', { access_token: 5 })],
  ];

  it.each(messages)('%s: the same answer as the library’s dispatch', async (_, message) => {
    const agent = surface();
    const server = createRpcServer(agent);
    const params = { principal: await authenticate(app().services, token), requestId: 'req-1' };
    const direct = await answerMessage(agent, server, message, params);
    const library = await server.receive(message as never, params);
    expect(direct).toEqual(library);
    expect(JSON.stringify(direct)).toBe(JSON.stringify(library));
    // The first answers, the others fail: each case is what its name says.
    if (message === messages[0]![1]) expect(direct?.result).toMatchObject({ structuredContent: {} });
    else expect(direct?.error?.data).toMatchObject({ type: expect.any(String) });
  });

  it('without a principal, a tool that needs one is refused the same way', async () => {
    const agent = surface();
    const server = createRpcServer(agent);
    const params = { principal: null, requestId: 'req-2' };
    const message = call(9, 'get_profile', {});
    const direct = await answerMessage(agent, server, message, params);
    expect(direct).toEqual(await server.receive(message as never, params));
    expect(direct?.error?.data).toMatchObject({ type: 'authentication_error' });
  });
});
