import { serverAudits } from 'graphql-http';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';

describe('GraphQL over HTTP conformance (graphql-http server audits)', () => {
  const app = useTestApp();

  it('passes every MUST audit', async () => {
    const audits = serverAudits({ url: `${app().url}/graphql`, fetchFn: fetch });
    const must = audits.filter((audit) => audit.name.startsWith('MUST'));
    expect(must.length).toBeGreaterThan(0);
    const results = [];
    for (const audit of must) results.push(await audit.fn());
    const failures = results.flatMap((result) =>
      result.status === 'ok' ? [] : [`${result.name} [${result.status}]: ${result.reason}`],
    );
    expect(failures, failures.join('\n')).toEqual([]);
  });
});
