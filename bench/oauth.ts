/**
 * Token introspection cost: GET /v1/me with an OAuth access token (obtained through the real flow:
 * registration, sign-in, consent, code + PKCE) against the same call with a personal access token, side
 * by side in one run, in alternating rounds (medians). Target (issue 13): within 10%.
 */
import { createHash, randomBytes } from 'node:crypto';
import { authenticate } from '../schema/context.ts';
import { buildAppServices, closeAppServices } from '../schema/services.ts';
import { hashPassword } from '../src/domains/accounts/password.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { redeemCode, signInAndApprove, TEST_PASSWORD } from '../test/support/oauth.ts';
import { type Measurement, measureHttp, measureInProcess, printTable } from './support/measure.ts';
import { benchApp } from './support/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const bench = await benchApp('tributary_bench_oauth');

async function oauthAccessToken(url: string, email: string): Promise<string> {
  const redirectUri = 'http://127.0.0.1:9/bench-callback';
  const registration = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'bench',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    }),
  });
  const { client_id } = (await registration.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = `${url}/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: redirectUri,
    scope: 'svc:mcp',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })}`;
  const { redirect } = await signInAndApprove(url, authorize, { email, password: TEST_PASSWORD });
  const code = new URL(redirect ?? 'http://x/').searchParams.get('code') ?? '';
  const token = await redeemCode(`${url}/oauth/token`, { code, verifier, redirectUri, clientId: client_id });
  const body = (await token.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no access token: ${JSON.stringify(body)}`);
  return body.access_token;
}

try {
  await bench.orm.em
    .fork()
    .execute('update accounts set password_hash = ? where id = ?', [
      await hashPassword(TEST_PASSWORD),
      bench.account.accountId,
    ]);
  const oauthToken = await oauthAccessToken(bench.app.url, bench.account.email);
  const me = (token: string) => ({
    url: `${bench.app.url}/v1/me`,
    headers: { authorization: `Bearer ${token}` },
  });

  await measureHttp('warm-up', me(bench.account.token), 2, CONNECTIONS);
  await measureHttp('warm-up', me(oauthToken), 2, CONNECTIONS);
  // The machine's load drifts between runs: short rounds alternate the two tokens, medians compare.
  const runs: { pat: Measurement[]; oauth: Measurement[] } = { pat: [], oauth: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? (['pat', 'oauth'] as const) : (['oauth', 'pat'] as const);
    for (const kind of order) {
      const token = kind === 'pat' ? bench.account.token : oauthToken;
      const label = `round ${round}: GET /v1/me, ${kind === 'pat' ? 'personal access token' : 'OAuth access token'}`;
      runs[kind].push(await measureHttp(label, me(token), SECONDS, CONNECTIONS));
    }
  }
  printTable([...runs.pat, ...runs.oauth]);
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const pat = median(runs.pat.map((m) => m.requestsPerSecond));
  const oauth = median(runs.oauth.map((m) => m.requestsPerSecond));
  console.log(
    `\nmedians (one run, ${ROUNDS} alternating rounds, ${CONNECTIONS} connections, ${SECONDS}s each):`,
  );
  console.log(`  PAT ${pat.toFixed(0)} req/s, OAuth ${oauth.toFixed(0)} req/s`);
  console.log(`  OAuth / PAT throughput: ${(oauth / pat).toFixed(3)} (target ≥ 0.90)`);
  console.log(
    `  p99 median, OAuth / PAT: ${(median(runs.oauth.map((m) => m.p99)) / Math.max(median(runs.pat.map((m) => m.p99)), 0.001)).toFixed(3)}`,
  );

  // The verification alone, in-process (the cached path every request takes), same two tokens.
  const services = await buildAppServices(
    loadConfig({ DATABASE_URL: bench.databaseUrl, PUBLIC_URL: bench.app.url, DATA_DIR: bench.dataDir }),
    bench.orm,
    createLogger('silent'),
    'bench',
  );
  const verify = (name: string, token: string) =>
    measureInProcess(name, () => authenticate(services, token), SECONDS, CONNECTIONS);
  const inProcess = [
    await verify('authenticate(), personal access token', bench.account.token),
    await verify('authenticate(), OAuth access token', oauthToken),
    await verify('authenticate(), OAuth access token (again)', oauthToken),
    await verify('authenticate(), personal access token (again)', bench.account.token),
  ];
  printTable(inProcess);
  const [patA, oauthA, oauthB, patB] = inProcess.map((m) => m.requestsPerSecond) as [
    number,
    number,
    number,
    number,
  ];
  console.log(
    `  in-process OAuth / PAT (means, ABBA order): ${((oauthA + oauthB) / (patA + patB)).toFixed(3)}`,
  );
  await closeAppServices(services);
} finally {
  await bench.close();
}
