import { z } from 'zod';
import {
  consumeFraudAllowance,
  FLAG_CATEGORIES,
  FLAG_SEVERITIES,
  type FraudFlag,
  type FraudScore,
  SCORE_SEVERITIES,
  scoreEmail,
} from '../../src/domains/fraud/index.ts';
import { builder, FRAUD } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';

const FraudSeverityEnum = enumFromList('FraudSeverity', SCORE_SEVERITIES, {
  description: 'How risky an account looks overall, from its score.',
});
const FlagSeverityEnum = enumFromList('FraudFlagSeverity', FLAG_SEVERITIES, {
  description: 'How serious one signal is.',
});
const FlagCategoryEnum = enumFromList('FraudFlagCategory', FLAG_CATEGORIES, {
  description: 'What a fraud signal is about.',
});

const FraudFlagRef = builder.objectRef<FraudFlag>('FraudFlag').implement({
  description: 'One fraud signal: every rule is listed, triggered or not.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'Stable identifier of the rule.' }),
    label: t.exposeString('label', { description: 'What the rule looks for.' }),
    category: t.expose('category', { type: FlagCategoryEnum, description: 'What the signal is about.' }),
    severity: t.expose('severity', { type: FlagSeverityEnum, description: 'How serious the signal is.' }),
    triggered: t.exposeBoolean('triggered', { description: 'Whether the account shows this signal.' }),
    points: t.exposeInt('points', { description: 'Points added to the score; 0 when not triggered.' }),
  }),
});

const FraudScoreRef = builder.objectRef<FraudScore>('FraudScore').implement({
  description:
    'The fraud-risk score of an account, from the facts the platform records about it. It never contains ' +
    "IP addresses, other accounts' data or how a fact was measured.",
  fields: (t) => ({
    email: t.exposeString('email', { description: 'The account email, as registered.' }),
    score: t.exposeInt('score', { description: 'Points of the triggered flags, 0..maxScore.' }),
    maxScore: t.exposeInt('maxScore', { description: 'The highest possible score.' }),
    severity: t.expose('severity', { type: FraudSeverityEnum, description: 'The score as a level.' }),
    computedAt: t.expose('computedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the score was computed (scores are computed on request).',
    }),
    flags: t.field({
      type: [FraudFlagRef],
      resolve: (s) => s.flags,
      description: 'Every signal, in a fixed order.',
    }),
  }),
});

builder.queryField('fraudScore', (t) =>
  t.field({
    type: FraudScoreRef,
    authScopes: FRAUD,
    description:
      'The fraud-risk score and signal flags of the account with this email (needs a token with svc:fraud). ' +
      '404 when no account has the email; 429 over the per-minute rate or the daily free-tier quota.',
    args: {
      email: t.arg.string({
        required: true,
        description: 'The account email (any case).',
        validate: { schema: z.email({ message: 'must be an email address' }).max(320) },
      }),
    },
    resolve: async (_root, args, context) => {
      const now = new Date();
      const { config, rateLimits } = context.app;
      await consumeFraudAllowance(
        rateLimits,
        requirePrincipal(context).accountId,
        { perMinute: config.FRAUD_RATE_LIMIT_PER_MINUTE, perDay: config.FRAUD_DAILY_QUOTA },
        now,
      );
      return scoreEmail(context.em, args.email, now);
    },
  }),
);
