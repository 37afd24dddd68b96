import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/** A mail kept by the embedded outbox (no SMTP_URL): shown at /dev/outbox and by `admin mail:list`. */
export const OutboxMail = defineEntity({
  name: 'OutboxMail',
  tableName: 'mail_outbox',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    from: p.string().length(320),
    to: p.string().length(320).index(),
    subject: p.string().length(300),
    text: p.text(),
    html: p.text(),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
  },
});

export type OutboxMail = InferEntity<typeof OutboxMail>;
