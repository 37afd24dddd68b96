import { Migration } from '@mikro-orm/migrations';

export class Migration20261122082224_releases extends Migration {
  override name = 'Migration20261122082224_releases';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "idempotency_keys" ("account_id" uuid not null, "key" varchar(255) not null, "request_hash" varchar(64) not null, "release_id" uuid not null, "created_at" timestamptz not null, primary key ("account_id", "key"));`,
    );
    this.addSql(`create index "idempotency_keys_created_at_index" on "idempotency_keys" ("created_at");`);

    this.addSql(
      `create table "releases" ("id" uuid not null, "account_id" uuid not null, "status" text not null default 'draft', "conversation_id" varchar(200) null, "revision" int not null default 0, "draft_status" varchar(50) not null default 'collecting', "payload" jsonb not null, "title" varchar(500) null, "primary_artist_name" varchar(500) null, "distribution_store_ids" jsonb null, "token_offset" boolean not null default false, "credits_spent" int not null default 0, "provenance" varchar(100) null, "aggregate_status" text null, "upc" varchar(14) null, "submitted_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "releases_account_id_created_at_index" on "releases" ("account_id", "created_at");`,
    );
    this.addSql(
      `alter table "releases" add constraint "releases_account_id_conversation_id_unique" unique ("account_id", "conversation_id");`,
    );

    this.addSql(
      `create table "release_artists" ("id" uuid not null, "release_id" uuid not null, "position" int not null, "name" varchar(500) not null, "is_primary" boolean not null, "dspone_artist_url" varchar(1000) null, "dsptwo_artist_url" varchar(1000) null, "dspthree_artist_url" varchar(1000) null, "dspfour_artist_url" varchar(1000) null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "release_artists" add constraint "release_artists_release_id_position_unique" unique ("release_id", "position");`,
    );

    this.addSql(
      `create table "release_snapshots" ("id" uuid not null, "release_id" uuid not null, "revision" int not null, "status" varchar(50) not null, "payload" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "release_snapshots" add constraint "release_snapshots_release_id_revision_unique" unique ("release_id", "revision");`,
    );

    this.addSql(
      `create table "release_tracks" ("id" uuid not null, "release_id" uuid not null, "position" int not null, "title" varchar(500) not null, "title_version" varchar(500) null, "isrc" varchar(12) null, "audio_file_url" varchar(600) not null, "explicit" boolean not null, "track_type" varchar(20) not null default 'original', "ai" boolean not null, "credits" int not null, "payload" jsonb not null, primary key ("id"));`,
    );
    this.addSql(`create index "release_tracks_isrc_index" on "release_tracks" ("isrc");`);
    this.addSql(
      `alter table "release_tracks" add constraint "release_tracks_release_id_position_unique" unique ("release_id", "position");`,
    );

    this.addSql(
      `create table "audio_analyses" ("id" uuid not null, "file_id" uuid not null, "kind" text not null, "result" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "audio_analyses" add constraint "audio_analyses_file_id_kind_unique" unique ("file_id", "kind");`,
    );

    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "releases" add constraint "releases_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "releases" add constraint "releases_status_check" check ("status" in ('draft', 'submitted'));`,
    );
    this.addSql(
      `alter table "releases" add constraint "releases_aggregate_status_check" check ("aggregate_status" in ('queued', 'pending', 'delivered', 'distributed', 'taken_down'));`,
    );

    this.addSql(
      `alter table "release_artists" add constraint "release_artists_release_id_foreign" foreign key ("release_id") references "releases" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "release_snapshots" add constraint "release_snapshots_release_id_foreign" foreign key ("release_id") references "releases" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "release_tracks" add constraint "release_tracks_release_id_foreign" foreign key ("release_id") references "releases" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "audio_analyses" add constraint "audio_analyses_file_id_foreign" foreign key ("file_id") references "stored_files" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "audio_analyses" add constraint "audio_analyses_kind_check" check ("kind" in ('ai_detection', 'registry_match'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "release_artists" drop constraint "release_artists_release_id_foreign";`);
    this.addSql(`alter table "release_snapshots" drop constraint "release_snapshots_release_id_foreign";`);
    this.addSql(`alter table "release_tracks" drop constraint "release_tracks_release_id_foreign";`);

    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
    this.addSql(`drop table if exists "releases" cascade;`);
    this.addSql(`drop table if exists "release_artists" cascade;`);
    this.addSql(`drop table if exists "release_snapshots" cascade;`);
    this.addSql(`drop table if exists "release_tracks" cascade;`);
    this.addSql(`drop table if exists "audio_analyses" cascade;`);
  }
}
