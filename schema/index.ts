import type { GraphQLSchema } from 'graphql';
import { builder } from './builder.ts';
import './scalars.ts';
import './platform/service-status.ts';
import './accounts/profile.ts';
import './accounts/access-tokens.ts';
import './oauth/connected-apps.ts';
import './credits/credits.ts';
import './credits/pricing.ts';
import './payments/checkout.ts';
import './payments/payment-wire.ts';
import './payments/auto-reload.ts';
import './catalog/stores.ts';
import './catalog/language-script-codes.ts';
import './catalog/metadata-rules.ts';
import './uploads/file.ts';
import './uploads/upload-mutations.ts';
import './uploads/upload-sessions.ts';
import './uploads/thumbnail-wire.ts';
import './cover-art/cover-art.ts';
import './releases/release.ts';
import './releases/cover-thumbnail.ts';
import './releases/release-schema.ts';
import './releases/drafts.ts';
import './releases/quote.ts';
import './releases/submit.ts';
import './events/release-events.ts';
import './events/sandbox-trigger.ts';
import './delivery/status.ts';
import './delivery/store-counts.ts';
import './webhooks/webhooks.ts';
import './webhooks/ping.ts';
import './webhooks/rotation.ts';
import './delivery/operations.ts';
import './analytics/performance.ts';
import './fraud/fraud-score.ts';
import './audio/ai-detection.ts';
import './audio/acr-check.ts';
import './partners/partners.ts';
import './partners/agent-auth.ts';
import './rate-limits/rate-limits.ts';

let publicSchema: GraphQLSchema | undefined;
let facadeSchema: GraphQLSchema | undefined;

/** The public schema (served on /graphql, printed), built once from every module registered above. */
export function getSchema(): GraphQLSchema {
  publicSchema ??= builder.toSchema({ sortSchema: true, subGraph: 'public' });
  return publicSchema;
}

/** The public schema plus the wire fields the REST and agent facades run (see SubGraph in builder.ts). */
export function getFacadeSchema(): GraphQLSchema {
  facadeSchema ??= builder.toSchema({ sortSchema: true, subGraph: 'facade' });
  return facadeSchema;
}
