/**
 * The embedded outbox for the development page (/dev/outbox): not a GraphQL operation, a local
 * development aid that exists only outside production and without SMTP_URL.
 */
import { listOutbox } from '../../src/domains/mail/index.ts';
import type { AppServices } from '../services.ts';

export interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  createdAt: Date;
}

export async function readOutbox(app: AppServices, limit = 50): Promise<OutboxEntry[]> {
  const mails = await listOutbox(app.orm.em.fork(), limit);
  return mails.map((mail) => ({
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    createdAt: mail.createdAt,
  }));
}

export const outboxPageEnabled = (app: AppServices) =>
  app.config.NODE_ENV !== 'production' && app.mailer.kind === 'outbox';
