import { type Request, type Response, Router } from 'express';
import { outboxPageEnabled, readOutbox } from '../../schema/partners/outbox.ts';
import type { AppServices } from '../../schema/services.ts';
import { html } from './pages/html.ts';
import { sendPage } from './pages/layout.ts';

/**
 * GET /dev/outbox: the embedded outbox's newest 50 mails (plain-text bodies), for local development.
 * Absent (404) in production and when mail goes out over SMTP.
 */
export function createOutboxRoutes(app: AppServices): Router {
  const router = Router();
  router.get('/dev/outbox', async (_req: Request, res: Response, next) => {
    if (!outboxPageEnabled(app)) return next();
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
