/** The import network settings of a configuration, read once: the private allow-list and extra CAs. */
import { readFileSync } from 'node:fs';
import type { BlockList } from 'node:net';
import type { FieldIssue, ImportSourceInput } from '@gd/shared';
import type { Config } from '../../config.ts';
import { ImportFailure } from './errors.ts';
import { allowList, resolvePublic } from './netGuard.ts';

export interface ImportNet { allowPrivate: BlockList; extraCa: string | undefined }

const cache = new WeakMap<Config, ImportNet>();

export function importNet(config: Config): ImportNet {
  let net = cache.get(config);
  if (!net) {
    net = {
      allowPrivate: allowList(config.IMPORT_ALLOW_PRIVATE_HOSTS),
      extraCa: config.IMPORT_EXTRA_CA_FILE ? readFileSync(config.IMPORT_EXTRA_CA_FILE, 'utf8') : undefined,
    };
    cache.set(config, net);
  }
  return net;
}

/** The hosts a source will connect to, with the field that names each. */
function hostsOf(source: ImportSourceInput): { path: string; host: string }[] {
  switch (source.type) {
    case 'csv':
    case 'csv_dynamic':
      return source.csvFileURL ? [{ path: 'source.csvFileURL', host: new URL(source.csvFileURL).hostname }] : [];
    case 'https':
      return [{ path: 'source.httpsFileUrl', host: new URL(source.httpsFileUrl).hostname }];
    case 'ftp':
      return [{ path: 'source.ftpHost', host: source.ftpHost }];
    case 's3':
    case 'performance_report':
    case 'segment':
      return [];
    default: {
      const never: never = source;
      throw new Error(`unknown import type ${String(never)}`);
    }
  }
}

/**
 * Problems with the addresses a source names, as field issues with a code: `private_address`, or
 * `host_not_found` (a host that does not resolve). ISSUE_TEXT says them in English.
 */
export async function addressProblems(hosts: readonly { path: string; host: string }[], net: ImportNet): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  for (const { path, host } of hosts) {
    try {
      await resolvePublic(host, net.allowPrivate);
    } catch (error) {
      if (!(error instanceof ImportFailure)) throw error;
      // A code the client translates (imports.issue.*); the answer's message says it in English.
      issues.push({ path, message: /private address/.test(error.message) ? 'private_address' : 'host_not_found' });
    }
  }
  return issues;
}

export const sourceAddressProblems = (source: ImportSourceInput, net: ImportNet) => addressProblems(hostsOf(source), net);

/** The English of the address issue codes, for the KO answer's message. */
export const ISSUE_TEXT: Readonly<Record<string, string>> = {
  private_address: 'the address is private; file addresses must be public',
  host_not_found: 'the host could not be resolved',
};
