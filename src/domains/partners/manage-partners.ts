import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidRequest, notFound } from '../../platform/errors.ts';
import { modelKey } from '../oauth/index.ts';
import { Partner } from './partner.entity.ts';

export interface CreatePartnerInput {
  name: string;
  redirectUri: string;
  /** Default: the name in capitals, other characters as `_` (e.g. "Beat Lab" → `BEAT_LAB`). */
  provenance?: string | null;
}

const PROVENANCE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

export const provenanceFromName = (name: string) =>
  name
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 100);

function checkRedirectUri(uri: string): string {
  if (!URL.canParse(uri)) throw invalidRequest('--redirect-uri must be an absolute URL.');
  const url = new URL(uri);
  if (url.hash) throw invalidRequest('--redirect-uri must not have a fragment.');
  return uri;
}

/** The authorization server's registration of a partner: a public client with PKCE (no secret). */
function clientMetadata(partner: Partner) {
  return {
    client_id: partner.clientId,
    client_name: partner.name,
    redirect_uris: partner.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    client_id_issued_at: Math.floor(partner.createdAt.getTime() / 1000),
  };
}

async function saveClient(em: EntityManager, partner: Partner): Promise<void> {
  await em.execute(
    `insert into oauth_models (key, kind, payload) values (?, 'Client', ?)
       on conflict (key) do update set payload = excluded.payload`,
    [modelKey('Client', partner.clientId), JSON.stringify(clientMetadata(partner))],
  );
}

/** Allowlists a partner: its row and its OAuth client, in one transaction. */
export async function createPartner(em: EntityManager, input: CreatePartnerInput): Promise<Partner> {
  const name = input.name.trim();
  if (!name || name.length > 200) throw invalidRequest('--name must be 1 to 200 characters.');
  const provenance = input.provenance?.trim() || provenanceFromName(name);
  if (!PROVENANCE.test(provenance)) {
    throw invalidRequest('--provenance must be 1 to 100 letters, digits, "_", ".", ":" or "-".');
  }
  const redirectUri = checkRedirectUri(input.redirectUri);
  return em.transactional(async (tem) => {
    const partner = tem.create(Partner, {
      name,
      clientId: `tbp_${randomBytes(16).toString('base64url')}`,
      provenance,
      redirectUris: [redirectUri],
      createdAt: new Date(),
    });
    await tem.flush();
    await saveClient(tem, partner);
    return partner;
  });
}

export async function listPartners(em: EntityManager): Promise<Partner[]> {
  return em.find(Partner, {}, { orderBy: { createdAt: 'asc' } });
}

/**
 * Ends a partner: its client is removed (no new codes, no refreshes); tokens already issued run out
 * within their hour. Disabling twice is harmless.
 */
export async function disablePartner(
  em: EntityManager,
  clientId: string,
  now = new Date(),
): Promise<Partner> {
  return em.transactional(async (tem) => {
    const partner = await tem.findOne(Partner, { clientId });
    if (!partner) throw notFound('No partner with this client id.', 'partner_not_found');
    partner.disabledAt ??= now;
    await tem.flush();
    await tem.execute(`delete from oauth_models where key = ?`, [modelKey('Client', clientId)]);
    return partner;
  });
}

export async function findActivePartner(em: EntityManager, clientId: string): Promise<Partner | null> {
  return em.findOne(Partner, { clientId, disabledAt: null });
}

/** The partner whose redirect URI is on `host` (from a request's Origin or Referer), if any. */
export async function partnerForHost(em: EntityManager, host: string): Promise<Partner | null> {
  const partners = await em.find(Partner, { disabledAt: null });
  return partners.find((partner) => partner.redirectUris.some((uri) => new URL(uri).host === host)) ?? null;
}

export const partnerView = (partner: Partner) => ({
  clientId: partner.clientId,
  name: partner.name,
  provenance: partner.provenance,
  redirectUris: partner.redirectUris,
  disabledAt: partner.disabledAt?.toISOString() ?? null,
  createdAt: partner.createdAt.toISOString(),
});
