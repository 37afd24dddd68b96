/**
 * Token introspection cost: GET /v1/me with an OAuth access token (obtained through the real flow:
 * registration, sign-in, consent, code + PKCE) against the same call with a personal access token, side
 * by side in one run. Target (issue 13): within 10%.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '../src/domains/accounts/password.ts';
import { signInAndApprove, TEST_PASSWORD } from '../test/support/oauth.ts';
import { measureHttp, printTable } from './support/measure.ts';
import { benchApp } from './support/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
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
  const token = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
      client_id,
    }),
  });
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
  const pat = await measureHttp(
    'GET /v1/me, personal access token',
    me(bench.account.token),
    SECONDS,
    CONNECTIONS,
  );
  const oauth = await measureHttp('GET /v1/me, OAuth access token', me(oauthToken), SECONDS, CONNECTIONS);
  const patAgain = await measureHttp(
    'GET /v1/me, personal access token (again)',
    me(bench.account.token),
    SECONDS,
    CONNECTIONS,
  );

  printTable([pat, oauth, patAgain]);
  const patMean = (pat.requestsPerSecond + patAgain.requestsPerSecond) / 2;
  console.log(`\nratios (one run, ${CONNECTIONS} connections, ${SECONDS}s each):`);
  console.log(
    `  OAuth / PAT throughput (PAT = mean of both runs): ${(oauth.requestsPerSecond / patMean).toFixed(3)} (target ≥ 0.90)`,
  );
  console.log(
    `  PAT run-to-run (second / first):                 ${(patAgain.requestsPerSecond / pat.requestsPerSecond).toFixed(3)}`,
  );
  console.log(
    `  OAuth p99 / PAT p99:                              ${(oauth.p99 / Math.max(pat.p99, 0.001)).toFixed(3)}`,
  );
} finally {
  await bench.close();
}
