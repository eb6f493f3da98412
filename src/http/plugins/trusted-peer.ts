/**
 * Whether the directly connected peer is a proxy that TRUST_PROXY names, as
 * Fastify (proxy-addr) decides it for `X-Forwarded-For`: `true` and a hop
 * count trust every peer; a list trusts its addresses, CIDRs and the named
 * ranges `loopback`, `linklocal` and `uniquelocal`.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const namedRanges: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

export function trustedPeer(trustProxy: boolean | number | string[]): (address: string) => boolean {
  if (trustProxy === false) return () => false;
  if (trustProxy === true || typeof trustProxy === 'number') return () => trustProxy !== 0;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const named = namedRanges[entry];
    if (named) {
      for (const [network, prefix, family] of named) list.addSubnet(network, prefix, family);
      continue;
    }
    const [network = '', prefix] = entry.split('/');
    const family = isIPv6(network) ? 'ipv6' : 'ipv4';
    if (!isIPv4(network) && !isIPv6(network)) continue;
    if (prefix === undefined) list.addAddress(network, family);
    else list.addSubnet(network, Number(prefix), family);
  }
  return (address) => {
    if (isIPv4(address)) return list.check(address, 'ipv4');
    return isIPv6(address) && list.check(address, 'ipv6');
  };
}
