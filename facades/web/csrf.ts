import { createHmac } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { constantTimeEqual } from '../../src/platform/crypto.ts';
import type { SafeHtml } from './pages/html.ts';
import { sendPage } from './pages/layout.ts';

/**
 * A form's CSRF token: an HMAC, under a server key, of what the form is bound to (a web session,
 * an OAuth interaction). The scope keeps a token of one kind of form from passing for another.
 */
export function csrfToken(key: string, scope: 'session' | 'interaction', binding: string): string {
  return createHmac('sha256', key).update(`${scope}:${binding}`).digest('base64url');
}

/** Whether the form's `csrf` field is `expected`, compared in constant time (a missing field never is). */
export function sentCsrfMatches(req: Request, expected: string): boolean {
  const sent = typeof req.body?.csrf === 'string' ? req.body.csrf : '';
  return constantTimeEqual(sent, expected);
}

/** Refuses, with a 403 page saying `refusal`, a post whose `csrf` field is not the expected token. */
export function requireCsrf(expected: (req: Request, res: Response) => string, refusal: SafeHtml) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!sentCsrfMatches(req, expected(req, res))) {
      sendPage(res, 403, 'Request refused', refusal);
      return;
    }
    next();
  };
}
