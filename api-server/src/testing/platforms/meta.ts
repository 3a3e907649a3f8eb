/**
 * A loopback Meta Marketing API (Graph API) for custom audiences, as documented:
 *
 * - `POST /{version}/act_{ad_account_id}/customaudiences` with `name`, `subtype=CUSTOM` and
 *   `customer_file_source` creates a customer-list audience: `{ "id": "<audience id>" }`.
 * - `POST /{version}/{audience_id}/users` adds users, `DELETE` the same path removes them. The
 *   parameters (JSON body or form fields, a form field's value being JSON) are `payload`:
 *   `{ "schema": "EMAIL_SHA256" | ["EMAIL", "PHONE", ...], "data": [...] }` (one value per user for
 *   a single key, one array per user in the schema's order for several keys; '' where unknown),
 *   and optionally `session`: `{ session_id, batch_seq, last_batch_flag, estimated_num_total }`.
 *   At most 10,000 users per request. Answer: `{ audience_id, session_id, num_received,
 *   num_invalid_entries, invalid_entry_samples }`. EMAIL, PHONE and EXTERN_ID must be SHA-256 hex
 *   (lower case); MADID is sent in the clear, lower case.
 * - The access token: `Authorization: Bearer <token>` or the `access_token` parameter. A wrong one
 *   answers 400 `{ "error": { "message", "type": "OAuthException", "code": 190, "fbtrace_id" } }`;
 *   an unknown object, 400 with code 100 (as the Graph API does).
 *
 * `audiences` holds each audience's users (keyed by their row), for tests to read.
 */
import { randomBytes } from 'node:crypto';
import { HEX64, jsonBody, startLoopbackPlatform, type LoopbackPlatform, type PlatformAnswer, type TakenRequest } from './server.ts';

export interface MetaAudience { name: string; adAccountId: string; users: Map<string, Record<string, string>> }

export interface MetaFixture extends LoopbackPlatform {
  /** The integration's baseUrl (origin + version). */
  baseUrl: string;
  audiences: Map<string, MetaAudience>;
  /** Rows of an audience, sorted (for comparisons). */
  users(audienceId: string): Record<string, string>[];
}

const KEYS = new Set(['EMAIL', 'PHONE', 'MADID', 'EXTERN_ID', 'FN', 'LN', 'CT', 'ST', 'ZIP', 'COUNTRY', 'GEN', 'DOBY', 'MOBILE_ADVERTISER_ID', 'EMAIL_SHA256', 'PHONE_SHA256']);
const HASHED = new Set(['EMAIL', 'PHONE', 'EXTERN_ID', 'EMAIL_SHA256', 'PHONE_SHA256']);
export const META_VERSION = 'v19.0';
const MAX_USERS = 10_000;

const graphError = (code: number, message: string, type = 'OAuthException'): PlatformAnswer => ({
  status: 400, body: { error: { message, type, code, fbtrace_id: randomBytes(8).toString('base64url') } },
});

/** Graph API parameters: a JSON body, or form fields whose values may themselves be JSON. */
function params(req: TakenRequest, url: URL): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const json = jsonBody(req);
  if (json && typeof json === 'object') Object.assign(out, json);
  else if (req.body) for (const [k, v] of new URLSearchParams(req.body)) out[k] = v;
  for (const k of ['payload', 'session']) {
    if (typeof out[k] === 'string') {
      try { out[k] = JSON.parse(out[k]); } catch { /* left as text: refused below */ }
    }
  }
  return out;
}

export async function startMetaPlatform(opts: { accessToken: string; adAccounts: string[] }): Promise<MetaFixture> {
  const audiences = new Map<string, MetaAudience>();
  let nextId = 23850000000000000n;
  const prefix = `/${META_VERSION}/`;
  const platform = await startLoopbackPlatform((req, url) => {
    const p = params(req, url);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? (typeof p.access_token === 'string' ? p.access_token : undefined);
    if (bearer !== opts.accessToken) return graphError(190, 'Invalid OAuth access token - Cannot parse access token');
    if (!url.pathname.startsWith(prefix)) return graphError(2500, 'Unknown path components', 'OAuthException');
    const parts = url.pathname.slice(prefix.length).split('/');
    // act_<id>/customaudiences
    if (parts.length === 2 && parts[1] === 'customaudiences' && parts[0]!.startsWith('act_') && req.method === 'POST') {
      const account = parts[0]!.slice(4);
      if (!opts.adAccounts.includes(account)) return graphError(100, `Unsupported post request. Object with ID '${parts[0]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 'GraphMethodException');
      if (typeof p.name !== 'string' || p.name === '') return graphError(100, '(#100) The parameter name is required', 'OAuthException');
      if (p.subtype !== 'CUSTOM') return graphError(100, '(#100) Param subtype must be one of {CUSTOM, WEBSITE, APP, ...}');
      const id = String(nextId++);
      audiences.set(id, { name: p.name, adAccountId: account, users: new Map() });
      return { status: 200, body: { id } };
    }
    // <audience_id>/users
    if (parts.length === 2 && parts[1] === 'users' && (req.method === 'POST' || req.method === 'DELETE')) {
      const audience = audiences.get(parts[0]!);
      if (!audience) return graphError(100, `Unsupported ${req.method.toLowerCase()} request. Object with ID '${parts[0]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 'GraphMethodException');
      const payload = p.payload as { schema?: unknown; data?: unknown } | undefined;
      if (!payload || typeof payload !== 'object') return graphError(100, '(#100) The parameter payload is required');
      const schema = typeof payload.schema === 'string' ? [payload.schema] : payload.schema;
      if (!Array.isArray(schema) || schema.length === 0 || !schema.every((k) => typeof k === 'string' && KEYS.has(k))) return graphError(100, '(#100) Invalid schema');
      if (!Array.isArray(payload.data)) return graphError(100, '(#100) payload.data must be an array');
      if (payload.data.length > MAX_USERS) return graphError(100, `(#100) Too many users: at most ${MAX_USERS} per request`);
      const invalid: unknown[] = [];
      let received = 0;
      for (const entry of payload.data as unknown[]) {
        const values: unknown = schema.length === 1 && !Array.isArray(entry) ? [entry] : entry;
        if (!Array.isArray(values) || values.length !== schema.length) {
          invalid.push(entry);
          continue;
        }
        const row: Record<string, string> = {};
        let ok = true;
        (schema as string[]).forEach((key, i) => {
          const v: unknown = values[i];
          if (typeof v !== 'string') ok = false;
          else if (v !== '' && HASHED.has(key) && !HEX64.test(v)) ok = false;
          else if (v !== '' && key === 'MADID' && v !== v.toLowerCase()) ok = false;
          else row[key] = v;
        });
        if (!ok || Object.values(row).every((v) => v === '')) {
          invalid.push(entry);
          continue;
        }
        received++;
        const key = JSON.stringify(row);
        if (req.method === 'POST') audience.users.set(key, row);
        else audience.users.delete(key);
      }
      const session = p.session as { session_id?: number | string } | undefined;
      return {
        status: 200,
        body: {
          audience_id: parts[0], session_id: String(session?.session_id ?? randomBytes(6).readUIntBE(0, 6)), num_received: received,
          num_invalid_entries: invalid.length, invalid_entry_samples: Object.fromEntries(invalid.slice(0, 5).map((e, i) => [String(i), JSON.stringify(e)])),
        },
      };
    }
    return graphError(100, `Unsupported ${req.method.toLowerCase()} request.`, 'GraphMethodException');
  }, /\/users$/);
  return {
    ...platform,
    baseUrl: `${platform.origin}/${META_VERSION}`,
    audiences,
    users: (id) => [...(audiences.get(id)?.users.values() ?? [])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
}
