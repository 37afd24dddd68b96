import type { Response } from 'express';
import { html, type SafeHtml } from './html.ts';

export const STYLESHEET_PATH = '/assets/site.css';

/**
 * Pages load nothing from elsewhere: one stylesheet of ours, no scripts, no frames. Forms may post only
 * here (a form's redirect to a client's redirect URI follows a 303 after our own handler).
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

export function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Tributary</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<header class="site"><span class="brand">Tributary</span></header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value;
}

export function sendPage(res: Response, status: number, title: string, body: SafeHtml): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.send(page(title, body));
}

/** An error or notice line a screen reader announces. */
export const alert = (message: string | null | undefined) =>
  message ? html`<p class="alert" role="alert">${message}</p>` : html``;
