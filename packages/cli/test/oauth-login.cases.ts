import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { accountWithPassword, signInAndApprove } from '../../../test/support/oauth.ts';
import { runCli, startCli, tempConfig, until } from './support.ts';

/** tributary login (OAuth 2.1, PKCE, loopback redirect) (on the app of commands.test.ts). */
export function oauthLoginCases(app: () => TestApp): void {
  describe('tributary login (OAuth 2.1, PKCE, loopback redirect)', () => {
    const config = tempConfig();
    afterAll(config.cleanup);

    it('registers a client, waits on 127.0.0.1 for the browser, exchanges the code and keeps the tokens', async () => {
      const person = await accountWithPassword(app().em(), `cli-oauth-${Date.now()}@example.test`);
      const env = { XDG_CONFIG_HOME: config.dir, TRIBUTARY_API_URL: app().url };
      const login = startCli(['login', '--no-browser'], env);
      await until(() => /\nhttp\S+\n/.test(login.output.stderr), 'the sign-in URL');
      const authorize = new URL(/\n(http\S+)\n/.exec(login.output.stderr)![1]!);
      expect(authorize.pathname).toBe('/oauth/authorize');
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      const redirectUri = authorize.searchParams.get('redirect_uri')!;
      expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

      // The browser signs in, approves, and comes back to the loopback redirect.
      const { redirect } = await signInAndApprove(app().url, authorize.toString(), person);
      expect(redirect?.startsWith(redirectUri)).toBe(true);
      const landing = await fetch(redirect!);
      expect(landing.status).toBe(200);
      expect(await landing.text()).toContain('Signed in');

      const done = await login.done;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toContain(`as ${person.email}`);
      const stored = JSON.parse(readFileSync(path.join(config.dir, 'tributary/credentials.json'), 'utf8'));
      expect(stored).toMatchObject({ kind: 'oauth', apiUrl: app().url, clientId: expect.any(String) });
      expect(stored.refreshToken).toEqual(expect.any(String));

      const whoami = await runCli(['whoami', '--json'], { XDG_CONFIG_HOME: config.dir });
      expect(whoami.code, whoami.stderr).toBe(0);
      expect(JSON.parse(whoami.stdout).email).toBe(person.email);

      // An access token about to expire is refreshed first (the refresh token rotates).
      const file = path.join(config.dir, 'tributary/credentials.json');
      writeFileSync(
        file,
        JSON.stringify({ ...stored, expiresAt: new Date(Date.now() - 1000).toISOString() }),
      );
      const refreshed = await runCli(['whoami'], { XDG_CONFIG_HOME: config.dir });
      expect(refreshed.code, refreshed.stderr).toBe(0);
      const after = JSON.parse(readFileSync(file, 'utf8'));
      expect(after.token).not.toBe(stored.token);
      expect(after.refreshToken).not.toBe(stored.refreshToken);
      expect(Date.parse(after.expiresAt)).toBeGreaterThan(Date.now());

      // logout revokes the grant: the access token stops working on the service.
      const logout = await runCli(['logout', '--json'], { XDG_CONFIG_HOME: config.dir });
      expect(JSON.parse(logout.stdout)).toEqual({ loggedOut: true, revoked: true });
      const refused = await runCli(['whoami'], {
        TRIBUTARY_API_URL: app().url,
        TRIBUTARY_TOKEN: after.token,
      });
      expect(refused.code).toBe(3);
    });
  });
}
