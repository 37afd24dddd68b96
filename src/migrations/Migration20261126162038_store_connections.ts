import { Migration } from '@mikro-orm/migrations';

export class Migration20261126162038_store_connections extends Migration {
  override name = 'Migration20261126162038_store_connections';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "store_connections" ("store_id" int not null, "host" varchar(253) not null, "port" int not null, "username" varchar(100) not null, "root_path" text not null, "auth_method" text not null, "secret_sealed" text not null, "host_key_fingerprint" varchar(50) not null, "recipient_dpid" varchar(18) not null, "recipient_name" varchar(200) not null, "choreography" text not null default 'release', "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("store_id"));`,
    );

    this.addSql(
      `alter table "store_connections" add constraint "store_connections_auth_method_check" check ("auth_method" in ('private_key', 'password'));`,
    );
    this.addSql(
      `alter table "store_connections" add constraint "store_connections_choreography_check" check ("choreography" in ('release', 'batch'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "store_connections" cascade;`);
  }
}
