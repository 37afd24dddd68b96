import { beforeAll, describe, expect, it } from 'vitest';
import {
  SIGN_IN_FAILURES_PER_ACCOUNT,
  SIGN_IN_FAILURES_PER_IP,
  signIn,
} from '../../src/domains/accounts/sign-in.ts';
import { SIGN_UPS_PER_IP } from '../../src/domains/accounts/sign-up.ts';
import type { AppError } from '../../src/platform/errors.ts';
import { budgets, policies } from '../rate-limits/support.ts';
import { useTestApp } from '../support/app.ts';
import {
  accountWithPassword,
  browse,
  CookieJar,
  csrfOf,
  formActionOf,
  type Step,
  signInAndApprove,
  TEST_PASSWORD,
} from '../support/oauth.ts';

const REDIRECT = 'http://127.0.0.1:9/cb';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('sign-in, sign-up and consent pages', () => {
  const app = useTestApp();
  let clientId: string;

  beforeAll(async () => {
    const registered = await fetch(`${app().url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Page Test <script>',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status).toBe(201);
    clientId = ((await registered.json()) as { client_id: string }).client_id;
  });

  const authorizeUrl = () =>
    `${app().url}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'svc:mcp',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    })}`;

  /** Follows redirects up to the first page (the sign-in page). */
  async function openSignIn(jar: CookieJar): Promise<Step> {
    let step = await browse(jar, authorizeUrl());
    while (step.location) step = await browse(jar, step.location);
    return step;
  }

  it('the sign-in page is self-contained, escaped, and sets only HttpOnly cookies', async () => {
    const response = await fetch(authorizeUrl(), { redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) expect(cookie).toMatch(/httponly/i);
    const jar = new CookieJar();
    const page = await openSignIn(jar);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Page Test &lt;script&gt;');
    expect(page.body).not.toContain('<script');
    expect(page.body).not.toMatch(/(src|href)="https?:\/\//);
    expect(page.body).toContain('<label for="email">');
    const css = await fetch(`${app().url}/assets/site.css`);
    expect(css.headers.get('content-type')).toContain('text/css');
  });

  it('refuses a post without the CSRF field, or from a browser without the interaction cookie', async () => {
    const account = await accountWithPassword(app().em(), 'csrf@example.com');
    const jar = new CookieJar();
    const page = await openSignIn(jar);
    const action = formActionOf(page.body, page.url);
    const noCsrf = await browse(jar, action, { email: account.email, password: account.password });
    expect(noCsrf.status).toBe(403);
    const otherBrowser = await browse(new CookieJar(), action, {
      csrf: csrfOf(page.body),
      email: account.email,
      password: account.password,
    });
    expect(otherBrowser.status).toBe(400);
    expect(otherBrowser.location).toBeNull();
  });

  it(`locks an account after ${SIGN_IN_FAILURES_PER_ACCOUNT.points} failures with account_locked, even for the right password`, async () => {
    const account = await accountWithPassword(app().em(), 'locked@example.com');
    const jar = new CookieJar();
    const page = await openSignIn(jar);
    const action = formActionOf(page.body, page.url);
    const csrf = csrfOf(page.body);
    const statuses: number[] = [];
    const left: number[] = [];
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT.points; i++) {
      const failed = await browse(jar, action, { csrf, email: account.email, password: 'wrong password!' });
      statuses.push(failed.status);
      left.push(budgets(failed.headers)['sign-in-account']!.r!);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    // Each page answer says what is left of the email's and the address's budgets.
    expect(left).toEqual([4, 3, 2, 1, 0]);
    const right = await browse(jar, action, { csrf, email: account.email, password: account.password });
    expect(right.status).toBe(423);
    expect(policies(right.headers)['sign-in-account']).toEqual({ q: 5, w: 900 });
    expect(budgets(right.headers)['sign-in-account']!.r).toBe(0);
    expect(right.body).toContain('Too many failed sign-ins');

    // Another account, from the same browser and address, is not affected.
    const other = await accountWithPassword(app().em(), 'unlocked@example.com');
    const ok = await browse(jar, action, { csrf, email: other.email, password: other.password });
    expect(ok.status).toBe(303);
  });

  it('sign-up creates an account with a password and goes on to consent; a weak password is refused', async () => {
    const jar = new CookieJar();
    const signInPage = await openSignIn(jar);
    const signUpHref = /href="([^"]+sign-up)"/.exec(signInPage.body)![1]!;
    const signUp = await browse(jar, new URL(signUpHref, app().url).toString());
    const action = formActionOf(signUp.body, signUp.url);
    const weak = await browse(jar, action, {
      csrf: csrfOf(signUp.body),
      email: 'new.person@example.com',
      password: 'short',
    });
    expect(weak.status).toBe(422);
    expect(weak.body).toContain('10 to 200 characters');
    const created = await browse(jar, action, {
      csrf: csrfOf(signUp.body),
      email: 'new.person@example.com',
      first_name: 'New',
      password: TEST_PASSWORD,
    });
    expect(created.status).toBe(303);
    const [row] = await app()
      .em()
      .execute<{ password_hash: string }[]>(
        `select password_hash from accounts where email = 'new.person@example.com'`,
      );
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row!.password_hash).not.toContain(TEST_PASSWORD);

    const again = new CookieJar();
    const fresh = await openSignIn(again);
    const freshSignUp = await browse(
      again,
      new URL(/href="([^"]+sign-up)"/.exec(fresh.body)![1]!, app().url).toString(),
    );
    const taken = await browse(again, formActionOf(freshSignUp.body, freshSignUp.url), {
      csrf: csrfOf(freshSignUp.body),
      email: 'New.Person@example.com',
      password: TEST_PASSWORD,
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toContain('already exists');
  });

  it('deny sends the browser back with access_denied', async () => {
    const account = await accountWithPassword(app().em(), 'denier@example.com');
    const { redirect } = await signInAndApprove(app().url, authorizeUrl(), account, { decision: 'deny' });
    expect(new URL(redirect!).searchParams.get('error')).toBe('access_denied');
  });
});

describe('sign-in throttling per IP address', () => {
  const app = useTestApp();

  it(`limits sign-ups to ${SIGN_UPS_PER_IP.points} an hour per address, so email_taken is no free oracle`, async () => {
    await accountWithPassword(app().em(), 'taken.probe@example.com');
    const registered = await fetch(`${app().url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const jar = new CookieJar();
    let step = await browse(
      jar,
      `${app().url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        scope: 'svc:mcp',
        code_challenge: CHALLENGE,
        code_challenge_method: 'S256',
      })}`,
    );
    while (step.location) step = await browse(jar, step.location);
    const signUp = await browse(
      jar,
      new URL(/href="([^"]+sign-up)"/.exec(step.body)![1]!, app().url).toString(),
    );
    const action = formActionOf(signUp.body, signUp.url);
    const probe = () =>
      browse(jar, action, {
        csrf: csrfOf(signUp.body),
        email: 'taken.probe@example.com',
        password: TEST_PASSWORD,
      });
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_UPS_PER_IP.points; i++) statuses.push((await probe()).status);
    expect(new Set(statuses)).toEqual(new Set([409]));
    const blocked = await probe();
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(policies(blocked.headers)).toEqual({ 'sign-up-ip': { q: SIGN_UPS_PER_IP.points, w: 3600 } });
    expect(budgets(blocked.headers)['sign-up-ip']).toEqual({
      r: 0,
      t: Number(blocked.headers.get('retry-after')),
    });
    expect(blocked.body).toContain('Too many sign-ups');
  }, 60_000);

  it(`answers 429 after ${SIGN_IN_FAILURES_PER_IP.points} failures from one address, whatever the emails`, async () => {
    const { services } = app();
    /** The error a failed sign-in throws (a success would be a test failure). */
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => {
          throw new Error('signed in');
        },
        (error: AppError) => error,
      );
    const attempt = (i: number, ip = '203.0.113.7') =>
      failure(
        signIn(app().em(), services.rateLimits, { email: `nobody${i}@example.com`, password: 'wrong', ip }),
      );
    const codes: string[] = [];
    for (let i = 0; i < SIGN_IN_FAILURES_PER_IP.points; i++) codes.push((await attempt(i)).code);
    expect(new Set(codes)).toEqual(new Set(['invalid_credentials']));
    const blocked = await attempt(999);
    expect(blocked).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect((await attempt(1000, '203.0.113.8')).code).toBe('invalid_credentials');
  }, 60_000);
});
