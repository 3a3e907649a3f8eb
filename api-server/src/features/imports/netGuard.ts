/**
 * File addresses (SPEC.md section 5: "private addresses are excluded"): before any connection the
 * host is resolved and every address it resolves to must be public; the connection then goes to
 * that resolved address (the `lookup` below), so a DNS answer that changes between the check and
 * the connection (DNS rebinding) cannot reach an internal service.
 *
 * Refused: unspecified, loopback, private (RFC 1918), carrier-grade NAT, link-local (which holds
 * the cloud metadata address 169.254.169.254), benchmark, documentation, multicast and reserved
 * ranges, IPv6 loopback, unique-local (fc00::/7, incl. fd00:ec2::254), link-local, site-local,
 * multicast, documentation (2001:db8::/32, 3fff::/20), and IPv4 addresses written as IPv6 in any form (`embeddedIpv4` of
 * shared: IPv4-compatible ::7f00:1, mapped, SIIT, NAT64, 6to4) when the IPv4 address is refused.
 *
 * `allowPrivate` (config IMPORT_ALLOW_PRIVATE_HOSTS, set only by tests) lists addresses or CIDR
 * ranges let through anyway, so tests can use servers on loopback.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { embeddedIpv4 } from '@gd/shared';
import { ImportFailure } from './errors.ts';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['3fff::', 20], ['100::', 64], ['2001::', 23],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

export { embeddedIpv4 };

/** Parses "127.0.0.1, 10.0.0.0/8, ::1" into a list that answers whether an address is allowed anyway. */
export function allowList(spec: string | undefined): BlockList {
  const list = new BlockList();
  for (const item of (spec ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr = '', prefix] = item.split('/');
    const family = isIP(addr);
    if (!family) throw new Error(`IMPORT_ALLOW_PRIVATE_HOSTS: "${item}" is not an address or CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(prefix), type);
  }
  return list;
}

/** True when the address may not be reached by an import. */
export function isRefusedAddress(address: string, allowed?: BlockList): boolean {
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

export interface ResolvedHost { host: string; address: string; family: 4 | 6 }

/** Resolves `host` and checks every address; throws CopyImportFileError naming the refused address. */
export async function resolvePublic(host: string, allowed?: BlockList): Promise<ResolvedHost> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(bare)) addresses = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      addresses = await dnsLookup(bare, { all: true, verbatim: true });
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new ImportFailure('CopyImportFileError', `CopyImportFileError: the host ${bare} could not be resolved (${code ?? 'DNS error'})`, {
        recoverable: code === 'EAI_AGAIN', cause: error,
      });
    }
  }
  const refused = addresses.find((a) => isRefusedAddress(a.address, allowed));
  if (refused || addresses.length === 0) {
    throw new ImportFailure('CopyImportFileError', `CopyImportFileError: ${bare} is a private address${refused && refused.address !== bare ? ` (${refused.address})` : ''}; file addresses must be public`);
  }
  const first = addresses[0] as { address: string; family: number };
  return { host: bare, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` for http(s)/net/tls that answers only the address checked before. */
export function pinnedLookup(resolved: ResolvedHost): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, list: { address: string; family: number }[]) => void)(null, [{ address: resolved.address, family: resolved.family }]);
    } else callback(null, resolved.address, resolved.family);
  };
}
