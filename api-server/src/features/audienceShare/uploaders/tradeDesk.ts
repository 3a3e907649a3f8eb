/**
 * The Trade Desk Data API (first-party advertiser data): `POST {data host}/data/advertiser` with
 * `{ AdvertiserId, Items: [{ DAID, Data: [{ Name: <segment>, TTLInMinutes }] }] }`, signed with the
 * header `TtdSignature`: base64 HMAC-SHA1 of the body with the advertiser's secret key. A TTL of
 * TTD_TTL_MINUTES adds (and renews) a device; 0 removes it. Segments need no creation: the first
 * data names one. The answer's `FailedLines` (by item index) are the items not taken.
 *
 * Settings: `advertiserId` (config); the secret key is the integration's secret `secretKey`, else
 * its password (the integration signs in with basic credentials: user name and the Data API key).
 * The data host: config `dataUrl`, else https://use-data.adsrvr.org for the public API, else the
 * origin of `baseUrl` (a self-hosted or test server answering both).
 */
import { createHmac } from 'node:crypto';
import { ErrorCode, type ErrorCodeValue, TTD_TTL_MINUTES, type UploadRow } from '@gd/shared';
import type { IntegrationAccess } from '../../integrations/access.ts';
import type { NetPolicy } from '../../../net/index.ts';
import { PlatformFailure, reasonOf, requestJson, type PlatformUploader } from './http.ts';

const PUBLIC_API_HOST = 'api.thetradedesk.com';
const PUBLIC_DATA_URL = 'https://use-data.adsrvr.org';

export function dataUrlOf(config: Record<string, unknown>, baseUrl: string): string {
  if (typeof config.dataUrl === 'string' && config.dataUrl !== '') return config.dataUrl.replace(/\/+$/, '');
  const base = new URL(baseUrl);
  return base.hostname === PUBLIC_API_HOST ? PUBLIC_DATA_URL : base.origin;
}

export function tradeDeskUploader(access: IntegrationAccess, policy: NetPolicy, failCode: ErrorCodeValue, baseUrl: string): PlatformUploader {
  const label = 'The Trade Desk';
  const advertiserId = typeof access.config.advertiserId === 'string' ? access.config.advertiserId : '';
  const secretKey = access.secrets.secretKey ?? access.secrets.password ?? '';
  const url = `${dataUrlOf(access.config, baseUrl)}/data/advertiser`;
  return {
    label,
    // A segment is made by its first data: its name is the id.
    createAudience: (name) => Promise.resolve(name),
    session(segment, op) {
      return {
        async send(rows: UploadRow[]) {
          if (advertiserId === '') throw new PlatformFailure(ErrorCode.AD_ACCOUNT_NOT_EXIST, 'The integration names no Trade Desk advertiser (advertiserId): set it in Integrations');
          const ttl = op === 'add' ? TTD_TTL_MINUTES : 0;
          const body = JSON.stringify({ AdvertiserId: advertiserId, Items: rows.map((r) => ({ ...r, Data: [{ Name: segment, TTLInMinutes: ttl }] })) });
          const signature = createHmac('sha1', secretKey).update(body, 'utf8').digest('base64');
          const answer = await requestJson(policy, url, { method: 'POST', headers: { TtdSignature: signature }, body }, label, failCode);
          if (answer.status !== 200) throw new PlatformFailure(failCode, `${label} refused ${op === 'add' ? 'the upload' : 'the removal'} (HTTP ${answer.status}): ${reasonOf(answer, ['Message'])}`);
          const failed = (answer.json as { FailedLines?: { Index?: unknown }[] } | undefined)?.FailedLines ?? [];
          return new Set(failed.map((f) => f.Index).filter((i): i is number => typeof i === 'number'));
        },
        close: () => Promise.resolve(),
      };
    },
  };
}
