import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { checkAddress, type OutboundPolicy } from './address-policy.ts';
import { AddressRefusedError, HostUnresolvableError } from './refusals.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (injectable so tests need no DNS). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `net.connect`/`tls.connect`: resolves the name once, refuses the connection when
 * any resolved address is forbidden by the policy, and hands the checked addresses to the socket,
 * which connects to one of them without resolving again.
 */
export function guardedLookup(policy: OutboundPolicy, resolver: Resolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, policy, resolver).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        const first = usable[0];
        if (!first) callback(new HostUnresolvableError(hostname), '');
        else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, ''),
    );
  };
}

async function resolve(hostname: string, policy: OutboundPolicy, resolver: Resolver) {
  let resolved: ResolvedAddress[];
  try {
    resolved = await resolver(hostname);
  } catch (error) {
    throw new HostUnresolvableError(hostname, error);
  }
  const addresses: LookupAddress[] = [];
  for (const { address } of resolved) {
    const family = isIP(address);
    const verdict = checkAddress(address, policy);
    if (!verdict.allowed || family === 0) {
      throw new AddressRefusedError(hostname, address, verdict.reason ?? 'invalid');
    }
    addresses.push({ address, family });
  }
  if (addresses.length === 0) throw new HostUnresolvableError(hostname);
  return addresses;
}
