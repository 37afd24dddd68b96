import { isIP } from 'node:net';

/** The address ranges express (proxy-addr) knows by name. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Which peers may speak for the client in `X-Forwarded-For`/`-Proto`/`-Host`: `false` (none) or a list
 * express's `trust proxy` compiles (the names above, addresses, CIDRs `addr/bits` or `addr/netmask`).
 */
export type TrustProxy = false | string[];

function entryProblem(entry: string): string | null {
  if (NAMED_RANGES.has(entry)) return null;
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return `"${entry}" is not loopback, linklocal, uniquelocal, an IP address or a CIDR`;
  if (slash === -1) return null;
  const range = entry.slice(slash + 1);
  if (/^\d{1,3}$/.test(range) && Number(range) <= (family === 4 ? 32 : 128)) return null;
  if (family === 4 && isIP(range) === 4) return null;
  return `"${entry}" has an invalid prefix length or netmask`;
}

/**
 * TRUST_PROXY as express's `trust proxy` string: `false` or `none` trusts no peer; otherwise a
 * comma-separated list of names, addresses and CIDRs. Hop counts and `true` (trust every peer) are
 * refused: either would let any client choose its own address and scheme. Returns a problem message
 * for a value it refuses.
 */
export function parseTrustProxy(value: string): TrustProxy | string {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === 'false' || trimmed === 'none') return false;
  if (trimmed === 'true' || /^\d+$/.test(trimmed))
    return 'must name the proxies (loopback, addresses, CIDRs) or be false; trusting every peer or a hop count lets any client forge its address';
  const entries = trimmed
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return 'must be false, none, or a comma-separated list of proxies';
  for (const entry of entries) {
    const problem = entryProblem(entry);
    if (problem) return problem;
  }
  return entries;
}
