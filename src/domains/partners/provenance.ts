import type { EntityManager } from '@mikro-orm/postgresql';
import { partnerForHost } from './manage-partners.ts';

/** What a release is attributed to when nothing else says (the spec's default, on every surface). */
export const DEFAULT_PROVENANCE = 'MCP';

export interface ProvenanceSources {
  /** The provenance of a token issued to an allowlisted partner's client. */
  token: string | null | undefined;
  /** `X-Svc-Provenance` (REST, agent HTTP) or the tool's `provenance` argument (agent tools). */
  sent: string | null | undefined;
  /** Whether `sent` is the header (it then outranks a partner host) or a tool argument (it does not). */
  sentAs: 'header' | 'argument';
  origin: string | null;
  referer: string | null;
}

const hostOf = (value: string | null) => {
  if (!value || !URL.canParse(value)) return null;
  return new URL(value).host || null;
};

/**
 * What a release or a credit purchase is attributed to (docs/partners.md): a partner's token, else
 * X-Svc-Provenance, else a partner host in Origin or Referer, else the tool's `provenance` argument,
 * else MCP. It never changes the price.
 */
export async function attributedProvenance(em: EntityManager, sources: ProvenanceSources): Promise<string> {
  if (sources.token) return sources.token;
  const sent = sources.sent?.trim() || null;
  if (sent && sources.sentAs === 'header') return sent;
  for (const host of new Set([hostOf(sources.origin), hostOf(sources.referer)])) {
    if (!host) continue;
    const partner = await partnerForHost(em, host);
    if (partner) return partner.provenance;
  }
  return sent ?? DEFAULT_PROVENANCE;
}
