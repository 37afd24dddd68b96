import { describe, expect, it } from 'vitest';
import { NO_AUTHORIZATION_CODES } from '../../src/domains/partners/authorization-codes.ts';
import { createPartner } from '../../src/domains/partners/manage-partners.ts';
import { createPartnerAccount, PARTNER_CALLS_PER_CLIENT } from '../../src/domains/partners/provision.ts';
import { CheckoutSession } from '../../src/domains/payments/checkout-session.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

describe('release provenance rules (never the price)', () => {
  const app = useTestApp();

  async function submitWith(options: { headers?: Record<string, string>; toolProvenance?: string }) {
    const account = await accountWithToken(app().em(), { credits: 10 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 1);
    if (options.toolProvenance !== undefined) {
      const answer = await request(app().url, 'POST', '/api/mcp', {
        token: account.token,
        headers: options.headers ?? {},
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'submit_release', arguments: { ...body, provenance: options.toolProvenance } },
        },
      });
      return JSON.parse(answer.body.result.content[0].text);
    }
    return (
      await request(app().url, 'POST', '/v1/releases', {
        token: account.token,
        body,
        headers: options.headers ?? {},
      })
    ).body;
  }

  it('X-Svc-Provenance, then a partner host in Origin or Referer, then the tool argument, then MCP', async () => {
    await createPartner(app().em(), {
      name: 'Host Partner',
      redirectUri: 'https://studio.hostpartner.example/cb',
    });

    const header = await submitWith({
      headers: { 'x-svc-provenance': 'HEADER_TAG', referer: 'https://studio.hostpartner.example/page' },
    });
    expect(header).toMatchObject({ provenance: 'HEADER_TAG', creditsCharged: 1 });

    const byReferer = await submitWith({ headers: { referer: 'https://studio.hostpartner.example/page' } });
    expect(byReferer).toMatchObject({ provenance: 'HOST_PARTNER', creditsCharged: 1 });

    const plain = await submitWith({});
    expect(plain).toMatchObject({ provenance: 'MCP', creditsCharged: 1 });

    const tool = await submitWith({ toolProvenance: 'TOOL_TAG' });
    expect(tool).toMatchObject({ provenance: 'TOOL_TAG', creditsCharged: 1 });

    // An agent tool's argument ranks below a partner host.
    const toolFromHost = await submitWith({
      toolProvenance: 'TOOL_TAG',
      headers: { referer: 'https://studio.hostpartner.example/chat' },
    });
    expect(toolFromHost.provenance).toBe('HOST_PARTNER');

    const unknownHost = await submitWith({ headers: { referer: 'https://elsewhere.example/' } });
    expect(unknownHost.provenance).toBe('MCP');
  });

  it('a credit purchase is attributed by the same rules as a release', async () => {
    await createPartner(app().em(), { name: 'Shop Partner', redirectUri: 'https://shop.partner.example/cb' });
    const account = await accountWithToken(app().em());
    const open = async (headers: Record<string, string>) => {
      const opened = await request(app().url, 'POST', '/v1/credits/checkout', {
        token: account.token,
        headers,
        body: { credits: 5, ui_mode: 'hosted' },
      });
      expect(opened.status).toBe(200);
      const row = await app()
        .em()
        .fork()
        .findOneOrFail(CheckoutSession, { providerSessionId: opened.body.sessionId });
      return row.provenance;
    };
    expect(await open({})).toBe('MCP');
    expect(await open({ 'x-svc-provenance': 'SHOP_HEADER' })).toBe('SHOP_HEADER');
    expect(await open({ origin: 'https://shop.partner.example' })).toBe('SHOP_PARTNER');
  });

  it('limits partner calls per client_id whatever the address', async () => {
    const partner = await createPartner(app().em(), {
      name: 'Busy Partner',
      redirectUri: 'https://busy.example/cb',
    });
    const attempt = (i: number) =>
      createPartnerAccount(app().em(), app().services.rateLimits, NO_AUTHORIZATION_CODES, {
        clientId: partner.clientId,
        redirectUri: 'https://busy.example/cb',
        codeChallenge: null,
        codeChallengeMethod: null,
        email: `busy${i}@example.com`,
        password: 'a long enough passphrase',
        ip: `198.51.100.${i % 250}`,
      }).catch((error: { code?: string; retryAfterSeconds?: number }) => error);
    let last: { code?: string; retryAfterSeconds?: number } = {};
    for (let i = 0; i <= PARTNER_CALLS_PER_CLIENT.points; i++) last = (await attempt(i)) as typeof last;
    expect(last.code).toBe('rate_limited');
    expect(last.retryAfterSeconds).toBeGreaterThan(0);
    // Nothing was written for the refused calls (pkce_required before any account).
    const [row] = await app()
      .em()
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from accounts where email like 'busy%'`);
    expect(row!.n).toBe(0);
  });

  it('an account is not left behind when its code cannot be minted', async () => {
    const partner = await createPartner(app().em(), {
      name: 'Half Partner',
      redirectUri: 'https://half.example/cb',
    });
    const refused = await createPartnerAccount(
      app().em(),
      app().services.rateLimits,
      NO_AUTHORIZATION_CODES,
      {
        clientId: partner.clientId,
        redirectUri: 'https://half.example/cb',
        codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        codeChallengeMethod: 'S256',
        email: 'half@example.com',
        password: 'a long enough passphrase',
        ip: '203.0.113.9',
      },
    ).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    const [row] = await app()
      .em()
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from accounts where email = 'half@example.com'`);
    expect(row!.n).toBe(0);
  });
});
