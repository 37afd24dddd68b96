import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';

/** A mail kept by the embedded outbox (no SMTP_URL): shown at /dev/outbox and by `admin mail:list`. */
export const OutboxMail = defineEntity({
  name: 'OutboxMail',
  tableName: 'mail_outbox',
  properties: {
    id: columns.id(),
    from: p.string().length(320),
    to: p.string().length(320).index(),
    subject: p.string().length(300),
    text: p.text(),
    html: p.text(),
    createdAt: columns.createdAt().index(),
  },
});

export type OutboxMail = InferEntity<typeof OutboxMail>;
