import { BlockList, isIP } from 'node:net';

/** Why an address is not "the public internet". */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved'
  | 'metadata'
  | 'documentation'
  | 'benchmarking'
  | 'invalid';

export interface AddressVerdict {
  allowed: boolean;
  /** Set whenever the address is not public, also when the policy lets it through. */
  reason?: AddressClass;
}

/** Which addresses outbound requests (URL import, webhooks) may connect to. */
export interface OutboundPolicy {
  /**
   * Lets requests reach non-public addresses (loopback, private networks...): the setting
   * OUTBOUND_ALLOW_PRIVATE, for local development and tests only — UNSAFE in production.
   * Cloud metadata addresses stay refused even then.
   */
  allowPrivate: boolean;
  /**
   * TEST-ONLY seam: exact addresses treated as public, so a test can play "the internet" on e.g.
   * 127.0.0.2 while 127.0.0.1 stays forbidden. Never set from configuration.
   */
  allowAddresses?: readonly string[];
}

type Rule = [AddressClass, BlockList];

function rules(family: 'ipv4' | 'ipv6', entries: [AddressClass, string[]][]): Rule[] {
  return entries.map(([reason, subnets]) => {
    const list = new BlockList();
    for (const subnet of subnets) {
      const [net = '', prefix] = subnet.split('/');
      if (prefix === undefined) list.addAddress(net, family);
      else list.addSubnet(net, Number(prefix), family);
    }
    return [reason, list];
  });
}

// Checked in order: the first matching rule names the class (so specific entries come first).
const IPV4_RULES = rules('ipv4', [
  ['metadata', ['169.254.169.254', '100.100.100.200']],
  ['unspecified', ['0.0.0.0/8']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['cgnat', ['100.64.0.0/10']],
  ['loopback', ['127.0.0.0/8']],
  ['link_local', ['169.254.0.0/16']],
  ['documentation', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24']],
  ['benchmarking', ['198.18.0.0/15']],
  ['multicast', ['224.0.0.0/4']],
  ['broadcast', ['255.255.255.255']],
  ['reserved', ['192.0.0.0/24', '192.88.99.0/24', '240.0.0.0/4']],
]);

const IPV6_RULES = rules('ipv6', [
  ['metadata', ['fd00:ec2::254']],
  ['unspecified', ['::']],
  ['loopback', ['::1']],
  ['private', ['fc00::/7', 'fec0::/10', '64:ff9b:1::/48']],
  ['link_local', ['fe80::/10']],
  ['multicast', ['ff00::/8']],
  ['documentation', ['2001:db8::/32', '3fff::/20']],
  ['benchmarking', ['2001:2::/48']],
  // IPv4-compatible (::/96), discard-only, IETF protocol assignments (incl. Teredo).
  ['reserved', ['::/96', '100::/64', '2001::/23']],
]);

/** Only global unicast IPv6 (2000::/3) is public; everything outside it is refused as reserved. */
const IPV6_GLOBAL_UNICAST = rules('ipv6', [['reserved', ['2000::/3']]])[0]![1];

/** Parses an IPv6 address (already validated by `isIP`) into its 16 bytes. */
function ipv6Bytes(ip: string): Uint8Array {
  let text = ip;
  const groups: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  let v4: number[] = [];
  if (tail.includes('.')) {
    v4 = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}0`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  if (v4.length && right.length) right.pop();
  else if (v4.length) left.pop();
  const words = v4.length ? 6 : 8;
  groups.push(...left, ...new Array<number>(words - left.length - right.length).fill(0), ...right);
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  v4.forEach((b, i) => {
    bytes[12 + i] = b;
  });
  return bytes;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

const dotted = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

/**
 * The IPv4 address carried inside an IPv6 one, for the forms that reach it: IPv4-mapped
 * (::ffff:0:0/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 */
export function embeddedIpv4(ipv6: string): string | undefined {
  const b = ipv6Bytes(ipv6);
  if (startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return dotted(b, 12);
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return dotted(b, 12);
  if (startsWith(b, [0x20, 0x02])) return dotted(b, 2);
  return undefined;
}

/** Drops URL brackets and an IPv6 zone id (`fe80::1%eth0`). */
const bareAddress = (ip: string) => ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

/** A canonical spelling (lower-case, fully expanded for IPv6) used to compare addresses. */
export function canonicalAddress(ip: string): string {
  const bare = bareAddress(ip);
  if (isIP(bare) !== 6) return bare;
  const b = ipv6Bytes(bare);
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((b[i]! << 8) | b[i + 1]!).toString(16));
  return words.join(':');
}

/** The class of a non-public address, or undefined for a public one (policy-free). */
export function classifyAddress(ip: string): AddressClass | undefined {
  const bare = bareAddress(ip);
  const family = isIP(bare);
  if (family === 4) return IPV4_RULES.find(([, list]) => list.check(bare, 'ipv4'))?.[0];
  if (family !== 6) return 'invalid';
  const v4 = embeddedIpv4(bare);
  if (v4 !== undefined) {
    // An embedded loopback/private/... address is refused for that reason; 6to4 or NAT64 of a
    // public IPv4 address is public.
    return classifyAddress(v4);
  }
  const matched = IPV6_RULES.find(([, list]) => list.check(bare, 'ipv6'))?.[0];
  if (matched) return matched;
  return IPV6_GLOBAL_UNICAST.check(bare, 'ipv6') ? undefined : 'reserved';
}

/** Decides whether outbound requests may connect to `ip` under `policy`. */
export function checkAddress(ip: string, policy: OutboundPolicy): AddressVerdict {
  const canonical = canonicalAddress(ip);
  if (policy.allowAddresses?.some((a) => canonicalAddress(a) === canonical)) return { allowed: true };
  const bare = bareAddress(ip);
  if (isIP(bare) === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4 !== undefined && policy.allowAddresses?.includes(v4)) return { allowed: true };
  }
  const reason = classifyAddress(ip);
  if (reason === undefined) return { allowed: true };
  const allowed = policy.allowPrivate && reason !== 'metadata' && reason !== 'invalid';
  return { allowed, reason };
}

const DESCRIPTIONS: Record<AddressClass, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  link_local: 'a link-local address',
  cgnat: 'a carrier-grade NAT (shared) address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  metadata: 'a cloud metadata address',
  documentation: 'a documentation-only address',
  benchmarking: 'a benchmarking address',
  invalid: 'an invalid address',
};

/** "a private address", for error messages. */
export function describeAddressClass(reason: AddressClass): string {
  return DESCRIPTIONS[reason];
}
