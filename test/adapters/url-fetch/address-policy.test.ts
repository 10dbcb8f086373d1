import { describe, expect, it } from 'vitest';
import { refusedAddressReason } from '../../../src/adapters/url-fetch/address-policy.js';

describe('template URL address policy', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local / metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved / broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'unique local (private)'],
    ['ff02::1', 'multicast'],
    // Tunnels and translations that hide where the packet really goes.
    ['::ffff:0:127.0.0.1', 'IPv4-translated (SIIT)'],
    ['::ffff:0:8.8.8.8', 'IPv4-translated (SIIT)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo tunnel'],
    ['2001::1', 'Teredo tunnel'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['::ffff:192.88.99.1', '6to4 relay anycast (IPv4 192.88.99.1 inside IPv6)'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(refusedAddressReason(address)).toBe(reason);
  });

  it.each([
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '2002:7f00:1::',
  ])('refuses the IPv4 address inside the IPv6 address %s', (address) => {
    expect(refusedAddressReason(address)).toMatch(/inside IPv6/);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2001:4860:4860::8888', // 2001:4860::/32 is Google, not Teredo: only 2001:0::/32 is
    '192.88.100.1',
  ])('allows public %s', (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });
});
