/**
 * Meta Marketing API custom audiences (customer list):
 * - create: `POST {baseUrl}/act_{adAccountId}/customaudiences` `{ name, description, subtype: 'CUSTOM',
 *   customer_file_source: 'USER_PROVIDED_ONLY' }` -> `{ id }`;
 * - add / remove: `POST` / `DELETE {baseUrl}/{audience_id}/users` with `payload: { schema: META_SCHEMA,
 *   data: [[EMAIL, PHONE, MADID, EXTERN_ID], ...] }` and `session: { session_id, batch_seq,
 *   last_batch_flag, estimated_num_total }` (one session per run's additions or removals).
 * `baseUrl` carries the Graph API version (https://graph.facebook.com/v19.0). The token goes in
 * the Authorization header. Graph errors: 400 with `error.code` 190 (token) or 100 (object unknown:
 * on creation, the ad account is not the token's: 13).
 */
import { randomInt } from 'node:crypto';
import { ErrorCode, type ErrorCodeValue, META_SCHEMA, type UploadRow } from '@gd/shared';
import type { IntegrationAccess } from '../../integrations/access.ts';
import type { NetPolicy } from '../../../net/index.ts';
import { NOTHING_FAILED, PlatformFailure, reasonOf, requestJson, type JsonAnswer, type PlatformUploader } from './http.ts';

export function metaUploader(access: IntegrationAccess, policy: NetPolicy, failCode: ErrorCodeValue, baseUrl: string): PlatformUploader {
  const label = 'Meta';
  const headers = { authorization: access.authorization };
  const failure = (answer: JsonAnswer, what: string) => new PlatformFailure(failCode, `${label} refused ${what} (HTTP ${answer.status}): ${reasonOf(answer, ['error', 'message'])}`);
  return {
    label,
    async createAudience(name, description) {
      const account = (typeof access.config.adAccountId === 'string' ? access.config.adAccountId : '').replace(/^act_/, '');
      if (!/^\d+$/.test(account)) throw new PlatformFailure(ErrorCode.AD_ACCOUNT_NOT_EXIST, 'The integration names no Meta ad account (adAccountId): set it in Integrations');
      const answer = await requestJson(policy, `${baseUrl}/act_${account}/customaudiences`, {
        method: 'POST', headers, body: JSON.stringify({ name, description, subtype: 'CUSTOM', customer_file_source: 'USER_PROVIDED_ONLY' }),
      }, label, failCode);
      const id = (answer.json as { id?: unknown } | undefined)?.id;
      if (answer.status === 200 && typeof id === 'string') return id;
      const graphCode = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
      if (graphCode === 100) throw new PlatformFailure(ErrorCode.AD_ACCOUNT_NOT_EXIST, `The ad account act_${account} is not among those the integration reaches: ${reasonOf(answer, ['error', 'message'])}`);
      throw failure(answer, 'the new custom audience');
    },
    session(audienceId, op, total) {
      const sessionId = randomInt(1, 2 ** 47);
      let seq = 0;
      return {
        async send(rows: UploadRow[], last: boolean) {
          seq++;
          const body = {
            payload: { schema: META_SCHEMA, data: rows.map((r) => META_SCHEMA.map((k) => r[k] ?? '')) },
            session: { session_id: sessionId, batch_seq: seq, last_batch_flag: last, estimated_num_total: total },
          };
          const answer = await requestJson(policy, `${baseUrl}/${encodeURIComponent(audienceId)}/users`, { method: op === 'add' ? 'POST' : 'DELETE', headers, body: JSON.stringify(body) }, label, failCode);
          if (answer.status !== 200) throw failure(answer, op === 'add' ? 'the upload' : 'the removal');
          return NOTHING_FAILED;
        },
        close: () => Promise.resolve(),
      };
    },
  };
}
