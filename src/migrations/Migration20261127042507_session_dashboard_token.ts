import { Migration } from '@mikro-orm/migrations';

export class Migration20261127042507_session_dashboard_token extends Migration {
  override name = 'Migration20261127042507_session_dashboard_token';

  override up(): void | Promise<void> {
    this.addSql(`alter table "access_tokens" drop constraint "access_tokens_kind_check";`);
    this.addSql(
      `alter table "access_tokens" add constraint "access_tokens_kind_check" check ("kind" in ('pat', 'verified_email', 'oauth', 'agent_login', 'dashboard'));`,
    );

    this.addSql(
      `alter table "web_sessions" add "dashboard_token_id" uuid null, add "dashboard_token_sealed" text null;`,
    );
    this.addSql(
      `alter table "web_sessions" add constraint "web_sessions_dashboard_token_id_foreign" foreign key ("dashboard_token_id") references "access_tokens" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "web_sessions" drop constraint "web_sessions_dashboard_token_id_foreign";`);
    this.addSql(`delete from "access_tokens" where "kind" = 'dashboard';`);

    this.addSql(`alter table "access_tokens" drop constraint "access_tokens_kind_check";`);
    this.addSql(
      `alter table "access_tokens" add constraint "access_tokens_kind_check" check ("kind" in ('pat', 'verified_email', 'oauth', 'agent_login'));`,
    );

    this.addSql(
      `alter table "web_sessions" drop column "dashboard_token_id", drop column "dashboard_token_sealed";`,
    );
  }
}
