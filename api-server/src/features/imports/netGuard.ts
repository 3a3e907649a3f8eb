/**
 * File addresses (SPEC.md section 5: "private addresses are excluded"), in the imports' words. The
 * ranges and the connect-time check live in the outgoing connection module (`net/addresses.ts`,
 * `net/socket.ts`): every import connection resolves and checks its host when it connects, and goes
 * only to the addresses checked, so a DNS answer that changes in between (DNS rebinding) cannot
 * reach an internal service. `resolvePublic` is the check an import makes when it is created or
 * edited (netConfig.ts), failing as CopyImportFileError.
 *
 * `allowed` (config OUTGOING_ALLOW_LOOPBACK, set only by tests) lists loopback addresses let
 * through anyway, so tests can use servers on this machine.
 */
import type { BlockList } from 'node:net';
import { NetError, allowList, checkedAddresses, embeddedIpv4, isRefusedAddress, type ResolvedAddress } from '../../net/index.ts';
import { ImportFailure } from './errors.ts';

export { allowList, embeddedIpv4, isRefusedAddress };

export interface ResolvedHost extends ResolvedAddress { host: string }

/** Resolves `host` and checks every address; throws CopyImportFileError naming the refused address. */
export async function resolvePublic(host: string, allowed?: BlockList): Promise<ResolvedHost> {
  const bare = host.replace(/^\[|\]$/g, '');
  try {
    const found = await checkedAddresses(bare, allowed);
    const { address, family } = found[0] ?? { address: bare, family: 4 };
    return { host: bare, address, family };
  } catch (error) {
    if (!(error instanceof NetError)) throw error;
    const message = error.reason === 'refused_address' ? `${error.message}; file addresses must be public` : error.message;
    throw new ImportFailure('CopyImportFileError', `CopyImportFileError: ${message}`, { recoverable: error.transient, cause: error });
  }
}
