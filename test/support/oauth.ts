import type { EntityManager } from '@mikro-orm/postgresql';
import { createAccount } from '../../src/domains/accounts/create-account.ts';

export const TEST_PASSWORD = 'correct horse battery staple';

export async function accountWithPassword(em: EntityManager, email: string, password = TEST_PASSWORD) {
  const account = await createAccount(em, { email, password, firstName: 'Olive', lastName: 'Auth' });
  return { id: account.id, email: account.email, password };
}

/** A browser's cookie jar, by name only (enough for one host in a test). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a),
      );
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface Step {
  status: number;
  location: string | null;
  body: string;
  url: string;
  headers: Headers;
}

/** One request as a browser sends it: cookies in, cookies kept, no redirect followed. */
export async function browse(
  jar: CookieJar,
  url: string,
  form?: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Step> {
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie: jar.header(),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...headers,
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  jar.store(response);
  const location = response.headers.get('location');
  return {
    status: response.status,
    location: location ? new URL(location, url).toString() : null,
    body: await response.text(),
    url,
    headers: response.headers,
  };
}

export const csrfOf = (page: string) => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
export const formActionOf = (page: string, base: string) =>
  new URL(/<form[^>]*action="([^"]+)"/.exec(page)?.[1] ?? '', base).toString();

/**
 * Follows redirects from `start` as a browser would, signing in and approving when the pages ask,
 * until a redirect leaves the app (the client's redirect URI, returned) or a page is not a known step.
 */
export async function signInAndApprove(
  appUrl: string,
  start: string,
  credentials: { email: string; password: string },
  options: { jar?: CookieJar; decision?: 'approve' | 'deny' } = {},
): Promise<{ redirect: string | null; last: Step }> {
  const jar = options.jar ?? new CookieJar();
  let step = await browse(jar, start);
  for (let hops = 0; hops < 12; hops++) {
    if (step.location) {
      if (!step.location.startsWith(appUrl)) return { redirect: step.location, last: step };
      step = await browse(jar, step.location);
      continue;
    }
    if (step.status === 200 && step.body.includes('name="password"') && step.body.includes('Sign in')) {
      step = await browse(jar, formActionOf(step.body, step.url), {
        csrf: csrfOf(step.body),
        email: credentials.email,
        password: credentials.password,
      });
      continue;
    }
    if (step.status === 200 && step.body.includes('name="decision"')) {
      step = await browse(jar, formActionOf(step.body, step.url), {
        csrf: csrfOf(step.body),
        decision: options.decision ?? 'approve',
      });
      continue;
    }
    return { redirect: null, last: step };
  }
  return { redirect: null, last: step };
}

/** POSTs a form to a token endpoint, as an OAuth client sends its token requests. */
export function postTokenForm(
  tokenEndpoint: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  });
}

/** Redeems an authorization code with its PKCE verifier, as a public client. */
export function redeemCode(
  tokenEndpoint: string,
  grant: { code: string; verifier: string; redirectUri: string; clientId: string },
): Promise<Response> {
  return postTokenForm(tokenEndpoint, {
    grant_type: 'authorization_code',
    code: grant.code,
    code_verifier: grant.verifier,
    redirect_uri: grant.redirectUri,
    client_id: grant.clientId,
  });
}

/** Uses a refresh token, as a public client. */
export function refreshWith(
  tokenEndpoint: string,
  refreshToken: string,
  clientId: string,
): Promise<Response> {
  return postTokenForm(tokenEndpoint, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
  });
}
