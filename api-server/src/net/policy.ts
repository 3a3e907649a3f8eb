/**
 * What outgoing requests may reach and trust, read once per configuration: the loopback addresses
 * tests let through (OUTGOING_ALLOW_LOOPBACK; empty, so nothing private, unless set) and extra
 * certificate authorities trusted besides the system's (OUTGOING_EXTRA_CA_FILE). TLS checks are
 * never turned off.
 */
import { readFileSync } from 'node:fs';
import type { BlockList } from 'node:net';
import type { Config } from '../config.ts';
import { allowList, systemResolver, type Resolver } from './addresses.ts';

export interface NetPolicy {
  /** Loopback addresses let through although private (tests only). */
  allow: BlockList;
  /** Extra trusted certificate authorities (PEM), added to the system's. */
  extraCa?: string | undefined;
  /** How names are resolved: the system's resolver; a test may answer names itself (DNS rebinding). */
  resolve?: Resolver;
}

/** Public addresses only, the system's authorities and resolver. */
export const publicOnly = (): NetPolicy => ({ allow: allowList(undefined) });

const cache = new WeakMap<Config, NetPolicy>();

export function netPolicy(config: Config): NetPolicy {
  let policy = cache.get(config);
  if (!policy) {
    policy = {
      allow: allowList(config.OUTGOING_ALLOW_LOOPBACK),
      extraCa: config.OUTGOING_EXTRA_CA_FILE ? readFileSync(config.OUTGOING_EXTRA_CA_FILE, 'utf8') : undefined,
      resolve: systemResolver,
    };
    cache.set(config, policy);
  }
  return policy;
}
