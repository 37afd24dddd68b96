import { Migration } from '@mikro-orm/migrations';

export class Migration20261127013249_webhook_rotation_ping extends Migration {
  override name = 'Migration20261127013249_webhook_rotation_ping';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "webhook_endpoints" add "previous_secret_sealed" text null, add "previous_secret_expires_at" timestamptz null;`,
    );
    // Test pings are no event of the stream: their deliveries take event ids -1, -2, … from here, which
    // no outbox event has, so UNIQUE (endpoint, event) holds one row per ping.
    this.addSql(`create sequence "webhook_ping_event_seq" increment by -1 maxvalue -1 start with -1;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop sequence if exists "webhook_ping_event_seq";`);
    this.addSql(
      `alter table "webhook_endpoints" drop column "previous_secret_sealed", drop column "previous_secret_expires_at";`,
    );
  }
}
