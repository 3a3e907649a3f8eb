/**
 * Which addresses an outgoing request may reach (SPEC.md section 5: "private addresses are
 * excluded"): only public ones. Checked on the address a connection goes to, at connect time
 * (socket.ts `guardedLookup`), never only on the name or URL someone typed.
 *
 * Refused: unspecified, loopback, private (RFC 1918), carrier-grade NAT, link-local (which holds
 * the cloud metadata address 169.254.169.254), IETF protocol assignments, benchmark,
 * documentation, 6to4 relay, multicast and reserved ranges; IPv6 loopback, unique-local (fc00::/7,
 * incl. fd00:ec2::254), link-local, site-local, multicast, documentation (2001:db8::/32,
 * 3fff::/20), discard-only and IETF protocol assignments; any address with a zone (fe80::1%eth0);
 * and IPv4 addresses written as IPv6 in any form (shared `embeddedIpv4`: IPv4-compatible ::7f00:1,
 * mapped, SIIT, NAT64, 6to4) when the IPv4 address is refused. The same ranges as shared
 * `isNonPublicAddress` (formats.ts), the syntactic check forms make; a property test keeps the two
 * equal (features/imports/netGuard.property.test.ts).
 *
 * The allow list (config OUTGOING_ALLOW_LOOPBACK, set only by tests) lets chosen loopback addresses
 * through, so tests can run servers on 127.0.0.1; it takes nothing but loopback addresses, so no
 * configuration can open the private network or the metadata address.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import { embeddedIpv4, ipv4HostNumber, isPrivateHost } from '@gd/shared';
import { NetError } from './errors.ts';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['3fff::', 20], ['100::', 64], ['2001::', 23],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export { embeddedIpv4 };

/**
 * Parses "127.0.0.1, 127.0.0.0/29, ::1" into the addresses let through although private. Only
 * loopback addresses and ranges inside 127.0.0.0/8 are taken; anything else fails at start-up.
 */
export function allowList(spec: string | undefined): BlockList {
  const list = new BlockList();
  for (const item of (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr = '', prefixText] = item.split('/');
    const family = isIP(addr);
    const prefix = prefixText === undefined ? (family === 6 ? 128 : 32) : Number(prefixText);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    const inLoopback = family !== 0 && Number.isInteger(prefix) && loopback.check(addr, type) && (family === 4 ? prefix >= 8 && prefix <= 32 : prefix === 128);
    if (!inLoopback) throw new Error(`OUTGOING_ALLOW_LOOPBACK: "${item}" is not a loopback address or a range inside 127.0.0.0/8 (only test servers on this machine may be let through)`);
    if (prefixText === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, prefix, type);
  }
  return list;
}

/** True when an outgoing connection may not reach the address (anything that is no IP address included). */
export function isRefusedAddress(address: string, allowed?: BlockList): boolean {
  if (address.includes('%')) return true;
  const family = isIP(address);
  if (!family) return true;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allowed?.check(address, type)) return false;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return isRefusedAddress(v4, allowed);
  }
  return blocked.check(address, type);
}

export interface ResolvedAddress { address: string; family: 4 | 6 }

/** Answers every address a name stands for (the system's resolver, or a test's). */
export type Resolver = (host: string) => Promise<readonly { address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export const refusedAddressError = (host: string, address: string) =>
  new NetError('refused_address', `${host} is a private address${address !== host ? ` (${address})` : ''}`);

/**
 * Every address `host` stands for, each of them checked: an IP literal answers itself (no DNS),
 * a name is resolved. Throws NetError: `refused_address` naming the first refused address (one
 * refused address refuses the name), `host_not_found` when the name does not resolve.
 */
export async function checkedAddresses(host: string, allowed: BlockList | undefined, resolve: Resolver = systemResolver): Promise<ResolvedAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  let found: readonly { address: string; family: number }[];
  if (bare === '') throw new NetError('refused_address', 'the address names no host');
  // Names of this machine and of local networks (localhost., x.localhost, .local, .internal): refused by name, whatever DNS says.
  if (!isIP(bare) && ipv4HostNumber(bare) === null && isPrivateHost(bare)) throw refusedAddressError(bare, bare);
  if (isIP(bare) || bare.includes('%')) found = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      found = await resolve(bare);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const text = typeof code === 'string' ? code : 'DNS error';
      throw new NetError('host_not_found', `the host ${bare} could not be resolved (${text})`, { transient: code === 'EAI_AGAIN', code: typeof code === 'string' ? code : 'ENOTFOUND', cause: error });
    }
  }
  if (found.length === 0) throw new NetError('host_not_found', `the host ${bare} could not be resolved (no address)`, { code: 'ENOTFOUND' });
  const refused = found.find((a) => isRefusedAddress(a.address, allowed));
  if (refused) throw refusedAddressError(bare, refused.address);
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}
