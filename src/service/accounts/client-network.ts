/**
 * The unit sign-in throttling counts a client by: its IPv4 address, or the /64 network of its IPv6 address. An
 * IPv6 subscriber is usually given a whole /64 (RFC 6177), so counting single IPv6 addresses would give one
 * guesser 2^64 fresh addresses. An IPv4-mapped address (`::ffff:192.0.2.1`) counts as the IPv4 address.
 */
export function clientNetwork(address: string): string {
  const plain = address.replace(/%.*$/, '').toLowerCase(); // a zone index (`%eth0`) names no network
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain);
  if (mapped) return mapped[1] as string;
  if (!plain.includes(':')) return plain;
  const [head = '', tail] = plain.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const written = left.length + right.length + (right.at(-1)?.includes('.') ? 1 : 0); // a dotted tail is two groups
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - written)).fill('0'), ...right];
  const prefix = groups.slice(0, 4).map((g) => (Number.parseInt(g, 16) || 0).toString(16));
  return `${prefix.join(':')}::/64`;
}
