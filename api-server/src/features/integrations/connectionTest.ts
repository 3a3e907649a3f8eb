/**
 * Connection tests: one small authenticated read of the service's API with the stored credentials
 * (SERVICE_DEFAULTS testPath on the integration's `baseUrl`), through the guarded client.
 *
 * - Every service: GET {baseUrl}{testPath} with the integration's Authorization header (OAuth 2:
 *   the access token, refreshed first when it is about to expire; basic: the user and password).
 *   The experience platform also sends `x-api-key` (the client id) and `x-gw-ims-org-id`. A 2xx
 *   answer passes; anything else fails with the service's connectionFailCode.
 * - Ad services also check that the configured ad account is one the token sees (else 13):
 *   Meta `GET /me/adaccounts` → `{data:[{id:"act_<id>", account_id:"<id>"}]}`; Google Ads
 *   `GET /customers:listAccessibleCustomers` → `{resourceNames:["customers/<id>"]}` (dashes in the
 *   configured id ignored); TikTok `GET /oauth2/advertiser/get/` → `{code:0, data:{list:[{advertiser_id}]}}`
 *   (a non-zero `code` is a failure).
 * - Object storage: a signed (AWS signature v4) ListObjectsV2 of one key on the bucket.
 */
import { AwsV4Signer } from 'aws4fetch';
import { ErrorCode, SERVICE_DEFAULTS, fail, ok, type ErrorCodeValue, type IntegrationService, type Result } from '@gd/shared';
import { NetError, guardedRequest, readBody, type NetPolicy } from '../../net/index.ts';
import type { IntegrationAccess } from './access.ts';
import { failCodeOf } from './access.ts';

const TEST_REQUEST = { connectTimeoutMs: 5_000, idleMs: 10_000, totalMs: 15_000, maxBytes: 1024 * 1024 } as const;

export interface TestOutcome { ms: number; accounts?: string[] | undefined }
export type TestFailure = { code: ErrorCodeValue; message: string };

const AD_SERVICES = new Set<string>(['meta_ads', 'google_ads', 'tiktok_ads']);

export function baseUrlOf(a: Pick<IntegrationAccess, 'service' | 'config'>): string {
  const configured = typeof a.config.baseUrl === 'string' && a.config.baseUrl ? a.config.baseUrl : SERVICE_DEFAULTS[a.service as IntegrationService].baseUrl;
  return configured.replace(/\/+$/, '');
}

/** Extra headers a service's API wants besides Authorization. */
export function serviceHeaders(a: Pick<IntegrationAccess, 'service' | 'config' | 'authorization'>): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (a.authorization) headers.authorization = a.authorization;
  if (a.service === 'adobe_experience_platform') {
    if (typeof a.config.clientId === 'string') headers['x-api-key'] = a.config.clientId;
    if (typeof a.config.imsOrgId === 'string') headers['x-gw-ims-org-id'] = a.config.imsOrgId;
  }
  return headers;
}

/** The ad account ids an ad service's answer lists (normalised: digits and letters only). */
export function accountsOf(service: string, body: unknown): string[] | null {
  const o = body as Record<string, unknown> | null;
  if (!o || typeof o !== 'object') return null;
  if (service === 'meta_ads' && Array.isArray(o.data)) {
    return o.data.flatMap((d: unknown) => {
      const r = d as { account_id?: unknown; id?: unknown };
      const id = typeof r.account_id === 'string' ? r.account_id : typeof r.id === 'string' ? r.id.replace(/^act_/, '') : null;
      return id ? [id] : [];
    });
  }
  if (service === 'google_ads' && Array.isArray(o.resourceNames)) {
    return o.resourceNames.flatMap((n: unknown) => (typeof n === 'string' && n.startsWith('customers/') ? [n.slice('customers/'.length)] : []));
  }
  if (service === 'tiktok_ads') {
    const data = o.data as { list?: unknown } | undefined;
    if (o.code !== 0 || !data || !Array.isArray(data.list)) return null;
    return data.list.flatMap((d: unknown) => {
      const id = (d as { advertiser_id?: unknown }).advertiser_id;
      return typeof id === 'string' || typeof id === 'number' ? [String(id)] : [];
    });
  }
  return null;
}

export const normaliseAccount = (id: string) => id.replace(/^act_/, '').replace(/[^A-Za-z0-9]/g, '');

async function get(url: string, headers: Record<string, string>, policy: NetPolicy): Promise<{ status: number; text: string }> {
  const res = await guardedRequest(url, policy, { ...TEST_REQUEST, method: 'GET', headers });
  return { status: res.status, text: (await readBody(res)).toString('utf8') };
}

async function s3Test(a: IntegrationAccess, policy: NetPolicy): Promise<{ status: number; text: string }> {
  const c = a.config as { endpoint?: string; region?: string; bucket?: string; accessKeyId?: string };
  const signer = new AwsV4Signer({
    url: `${(c.endpoint ?? '').replace(/\/+$/, '')}/${encodeURIComponent(c.bucket ?? '')}?list-type=2&max-keys=1`, method: 'GET', service: 's3',
    region: c.region ?? '', accessKeyId: c.accessKeyId ?? '', secretAccessKey: a.secrets.secretAccessKey ?? '',
  });
  const signed = await signer.sign();
  const headers: Record<string, string> = {};
  signed.headers.forEach((value, name) => {
    if (name !== 'host') headers[name] = value;
  });
  return get(signed.url.toString(), headers, policy);
}

/** Calls the service once with the integration's credentials (see the module doc). */
export async function testConnection(a: IntegrationAccess, policy: NetPolicy): Promise<Result<TestOutcome>> {
  const code = failCodeOf(a.service);
  const started = Date.now();
  let answer: { status: number; text: string };
  try {
    answer = a.service === 's3'
      ? await s3Test(a, policy)
      : await get(`${baseUrlOf(a)}${SERVICE_DEFAULTS[a.service as IntegrationService].testPath}`, serviceHeaders(a), policy);
  } catch (error) {
    const why = error instanceof NetError ? error.message : 'the connection failed';
    return fail(code, `The service could not be reached: ${why}`);
  }
  const ms = Date.now() - started;
  if (answer.status === 401 || answer.status === 403) return fail(code, `The service refused the credentials (HTTP ${answer.status})`);
  if (answer.status < 200 || answer.status >= 300) return fail(code, `The service answered HTTP ${answer.status}`);
  if (!AD_SERVICES.has(a.service)) return ok({ ms });
  let body: unknown = null;
  try {
    body = JSON.parse(answer.text);
  } catch { /* below */ }
  const accounts = accountsOf(a.service, body);
  if (!accounts) return fail(code, 'The service answered without the list of ad accounts');
  const configured = typeof a.config.adAccountId === 'string' ? a.config.adAccountId : '';
  const wanted = normaliseAccount(configured);
  if (!accounts.some((id) => normaliseAccount(id) === wanted)) {
    return fail(ErrorCode.AD_ACCOUNT_NOT_EXIST, `The ad account ${configured} is not among the accounts this authorization sees`);
  }
  return ok({ ms, accounts });
}
