import { Migration } from '@mikro-orm/migrations';

export class Migration20261122083647_events extends Migration {
  override name = 'Migration20261122083647_events';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "outbox_events" ("id" bigserial primary key, "account_id" uuid not null, "release_id" uuid null, "type" varchar(100) not null, "payload" jsonb not null, "created_at" timestamptz not null, "cursor" bigint null, "published_at" timestamptz null);`,
    );
    this.addSql(`create index "outbox_events_account_id_index" on "outbox_events" ("account_id");`);
    this.addSql(`create index "outbox_events_release_id_index" on "outbox_events" ("release_id");`);
    this.addSql(
      `alter table "outbox_events" add constraint "outbox_events_cursor_unique" unique ("cursor");`,
    );
    this.addSql(
      `create index "outbox_events_account_id_cursor_index" on "outbox_events" ("account_id", "cursor");`,
    );
    // Cursors are assigned by the relay at publication (see src/platform/events/relay.ts).
    this.addSql(`create sequence "outbox_events_cursor_seq";`);
    // The relay claims unpublished rows through this partial index.
    this.addSql(
      `create index "outbox_events_unpublished_index" on "outbox_events" ("id") where "cursor" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "outbox_events" cascade;`);
    this.addSql(`drop sequence if exists "outbox_events_cursor_seq";`);
  }
}
