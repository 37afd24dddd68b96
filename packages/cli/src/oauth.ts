import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Credentials } from './config.ts';
import { CliError, EXIT } from './exit-codes.ts';

interface ServerMetadata {
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint?: string;
}

interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

async function postJson<T>(url: string, init: RequestInit, what: string): Promise<T> {
  const response = await fetch(url, init);
  const body = (await response.json().catch(() => ({}))) as T & {
    error?: string;
    error_description?: string;
  };
  if (!response.ok)
    throw new CliError(
      `${what} failed (${response.status}): ${body.error_description ?? body.error ?? 'no reason given'}`,
      EXIT.apiError,
      body.error ?? 'oauth_error',
    );
  return body;
}

async function discover(apiUrl: string): Promise<ServerMetadata> {
  const response = await fetch(`${apiUrl}/.well-known/oauth-authorization-server`);
  if (!response.ok)
    throw new CliError(`no authorization server at ${apiUrl} (${response.status})`, EXIT.apiError);
  return (await response.json()) as ServerMetadata;
}

const tokenForm = (params: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(params),
});

function credentialsOf(apiUrl: string, clientId: string, answer: TokenAnswer): Credentials {
  return {
    apiUrl,
    kind: 'oauth',
    token: answer.access_token,
    clientId,
    ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}),
    ...(answer.expires_in
      ? { expiresAt: new Date(Date.now() + answer.expires_in * 1000).toISOString() }
      : {}),
  };
}

/** Waits on 127.0.0.1 (a free port) for the browser's return to the redirect URI (RFC 8252). */
async function loopbackReceiver() {
  let settle: (query: URLSearchParams) => void = () => {};
  const returned = new Promise<URLSearchParams>((resolve) => {
    settle = resolve;
  });
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    const ok = url.searchParams.has('code');
    response
      .writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        ok
          ? '<!doctype html><title>Tributary</title><p>Signed in: you can close this window and return to the terminal.</p>'
          : '<!doctype html><title>Tributary</title><p>Sign-in was not completed; see the terminal.</p>',
      );
    settle(url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    returned,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * OAuth 2.1 sign-in: discovery, dynamic registration of a public client for this loopback redirect,
 * the authorization code with PKCE (S256) through the browser, and the code exchanged for tokens.
 */
export async function oauthLogin(
  apiUrl: string,
  showUrl: (url: string) => void,
  timeoutMs = 5 * 60_000,
): Promise<Credentials> {
  const metadata = await discover(apiUrl);
  const receiver = await loopbackReceiver();
  try {
    const client = await postJson<{ client_id: string }>(
      metadata.registration_endpoint,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Tributary CLI',
          redirect_uris: [receiver.redirectUri],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
          application_type: 'native',
        }),
      },
      'client registration',
    );
    const verifier = base64url(randomBytes(32));
    const state = base64url(randomBytes(16));
    const authorize = new URL(metadata.authorization_endpoint);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: receiver.redirectUri,
      scope: 'svc:mcp',
      code_challenge: base64url(createHash('sha256').update(verifier).digest()),
      code_challenge_method: 'S256',
      state,
      resource: `${apiUrl}/api/mcp`,
    }).toString();
    showUrl(authorize.toString());
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new CliError('sign-in timed out', EXIT.notLoggedIn, 'login_timeout')),
        timeoutMs,
      );
    });
    const query = await Promise.race([receiver.returned, timeout]).finally(() => clearTimeout(timer));
    if (query.get('state') !== state)
      throw new CliError('sign-in answered with another state', EXIT.notLoggedIn);
    const code = query.get('code');
    if (!code)
      throw new CliError(
        `sign-in refused: ${query.get('error_description') ?? query.get('error') ?? 'no code'}`,
        EXIT.notLoggedIn,
        query.get('error') ?? 'access_denied',
      );
    const answer = await postJson<TokenAnswer>(
      metadata.token_endpoint,
      tokenForm({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: receiver.redirectUri,
        client_id: client.client_id,
      }),
      'token exchange',
    );
    return credentialsOf(apiUrl, client.client_id, answer);
  } finally {
    receiver.close();
  }
}

/** A new access token (and the rotated refresh token) for stored OAuth credentials. */
export async function refreshOAuthToken(credentials: Credentials): Promise<Credentials> {
  const metadata = await discover(credentials.apiUrl);
  const answer = await postJson<TokenAnswer>(
    metadata.token_endpoint,
    tokenForm({
      grant_type: 'refresh_token',
      refresh_token: credentials.refreshToken ?? '',
      client_id: credentials.clientId ?? '',
    }),
    'token refresh',
  ).catch((error: unknown) => {
    throw new CliError(
      `${(error as Error).message}: run \`tributary login\``,
      EXIT.notLoggedIn,
      'refresh_failed',
    );
  });
  return { ...credentials, ...credentialsOf(credentials.apiUrl, credentials.clientId ?? '', answer) };
}

/**
 * Revokes the grant of stored OAuth credentials (RFC 7009 on the refresh token: its access tokens stop
 * working too). Best effort: answers whether the service confirmed it.
 */
export async function revokeOAuthGrant(credentials: Credentials): Promise<boolean> {
  if (credentials.kind !== 'oauth' || !credentials.refreshToken || !credentials.clientId) return false;
  try {
    const metadata = await discover(credentials.apiUrl);
    if (!metadata.revocation_endpoint) return false;
    const response = await fetch(
      metadata.revocation_endpoint,
      tokenForm({
        token: credentials.refreshToken,
        token_type_hint: 'refresh_token',
        client_id: credentials.clientId,
      }),
    );
    return response.ok;
  } catch {
    return false;
  }
}
