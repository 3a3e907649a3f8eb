/**
 * Test helpers of the attribution feature (its integration tests and the benchmark): an app's
 * sources, campaigns and links written with plain SQL (the attribution rules are under test here,
 * not the campaign screens), and installs sent through the real ingestion API as an SDK would.
 */
import { randomUUID } from 'node:crypto';
import { endpoints, type AttributionMode, type SourceType } from '@gd/shared';
import type { Queryable } from '../../../db/pool.ts';

export interface SourceInput { type?: SourceType; attribution?: AttributionMode; lookbackDays?: number; reattributionDays?: number; fingerprint?: boolean; name?: string; id?: string }

export async function insertSource(db: Queryable, appId: string, s: SourceInput = {}): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO acq_sources (id, app_id, name, type, attribution, lookback_days, reattribution_days, fingerprint)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [s.id ?? randomUUID(), appId, s.name ?? `Source ${randomUUID().slice(0, 8)}`, s.type ?? 'adnetwork', s.attribution ?? 'last_click',
      s.lookbackDays ?? 7, s.reattributionDays ?? 90, s.fingerprint ?? true],
  );
  return rows[0]!.id;
}

export async function insertCampaign(db: Queryable, appId: string, sourceId: string, c: { name?: string; id?: string; deepLink?: string } = {}): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO acq_campaigns (id, app_id, name, source_id, pricing_model, cost_value, deep_link) VALUES ($1, $2, $3, $4, 'cpi', 1.5, $5) RETURNING id`,
    [c.id ?? randomUUID(), appId, c.name ?? `Campaign ${randomUUID().slice(0, 8)}`, sourceId, c.deepLink ?? null],
  );
  return rows[0]!.id;
}

export async function insertLink(db: Queryable, appId: string, campaignId: string, l: { deepLink?: string; params?: Record<string, string>; destinations?: object } = {}): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO acq_links (app_id, campaign_id, kind, name, code, params, destinations, deep_link) VALUES ($1, $2, 'tracking', 'Link', $3, $4, $5, $6) RETURNING id`,
    [appId, campaignId, randomUUID().replaceAll('-', '').slice(0, 12), JSON.stringify(l.params ?? {}), JSON.stringify(l.destinations ?? {}), l.deepLink ?? null],
  );
  return rows[0]!.id;
}

export interface SdkEvent { name: string; time: Date | number; properties?: Record<string, string> }

/** One ingestion batch of one device, as an SDK sends it from `ip` with `userAgent` (X-Forwarded-For: the API trusts its loopback proxy). */
export async function sendEvents(baseUrl: string, appKey: string, device: { id: string; idfa?: string | null; idfv?: string | null; gaid?: string | null; oaid?: string | null },
  events: readonly SdkEvent[], from: { ip?: string; userAgent?: string } = {}): Promise<void> {
  const ids = Object.fromEntries(Object.entries(device).filter(([, v]) => v !== null && v !== undefined));
  const res = await fetch(`${baseUrl}/api${endpoints.ingestBatch.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-key': appKey, ...(from.ip ? { 'x-forwarded-for': from.ip } : {}), 'user-agent': from.userAgent ?? 'GrowthdeckSDK/2.0' },
    body: JSON.stringify({
      device: ids,
      events: events.map((e) => ({ id: randomUUID(), name: e.name, time: new Date(e.time).toISOString(), ...(e.properties ? { properties: e.properties } : {}) })),
    }),
  });
  const body = (await res.json()) as { status: string; accepted?: string[] };
  if (body.status !== 'OK' || body.accepted?.length !== events.length) throw new Error(`ingestion answered ${JSON.stringify(body)}`);
}

export interface AttributionRow {
  kind: string; event_time: Date; device_key: string; person_id: string; campaign_id: string | null; source_id: string | null; click_id: string | null;
  match: string; mode: string; assisted: string[]; deep_link: string | null; deep_link_params: Record<string, string> | null;
}

export async function attributionsOf(db: Queryable, appId: string): Promise<AttributionRow[]> {
  const { rows } = await db.query<AttributionRow>(
    `SELECT a.kind, a.event_time, d.device_key, a.person_id::text, a.campaign_id, a.source_id, a.click_id, a.match, a.mode, a.assisted::text[] AS assisted,
            a.deep_link, a.deep_link_params
       FROM acq_attributions a JOIN devices d ON d.app_id = a.app_id AND d.id = a.device_id
      WHERE a.app_id = $1 ORDER BY d.device_key, a.event_time, a.kind`, [appId],
  );
  return rows;
}
