import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * What the authorization server keeps between requests (sessions, interactions, grants, clients,
 * authorization codes, refresh tokens...), one row per model. The key is the SHA-256 of the kind and
 * the model's id, and the payload never holds the id itself: for codes and tokens the id is the secret.
 */
export const OAuthModel = defineEntity({
  name: 'OAuthModel',
  tableName: 'oauth_models',
  properties: {
    key: p.string().length(64).primary(),
    kind: p.string().length(40),
    payload: p.json<Record<string, unknown>>(),
    grantId: p.string().length(100).nullable().index(),
    uid: p.string().length(100).nullable().index(),
    /** The account of a grant or session, so settings can list an account's connected apps. */
    accountId: p.uuid().nullable().index(),
    expiresAt: p.datetime().nullable().index(),
    consumedAt: p.datetime().nullable(),
  },
});

export type OAuthModel = InferEntity<typeof OAuthModel>;
