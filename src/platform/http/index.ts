import type { AppConfig } from '../config.ts';
import type { OutboundPolicy } from './address-policy.ts';

export {
  type AddressClass,
  checkAddress,
  classifyAddress,
  describeAddressClass,
  type OutboundPolicy,
} from './address-policy.ts';
export { type Resolver, systemResolver } from './guarded-lookup.ts';
export {
  createOutboundClient,
  expectOk,
  type OutboundClient,
  type OutboundClientOptions,
} from './safe-fetch.ts';

/** The policy the settings ask for (OUTBOUND_ALLOW_PRIVATE; never the test-only allowAddresses). */
export function outboundPolicyFromConfig(config: Pick<AppConfig, 'OUTBOUND_ALLOW_PRIVATE'>): OutboundPolicy {
  return { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE };
}
