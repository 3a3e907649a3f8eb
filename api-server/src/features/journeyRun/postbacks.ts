/**
 * Postback calls (actionPostback): a journey_postbacks row is written with the transition
 * (transition.ts); this worker calls it later, OUTSIDE any transaction, and records the result.
 *
 * - Lease: due pending rows FOR UPDATE SKIP LOCKED, held 60 s of database time (the call's own
 *   limit is 10 s), attempts counted at the lease; a worker killed mid-call leaves the row to be
 *   called again after the lease: at least once, and every attempt carries the same
 *   `Idempotency-Key: journey-postback-<row id>` header and the same body (the template's times are
 *   the moment the step was passed and its uuidV4 is derived from the row), so the receiver can
 *   drop a repeat.
 * - Address: https only (SPEC: target https), through the guarded client (net/): the host's
 *   addresses are checked after DNS resolution and the connection goes to the checked address, so
 *   private, loopback and link-local targets are refused (`refused_address`, not retried). Tests
 *   allow loopback through NetPolicy (OUTGOING_ALLOW_LOOPBACK) only.
 * - Result: 2xx `ok`; a connection failure, timeout, 408, 429 or 5xx is retried with backoff
 *   (10 s, 30 s, 90 s, 270 s: MAX_ATTEMPTS 5 in all) then `failed`; any other status `failed` at
 *   once. Status code and error are recorded on the row (the person's trace shows them).
 * - Integration targets (an experience-platform integration of the app, step.integrationId) go
 *   through the integration (features/integrations/access.ts: its Authorization header, the token
 *   refreshed when about to expire): `POST {baseUrl}/data/core/ups/postbacks` with JSON
 *   `{"header": {"imsOrgId", "techId", "journeyId", "messageId": <uuidV4>, "timestamp": <isoDate>},
 *   "body": {<param>: <value>, ...}}` (the body entries, static values with their {{templates}}
 *   filled or dynamic person values; a JSON text body is sent as the `body` object), with
 *   `x-api-key`, `x-gw-ims-org-id` and the same Idempotency-Key. An integration that does not
 *   exist in the journey's app, or is not an experience platform, fails at once
 *   (`integration_not_found`); one that cannot be used now (not connected, a refused refresh) is
 *   retried like a 5xx (`integration_error: <reason>`); a 401/403 sets the integration in error.
 * - Request (buildPostbackRequest): method default POST. A param/value list body is sent form-encoded
 *   (`application/x-www-form-urlencoded`), or as the query string for GET and DELETE; a JSON text
 *   body is sent as `application/json` with its {{templates}} filled (customerId, campaignId,
 *   campaignType, journeyId, unixTime, isoDate, uuidV4; values JSON-escaped). Templates are filled in
 *   list values, headers and the URL (URL-encoded) too. Value mode `dynamic`: each list value names a
 *   person field (customer_id, email, device_id, os, os_version, app_version, country, state, city,
 *   carrier) or else a custom attribute, and is replaced by the person's value ('' when unset);
 *   `static` values are sent as written. The campaign of {{campaignId}}/{{campaignType}} is the
 *   entry's last message before the postback ('' when none).
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { ErrorCode, isPostbackTemplate, fillPostbackTemplate, type JourneyStep, type PostbackTemplate } from '@gd/shared';
import type { Db } from '../../db/pool.ts';
import { NetError, guardedRequest, publicOnly, readBody, type NetPolicy } from '../../net/index.ts';
import { isUuid } from '../../http/validate.ts';
import { failCodeOf, integrationAccess, markIntegrationError } from '../integrations/access.ts';
import { baseUrlOf, serviceHeaders } from '../integrations/connectionTest.ts';
import { isValid, versionKey, type VersionCache } from './definitions.ts';

export const MAX_ATTEMPTS = 5;
export const POSTBACK_TIMEOUT_MS = 10_000;
const LEASE_SECONDS = 60;
const CONCURRENCY = 20;
export const backoffMs = (attempt: number) => 10_000 * 3 ** Math.max(0, attempt - 1);

type PostbackStep = Extract<JourneyStep, { type: 'actionPostback' }>;

export const PERSON_FIELDS = ['customer_id', 'email', 'device_id', 'os', 'os_version', 'app_version', 'country', 'state', 'city', 'carrier'] as const;
export interface PostbackPerson { customer_id: string | null; attributes: Record<string, unknown>; [field: string]: unknown }

export interface PostbackContext {
  person: PostbackPerson;
  journeyId: string;
  campaignId: string | null;
  campaignType: string | null;
  /** When the step was passed. */
  at: Date;
  uuid: string;
}

export interface PostbackRequest { url: string; method: string; headers: Record<string, string>; body: string | undefined }

const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));

export function templateValues(c: PostbackContext): Record<PostbackTemplate, string> {
  return {
    customerId: c.person.customer_id ?? '', campaignId: c.campaignId ?? '', campaignType: c.campaignType ?? '', journeyId: c.journeyId,
    unixTime: String(Math.floor(c.at.getTime() / 1000)), isoDate: c.at.toISOString(), uuidV4: c.uuid,
  };
}

function personValue(person: PostbackPerson, name: string): string {
  const field = name.trim();
  if ((PERSON_FIELDS as readonly string[]).includes(field)) return text(person[field]);
  return text(person.attributes[field.replace(/^attributes\./, '')]);
}

/** The HTTP request of a postback step for one person (see the module doc). */
export function buildPostbackRequest(step: PostbackStep, c: PostbackContext): PostbackRequest {
  const values = templateValues(c);
  const fill = (s: string, escape: (v: string) => string) => fillPostbackTemplate(s, (p) => (isPostbackTemplate(p.name) ? escape(values[p.name]) : ''));
  const method = (step.postbackMethod || 'POST').toUpperCase();
  const url = new URL(fill(step.postbackUrl.trim(), encodeURIComponent));
  const headers: Record<string, string> = {};
  for (const h of step.postbackHeader) if (h.param.trim()) headers[h.param.trim().toLowerCase()] = fill(h.value, (v) => v).replace(/[\r\n]/g, ' ');
  let body: string | undefined;
  if (typeof step.postbackBody === 'string') {
    if (step.postbackBody.trim()) {
      body = fill(step.postbackBody, (v) => JSON.stringify(v).slice(1, -1));
      headers['content-type'] ??= 'application/json';
    }
  } else if (step.postbackBody.length > 0) {
    const params = new URLSearchParams();
    for (const e of step.postbackBody) {
      if (!e.param.trim()) continue;
      params.append(e.param, step.valueMode === 'dynamic' ? personValue(c.person, e.value) : fill(e.value, (v) => v));
    }
    if (method === 'GET' || method === 'DELETE') for (const [k, v] of params) url.searchParams.append(k, v);
    else {
      body = params.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
  }
  return { url: url.toString(), method, headers, body };
}

/** A v4-shaped UUID fixed by the postback row (the same on every attempt). */
export function postbackUuid(id: string): string {
  const h = createHash('sha256').update(`journey-postback:${id}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type Outcome = { status: 'ok'; code: number } | { status: 'retry' | 'failed'; code: number | null; error: string };

async function call(req: PostbackRequest, id: string, policy: NetPolicy): Promise<Outcome> {
  if (!req.url.startsWith('https://')) return { status: 'failed', code: null, error: 'not_https: postbacks go to https addresses only' };
  try {
    const res = await guardedRequest(req.url, policy, {
      method: req.method, headers: { ...req.headers, 'idempotency-key': `journey-postback-${id}` }, ...(req.body !== undefined ? { body: req.body } : {}),
      connectTimeoutMs: POSTBACK_TIMEOUT_MS, idleMs: POSTBACK_TIMEOUT_MS, totalMs: POSTBACK_TIMEOUT_MS, maxBytes: 64 * 1024,
    });
    await readBody(res).catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { status: 'ok', code: res.status };
    const transient = res.status === 408 || res.status === 429 || res.status >= 500;
    return { status: transient ? 'retry' : 'failed', code: res.status, error: `http_${res.status}` };
  } catch (error) {
    if (error instanceof NetError && error.reason === 'refused_address') return { status: 'failed', code: null, error: `refused_address: ${error.message}` };
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'retry', code: null, error: `${error instanceof NetError ? error.reason : ((error as { code?: string }).code ?? 'error')}: ${message}`.slice(0, 500) };
  }
}

interface PostbackRow {
  id: string; app_id: string; journey_id: string; version: number; person_id: string; step_id: string; campaign_id: string | null;
  campaign_type: string | null; attempts: number; created_at: Date;
}

export interface PostbackDeps {
  db: Db; log: Logger; now: () => Date; versions: VersionCache; netPolicy?: NetPolicy | undefined; appIds: readonly string[] | null;
  /** The server secret integrations' credentials are sealed with (integration targets). */
  secret?: string | undefined;
}

/** The body entries of an integration postback as one object (static values filled, dynamic ones the person's). */
export function integrationPostbackBody(step: PostbackStep, c: PostbackContext): Record<string, unknown> {
  const values = templateValues(c);
  const fill = (s: string, escape: (v: string) => string) => fillPostbackTemplate(s, (p) => (isPostbackTemplate(p.name) ? escape(values[p.name]) : ''));
  if (typeof step.postbackBody === 'string') {
    if (!step.postbackBody.trim()) return {};
    const parsed = JSON.parse(fill(step.postbackBody, (v) => JSON.stringify(v).slice(1, -1))) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
  }
  const body: Record<string, unknown> = {};
  for (const e of step.postbackBody) {
    if (!e.param.trim()) continue;
    body[e.param.trim()] = step.valueMode === 'dynamic' ? personValue(c.person, e.value) : fill(e.value, (v) => v);
  }
  return body;
}

async function callIntegration(deps: PostbackDeps, step: PostbackStep, appId: string, id: string, c: PostbackContext): Promise<Outcome> {
  if (!step.integrationId || !isUuid(step.integrationId)) return { status: 'failed', code: null, error: 'integration_not_found: the step names no integration' };
  const policy = deps.netPolicy ?? publicOnly();
  const access = await integrationAccess({ db: deps.db, log: deps.log, secret: deps.secret, net: policy }, appId, step.integrationId);
  if (!access.ok) {
    if (access.code === ErrorCode.NOT_EXIST) return { status: 'failed', code: null, error: 'integration_not_found: no such integration in this app' };
    return { status: 'retry', code: null, error: `integration_error: ${access.message}`.slice(0, 500) };
  }
  const a = access.value;
  if (a.kind !== 'experience_platform') return { status: 'failed', code: null, error: 'integration_not_found: the integration is not an experience platform' };
  let body: Record<string, unknown>;
  try {
    body = integrationPostbackBody(step, c);
  } catch (error) {
    return { status: 'failed', code: null, error: `invalid_request: ${error instanceof Error ? error.message : String(error)}` };
  }
  const payload = JSON.stringify({
    header: { imsOrgId: a.config.imsOrgId ?? null, techId: a.config.techId ?? null, journeyId: c.journeyId, messageId: c.uuid, timestamp: c.at.toISOString() },
    body,
  });
  try {
    const res = await guardedRequest(`${baseUrlOf(a)}/data/core/ups/postbacks`, policy, {
      method: 'POST', headers: { ...serviceHeaders(a), 'content-type': 'application/json', 'idempotency-key': `journey-postback-${id}` }, body: payload,
      connectTimeoutMs: POSTBACK_TIMEOUT_MS, idleMs: POSTBACK_TIMEOUT_MS, totalMs: POSTBACK_TIMEOUT_MS, maxBytes: 64 * 1024,
    });
    await readBody(res).catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { status: 'ok', code: res.status };
    if (res.status === 401 || res.status === 403) {
      await markIntegrationError(deps.db, a.id, failCodeOf(a.service), `The experience platform refused the credentials (HTTP ${res.status})`);
      return { status: 'failed', code: res.status, error: `http_${res.status}` };
    }
    const transient = res.status === 408 || res.status === 429 || res.status >= 500;
    return { status: transient ? 'retry' : 'failed', code: res.status, error: `http_${res.status}` };
  } catch (error) {
    if (error instanceof NetError && error.reason === 'refused_address') return { status: 'failed', code: null, error: `refused_address: ${error.message}` };
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'retry', code: null, error: `${error instanceof NetError ? error.reason : 'error'}: ${message}`.slice(0, 500) };
  }
}

/** Calls one lease of due postbacks; answers how many were called. */
export async function runPostbacks(deps: PostbackDeps, workerId: string, limit = 50): Promise<number> {
  const now = deps.now();
  const { rows } = await deps.db.query<PostbackRow>(
    `UPDATE journey_postbacks SET locked_by = $1, locked_until = now() + make_interval(secs => $4), attempts = attempts + 1
      WHERE id IN (SELECT id FROM journey_postbacks WHERE status = 'pending' AND next_at <= $2 AND (locked_until IS NULL OR locked_until < now())
                      AND ($5::uuid[] IS NULL OR app_id = ANY($5)) ORDER BY next_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING id::text, app_id, journey_id, version, person_id::text, step_id, campaign_id, campaign_type, attempts, created_at`,
    [workerId, now, limit, LEASE_SECONDS, deps.appIds]);
  if (rows.length === 0) return 0;
  const versions = await deps.versions.load(deps.db, rows.map((r) => ({ journeyId: r.journey_id, version: r.version })));
  const people = new Map((await deps.db.query<PostbackPerson & { id: string; app_id: string }>(
    `SELECT p.app_id, p.id::text, ${PERSON_FIELDS.map((f) => `p.${f}`).join(', ')}, p.attributes FROM people p
       JOIN unnest($1::uuid[], $2::bigint[]) AS x(app, person) ON p.app_id = x.app AND p.id = x.person`,
    [rows.map((r) => r.app_id), rows.map((r) => r.person_id)])).rows.map((p) => [`${p.app_id}:${p.id}`, p]));
  const queue = [...rows];
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const v = versions.get(versionKey(row.journey_id, row.version));
      const step = isValid(v) ? v.steps.get(row.step_id) : undefined;
      let outcome: Outcome;
      if (step?.type !== 'actionPostback') outcome = { status: 'failed', code: null, error: 'step_gone' };
      else if (step.target === 'integration') {
        outcome = await callIntegration(deps, step, row.app_id, row.id, {
          person: people.get(`${row.app_id}:${row.person_id}`) ?? { customer_id: null, attributes: {} },
          journeyId: row.journey_id, campaignId: row.campaign_id, campaignType: row.campaign_type, at: row.created_at, uuid: postbackUuid(row.id),
        });
      } else {
        try {
          const req = buildPostbackRequest(step, {
            person: people.get(`${row.app_id}:${row.person_id}`) ?? { customer_id: null, attributes: {} },
            journeyId: row.journey_id, campaignId: row.campaign_id, campaignType: row.campaign_type, at: row.created_at, uuid: postbackUuid(row.id),
          });
          outcome = await call(req, row.id, deps.netPolicy ?? publicOnly());
        } catch (error) {
          outcome = { status: 'failed', code: null, error: `invalid_request: ${error instanceof Error ? error.message : String(error)}` };
        }
      }
      if (outcome.status === 'retry' && row.attempts >= MAX_ATTEMPTS) outcome = { ...outcome, status: 'failed' };
      const done = outcome.status !== 'retry';
      await deps.db.query(
        `UPDATE journey_postbacks SET status = $3, response_status = $4, error = $5, done_at = $6, next_at = coalesce($7, next_at), locked_by = NULL, locked_until = NULL
          WHERE id = $1 AND locked_by = $2`,
        [row.id, workerId, outcome.status === 'retry' ? 'pending' : outcome.status, outcome.code, outcome.status === 'ok' ? null : outcome.error,
          done ? deps.now() : null, done ? null : new Date(deps.now().getTime() + backoffMs(row.attempts))]);
      if (outcome.status !== 'ok') deps.log.warn({ postback: row.id, journeyId: row.journey_id, outcome }, 'journey postback not delivered');
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
  return rows.length;
}
