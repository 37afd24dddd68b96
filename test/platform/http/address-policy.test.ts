import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';
import {
  type AddressClass,
  checkAddress,
  classifyAddress,
  outboundPolicyFromConfig,
} from '../../../src/platform/http/index.ts';

const STRICT = { allowPrivate: false };

const FORBIDDEN: [string, AddressClass][] = [
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.254', 'cgnat'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['169.254.0.1', 'link_local'],
  ['169.254.169.254', 'metadata'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', 'reserved'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['0:0:0:0:0:ffff:c0a8:0101', 'private'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:a9fe:a9fe::1', 'metadata'],
  ['::127.0.0.1', 'reserved'],
  ['fc00::1', 'private'],
  ['fd12:3456::1', 'private'],
  ['fd00:ec2::254', 'metadata'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf::1', 'link_local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['100::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['[::1]', 'loopback'],
  ['not-an-ip', 'invalid'],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '100.63.255.255',
  '100.128.0.0',
  '172.32.0.1',
  '192.169.0.1',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('address policy', () => {
  it.each(FORBIDDEN)('refuses %s as %s', (ip, reason) => {
    expect(classifyAddress(ip)).toBe(reason);
    expect(checkAddress(ip, STRICT)).toEqual({ allowed: false, reason });
  });

  it.each(PUBLIC)('allows the public address %s', (ip) => {
    expect(classifyAddress(ip)).toBeUndefined();
    expect(checkAddress(ip, STRICT)).toEqual({ allowed: true });
  });

  it('allowPrivate lets every class through except cloud metadata', () => {
    const open = { allowPrivate: true };
    expect(checkAddress('127.0.0.1', open)).toEqual({ allowed: true, reason: 'loopback' });
    expect(checkAddress('10.0.0.1', open)).toEqual({ allowed: true, reason: 'private' });
    expect(checkAddress('::ffff:7f00:1', open)).toEqual({ allowed: true, reason: 'loopback' });
    expect(checkAddress('169.254.169.254', open)).toEqual({ allowed: false, reason: 'metadata' });
    expect(checkAddress('fd00:ec2::254', open)).toEqual({ allowed: false, reason: 'metadata' });
  });

  it('allowAddresses (test seam) admits exactly the listed addresses', () => {
    const policy = { allowPrivate: false, allowAddresses: ['127.0.0.2', '::1'] };
    expect(checkAddress('127.0.0.2', policy)).toEqual({ allowed: true });
    expect(checkAddress('::ffff:127.0.0.2', policy)).toEqual({ allowed: true });
    expect(checkAddress('0:0:0:0:0:0:0:1', policy)).toEqual({ allowed: true });
    expect(checkAddress('127.0.0.1', policy)).toEqual({ allowed: false, reason: 'loopback' });
    expect(checkAddress('127.0.0.3', policy)).toEqual({ allowed: false, reason: 'loopback' });
  });

  it('takes the policy from the settings, private addresses refused by default', () => {
    expect(outboundPolicyFromConfig(loadConfig({}))).toEqual({ allowPrivate: false });
    expect(outboundPolicyFromConfig(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'true' }))).toEqual({
      allowPrivate: true,
    });
  });
});
