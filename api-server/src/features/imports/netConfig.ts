/** The addresses an import source names, checked when the import is created or edited (each connection checks again). */
import type { FieldIssue, ImportSourceInput } from '@gd/shared';
import { NetError, checkedAddresses, type NetPolicy } from '../../net/index.ts';

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
    case 'adobe':
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
export async function addressProblems(hosts: readonly { path: string; host: string }[], policy: NetPolicy): Promise<FieldIssue[]> {
  const issues: FieldIssue[] = [];
  for (const { path, host } of hosts) {
    try {
      await checkedAddresses(host, policy.allow, policy.resolve);
    } catch (error) {
      if (!(error instanceof NetError)) throw error;
      // A code the client translates (imports.issue.*); the answer's message says it in English.
      issues.push({ path, message: error.reason === 'refused_address' ? 'private_address' : 'host_not_found' });
    }
  }
  return issues;
}

export const sourceAddressProblems = (source: ImportSourceInput, policy: NetPolicy) => addressProblems(hostsOf(source), policy);

/** The English of the address issue codes, for the KO answer's message. */
export const ISSUE_TEXT: Readonly<Record<string, string>> = {
  private_address: 'the address is private; file addresses must be public',
  host_not_found: 'the host could not be resolved',
  host_key_sftp_only: 'only SFTP servers have a host key: tick secure (SFTP) or leave the fingerprint empty',
};
