export { listOutbox, type Mail, type Mailer, mailerFor } from './mailer.ts';
export { OutboxMail } from './outbox-mail.entity.ts';
