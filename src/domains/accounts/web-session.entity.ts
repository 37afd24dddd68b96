import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { columns } from '../../platform/db/columns.ts';
import { AccessToken } from './access-token.entity.ts';
import { owningAccount } from './owning-account.ts';

/** A person signed in to the web pages, the developer settings and the dashboard (cookie `tb_session`). */
export const WebSession = defineEntity({
  name: 'WebSession',
  tableName: 'web_sessions',
  properties: {
    id: columns.id(),
    account: () => owningAccount().index(),
    /** SHA-256 of the cookie's secret; the secret itself is never stored. */
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime().index(),
    /**
     * The dashboard's access token for this session (kind `dashboard`), minted on its first dashboard
     * page; the token is stored hashed in access_tokens like any other, and sealed here (the secret box,
     * WEBHOOK_SECRET_KEY) so the next page can hand the same one to its script.
     */
    dashboardToken: () => p.manyToOne(AccessToken).nullable().deleteRule('set null'),
    dashboardTokenSealed: p.text().nullable(),
    createdAt: columns.createdAt(),
  },
});

export type WebSession = InferEntity<typeof WebSession>;
