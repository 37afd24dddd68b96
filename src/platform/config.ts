import { z } from 'zod';
import { parseTrustProxy } from './trust-proxy.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (protocols: string[]) =>
  z.url().refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol.replace(':', '')), {
    message: `must use ${protocols.join(' or ')}`,
  });

/** A DDEX party id (DPID): `PADPIDA` and 11 letters or digits. */
export const DPID_PATTERN = /^PADPIDA[A-Za-z0-9]{11}$/;

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: url(['http', 'https']).optional(),
    TRUST_PROXY: z
      .string()
      .default('loopback')
      .transform((value, ctx) => {
        const parsed = parseTrustProxy(value);
        if (typeof parsed === 'string') {
          ctx.addIssue({ code: 'custom', message: parsed });
          return z.NEVER;
        }
        return parsed;
      }),
    DATABASE_URL: url(['postgres', 'postgresql']).optional(),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    DATABASE_PREPARED_STATEMENTS: bool.default(true),
    DATA_DIR: z.string().min(1).default('./data'),
    EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    REDIS_URL: url(['redis', 'rediss']).optional(),
    REDIS_NAMESPACE: z
      .string()
      .regex(/^[\w:.\-/]{1,100}$/, 'letters, digits and : . - / _ only, at most 100')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    GRAPHIQL: bool.optional(),
    GRAPHQL_BATCH_LOADS: bool.default(true),
    GRAPHQL_COMPILED: bool.default(true),
    GRAPHQL_DOCUMENTS_FILE: z.string().min(1).optional(),
    GRAPHQL_TRUSTED_DOCUMENTS_ONLY: bool.default(false),
    OUTBOUND_ALLOW_PRIVATE: bool.default(false),
    OUTBOUND_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
    STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
    STORAGE_SIGNING_SECRET: z.string().min(32).optional(),
    S3_BUCKET: z.string().min(3).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ENDPOINT: url(['http', 'https']).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    DISTRIBUTOR: z.enum(['sandbox']).default('sandbox'),
    DDEX_SENDER_DPID: z
      .string()
      .regex(DPID_PATTERN, 'must be a DDEX party id: PADPIDA and 11 letters or digits')
      .optional(),
    DDEX_SENDER_NAME: z.string().trim().min(1).max(200).optional(),
    SANDBOX_STEP_SECONDS: z.coerce.number().min(0).max(86_400).default(300),
    SFTP_RETRY_SECONDS: z.coerce.number().min(0).max(3600).default(60),
    SFTP_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(6),
    SFTP_ACK_POLL_SECONDS: z.coerce.number().min(0).max(86_400).default(300),
    SFTP_ACK_WINDOW_SECONDS: z.coerce.number().min(0).max(2_592_000).default(172_800),
    AI_DETECTION_URL: url(['http', 'https']).optional(),
    AI_DETECTION_API_KEY: z.string().min(1).max(500).optional(),
    AI_DETECTION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
    WEBHOOK_SECRET_KEY: z
      .string()
      .regex(/^[A-Za-z0-9+/_-]{43}=?$/, 'must be 32 bytes, base64')
      .optional(),
    WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(10),
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
    COVER_ART_PROVIDER: z.enum(['procedural', 'gemini', 'none']).default('procedural'),
    GEMINI_API_KEY: z.string().min(1).optional(),
    GEMINI_IMAGE_MODEL: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a model id such as gemini-3-pro-image-preview')
      .default('gemini-3-pro-image-preview'),
    GEMINI_BASE_URL: url(['http', 'https']).optional(),
    GEMINI_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(90),
    FRAUD_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
    FRAUD_DAILY_QUOTA: z.coerce.number().int().min(1).max(10_000_000).default(100),
    OAUTH_KEYS: z.string().min(2).optional(),
    OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
    OAUTH_REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    MCP_ALLOWED_ORIGINS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .pipe(z.array(url(['http', 'https']))),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_[A-Za-z0-9_]+$/, 'must be a Stripe secret key (sk_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=_-]+$/, 'must be a Stripe signing secret (whsec_…)')
      .optional(),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_[A-Za-z0-9_]+$/, 'must be a Stripe publishable key (pk_…)')
      .optional(),
    STRIPE_API_BASE: url(['http', 'https']).optional(),
    SMTP_URL: url(['smtp', 'smtps']).optional(),
    MAIL_FROM: z.string().min(3).max(320).default('Tributary <no-reply@tributary.localhost>'),
    METRICS_TOKEN: z
      .string()
      .regex(/^[\x21-\x7e]{32,200}$/, 'must be 32 to 200 printable characters without spaces')
      .optional(),
    UPLOAD_SESSION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 86_400)
      .default(86_400),
  })
  .refine((c) => c.STORAGE_DRIVER !== 's3' || c.S3_BUCKET, {
    message: 'S3_BUCKET is required when STORAGE_DRIVER=s3',
    path: ['S3_BUCKET'],
  })
  .refine((c) => c.COVER_ART_PROVIDER !== 'gemini' || c.GEMINI_API_KEY, {
    message: 'GEMINI_API_KEY is required when COVER_ART_PROVIDER=gemini',
    path: ['GEMINI_API_KEY'],
  })
  .refine((c) => !c.DDEX_SENDER_DPID === !c.DDEX_SENDER_NAME, {
    message: 'DDEX_SENDER_DPID and DDEX_SENDER_NAME must be set together (the sender of DDEX messages)',
    path: ['DDEX_SENDER_DPID'],
  })
  .refine((c) => !c.STRIPE_SECRET_KEY || (c.STRIPE_WEBHOOK_SECRET && c.STRIPE_PUBLISHABLE_KEY), {
    message: 'STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY are required with STRIPE_SECRET_KEY',
    path: ['STRIPE_SECRET_KEY'],
  });

type RawConfig = z.infer<typeof configSchema>;

/** Every variable the service reads (the .env.example must list them all; a test checks). */
export const CONFIG_KEYS = Object.keys(configSchema.shape);

export interface AppConfig extends Omit<RawConfig, 'PUBLIC_URL'> {
  /** The app URL ({app_url}); `{base_url}` is `${PUBLIC_URL}/v1`. */
  PUBLIC_URL: string;
  GRAPHIQL: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates settings; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const port = raw.PORT;
  return {
    ...raw,
    PUBLIC_URL: (raw.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    GRAPHIQL: raw.GRAPHIQL ?? raw.NODE_ENV !== 'production',
  };
}

export function baseUrl(config: Pick<AppConfig, 'PUBLIC_URL'>): string {
  return `${config.PUBLIC_URL}/v1`;
}
