/**
 * Google Ads Customer Match through OfflineUserDataJobService (REST):
 * - create the list: `POST {baseUrl}/customers/{customerId}/userLists:mutate` with a CrmBasedUserList
 *   (uploadKeyType CONTACT_INFO, dataSourceType FIRST_PARTY) -> `results[0].resourceName`;
 * - a run's additions (or removals) are one job: `offlineUserDataJobs:create` (type
 *   CUSTOMER_MATCH_USER_LIST, the list, consent granted: the app's people agreed to its terms),
 *   then `{job}:addOperations` per batch (`create` or `remove` operations of `userIdentifiers`:
 *   hashedEmail, hashedPhoneNumber), then `{job}:run`. Google processes the job in the background
 *   (up to a day); the share is ready once the job runs.
 * `baseUrl` carries the API version (https://googleads.googleapis.com/v17). Headers: the Bearer
 * token, `developer-token` (secret `developerToken`, or config `developerToken`) and
 * `login-customer-id` (config `loginCustomerId`, when a manager account signs in). The customer id
 * is the integration's adAccountId, dashes dropped. A customer the token does not reach (403
 * PERMISSION_DENIED / CUSTOMER_NOT_FOUND) answers 13.
 */
import { ErrorCode, type ErrorCodeValue, type UploadRow } from '@gd/shared';
import type { IntegrationAccess } from '../../integrations/access.ts';
import type { NetPolicy } from '../../../net/index.ts';
import { NOTHING_FAILED, PlatformFailure, reasonOf, requestJson, type JsonAnswer, type PlatformUploader } from './http.ts';

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export function googleAdsUploader(access: IntegrationAccess, policy: NetPolicy, failCode: ErrorCodeValue, baseUrl: string): PlatformUploader {
  const label = 'Google Ads';
  const customer = (typeof access.config.adAccountId === 'string' ? access.config.adAccountId : '').replace(/-/g, '');
  const developerToken = text(access.secrets.developerToken) ?? text(access.config.developerToken);
  const loginCustomer = text(access.config.loginCustomerId)?.replace(/-/g, '');
  const headers: Record<string, string> = {
    authorization: access.authorization,
    ...(developerToken ? { 'developer-token': developerToken } : {}),
    ...(loginCustomer ? { 'login-customer-id': loginCustomer } : {}),
  };
  const call = (path: string, body: unknown) => requestJson(policy, `${baseUrl}/${path}`, { method: 'POST', headers, body: JSON.stringify(body) }, label, failCode);
  const failure = (answer: JsonAnswer, what: string) => {
    const reason = reasonOf(answer, ['error', 'message']);
    const status = (answer.json as { error?: { status?: unknown } } | undefined)?.error?.status;
    if (answer.status === 403 && status === 'PERMISSION_DENIED') return new PlatformFailure(ErrorCode.AD_ACCOUNT_NOT_EXIST, `The Google Ads customer ${customer} is not among those the integration reaches: ${reason}`);
    if (/CUSTOMER_NOT_FOUND/.test(answer.text)) return new PlatformFailure(ErrorCode.AD_ACCOUNT_NOT_EXIST, `The Google Ads customer ${customer} does not exist: ${reason}`);
    return new PlatformFailure(failCode, `${label} refused ${what} (HTTP ${answer.status}): ${reason}`);
  };
  const ensureCustomer = () => {
    if (!/^\d+$/.test(customer)) throw new PlatformFailure(ErrorCode.AD_ACCOUNT_NOT_EXIST, 'The integration names no Google Ads customer (adAccountId): set it in Integrations');
  };
  return {
    label,
    async createAudience(name, description) {
      ensureCustomer();
      const answer = await call(`customers/${customer}/userLists:mutate`, {
        operations: [{ create: { name, description, membershipLifeSpan: 10000, crmBasedUserList: { uploadKeyType: 'CONTACT_INFO', dataSourceType: 'FIRST_PARTY' } } }],
      });
      const resourceName = (answer.json as { results?: { resourceName?: unknown }[] } | undefined)?.results?.[0]?.resourceName;
      if (answer.status === 200 && typeof resourceName === 'string') return resourceName;
      throw failure(answer, 'the new Customer Match list');
    },
    session(userList, op) {
      let job: string | null = null;
      return {
        async send(rows: UploadRow[]) {
          ensureCustomer();
          if (job === null) {
            const created = await call(`customers/${customer}/offlineUserDataJobs:create`, {
              job: { type: 'CUSTOMER_MATCH_USER_LIST', customerMatchUserListMetadata: { userList, consent: { adUserData: 'GRANTED', adPersonalization: 'GRANTED' } } },
            });
            const name = (created.json as { resourceName?: unknown } | undefined)?.resourceName;
            if (created.status !== 200 || typeof name !== 'string') throw failure(created, 'the upload job');
            job = name;
          }
          const operations = rows.map((r) => ({ [op === 'add' ? 'create' : 'remove']: { userIdentifiers: Object.entries(r).map(([k, v]) => ({ [k]: v })) } }));
          const answer = await call(`${job}:addOperations`, { enablePartialFailure: false, operations });
          if (answer.status !== 200) throw failure(answer, op === 'add' ? 'the upload' : 'the removal');
          return NOTHING_FAILED;
        },
        async close() {
          if (job === null) return;
          const answer = await call(`${job}:run`, {});
          if (answer.status !== 200) throw failure(answer, 'running the upload job');
        },
      };
    },
  };
}
