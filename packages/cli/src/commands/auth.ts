import { spawn } from 'node:child_process';
import { createTributaryClient } from '@tributary/client';
import type { Command } from 'commander';
import {
  credentialsPath,
  readCredentials,
  removeCredentials,
  resolveApiUrl,
  saveCredentials,
} from '../config.ts';
import { oauthLogin, revokeOAuthGrant } from '../oauth.ts';
import { createOutput } from '../output.ts';
import { type GlobalOptions, signedInClient } from '../session.ts';

/** Opens a URL in the person's browser, quietly; the URL is printed all the same. */
function openBrowser(url: string): void {
  const opener =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    spawn(opener, [url], { stdio: 'ignore', detached: true })
      .on('error', () => {})
      .unref();
  } catch {
    // No opener: the printed URL is the way.
  }
}

export function registerAuthCommands(program: Command): void {
  program
    .command('login')
    .description('Sign in: OAuth in the browser (PKCE, a loopback redirect), or a personal access token')
    .option('--token <pat>', 'store a personal access token (svc_pat_…) instead of signing in in the browser')
    .option('--no-browser', 'print the sign-in URL without opening a browser')
    .addHelpText(
      'after',
      `
Examples:
  $ tributary login                              # opens the browser, waits on 127.0.0.1
  $ tributary login --token svc_pat_…            # a token from Settings → Tokens
  $ tributary login --api-url https://api.example.com`,
    )
    .action(async (options: { token?: string; browser: boolean }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = createOutput(Boolean(globals.json));
      const apiUrl = resolveApiUrl(globals.apiUrl);
      let credentials = options.token
        ? { apiUrl, token: options.token, kind: 'pat' as const }
        : await oauthLogin(apiUrl, (url) => {
            process.stderr.write(`Open this URL to sign in (waiting on the loopback redirect):\n${url}\n`);
            if (options.browser) openBrowser(url);
          });
      // The token must work before it is kept.
      const client = createTributaryClient({ baseUrl: apiUrl, token: credentials.token });
      const { data } = await client.rest.GET('/me');
      credentials = { ...credentials, email: data!.profile.email };
      saveCredentials(credentials);
      out.result(
        {
          loggedIn: true,
          apiUrl,
          email: data!.profile.email,
          kind: credentials.kind,
          credentialsFile: credentialsPath(),
        },
        `Logged in to ${apiUrl} as ${data!.profile.email} (credentials in ${credentialsPath()})`,
      );
    });

  program
    .command('logout')
    .description('Forget the stored credentials (an OAuth sign-in is revoked on the service too)')
    .addHelpText('after', '\nExample:\n  $ tributary logout')
    .action(async (_options: unknown, command: Command) => {
      const out = createOutput(Boolean(command.optsWithGlobals<GlobalOptions>().json));
      const stored = readCredentials();
      const revoked = stored ? await revokeOAuthGrant(stored) : false;
      removeCredentials();
      out.result(
        { loggedOut: Boolean(stored), revoked },
        stored ? `Logged out${revoked ? ' (the sign-in is revoked)' : ''}` : 'Not logged in',
      );
    });

  program
    .command('whoami')
    .description('Show the account the token belongs to')
    .addHelpText(
      'after',
      '\nExamples:\n  $ tributary whoami\n  $ TRIBUTARY_TOKEN=svc_pat_… tributary whoami --json',
    )
    .action(async (_options: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = createOutput(Boolean(globals.json));
      const client = await signedInClient(globals);
      const { data } = await client.rest.GET('/me');
      const profile = data!.profile;
      const apiUrl = resolveApiUrl(globals.apiUrl);
      out.result(
        {
          apiUrl,
          id: profile.id,
          email: profile.email,
          firstName: profile.first_name,
          lastName: profile.last_name,
        },
        `${profile.email} (${[profile.first_name, profile.last_name].filter(Boolean).join(' ') || 'no name'}) on ${apiUrl}`,
      );
    });
}
