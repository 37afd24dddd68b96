import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { type AccountFixture, accountWithToken } from '../support/factories.ts';

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  expect(content[0]?.type).toBe('text');
  return content[0]!.text;
}

describe('agent interface through the official MCP client', () => {
  const app = useTestApp();
  let account: AccountFixture;
  let client: Client;

  beforeAll(async () => {
    account = await accountWithToken(app().em(), { credits: 37 });
    client = new Client({ name: 'tributary-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${app().url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${account.token}` } },
    });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('negotiates the newest protocol and reads the server info and instructions', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'tributary', version: 'test' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toContain('mcp://docs/metadata-rules-hitlist');
  });

  it('lists tools, each with an input schema and annotations', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'get_profile',
        'get_pricing',
        'get_credits',
        'get_distribution_stores',
        'get_metadata_rules',
        'get_release_schema',
      ]),
    );
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.properties).toHaveProperty('access_token');
      expect(tool.annotations).toMatchObject({ readOnlyHint: expect.any(Boolean) });
      expect(tool.description?.length).toBeGreaterThan(20);
    }
    const credits = tools.find((tool) => tool.name === 'get_credits');
    expect(credits?.inputSchema.properties?.transactionLimit).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 100,
      default: 10,
    });
  });

  it('lists the resources and reads the metadata rules hitlist', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'mcp://docs/metadata-rules-hitlist',
      'mcp://docs/agent-guide',
      'mcp://schemas/release-required',
    ]);
    const hitlist = await client.readResource({ uri: 'mcp://docs/metadata-rules-hitlist' });
    const [content] = hitlist.contents;
    expect(content).toMatchObject({ uri: 'mcp://docs/metadata-rules-hitlist', mimeType: 'text/markdown' });
    const text = (content as { text: string }).text;
    expect(text.trim().length).toBeGreaterThan(100);
    expect(text).toMatch(/^#/m);

    const schema = await client.readResource({ uri: 'mcp://schemas/release-required' });
    expect(schema.contents[0]?.mimeType).toBe('application/json');
    expect(() => JSON.parse((schema.contents[0] as { text: string }).text)).not.toThrow();
  });

  it('calls get_pricing: the result is JSON in content[0].text and structuredContent', async () => {
    const result = await client.callTool({ name: 'get_pricing', arguments: {} });
    const pricing = JSON.parse(textOf(result));
    expect(pricing.currency).toBe('USD');
    expect(pricing.bundles.length).toBeGreaterThan(0);
    for (const bundle of pricing.bundles) {
      expect(bundle).toMatchObject({
        packageId: expect.any(String),
        credits: expect.any(Number),
        priceUsd: expect.any(Number),
      });
    }
    expect(result.structuredContent).toEqual(pricing);
  });

  it('calls get_credits with a transaction limit: the balance is what the account was granted', async () => {
    const result = await client.callTool({ name: 'get_credits', arguments: { transactionLimit: 5 } });
    const credits = JSON.parse(textOf(result));
    expect(credits.balance).toBe(37);
    expect(credits.transactions).toHaveLength(1);
    expect(credits.transactions[0]).toMatchObject({ amount: 37, balance_after: 37, ref: 'test:seed' });
    // A grant is neither bought nor spent.
    expect(credits.aggregates).toEqual({ purchasedTotal: 0, usedTotal: 0 });

    const none = await client.callTool({ name: 'get_credits', arguments: { transactionLimit: 0 } });
    expect(JSON.parse(textOf(none)).transactions).toEqual([]);
  });

  it('calls get_profile through an alias and gets the account behind the token', async () => {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const { profile } = JSON.parse(textOf(result));
    expect(profile).toMatchObject({ id: account.accountId, email: account.email, first_name: 'Ada' });
  });
});
