/**
 * Demo retargeting (issue 16), after a demo app's activity is in: a retargeting source and
 * campaign ("winback_retargeting"), clicks on its link by some people who installed days ago, and
 * then their `gd_retargeting_open` sent through the real ingestion API, so the attribution engine
 * credits the opens to the campaign and /acquisition/retargeting has something to show after
 * `npm start`. Runs once per app (skipped when the app already has a retargeting source).
 */
import { builtInEventName } from '@gd/shared';
import { randomUUID } from 'node:crypto';
import { single, tx, type Db } from '../db/pool.ts';
import { recordClicks, type ClickRow } from '../features/links/clicks.ts';

const DAY = 86_400_000;
const PEOPLE = 40;
const USER_AGENTS = {
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36',
};

interface Device { device_key: string; idfa: string | null; idfv: string | null; gaid: string | null }

/** `send` posts one ingestion batch of the app (the demo seeding's own client, with its retries). */
export type SendBatch = (body: { device: Record<string, string>; events: { id: string; name: string; time: string }[] }) => Promise<unknown>;

export async function seedRetargeting(db: Db, send: SendBatch, app: { id: string; os: string }, now = Date.now()): Promise<{ opens: number }> {
  const platform = app.os === 'iOS' ? 'ios' : 'android';
  const made = await tx(db, async (client) => {
    const { rows: existing } = await client.query("SELECT 1 FROM acq_sources WHERE app_id = $1 AND type = 'retargeting' AND deleted_at IS NULL", [app.id]);
    if (existing.length) return null;
    const owner = await client.query<{ created_by: string | null }>('SELECT created_by FROM apps WHERE id = $1', [app.id]);
    const createdBy = single(owner.rows).created_by;
    const source = await client.query<{ id: string }>(
      "INSERT INTO acq_sources (app_id, name, type, lookback_days, created_by) VALUES ($1, 'Retargeting network', 'retargeting', 7, $2) RETURNING id", [app.id, createdBy]);
    const sourceId = single(source.rows).id;
    const store = platform === 'ios' ? { store: 'https://apps.apple.com/app/id1234567890' } : { store: 'https://play.google.com/store/apps/details?id=com.demo.shop' };
    const campaign = await client.query<{ id: string }>(
      `INSERT INTO acq_campaigns (app_id, name, source_id, pricing_model, cost_value, start_day, destinations, deep_link, created_by)
       VALUES ($1, 'winback_retargeting', $2, 'cpc', 0.3, $3, $4, 'demoshop://winback', $5) RETURNING id`,
      [app.id, sourceId, new Date(now - 30 * DAY).toISOString().slice(0, 10),
        JSON.stringify({ [platform]: { ...store, deepLink: 'demoshop://winback', web: 'https://shop.example.com/' }, desktop: { web: 'https://shop.example.com/' } }), createdBy],
    );
    const campaignId = single(campaign.rows).id;
    const link = await client.query<{ id: string }>(
      `INSERT INTO acq_links (app_id, campaign_id, kind, name, code, params, created_by) VALUES ($1, $2, 'tracking', 'winback_retargeting link', $3, $4, $5) RETURNING id`,
      [app.id, campaignId, `r${randomUUID().replaceAll('-', '').slice(0, 9)}`, JSON.stringify({ cid: 'winback_retargeting', sid: 'retargeting' }), createdBy],
    );
    return { sourceId, campaignId, linkId: single(link.rows).id };
  });
  if (!made) return { opens: 0 };

  // People who installed at least a week ago, with an advertising id to match by.
  const { rows: devices } = await db.query<Device>(
    `SELECT d.device_key, d.idfa, d.idfv, d.gaid FROM devices d JOIN people p ON p.app_id = d.app_id AND p.id = d.person_id
      WHERE d.app_id = $1 AND p.install_at < $2 AND (d.idfa IS NOT NULL OR d.gaid IS NOT NULL OR d.idfv IS NOT NULL)
      ORDER BY d.id LIMIT $3`,
    [app.id, new Date(now - 7 * DAY), PEOPLE],
  );
  const clicks: ClickRow[] = devices.map((d, i) => ({
    appId: app.id, clickedAt: new Date(now - ((i % 6) + 1) * DAY + (i % 5) * 3_600_000), linkId: made.linkId, campaignId: made.campaignId, sourceId: made.sourceId,
    ip: `198.51.100.${(i % 250) + 1}`, userAgent: USER_AGENTS[platform], platform, os: app.os, country: 'ES',
    idfa: d.idfa, gaid: d.gaid, idfv: d.idfa || d.gaid ? null : d.idfv,
  }));
  if (clicks.length) await recordClicks(db, clicks);

  let opens = 0;
  for (const [i, d] of devices.entries()) {
    const clickedAt = clicks[i]?.clickedAt?.getTime() ?? now;
    const body = {
      device: { id: d.device_key, ...(d.idfa ? { idfa: d.idfa } : {}), ...(d.gaid ? { gaid: d.gaid } : {}), ...(d.idfv ? { idfv: d.idfv } : {}) },
      events: [{ id: `demo-retargeting-${d.device_key}`, name: builtInEventName('retargeting_open'), time: new Date(clickedAt + 20 * 60_000).toISOString() }],
    };
    await send(body);
    opens++;
  }
  return { opens };
}
