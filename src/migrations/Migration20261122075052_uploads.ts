import { Migration } from '@mikro-orm/migrations';

export class Migration20261122075052_uploads extends Migration {
  override name = 'Migration20261122075052_uploads';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "stored_files" ("id" uuid not null, "account_id" uuid not null, "store" text not null, "name" varchar(200) not null, "storage_key" varchar(600) not null, "size" bigint not null, "content_type" varchar(100) not null, "sha256" varchar(64) not null, "source_sha256" varchar(64) not null, "source_size" bigint not null, "source_content_type" varchar(100) null, "source_name" varchar(500) null, "origin" text not null, "origin_url" text null, "media" jsonb not null, "warnings" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "stored_files" add constraint "stored_files_storage_key_unique" unique ("storage_key");`,
    );
    this.addSql(
      `alter table "stored_files" add constraint "stored_files_account_id_store_name_unique" unique ("account_id", "store", "name");`,
    );

    this.addSql(
      `create table "upload_sessions" ("id" uuid not null, "account_id" uuid not null, "type" text not null, "file_name" varchar(500) not null, "file_size" bigint not null, "file_type" varchar(200) null, "upload_token_hash" varchar(64) not null, "status" text not null default 'open', "file_id" uuid null, "expires_at" timestamptz not null, "completed_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "upload_sessions_account_id_index" on "upload_sessions" ("account_id");`);
    this.addSql(
      `alter table "upload_sessions" add constraint "upload_sessions_upload_token_hash_unique" unique ("upload_token_hash");`,
    );
    this.addSql(`create index "upload_sessions_expires_at_index" on "upload_sessions" ("expires_at");`);

    this.addSql(
      `create table "upload_chunks" ("session_id" uuid not null, "index" int not null, "size" int not null, "received_at" timestamptz not null, primary key ("session_id", "index"));`,
    );

    this.addSql(
      `alter table "stored_files" add constraint "stored_files_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "stored_files" add constraint "stored_files_store_check" check ("store" in ('cover-art', 'audio'));`,
    );
    this.addSql(
      `alter table "stored_files" add constraint "stored_files_origin_check" check ("origin" in ('base64', 'url', 'chunked', 'multipart', 'generated'));`,
    );

    this.addSql(
      `alter table "upload_sessions" add constraint "upload_sessions_account_id_foreign" foreign key ("account_id") references "accounts" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "upload_sessions" add constraint "upload_sessions_file_id_foreign" foreign key ("file_id") references "stored_files" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "upload_sessions" add constraint "upload_sessions_type_check" check ("type" in ('coverArt', 'audio'));`,
    );
    this.addSql(
      `alter table "upload_sessions" add constraint "upload_sessions_status_check" check ("status" in ('open', 'completed', 'expired'));`,
    );

    this.addSql(
      `alter table "upload_chunks" add constraint "upload_chunks_session_id_foreign" foreign key ("session_id") references "upload_sessions" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "upload_sessions" drop constraint "upload_sessions_file_id_foreign";`);
    this.addSql(`alter table "upload_chunks" drop constraint "upload_chunks_session_id_foreign";`);

    this.addSql(`drop table if exists "stored_files" cascade;`);
    this.addSql(`drop table if exists "upload_sessions" cascade;`);
    this.addSql(`drop table if exists "upload_chunks" cascade;`);
  }
}
