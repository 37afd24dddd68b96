export { listOutbox, type Mail, type Mailer, mailerFor } from './mailer.ts';
