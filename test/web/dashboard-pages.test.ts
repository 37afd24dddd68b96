/**
 * The dashboard's page registry, for pages that take an id (the Release page's `/dashboard/releases/:id`):
 * an id that cannot be one answers the "not found" page, a well-formed one reaches the page's script in
 * its boot block. Mounted on a server of the test's own, beside the app whose session it shares.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { createDashboardRoutes } from '../../facades/web/dashboard/index.ts';
import { createWebSessions } from '../../facades/web/session/index.ts';
import { useTestApp } from '../support/app.ts';
import { bootOf, signInOverHttp } from '../support/dashboard.ts';
import { accountWithPassword, browse } from '../support/oauth.ts';

const app = useTestApp();
let server: Server | undefined;

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

async function thingsServer(): Promise<string> {
  const http = express();
  http.use(
    createDashboardRoutes(app().services, createWebSessions(app().services), [
      { path: '/dashboard/things/:id', title: 'Thing', nav: 'releases', entry: 'credits' },
    ]),
  );
  server = http.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('dashboard pages with an id', () => {
  it('hand a well-formed id to the script; anything else is the not-found page', async () => {
    const base = await thingsServer();
    const account = await accountWithPassword(app().em(), 'things@example.com');
    const { jar } = await signInOverHttp(app().url, account);

    const id = randomUUID();
    const found = await browse(jar, `${base}/dashboard/things/${id}`);
    expect(found.status).toBe(200);
    expect(found.body).toContain('<h1>Thing</h1>');
    expect(bootOf(found.body).params).toEqual({ id });

    for (const bad of ['not-an-id', `${id}x`, '1%20or%201=1']) {
      const lost = await browse(jar, `${base}/dashboard/things/${bad}`);
      expect(lost.status, bad).toBe(404);
      expect(lost.body).toContain('<h1>Not found</h1>');
      expect(lost.body).toContain('does not exist, or it is not yours');
      expect(lost.body).not.toContain('dashboard-boot');
    }
  });
});
