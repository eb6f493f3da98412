/**
 * Which IP addresses a server-side fetch (a bot key directory, an imported web page) may reach. Only globally routable
 * unicast addresses are public; loopback is allowed only by the development
 * policy; everything else (private, link-local and cloud metadata, CGNAT,
 * multicast, documentation, IPv4 embedded in IPv6 pointing at any of those…)
 * is refused. Parsing is done here, numerically, so no library quirk decides.
 */
import { isIP } from 'node:net';

export type AddressClass = 'public' | 'loopback' | 'private';

type Range = [base: number, bits: number];

const ipv4NonPublic: Range[] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 CGNAT (Alibaba metadata 100.100.100.200)
  [0xa9fe0000, 16], // 169.254/16 link-local (cloud metadata 169.254.169.254)
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24 IETF protocol assignments
  [0xc0000200, 24], // 192.0.2/24 documentation
  [0xc0586300, 24], // 192.88.99/24 6to4 relay
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15 benchmarking
  [0xc6336400, 24], // 198.51.100/24 documentation
  [0xcb007100, 24], // 203.0.113/24 documentation
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved, broadcast
];

function inRange(value: number, [base, bits]: Range): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (value & mask) >>> 0 === base;
}

function parseIpv4(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

function classifyIpv4(value: number): AddressClass {
  if (inRange(value, [0x7f000000, 8])) return 'loopback';
  return ipv4NonPublic.some((range) => inRange(value, range)) ? 'private' : 'public';
}

/** Eight 16-bit groups, or undefined when not an IPv6 address. */
export function parseIpv6(address: string): number[] | undefined {
  let text = address.replace(/^\[|\]$/g, '').split('%')[0] ?? '';
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const v4 = parseIpv4(tail[1]);
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, -tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return undefined;
  const all = [...head, ...Array<string>(fill).fill('0'), ...rest];
  if (all.length !== 8 || !all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return all.map((g) => Number.parseInt(g, 16));
}

function classifyIpv6(g: number[]): AddressClass {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h = 0, i = 0] = g;
  const embedded = (hi: number, lo: number) => classifyIpv4(hi * 65536 + lo);
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0) {
    if (f === 0 && h === 0 && i === 1) return 'loopback'; // ::1
    if (f === 0xffff) return embedded(h, i); // ::ffff:a.b.c.d
    return 'private'; // ::, IPv4-compatible
  }
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return embedded(h, i); // NAT64 64:ff9b::/96
  if (a === 0x2002) return embedded(b, c); // 6to4
  if ((a & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local (AWS metadata fd00:ec2::254)
  if ((a & 0xffc0) === 0xfe80 || (a & 0xffc0) === 0xfec0) return 'private'; // link-local, site-local
  if ((a & 0xff00) === 0xff00) return 'private'; // multicast
  if (a === 0x64 && b === 0xff9b && c === 1) return 'private'; // 64:ff9b:1::/48 local-use NAT64
  if (a === 0x100 && b === 0 && c === 0 && d === 0) return 'private'; // 100::/64 discard
  if (a === 0x2001 && (b < 0x200 || b === 0xdb8)) return 'private'; // 2001::/23 protocol assignments (Teredo…), 2001:db8::/32
  if ((a & 0xe000) !== 0x2000) return 'private'; // only 2000::/3 is global unicast
  return 'public';
}

export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.split('%')[0] ?? '');
  if (family === 4) return classifyIpv4(parseIpv4(bare) ?? 0);
  const groups = family === 6 ? parseIpv6(bare) : undefined;
  return groups ? classifyIpv6(groups) : 'private';
}
