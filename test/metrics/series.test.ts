import { describe, expect, it } from 'vitest';
import { MAX_GRAPHQL_OPERATION_NAMES, Metrics, UNKNOWN_OPERATION } from '../../src/platform/metrics/index.ts';
import { parseMetrics, sampleValue } from './scrape.ts';

const scrape = async (metrics: Metrics) => parseMetrics((await metrics.render()).body);

describe('request series', () => {
  it('a bound series counts outcomes and fills its histogram cumulatively', async () => {
    const metrics = new Metrics();
    const series = metrics.request('rest', 'getProfile');
    const now = performance.now();
    series.observe(now, false);
    series.observe(now - 40, false); // 40 ms ago
    series.observe(now - 3000, true); // 3 s ago
    const samples = await scrape(metrics);
    const labels = { surface: 'rest', operation: 'getProfile' };
    expect(sampleValue(samples, 'tributary_requests_total', { ...labels, outcome: 'ok' })).toBe(2);
    expect(sampleValue(samples, 'tributary_requests_total', { ...labels, outcome: 'error' })).toBe(1);
    const bucket = (le: string) =>
      sampleValue(samples, 'tributary_request_duration_seconds_bucket', { ...labels, le });
    expect(bucket('0.025')).toBe(1);
    expect(bucket('0.05')).toBe(2);
    expect(bucket('2.5')).toBe(2);
    expect(bucket('5')).toBe(3);
    expect(bucket('+Inf')).toBe(3);
    const sum = sampleValue(samples, 'tributary_request_duration_seconds_sum', labels) ?? 0;
    expect(sum).toBeGreaterThan(3.04);
    expect(sum).toBeLessThan(3.5);
    // A series never observed is not written.
    metrics.request('rest', UNKNOWN_OPERATION);
    expect(
      sampleValue(await scrape(metrics), 'tributary_requests_total', { operation: UNKNOWN_OPERATION }),
    ).toBe(undefined);
  });

  it('GraphQL operation names are bounded: the first 200 get series, later and over-long ones share `other`', async () => {
    const metrics = new Metrics();
    const now = performance.now();
    for (let n = 0; n < MAX_GRAPHQL_OPERATION_NAMES + 50; n++)
      metrics.graphqlOperation(`Op${n}`).observe(now, false);
    metrics.graphqlOperation('Op0').observe(now, false);
    metrics.graphqlOperation(`Long${'x'.repeat(100)}`).observe(now, false);
    const samples = (await scrape(metrics)).filter((s) => s.name === 'tributary_requests_total');
    const operations = new Set(samples.map((s) => s.labels.operation));
    expect(operations.size).toBe(MAX_GRAPHQL_OPERATION_NAMES + 1);
    expect(sampleValue(samples, 'tributary_requests_total', { operation: 'Op0', outcome: 'ok' })).toBe(2);
    expect(sampleValue(samples, 'tributary_requests_total', { operation: 'other', outcome: 'ok' })).toBe(51);
  });

  it('a gauge that cannot be read is left out of that scrape, and the others are served', async () => {
    const failures: string[] = [];
    const metrics = new Metrics({ onCollectError: (family) => failures.push(family) });
    metrics.addGauge('test_broken', 'A gauge whose source is down.', ['x'], async () => {
      throw new Error('database unreachable');
    });
    const remove = metrics.addGauge('test_fine', 'A gauge that reads.', ['x'], async () => [
      { labels: { x: 'a' }, value: 3 },
    ]);
    const samples = await scrape(metrics);
    expect(sampleValue(samples, 'test_fine', { x: 'a' })).toBe(3);
    expect(samples.some((s) => s.name === 'test_broken')).toBe(false);
    expect(failures).toEqual(['test_broken']);
    remove();
    expect((await scrape(metrics)).some((s) => s.name === 'test_fine')).toBe(false);
  });
});
