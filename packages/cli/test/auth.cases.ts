import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { accountWithToken } from '../../../test/support/factories.ts';
import { runCli, tempConfig } from './support.ts';

/** tributary login, whoami, logout (on the app of commands.test.ts). */
export function accountCases(app: () => TestApp): void {
  describe('tributary login, whoami, logout', () => {
    const config = tempConfig();
    afterAll(config.cleanup);

    it('login --token keeps the token (file mode 600); whoami answers the account; logout forgets it', async () => {
      const account = await accountWithToken(app().em());
      const env = { XDG_CONFIG_HOME: config.dir, TRIBUTARY_API_URL: app().url };
      const login = await runCli(['login', '--token', account.token], env);
      expect(login.code, login.stderr).toBe(0);
      expect(login.stdout).toContain(`as ${account.email}`);
      const file = path.join(config.dir, 'tributary/credentials.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);

      // The stored API URL is used without the environment.
      const whoami = await runCli(['whoami', '--json'], { XDG_CONFIG_HOME: config.dir });
      expect(whoami.code, whoami.stderr).toBe(0);
      expect(JSON.parse(whoami.stdout)).toMatchObject({ email: account.email, apiUrl: app().url });

      expect((await runCli(['logout'], env)).code).toBe(0);
      const after = await runCli(['whoami', '--json'], env);
      expect(after.code).toBe(3);
      expect(JSON.parse(after.stdout).error.code).toBe('not_logged_in');
    });

    it('TRIBUTARY_TOKEN overrides; a refused token exits 3; a bad command line exits 2 with help', async () => {
      const account = await accountWithToken(app().em());
      const env = { XDG_CONFIG_HOME: config.dir, TRIBUTARY_API_URL: app().url };
      const whoami = await runCli(['whoami'], { ...env, TRIBUTARY_TOKEN: account.token });
      expect(whoami.code, whoami.stderr).toBe(0);
      expect(whoami.stdout).toContain(account.email);

      const refused = await runCli(['login', '--token', 'svc_pat_not_a_token', '--json'], env);
      expect(refused.code).toBe(3);
      expect(JSON.parse(refused.stdout).error.type).toBe('authentication_error');

      const usage = await runCli(['upload'], env);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain("missing required argument 'file'");
      const help = await runCli(['upload', '--help'], env);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Examples:');
    });
  });
}
