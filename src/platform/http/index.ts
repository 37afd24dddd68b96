import type { AppConfig } from '../config.ts';
import type { OutboundPolicy } from './address-policy.ts';

export {
  type AddressClass,
  type AddressVerdict,
  checkAddress,
  classifyAddress,
  describeAddressClass,
  type OutboundPolicy,
} from './address-policy.ts';
export { type ResolvedAddress, type Resolver, systemResolver } from './guarded-lookup.ts';
export {
  createOutboundClient,
  expectOk,
  type OutboundBody,
  type OutboundClient,
  type OutboundClientOptions,
  type OutboundHeaders,
  type OutboundRequestOptions,
  type OutboundResponse,
} from './safe-fetch.ts';

/** The policy the settings ask for (OUTBOUND_ALLOW_PRIVATE; never the test-only allowAddresses). */
export function outboundPolicyFromConfig(config: Pick<AppConfig, 'OUTBOUND_ALLOW_PRIVATE'>): OutboundPolicy {
  return { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE };
}
