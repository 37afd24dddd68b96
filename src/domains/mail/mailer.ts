import type { EntityManager } from '@mikro-orm/postgresql';
import nodemailer from 'nodemailer';
import { OutboxMail } from './outbox-mail.entity.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The mail port: SMTP when SMTP_URL is set, else the embedded outbox in PostgreSQL. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

/** nodemailer over SMTP (`smtp://user:pass@host:port`, or `smtps://` for TLS from the start). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    send: async (mail) => {
      await transport.sendMail({ from, ...mail });
    },
    close: async () => transport.close(),
  };
}

/** No SMTP server: mails are kept in mail_outbox, shown at /dev/outbox and by `admin mail:list`. */
export function outboxMailer(em: () => EntityManager, from: string): Mailer {
  return {
    kind: 'outbox',
    send: async (mail) => {
      const fork = em();
      fork.create(OutboxMail, { from, ...mail, createdAt: new Date() });
      await fork.flush();
    },
    close: async () => {},
  };
}

export function mailerFor(
  config: { SMTP_URL?: string | undefined; MAIL_FROM: string },
  em: () => EntityManager,
): Mailer {
  return config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : outboxMailer(em, config.MAIL_FROM);
}

/** The newest outbox mails, for the development page and the operator command. */
export async function listOutbox(em: EntityManager, limit = 50): Promise<OutboxMail[]> {
  return em.find(OutboxMail, {}, { orderBy: { createdAt: 'desc' }, limit });
}
