import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Kind } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentApi } from '../../facades/rpc/index.ts';
import { compileTools } from '../../facades/rpc/registry.ts';
import { agentResources, compileResources } from '../../facades/rpc/resources.ts';
import { editDistance, normaliseToolName, suggestToolNames } from '../../facades/rpc/suggest.ts';
import { READ_ONLY, type ToolRow } from '../../facades/rpc/tool.ts';
import { agentTools, documentedAliases } from '../../facades/rpc/tools/index.ts';
import { prepareOperation } from '../../schema/execute.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';

function topLevelKeys(document: string): string[] {
  const { operation } = prepareOperation(document);
  return operation.selectionSet.selections.flatMap((selection) =>
    selection.kind === Kind.FIELD ? [selection.alias?.value ?? selection.name.value] : [],
  );
}

describe('agent tool table', () => {
  it('compiles: every document is valid against the schema, names and aliases are unique', () => {
    expect(agentTools.length).toBeGreaterThan(0);
    expect(() => compileTools(agentTools, documentedAliases)).not.toThrow();
    expect(() => compileResources(agentResources)).not.toThrow();
  });

  it('every select names a top-level response key of its document', () => {
    const problems: string[] = [];
    for (const row of [...agentTools, ...agentResources]) {
      const label = 'name' in row ? row.name : '';
      if (row.select !== undefined && !topLevelKeys(row.document).includes(row.select)) {
        problems.push(`${label}: ${row.select}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every variable a row produces is a variable of its document', () => {
    const problems: string[] = [];
    for (const row of agentTools) {
      if (!row.variables) continue;
      const { operation } = prepareOperation(row.document);
      const defined = (operation.variableDefinitions ?? []).map((d) => d.variable.name.value);
      // Defaults where the arguments allow none; otherwise every argument reads as undefined.
      const sample = row.args.safeParse({});
      let produced: string[];
      try {
        produced = Object.keys(
          row.variables(sample.success ? sample.data : new Proxy({}, { get: () => undefined })),
        );
      } catch {
        continue;
      }
      for (const name of produced) if (!defined.includes(name)) problems.push(`${row.name}: $${name}`);
    }
    expect(problems).toEqual([]);
  });

  it('refuses a table where an alias collides with another tool', () => {
    const [first, second] = agentTools as [ToolRow, ToolRow];
    expect(() => compileTools([first, { ...second, aliases: [first.name] }])).toThrow(/claimed by both/);
    expect(() => compileTools([{ ...first, name: 'GetThing' }])).toThrow(/snake_case/);
  });

  it('keeps documented aliases of tools that do not exist yet out of resolution', () => {
    const registry = compileTools(
      agentTools.filter((tool) => tool.name !== 'get_release_status'),
      documentedAliases,
    );
    expect(registry.resolve('release_status')).toBeNull();
    expect(registry.resolve('check_release_status')).toBeNull();
    expect(registry.resolve('get_balance')?.row.name).toBe('get_credits');
  });

  it("resolves the spec's aliases release_status and check_release_status to get_release_status", () => {
    const registry = compileTools(agentTools, documentedAliases);
    expect(registry.resolve('release_status')?.row.name).toBe('get_release_status');
    expect(registry.resolve('check_release_status')?.row.name).toBe('get_release_status');
    expect(registry.suggest('release_stats')).toContain('get_release_status');
  });
});

describe('tool name suggestions', () => {
  const names = new Map([
    ['get_profile', 'get_profile'],
    ['whoami', 'get_profile'],
    ['get_credits', 'get_credits'],
    ['balance', 'get_credits'],
    ['get_distribution_stores', 'get_distribution_stores'],
    ['list_stores', 'get_distribution_stores'],
  ]);

  it('measures transpositions as one edit', () => {
    expect(editDistance('profile', 'porfile')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('normalises camelCase, dashes and spaces', () => {
    expect(normaliseToolName('getReleaseStatus')).toBe('get_release_status');
    expect(normaliseToolName(' Get-Profile ')).toBe('get_profile');
  });

  it('suggests canonical names by spelling, alias, containment and shared words', () => {
    expect(suggestToolNames('get_profil', names)[0]).toBe('get_profile');
    expect(suggestToolNames('getCredits', names)[0]).toBe('get_credits');
    expect(suggestToolNames('balanse', names)).toEqual(['get_credits']);
    expect(suggestToolNames('who_am_i', names)).toEqual(['get_profile']);
    expect(suggestToolNames('distribution_stores', names)).toEqual(['get_distribution_stores']);
    expect(suggestToolNames('show_stores_please', names)).toEqual(['get_distribution_stores']);
    expect(suggestToolNames('submit_release', names)).toEqual([]);
    expect(suggestToolNames(`get_profile${'x'.repeat(200)}`, names)).toEqual([]);
  });
});

describe('agent facade with a custom tool table', () => {
  const app = useTestApp();
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const statusRow: ToolRow = {
      name: 'get_release_status',
      title: 'Get release status',
      description: 'Stand-in row: answers the pricing currency.',
      annotations: READ_ONLY,
      args: z.object({ releaseId: z.string().min(1) }),
      document: 'query StandIn { pricing { currency } }',
      select: 'pricing',
    };
    const http = express();
    http.use('/api/mcp', createAgentApi(app().services, { tools: [...agentTools, statusRow] }));
    server = createServer(http);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  });

  it('answers release_status and check_release_status with the get_release_status result', async () => {
    const { token } = await accountWithToken(app().em());
    const calls = ['get_release_status', 'release_status', 'check_release_status'].map((name, id) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: { releaseId: 'r1' } },
    }));
    const response = await request(url, 'POST', '/api/mcp', { token, body: calls });
    expect(response.status).toBe(200);
    const texts = response.body.map(
      (r: { result: { content: { text: string }[] } }) => r.result.content[0]!.text,
    );
    expect(JSON.parse(texts[0])).toEqual({ currency: 'USD' });
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);

    const missing = await request(url, 'POST', '/api/mcp', {
      token,
      body: {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'release_status', arguments: {} },
      },
    });
    expect(missing.body.error).toMatchObject({ code: -32602, data: { details: [{ path: 'releaseId' }] } });
  });

  it('lists the new tool in tools/list with its input schema', async () => {
    const { token } = await accountWithToken(app().em());
    const response = await request(url, 'POST', '/api/mcp', {
      token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const tool = response.body.result.tools.find((t: { name: string }) => t.name === 'get_release_status');
    expect(tool.inputSchema).toMatchObject({
      type: 'object',
      required: ['releaseId'],
      properties: { releaseId: { type: 'string' }, access_token: { type: 'string' } },
      additionalProperties: false,
    });
  });
});
