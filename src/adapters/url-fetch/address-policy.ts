/**
 * Which resolved addresses a template URL may reach. Refused by default: loopback, private, carrier-grade NAT,
 * link-local (the cloud metadata address 169.254.169.254 is one), unspecified, multicast, reserved and
 * documentation ranges, in IPv4 and IPv6, including IPv4 addresses embedded in IPv6 (::ffff:a.b.c.d, 6to4, NAT64);
 * Teredo, IPv4-translated addresses (::ffff:0:a.b.c.d) and the 6to4 relay range are refused whole.
 */
import { BlockList, isIP } from 'node:net';

const IPV4_BLOCKED: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local / metadata'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved / broadcast'],
];

const IPV6_BLOCKED: readonly [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
  ['2001:db8::', 32, 'documentation'],
  ['100::', 64, 'discard-only'],
  // Tunnels and translation that carry the real destination inside the address, where this table cannot see it.
  ['2001::', 32, 'Teredo tunnel'],
  ['::ffff:0:0:0', 96, 'IPv4-translated (SIIT)'],
];

/** One single-subnet list per rule, so a rule is matched in its own family only (no implicit IPv4 mapping). */
function compile(table: readonly [string, number, string][], family: 'ipv4' | 'ipv6'): [BlockList, string][] {
  return table.map(([network, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return [list, reason];
  });
}

const IPV4_RULES = compile(IPV4_BLOCKED, 'ipv4');
const IPV6_RULES = compile(IPV6_BLOCKED, 'ipv6');

/** Expands an IPv6 address to its eight 16-bit groups. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const parts = dotted[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = parts;
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

function ipv4FromGroups(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(groups: number[]): string | null {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const zerosTo4 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zerosTo4 && (g5 === 0xffff || g5 === 0)) return ipv4FromGroups(g6, g7); // ::ffff:a.b.c.d, ::a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b) return ipv4FromGroups(g6, g7); // 64:ff9b::/96 NAT64
  if (g0 === 0x2002 && g1 !== undefined && g2 !== undefined) return ipv4FromGroups(g1, g2); // 6to4
  return null;
}

/** null when the address may be fetched; otherwise a short reason ("loopback", "private", …). */
export function refusedAddressReason(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return reasonFor(address, 'ipv4');
  if (family !== 6) return 'not an IP address';
  const groups = ipv6Groups(address);
  if (!groups) return 'unparseable IPv6 address';
  const own = reasonFor(address, 'ipv6');
  if (own) return own;
  const inner = embeddedIpv4(groups);
  if (inner !== null) {
    const innerReason = reasonFor(inner, 'ipv4');
    if (innerReason) return `${innerReason} (IPv4 ${inner} inside IPv6)`;
  }
  return null;
}

function reasonFor(address: string, family: 'ipv4' | 'ipv6'): string | null {
  for (const [list, reason] of family === 'ipv4' ? IPV4_RULES : IPV6_RULES) {
    if (list.check(address, family)) return reason;
  }
  return null;
}
