/**
 * Operator commands: `npm run admin -- <command> [options]`. Each prints one JSON line on success.
 * Works against DATABASE_URL or, without it, the embedded database under DATA_DIR (shared with a
 * running server, started and stopped otherwise).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pino } from 'pino';
import { connectDatabase } from '../app-database.ts';
import {
  createAccount,
  DEFAULT_SCOPES,
  findAccountByEmail,
  getAccount,
  isScope,
  issueToken,
  parseTokenExpiry,
  revokeTokenById,
  type Scope,
  type TokenExpiry,
  VERIFIED_TOKENS_CACHE,
} from '../domains/accounts/index.ts';
import { importCatalogue } from '../domains/audio/index.ts';
import { grantCredits } from '../domains/credits/index.ts';
import { listOutbox } from '../domains/mail/index.ts';
import { createPartner, disablePartner, listPartners, partnerView } from '../domains/partners/index.ts';
import {
  type Credential,
  connectionView,
  connectStore,
  disconnectStore,
  listStoreConnections,
  requireSenderIdentity,
  testStoreConnection,
} from '../domains/store-connections/index.ts';
import { type AppConfig, loadConfig } from '../platform/config.ts';
import { AppError, invalidRequest, notFound } from '../platform/errors.ts';
import { notifyInvalidation } from '../platform/events/postgres-invalidations.ts';
import { createRedisPubSub } from '../platform/events/pubsub.ts';
import { redisNamespace } from '../platform/redis-namespace.ts';
import { assertNodeVersion } from '../platform/runtime.ts';
import { loadSecretKey } from '../platform/secret-box.ts';

const USAGE = `usage: npm run admin -- <command> [options]
  account:create --email E [--password P] [--first-name F] [--last-name L] [--credits N] [--scopes svc:mcp,svc:fraud]
                 [--insider] [--patron] [--admin] [--expires 30d|90d|1y|none] [--token-name NAME]
  token:create   (--email E | --account ID) [--name NAME] [--scopes ...] [--expires ...]
  token:revoke   --token-id ID
  credits:grant  (--email E | --account ID) --credits N [--ref REF]
  registry:import DIR_OR_CSV   (reference recordings for the ACR check; docs/audio.md)
  partner:create --name N --redirect-uri U [--provenance TAG]
  partner:list
  partner:disable --client-id ID
  mail:list      [--limit N]   (the embedded outbox, newest first)
  store:connect  --store ID --sftp sftp://USER@HOST:PORT/ROOT (--private-key-file FILE | --password-env VAR)
                 --host-key SHA256:... --recipient-dpid PADPIDA... --recipient-name NAME [--choreography release|batch]
  store:test     --store ID   (logs in over SFTP and lists the root; docs/delivery.md)
  store:connections
  store:disconnect --store ID`;

const OPTIONS = {
  email: { type: 'string' },
  password: { type: 'string' },
  account: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  credits: { type: 'string' },
  scopes: { type: 'string' },
  insider: { type: 'boolean' },
  patron: { type: 'boolean' },
  admin: { type: 'boolean' },
  expires: { type: 'string' },
  name: { type: 'string' },
  'token-name': { type: 'string' },
  'token-id': { type: 'string' },
  ref: { type: 'string' },
  'redirect-uri': { type: 'string' },
  provenance: { type: 'string' },
  'client-id': { type: 'string' },
  limit: { type: 'string' },
  store: { type: 'string' },
  sftp: { type: 'string' },
  'private-key-file': { type: 'string' },
  'password-env': { type: 'string' },
  'host-key': { type: 'string' },
  'recipient-dpid': { type: 'string' },
  'recipient-name': { type: 'string' },
  choreography: { type: 'string' },
} as const;

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function parseScopes(value: string | undefined): Scope[] {
  if (value === undefined) return DEFAULT_SCOPES;
  const scopes = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0 || scopes.length === 0)
    throw invalidRequest(`unknown scope(s): ${unknown.join(', ') || '(none given)'}`);
  return scopes as Scope[];
}

function parseCredits(value: string | undefined, required: boolean): number | undefined {
  if (value === undefined) {
    if (required) throw invalidRequest('--credits is required');
    return undefined;
  }
  if (!/^\d+$/.test(value) || Number(value) <= 0)
    throw invalidRequest('--credits must be a positive integer');
  return Number(value);
}

async function resolveAccountId(em: EntityManager, options: Options): Promise<string> {
  if (options.account) return (await getAccount(em, options.account)).id;
  if (options.email) {
    const account = await findAccountByEmail(em, options.email);
    if (!account) throw notFound(`no account with email ${options.email}`);
    return account.id;
  }
  throw invalidRequest('give --email or --account');
}

async function createAccountWithToken(
  em: EntityManager,
  options: Options,
  scopes: Scope[],
  expires: TokenExpiry,
  credits: number | undefined,
) {
  const account = await createAccount(em, {
    email: options.email ?? '',
    firstName: options['first-name'] ?? null,
    lastName: options['last-name'] ?? null,
    isInsider: options.insider ?? false,
    isPatron: options.patron ?? false,
    isAdmin: options.admin ?? false,
    password: options.password ?? null,
  });
  const issued = await issueToken(em, {
    accountId: account.id,
    name: options['token-name'] ?? 'admin CLI',
    scopes,
    expires,
  });
  if (credits) await grantCredits(em, { accountId: account.id, credits, ref: 'admin:initial-grant' });
  return { accountId: account.id, email: account.email, token: issued.token };
}

/** The credential store:connect was given: a private key file's contents or a named variable's value. */
function readCredential(options: Options): Credential {
  const file = options['private-key-file'];
  const variable = options['password-env'];
  if ((file === undefined) === (variable === undefined)) {
    throw invalidRequest('give exactly one of --private-key-file FILE or --password-env VAR');
  }
  if (file !== undefined) {
    try {
      return { method: 'private_key', privateKey: readFileSync(file, 'utf8') };
    } catch (error) {
      throw invalidRequest(
        `--private-key-file ${file} cannot be read (${(error as NodeJS.ErrnoException).code})`,
      );
    }
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable!)) {
    throw invalidRequest(`--password-env takes the name of an environment variable, not "${variable}"`);
  }
  const password = process.env[variable!];
  if (!password) {
    throw invalidRequest(
      `--password-env ${variable}: that variable is not set here; export it, then run the command again`,
    );
  }
  return { method: 'password', password };
}

function required(options: Options, name: keyof Options): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw invalidRequest(`--${name} is required`);
  return value;
}

const secretKeyOf = (config: AppConfig) => loadSecretKey(config.DATA_DIR, config.WEBHOOK_SECRET_KEY);

const commands: Record<
  string,
  (em: EntityManager, options: Options, args: string[], config: AppConfig) => Promise<Record<string, unknown>>
> = {
  'store:connect': async (em, options, _args, config) => {
    requireSenderIdentity(config);
    const input = {
      store: required(options, 'store'),
      sftpUrl: required(options, 'sftp'),
      hostKey: required(options, 'host-key'),
      recipientDpid: required(options, 'recipient-dpid'),
      recipientName: required(options, 'recipient-name'),
      choreography: options.choreography,
      credential: readCredential(options),
    };
    return connectionView(await connectStore(em, input, { secretKey: secretKeyOf(config), config }));
  },
  'store:test': async (em, options, _args, config) =>
    testStoreConnection(em, required(options, 'store'), { secretKey: secretKeyOf(config) }),
  'store:connections': async (em) => ({ connections: (await listStoreConnections(em)).map(connectionView) }),
  'store:disconnect': async (em, options) => {
    const connection = await disconnectStore(em, required(options, 'store'));
    return { storeId: connection.storeId, disconnected: true };
  },
  'partner:create': async (em, options) => {
    if (!options.name) throw invalidRequest('--name is required');
    if (!options['redirect-uri']) throw invalidRequest('--redirect-uri is required');
    const partner = await createPartner(em, {
      name: options.name,
      redirectUri: options['redirect-uri'],
      provenance: options.provenance ?? null,
    });
    return { clientId: partner.clientId, provenance: partner.provenance };
  },
  'mail:list': async (em, options) => {
    const limit = options.limit === undefined ? 20 : Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw invalidRequest('--limit must be 1..500');
    const mails = await listOutbox(em, limit);
    return {
      mails: mails.map((mail) => ({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        createdAt: mail.createdAt.toISOString(),
      })),
    };
  },
  'partner:list': async (em) => ({ partners: (await listPartners(em)).map(partnerView) }),
  'partner:disable': async (em, options) => {
    if (!options['client-id']) throw invalidRequest('--client-id is required');
    return partnerView(await disablePartner(em, options['client-id']));
  },
  'account:create': async (em, options) => {
    if (!options.email) throw invalidRequest('--email is required');
    const scopes = parseScopes(options.scopes);
    const expires = parseTokenExpiry(options.expires ?? 'none');
    const credits = parseCredits(options.credits, false);
    // All or nothing: no account without its token and its initial credits.
    return em.transactional((tem) => createAccountWithToken(tem, options, scopes, expires, credits));
  },
  'token:create': async (em, options) => {
    const accountId = await resolveAccountId(em, options);
    const issued = await issueToken(em, {
      accountId,
      name: options.name ?? 'admin CLI',
      scopes: parseScopes(options.scopes),
      expires: parseTokenExpiry(options.expires ?? 'none'),
    });
    return {
      accountId,
      tokenId: issued.record.id,
      token: issued.token,
      scopes: issued.record.scopes,
      expiresAt: issued.record.expiresAt?.toISOString() ?? null,
    };
  },
  'token:revoke': async (em, options) => {
    if (!options['token-id']) throw invalidRequest('--token-id is required');
    const token = await revokeTokenById(em, options['token-id']);
    return { tokenId: token.id, revokedAt: token.revokedAt?.toISOString() ?? null };
  },
  'credits:grant': async (em, options) => {
    const accountId = await resolveAccountId(em, options);
    const credits = parseCredits(options.credits, true) ?? 0;
    const transaction = await grantCredits(em, { accountId, credits, ref: options.ref ?? 'admin:grant' });
    return { accountId, transactionId: transaction.id, credits, balance: transaction.balanceAfter };
  },
  'registry:import': async (em, _options, args) => {
    if (!args[0]) throw invalidRequest('registry:import needs a directory or a CSV file');
    return importCatalogue(em, args[0]);
  },
};

/** Commands that take one positional argument after their name. */
const WITH_ARGUMENT = new Set(['registry:import']);

async function main(): Promise<number> {
  assertNodeVersion();
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const command = commands[parsed.positionals[0] ?? ''];
  const expected = WITH_ARGUMENT.has(parsed.positionals[0] ?? '') ? 2 : 1;
  if (!command || parsed.positionals.length !== expected) {
    console.error(USAGE);
    return 2;
  }
  // Settings from a .env file in the working directory, as the server reads them (the secret-box key and
  // the DDEX sender must be the server's); variables set in the environment win.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const log = pino({ level: 'warn' }, pino.destination(2));
  const database = await connectDatabase(config, log, { shareRunning: true });
  try {
    const result = await command(database.orm.em.fork(), parsed.values, parsed.positionals.slice(1), config);
    if (parsed.positionals[0] === 'token:revoke') {
      await announceRevocation(config, database.orm.em.fork(), String(result.tokenId));
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      console.error(JSON.stringify({ type: error.type, code: error.code, message: error.message }));
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

/** Servers trust a verified token for a few seconds: tell them a revoked one is gone, now. */
async function announceRevocation(config: AppConfig, em: EntityManager, tokenId: string): Promise<void> {
  const invalidation = { cache: VERIFIED_TOKENS_CACHE, key: tokenId };
  if (!config.REDIS_URL) {
    await notifyInvalidation(
      (channel, payload) => em.getConnection().execute('select pg_notify(?, ?)', [channel, payload]),
      invalidation,
    );
    return;
  }
  const databaseUrl = String(em.config.get('clientUrl'));
  const pubsub = createRedisPubSub(config.REDIS_URL, redisNamespace(config.REDIS_NAMESPACE, databaseUrl));
  try {
    await pubsub.invalidate(invalidation);
  } finally {
    await pubsub.close();
  }
}

const code = await main();
// Say the code explicitly, once the output has drained.
await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
process.exit(code);
