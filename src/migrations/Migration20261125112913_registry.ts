import { Migration } from '@mikro-orm/migrations';

export class Migration20261125112913_registry extends Migration {
  override name = 'Migration20261125112913_registry';

  override up(): void | Promise<void> {
    // intarray's GIN operator class indexes the fingerprint lookup keys (contrib, shipped by PostgreSQL).
    this.addSql(`create extension if not exists intarray;`);
    this.addSql(
      `create table "registry_recordings" ("id" uuid not null, "source" text not null, "account_id" uuid null, "release_id" uuid null, "track_position" int null, "external_key" varchar(600) null, "title" varchar(500) not null, "artist" varchar(500) null, "isrc" varchar(12) null, "album_name" varchar(500) null, "label" varchar(500) null, "dsp_links" jsonb not null, "duration_seconds" double precision not null, "fingerprint" jsonb not null, "lookup_keys" int4[] not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "registry_recordings_lookup_keys_gin" on "registry_recordings" using gin ("lookup_keys" gin__int_ops) with (fastupdate = off);`,
    );
    this.addSql(
      `alter table "registry_recordings" add constraint "registry_recordings_release_id_track_position_unique" unique ("release_id", "track_position");`,
    );
    this.addSql(
      `alter table "registry_recordings" add constraint "registry_recordings_source_external_key_unique" unique ("source", "external_key");`,
    );

    this.addSql(
      `alter table "registry_recordings" add constraint "registry_recordings_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "registry_recordings" add constraint "registry_recordings_source_check" check ("source" in ('release', 'catalogue'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "registry_recordings" cascade;`);
  }
}
