import { describe, expect, it } from 'vitest';
import { metricsAccess } from '../../src/platform/metrics/index.ts';
import { startTestApp } from '../support/app.ts';
import { request } from '../support/http.ts';

const TOKEN = 'metrics-token-0123456789-abcdefghijklmnop';

describe('the protection rule of /metrics', () => {
  it('with METRICS_TOKEN, only that bearer token reads; without it, 404 in production and open elsewhere', () => {
    const guarded = { NODE_ENV: 'production', METRICS_TOKEN: TOKEN };
    expect(metricsAccess(guarded, `Bearer ${TOKEN}`)).toBe('allowed');
    expect(metricsAccess(guarded, `bearer ${TOKEN}`)).toBe('allowed');
    expect(metricsAccess(guarded, undefined)).toBe('unauthorized');
    expect(metricsAccess(guarded, 'Bearer ')).toBe('unauthorized');
    expect(metricsAccess(guarded, `Bearer ${TOKEN}x`)).toBe('unauthorized');
    expect(metricsAccess(guarded, `Bearer ${TOKEN.slice(0, -1)}`)).toBe('unauthorized');
    expect(metricsAccess(guarded, TOKEN)).toBe('unauthorized');
    expect(metricsAccess({ NODE_ENV: 'development', METRICS_TOKEN: TOKEN }, undefined)).toBe('unauthorized');
    expect(metricsAccess({ NODE_ENV: 'production' }, `Bearer ${TOKEN}`)).toBe('not_found');
    expect(metricsAccess({ NODE_ENV: 'development' }, undefined)).toBe('allowed');
    expect(metricsAccess({ NODE_ENV: 'test' }, undefined)).toBe('allowed');
  });

  it('over HTTP: 401 without the token, the metrics with it; 404 in production without a token', async () => {
    const guarded = await startTestApp({ NODE_ENV: 'production', METRICS_TOKEN: TOKEN });
    try {
      const anonymous = await request(guarded.url, 'GET', '/metrics');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ type: 'authentication_error', code: 'invalid_token' });
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="tributary-metrics"');
      expect((await request(guarded.url, 'GET', '/metrics', { token: 'x'.repeat(40) })).status).toBe(401);
      const allowed = await request(guarded.url, 'GET', '/metrics', { token: TOKEN });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(allowed.headers.get('cache-control')).toBe('no-store');
      expect(allowed.body).toContain('# TYPE tributary_requests_total counter');
    } finally {
      await guarded.close();
    }
    const off = await startTestApp({ NODE_ENV: 'production' });
    try {
      const hidden = await request(off.url, 'GET', '/metrics');
      expect(hidden.status).toBe(404);
      expect(hidden.body).toMatchObject({ type: 'not_found_error', code: 'route_not_found' });
    } finally {
      await off.close();
    }
  }, 60_000);
});
