/**
 * Demo acquisition data for `npm start` (issue 16): each demo app gets the generator's sources
 * (Social Ads, Search Ads, ...) as acquisition sources, its campaigns with every pricing model,
 * channels, a tracking link per campaign, a powlink, and a few thousand clicks recorded through the link
 * host's `recordClicks`.
 *
 * The installs are the behaviour generator's own (seed/behaviour.ts sends them through the
 * ingestion API in the background right after this): the clicks are laid out from the same
 * deterministic people (same config, same seed), so each install the generator credits to a
 * campaign has one to three clicks of that campaign before it, carrying the device's advertising
 * id (idfa or gaid; idfv on iOS devices without one). Ingestion writes their pending rows and the
 * attribution engine attributes them as they arrive, so the attribution, the campaign figures
 * (registrations, sales and revenue of the people who installed) and every acquisition report are
 * real answers of the product. Around them, clicks that never install (no device id) and bots.
 * Clicks come from documentation IP ranges with mobile user agents, so none of them can
 * fingerprint-match the demo's ingestion requests (all from the loopback address).
 *
 * Quick: about 2,000-4,000 clicks per app, inserted in chunks; runs once, with seedDemo.
 */
import { ORGANIC_SOURCE, builtInEventName, type PricingModel, type SourceType } from '@gd/shared';
import { randomUUID } from 'node:crypto';
import { single, tx, type Db } from '../db/pool.ts';
import { recordClicks, type ClickRow } from '../features/links/clicks.ts';
import { demoConfig } from './behaviour.ts';
import { demoEmail } from './demo.ts';
import { generatePeople } from './generator/index.ts';
import { Random } from './generator/random.ts';

const SOURCES: { name: string; type: SourceType; channel: string }[] = [
  { name: 'Social Ads', type: 'adnetwork', channel: 'Paid social' },
  { name: 'Search Ads', type: 'adnetwork', channel: 'Search' },
  { name: 'Store Search Ads', type: 'adnetwork', channel: 'Search' },
  { name: 'Short Video Ads', type: 'adnetwork', channel: 'Paid social' },
  { name: 'Referral', type: 'custom', channel: 'Owned' },
  { name: 'Newsletter', type: 'inbound', channel: 'Owned' },
];

/** The generator's campaigns (seed/generator/catalogue.ts) with a pricing model each: every model appears. */
const CAMPAIGNS: { name: string; source: string; model: PricingModel; value: number; costEvent?: string }[] = [
  { name: 'spring_sale', source: 'Social Ads', model: 'cpi', value: 1.8 },
  { name: 'lookalike_buyers', source: 'Social Ads', model: 'cpa', value: 6, costEvent: builtInEventName('transaction') },
  { name: 'brand_awareness', source: 'Social Ads', model: 'fixed', value: 900 },
  { name: 'retarget_cart_abandoners', source: 'Social Ads', model: 'cpc', value: 0.25 },
  { name: 'winback_30d', source: 'Social Ads', model: 'cpi', value: 1.2 },
  { name: 'brand_keywords', source: 'Search Ads', model: 'cpc', value: 0.4 },
  { name: 'generic_shoes', source: 'Search Ads', model: 'cpc', value: 0.65 },
  { name: 'competitors', source: 'Search Ads', model: 'cpi', value: 2.4 },
  { name: 'winback_brand', source: 'Search Ads', model: 'cpc', value: 0.3 },
  { name: 'brand_exact', source: 'Store Search Ads', model: 'cpi', value: 1.5 },
  { name: 'category_discovery', source: 'Store Search Ads', model: 'cpi', value: 2 },
  { name: 'creators_q4', source: 'Short Video Ads', model: 'fixed', value: 1200 },
  { name: 'unboxing_challenge', source: 'Short Video Ads', model: 'cpc', value: 0.15 },
  { name: 'invite_a_friend', source: 'Referral', model: 'cpl', value: 1 },
  { name: 'weekly_digest', source: 'Newsletter', model: 'cpl', value: 0.5 },
  { name: 'black_friday_teaser', source: 'Newsletter', model: 'cpc', value: 0.05 },
];

const USER_AGENTS = {
  ios: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Mobile Safari/537.36',
  bot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Clicks that never install, per attributed install (conversion rate about 1 in 4). */
const NOISE_PER_INSTALL = 2;

interface DemoApp { id: string; os: string; timezone: string; createdBy: string | null }

/** The demo apps the behaviour generator will seed, in its order (seed/behaviour.ts appsToSeed). */
async function demoApps(db: Db): Promise<DemoApp[]> {
  const { rows } = await db.query<DemoApp>(
    `SELECT a.id, a.os, a.timezone, a.created_by AS "createdBy" FROM apps a JOIN users u ON u.account_id = a.account_id
      WHERE u.email = $1 AND a.os IN ('iOS', 'Android')
        AND NOT EXISTS (SELECT 1 FROM events e WHERE e.app_id = a.id)
        AND NOT EXISTS (SELECT 1 FROM acq_campaigns c WHERE c.app_id = a.id) ORDER BY a.created_at, a.name`,
    [demoEmail('client')],
  );
  return rows;
}

interface Seeded { campaigns: Map<string, { id: string; sourceId: string; linkId: string }> }

async function seedStructure(db: Db, app: DemoApp, now: number): Promise<Seeded> {
  const day = (offset: number) => new Date(now + offset * DAY).toISOString().slice(0, 10);
  return tx(db, async (client) => {
    const channels = new Map<string, string>();
    for (const name of new Set(SOURCES.map((s) => s.channel))) {
      const { rows } = await client.query<{ id: string }>('INSERT INTO acq_channels (app_id, name) VALUES ($1, $2) RETURNING id', [app.id, name]);
      channels.set(name, single(rows).id);
    }
    const sources = new Map<string, { id: string; channel: string | null }>();
    for (const s of SOURCES) {
      const { rows } = await client.query<{ id: string }>(
        'INSERT INTO acq_sources (app_id, name, type, created_by) VALUES ($1, $2, $3, $4) RETURNING id', [app.id, s.name, s.type, app.createdBy]);
      sources.set(s.name, { id: single(rows).id, channel: channels.get(s.channel) ?? null });
    }
    const campaigns = new Map<string, { id: string; sourceId: string; linkId: string }>();
    for (const [i, c] of CAMPAIGNS.entries()) {
      const source = sources.get(c.source);
      if (!source) throw new Error(`demo campaign ${c.name} names no source`);
      const fixed = c.model === 'fixed';
      const destinations = app.os === 'iOS'
        ? { ios: { store: 'https://apps.apple.com/app/id1234567890', deepLink: `demoshop://campaign/${c.name}`, web: 'https://shop.example.com/' } }
        : { android: { store: 'https://play.google.com/store/apps/details?id=com.demo.shop', deepLink: `demoshop://campaign/${c.name}`, web: 'https://shop.example.com/' } };
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO acq_campaigns (app_id, name, source_id, channel_id, pricing_model, cost_value, cost_event, start_day, end_day, destinations, deep_link, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [app.id, c.name, source.id, source.channel, c.model, c.value, c.costEvent ?? null, day(fixed ? -35 : -40), fixed ? day(10) : null,
          JSON.stringify({ ...destinations, desktop: { web: 'https://shop.example.com/' } }), `demoshop://campaign/${c.name}`, app.createdBy],
      );
      const id = single(rows).id;
      const link = await client.query<{ id: string }>(
        `INSERT INTO acq_links (app_id, campaign_id, kind, name, code, params, created_by) VALUES ($1, $2, 'tracking', $3, $4, $5, $6) RETURNING id`,
        [app.id, id, `${c.name} link`, `d${randomUUID().replaceAll('-', '').slice(0, 9)}`, JSON.stringify({ cid: c.name, sid: c.source.toLowerCase().replaceAll(' ', '_'), p1: `creative_${(i % 3) + 1}` }), app.createdBy],
      );
      campaigns.set(c.name, { id, sourceId: source.id, linkId: single(link.rows).id });
    }
    // One powlink per app, for the screen: each platform to its place (store, deep link, web).
    const spring = campaigns.get('spring_sale');
    if (spring) {
      await client.query(
        `INSERT INTO acq_links (app_id, campaign_id, kind, name, code, params, destinations, deep_link, created_by)
         VALUES ($1, $2, 'powlink', 'spring_sale powlink', $3, $4, $5, 'demoshop://sale/spring', $6)`,
        [app.id, spring.id, `p${randomUUID().replaceAll('-', '').slice(0, 9)}`, JSON.stringify({ cid: 'spring_sale', sid: 'social_ads' }), JSON.stringify({
          ios: { store: 'https://apps.apple.com/app/id1234567890', deepLink: 'demoshop://sale/spring', web: 'https://shop.example.com/sale' },
          android: { store: 'https://play.google.com/store/apps/details?id=com.demo.shop', deepLink: 'demoshop://sale/spring', web: 'https://shop.example.com/sale' },
          desktop: { web: 'https://shop.example.com/sale' },
        }), app.createdBy],
      );
    }
    return { campaigns };
  });
}

/** The clicks of one demo app, laid out from the generator's installs of that app. */
export function demoClicks(app: DemoApp, index: number, now: number, seeded: Seeded): ClickRow[] {
  const rng = new Random(7_000 + index);
  const platform = app.os === 'iOS' ? 'ios' : 'android';
  const ip = () => `${rng.oneOf(['198.51.100', '203.0.113', '192.0.2'])}.${rng.int(1, 254)}`;
  const config = demoConfig(app, index, now);
  const windowStart = now - config.days * DAY;
  const clicks: ClickRow[] = [];
  const installs = builtInEventName('install'), reinstalls = builtInEventName('reinstall');
  const base = (campaign: { id: string; sourceId: string; linkId: string }, at: number): ClickRow => ({
    appId: app.id, clickedAt: new Date(at), linkId: campaign.linkId, campaignId: campaign.id, sourceId: campaign.sourceId,
    ip: ip(), userAgent: USER_AGENTS[platform], platform, os: app.os, country: rng.oneOf(['ES', 'MX', 'US', 'FR', 'DE', 'GB']),
  });
  for (const person of generatePeople(config)) {
    for (const request of person.requests) {
      if (request.kind !== 'batch') continue;
      const device = request.body.device;
      for (const event of request.body.events) {
        if ((event.name !== installs && event.name !== reinstalls) || !event.source || event.source === ORGANIC_SOURCE || !event.campaign) continue;
        const campaign = seeded.campaigns.get(event.campaign);
        if (!campaign) continue;
        const ids = device.idfa ? { idfa: device.idfa } : device.gaid ? { gaid: device.gaid } : device.idfv ? { idfv: device.idfv } : null;
        if (!ids) continue;
        // The winning click 1 minute to 2 days before the install; sometimes earlier ones (assists).
        let at = event.time - rng.int(60_000, 2 * DAY);
        for (let n = rng.chance(0.25) ? rng.int(2, 3) : 1; n > 0 && at > windowStart - 7 * DAY; n--) {
          clicks.push({ ...base(campaign, at), ...ids, params: { p2: 'converted' } });
          at -= rng.int(HOUR, 2 * DAY);
        }
        for (let k = 0; k < NOISE_PER_INSTALL; k++) {
          clicks.push({ ...base(campaign, windowStart + rng.next() * (now - windowStart)) });
        }
      }
    }
  }
  // Prefetchers and crawlers: stored, never counted.
  const all = [...seeded.campaigns.values()];
  for (let k = Math.round(clicks.length * 0.03); k > 0; k--) {
    clicks.push({ ...base(rng.oneOf(all), windowStart + rng.next() * (now - windowStart)), userAgent: USER_AGENTS.bot, platform: 'desktop', bot: true, botReason: 'bot' });
  }
  return clicks.filter((c) => (c.clickedAt?.getTime() ?? now) <= now);
}

/**
 * Seeds the demo apps' acquisition (once: apps that already have campaigns or events are left
 * alone). Call it before the behaviour activity is sent, so the clicks are there when the
 * installs arrive. `now` must be the instant the behaviour seeding takes as its own (within
 * seconds: the generator's days do not move).
 */
export async function seedAcquisition(db: Db, now = Date.now()): Promise<{ clicks: number }> {
  let total = 0;
  for (const [index, app] of (await demoApps(db)).entries()) {
    const seeded = await seedStructure(db, app, now);
    const clicks = demoClicks(app, index, now, seeded);
    for (let i = 0; i < clicks.length; i += 1000) await recordClicks(db, clicks.slice(i, i + 1000));
    total += clicks.length;
  }
  return { clicks: total };
}
