import { createTributaryClient, type TributaryClient } from '@tributary/client';
import { type Credentials, readCredentials, resolveApiUrl, resolveToken, saveCredentials } from './config.ts';
import { refreshOAuthToken } from './oauth.ts';

/** The global options every command reads. */
export interface GlobalOptions {
  json?: boolean;
  apiUrl?: string;
}

/** A client signed in with the resolved token (an expired OAuth token is refreshed first). */
export async function signedInClient(options: GlobalOptions): Promise<TributaryClient> {
  const baseUrl = resolveApiUrl(options.apiUrl);
  let token = resolveToken();
  const stored = readCredentials();
  if (!process.env.TRIBUTARY_TOKEN && stored?.kind === 'oauth' && expiresSoon(stored)) {
    const refreshed = await refreshOAuthToken(stored);
    saveCredentials(refreshed);
    token = refreshed.token;
  }
  return createTributaryClient({ baseUrl, token });
}

const expiresSoon = (credentials: Credentials) =>
  Boolean(
    credentials.refreshToken &&
      credentials.expiresAt &&
      Date.parse(credentials.expiresAt) < Date.now() + 60_000,
  );
