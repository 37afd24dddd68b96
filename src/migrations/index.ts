import { Migration20261122073154_initial } from './Migration20261122073154_initial.ts';
import { Migration20261122075052_uploads } from './Migration20261122075052_uploads.ts';
import { Migration20261122082224_releases } from './Migration20261122082224_releases.ts';
import { Migration20261122082448_rate_limits } from './Migration20261122082448_rate_limits.ts';
import { Migration20261122083647_events } from './Migration20261122083647_events.ts';
import { Migration20261122084457_delivery } from './Migration20261122084457_delivery.ts';
import { Migration20261122084948_ugc_policies } from './Migration20261122084948_ugc_policies.ts';
import { Migration20261122085835_webhooks } from './Migration20261122085835_webhooks.ts';
import { Migration20261125102819_analytics } from './Migration20261125102819_analytics.ts';
import { Migration20261125103117_oauth } from './Migration20261125103117_oauth.ts';
import { Migration20261125105155_web_sessions } from './Migration20261125105155_web_sessions.ts';
import { Migration20261125105806_payments } from './Migration20261125105806_payments.ts';
import { Migration20261125112913_registry } from './Migration20261125112913_registry.ts';
import { Migration20261125113810_partners_mail } from './Migration20261125113810_partners_mail.ts';
import { Migration20261125122054_sign_in_events } from './Migration20261125122054_sign_in_events.ts';
import { Migration20261125133720_registry_created_at_index } from './Migration20261125133720_registry_created_at_index.ts';
import { Migration20261125135657_webhook_claim_index } from './Migration20261125135657_webhook_claim_index.ts';
import { Migration20261126103852_registry_version } from './Migration20261126103852_registry_version.ts';
import { Migration20261126162038_store_connections } from './Migration20261126162038_store_connections.ts';
import { Migration20261126164135_sftp_packages } from './Migration20261126164135_sftp_packages.ts';
import { Migration20261127013249_webhook_rotation_ping } from './Migration20261127013249_webhook_rotation_ping.ts';
import { Migration20261127020807_sandbox_sample } from './Migration20261127020807_sandbox_sample.ts';
import { Migration20261127042300_analytics_countries } from './Migration20261127042300_analytics_countries.ts';
import { Migration20261127042336_release_upc_lookup } from './Migration20261127042336_release_upc_lookup.ts';
import { Migration20261127042507_session_dashboard_token } from './Migration20261127042507_session_dashboard_token.ts';

/** Committed migrations, in order. `npm run db:migration:create -- name` writes a new file; list it here. */
export const migrationsList = [
  { name: 'Migration20261122073154_initial', class: Migration20261122073154_initial },
  { name: 'Migration20261122075052_uploads', class: Migration20261122075052_uploads },
  { name: 'Migration20261122082224_releases', class: Migration20261122082224_releases },
  { name: 'Migration20261122082448_rate_limits', class: Migration20261122082448_rate_limits },
  { name: 'Migration20261122083647_events', class: Migration20261122083647_events },
  { name: 'Migration20261122084457_delivery', class: Migration20261122084457_delivery },
  { name: 'Migration20261122084948_ugc_policies', class: Migration20261122084948_ugc_policies },
  { name: 'Migration20261122085835_webhooks', class: Migration20261122085835_webhooks },
  { name: 'Migration20261125102819_analytics', class: Migration20261125102819_analytics },
  { name: 'Migration20261125103117_oauth', class: Migration20261125103117_oauth },
  { name: 'Migration20261125105155_web_sessions', class: Migration20261125105155_web_sessions },
  { name: 'Migration20261125105806_payments', class: Migration20261125105806_payments },
  { name: 'Migration20261125112913_registry', class: Migration20261125112913_registry },
  { name: 'Migration20261125113810_partners_mail', class: Migration20261125113810_partners_mail },
  { name: 'Migration20261125122054_sign_in_events', class: Migration20261125122054_sign_in_events },
  {
    name: 'Migration20261125133720_registry_created_at_index',
    class: Migration20261125133720_registry_created_at_index,
  },
  { name: 'Migration20261125135657_webhook_claim_index', class: Migration20261125135657_webhook_claim_index },
  { name: 'Migration20261126103852_registry_version', class: Migration20261126103852_registry_version },
  { name: 'Migration20261126162038_store_connections', class: Migration20261126162038_store_connections },
  { name: 'Migration20261126164135_sftp_packages', class: Migration20261126164135_sftp_packages },
  {
    name: 'Migration20261127013249_webhook_rotation_ping',
    class: Migration20261127013249_webhook_rotation_ping,
  },
  { name: 'Migration20261127020807_sandbox_sample', class: Migration20261127020807_sandbox_sample },
  {
    name: 'Migration20261127042300_analytics_countries',
    class: Migration20261127042300_analytics_countries,
  },
  {
    name: 'Migration20261127042336_release_upc_lookup',
    class: Migration20261127042336_release_upc_lookup,
  },
  {
    name: 'Migration20261127042507_session_dashboard_token',
    class: Migration20261127042507_session_dashboard_token,
  },
];
