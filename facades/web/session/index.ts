import { randomBytes } from 'node:crypto';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { Principal } from '../../../schema/context.ts';
import { loadOAuthKeys, passwordSignIn } from '../../../schema/oauth/authorization.ts';
import type { AppServices } from '../../../schema/services.ts';
import {
  signInToWebPages,
  signOutOfWebPages,
  WEB_SESSION_TTL_MS,
  webSessionOf,
} from '../../../schema/web/sessions.ts';
import { cookieHeader, cookiesOf } from '../cookies.ts';
import { csrfToken, requireCsrf, sentCsrfMatches } from '../csrf.ts';
import { formBody, refusedAttempt } from '../forms.ts';
import { html } from '../pages/html.ts';
import { sendPage } from '../pages/layout.ts';
import { returnPath } from './return-path.ts';
import { signInPage, signInTitle } from './sign-in-page.ts';

const SESSION_COOKIE = 'tb_session';
/** Before sign-in there is no session to bind the form to: a random cookie and the same hidden value. */
const SIGN_IN_CSRF_COOKIE = 'tb_signin_csrf';
export const SIGN_IN_PATH = '/settings/sign-in';
/** Where a sign-in goes when it was asked for no page in particular. */
const DEFAULT_RETURN = '/settings/tokens';

/** What a signed-in request carries in `res.locals` once requireSession let it through. */
export interface SignedIn {
  principal: Principal;
  sessionId: string;
  sessionSecret: string;
  /** The CSRF token every form of a signed-in page carries. */
  csrf: string;
}

export const signedIn = (res: Response) => res.locals.signedIn as SignedIn;

/** The sign-in page's URL that comes back to `next` (when it is a page a sign-in may return to). */
export function signInUrl(next: string | null | undefined): string {
  const back = returnPath(next);
  return back ? `${SIGN_IN_PATH}?${new URLSearchParams({ next: back })}` : SIGN_IN_PATH;
}

/**
 * The one session of the web pages (developer settings and dashboard): signed in by password (the same
 * throttled sign-in as OAuth) into cookie `tb_session` (HttpOnly, SameSite=Lax, Secure with https, Path=/
 * so both page trees see it, 12 hours). No API route reads the cookie: /graphql, /v1 and /api/mcp take
 * bearer tokens only, so the cookie gives a cross-site request nothing to ride on (docs/dashboard.md).
 */
export function createWebSessions(app: AppServices) {
  const key = loadOAuthKeys(app.config.DATA_DIR, app.config.OAUTH_KEYS).cookieKeys[0] ?? '';
  const secure = app.config.PUBLIC_URL.startsWith('https:');
  const cookie = (
    name: string,
    value: string,
    maxAgeMs: number,
    options: { sameSite?: 'Lax' | 'Strict'; path?: string } = {},
  ) =>
    cookieHeader(name, value, {
      path: options.path ?? '/',
      maxAgeMs,
      sameSite: options.sameSite ?? 'Lax',
      secure,
    });
  const signInCsrfCookie = (value: string, maxAgeMs: number) =>
    cookie(SIGN_IN_CSRF_COOKIE, value, maxAgeMs, { sameSite: 'Strict', path: '/settings' });
  // A browser may still hold a session cookie of the earlier Path=/settings (sent first, and then read
  // over by the newer one): sign-out clears it too, or the settings would stay signed in under it.
  const clearEarlierCookie = (res: Response) =>
    res.append('Set-Cookie', cookie(SESSION_COOKIE, '', 0, { path: '/settings' }));

  const showSignIn = (res: Response, next: string | null, status = 200, error?: string, email?: string) => {
    const token = randomBytes(24).toString('base64url');
    res.append('Set-Cookie', signInCsrfCookie(token, 3_600_000));
    sendPage(res, status, signInTitle(next), signInPage(token, next, error, email));
  };

  /** Lets a signed-in request through (res.locals.signedIn); a GET without a session goes to sign-in. */
  const requireSession = async (req: Request, res: Response, next: NextFunction) => {
    const secret = cookiesOf(req).get(SESSION_COOKIE);
    const session = secret ? await webSessionOf(app, secret) : null;
    if (!session || !secret) {
      if (req.method === 'GET' || req.method === 'HEAD') return res.redirect(303, signInUrl(req.originalUrl));
      return showSignIn(res, null, 401, 'Your session has ended: sign in again.');
    }
    const view: SignedIn = {
      principal: session.principal,
      sessionId: session.sessionId,
      sessionSecret: secret,
      csrf: csrfToken(key, 'session', secret),
    };
    res.locals.signedIn = view;
    next();
  };

  const checkCsrf = requireCsrf(
    (_req, res) => signedIn(res).csrf,
    html`<p class="alert" role="alert">The form is out of date: go back, reload and try again.</p>`,
  );

  /** GET and POST of the sign-in page; a sign-in returns to its `next` page. */
  const router = Router();
  router.get(SIGN_IN_PATH, (req, res) => showSignIn(res, returnPath(req.query.next)));
  router.post(SIGN_IN_PATH, formBody(), async (req, res) => {
    const expected = cookiesOf(req).get(SIGN_IN_CSRF_COOKIE) ?? '';
    const email = String(req.body.email ?? '');
    const next = returnPath(req.body.next);
    if (!expected || !sentCsrfMatches(req, expected))
      return showSignIn(res, next, 403, 'The form is out of date: try again.', email);
    try {
      const accountId = await passwordSignIn(app, {
        email,
        password: String(req.body.password ?? ''),
        ip: req.ip ?? 'unknown',
      });
      const session = await signInToWebPages(app, accountId);
      res.append('Set-Cookie', cookie(SESSION_COOKIE, session.secret, WEB_SESSION_TTL_MS));
      res.append('Set-Cookie', signInCsrfCookie('', 0));
      res.redirect(303, next ?? DEFAULT_RETURN);
    } catch (error) {
      const refused = refusedAttempt(res, error);
      showSignIn(res, next, refused.status, refused.message, email);
    }
  });

  /**
   * Signs out (after requireSession and checkCsrf): the session ends with its dashboard token, and the
   * sign-in page shown next returns to `returnTo`.
   */
  const signOut = (returnTo: string | null) => async (_req: Request, res: Response) => {
    await signOutOfWebPages(app, signedIn(res).sessionSecret);
    res.append('Set-Cookie', cookie(SESSION_COOKIE, '', 0));
    clearEarlierCookie(res);
    res.redirect(303, signInUrl(returnTo));
  };

  return { router, requireSession, checkCsrf, signOut };
}

export type WebSessions = ReturnType<typeof createWebSessions>;
