import { Migration20261122073154_initial } from './Migration20261122073154_initial.ts';
import { Migration20261122075052_uploads } from './Migration20261122075052_uploads.ts';

/** Committed migrations, in order. `npm run db:migration:create -- name` writes a new file; list it here. */
export const migrationsList = [
  { name: 'Migration20261122073154_initial', class: Migration20261122073154_initial },
  { name: 'Migration20261122075052_uploads', class: Migration20261122075052_uploads },
];
