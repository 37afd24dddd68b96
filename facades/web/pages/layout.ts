import type { Response } from 'express';
import { pageHeaders } from '../../security-headers.ts';
import { html, type SafeHtml } from './html.ts';

export const STYLESHEET_PATH = '/assets/site.css';

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
  res.set(pageHeaders());
  res.setHeader('Cache-Control', 'no-store');
  res.send(page(title, body));
}

/** An error or notice line a screen reader announces. */
export const alert = (message: string | null | undefined) =>
  message ? html`<p class="alert" role="alert">${message}</p>` : html``;
