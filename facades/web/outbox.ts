import { isIP } from 'node:net';
import { type Request, type Response, Router } from 'express';
import { outboxPageEnabled, readOutbox } from '../../schema/partners/outbox.ts';
import type { AppServices } from '../../schema/services.ts';
import { allowedHost } from '../rpc/origin-guard.ts';
import { html } from './pages/html.ts';
import { sendPage } from './pages/layout.ts';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(ip: string | undefined): boolean {
  const address = (ip ?? '').replace(/^::ffff:/i, '');
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1';
}

/**
 * GET /dev/outbox: the embedded outbox's newest 50 mails (plain-text bodies), for local development.
 * Absent (404) in production, when mail goes out over SMTP, and for any caller not on this machine:
 * the page shows every mailed code, so a server started without NODE_ENV=production must not hand
 * them to the network (behind a trusted proxy, `req.ip` is the forwarded client). A browser on this
 * machine can be made to ask too, by a page whose name is rebound to 127.0.0.1 (DNS rebinding): its
 * requests carry that name as Host, so the Host must be PUBLIC_URL's, as /api/mcp's guard requires.
 */
export function createOutboxRoutes(app: AppServices): Router {
  const router = Router();
  const hostAllowed = allowedHost(app.config);
  router.get('/dev/outbox', async (req: Request, res: Response, next) => {
    if (!outboxPageEnabled(app) || !isLoopbackAddress(req.ip)) return next();
    if (!req.host || !hostAllowed(req.host)) return next();
    const mails = await readOutbox(app);
    const rows = mails.map(
      (mail) => html`<article>
<h2>${mail.subject}</h2>
<p>To ${mail.to}, ${mail.createdAt.toISOString()}</p>
<pre>${mail.text}</pre>
</article>`,
    );
    sendPage(
      res,
      200,
      'Outbox (development)',
      html`<p>Mails kept because <code>SMTP_URL</code> is not set; the newest first.</p>${
        rows.length > 0 ? rows : html`<p>No mail yet.</p>`
      }`,
    );
  });
  return router;
}
