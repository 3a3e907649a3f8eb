/**
 * Demo landing pages for `npm start` (called once from seed/demo.ts): each demo app gets a
 * published "Spring sale" landing for its spring_sale campaign, used as the web fallback of the
 * app's spring_sale powlink, with four weeks of visits; and a draft for a coming campaign.
 */
import type { LandingBlock } from '@gd/shared/landings/model';
import type { Db } from '../../db/pool.ts';
import { tx } from '../../db/pool.ts';

const springBlocks = (store: string): LandingBlock[] => [
  { type: 'title', id: 'title', text: 'Spring sale: up to 40% off', size: 'large', align: 'center' },
  { type: 'text', id: 'intro', text: 'New season, new shoes. Open the Demo Shop app before Sunday and every order ships free.\n\nMembers get an extra 10% at checkout.', align: 'center' },
  { type: 'spacer', id: 'gap', size: 'small' },
  {
    type: 'buttons', id: 'cta', align: 'center', buttons: [
      { label: 'Get the app', url: store, background: '#16A34A', text: '#FFFFFF' },
      { label: 'Shop on the web', url: 'https://shop.example.com/sale', background: '#FFFFFF', text: '#16A34A' },
    ],
  },
  { type: 'text', id: 'small', text: 'Offer valid while stocks last.', align: 'center' },
];

const SUMMER: LandingBlock[] = [
  { type: 'title', id: 'title', text: 'Summer collection', size: 'large', align: 'left' },
  { type: 'text', id: 'intro', text: 'Be the first to see it: join the list and we will tell you when it lands.', align: 'left' },
  { type: 'buttons', id: 'cta', align: 'left', buttons: [{ label: 'Tell me', url: 'https://shop.example.com/summer', background: '#EA580C', text: '#FFFFFF' }] },
];

/** A small deterministic generator, so the demo looks the same on every machine. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

/** `ownerEmail`: the demo account's owner (seed/demo.ts demoEmail('client')). */
export async function seedDemoLandings(db: Db, ownerEmail: string): Promise<void> {
  await tx(db, async (client) => {
    const { rows: apps } = await client.query<{ id: string; account_id: string; os: string; owner: string }>(
      `SELECT a.id, a.account_id, a.os, u.id AS owner FROM users u JOIN apps a ON a.account_id = u.account_id
        WHERE u.email = $1 ORDER BY a.created_at, a.id`, [ownerEmail]);
    for (const [index, app] of apps.entries()) {
      const platform = app.os.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const campaign = (await client.query<{ id: string; link_id: string | null }>(
        `SELECT c.id, (SELECT l.id FROM acq_links l WHERE l.app_id = c.app_id AND l.campaign_id = c.id AND l.kind = 'powlink' AND l.deleted_at IS NULL ORDER BY l.created_at LIMIT 1) AS link_id
           FROM acq_campaigns c WHERE c.app_id = $1 AND c.name = 'spring_sale' AND c.deleted_at IS NULL`, [app.id])).rows[0];
      const spring = (await client.query<{ id: string }>(
        `INSERT INTO landings (app_id, account_id, name, slug, campaign_id, link_id, colours, blocks, status, published_at, created_by, created_at)
         VALUES ($1, $2, 'Spring sale', $3, $4, $5, $6, $7, 'published', now() - interval '27 days', $8, now() - interval '28 days')
         ON CONFLICT DO NOTHING RETURNING id`,
        [app.id, app.account_id, `demo-shop-${platform}-spring`, campaign?.id ?? null, campaign?.link_id ?? null,
          JSON.stringify({ background: '#F0FDF4', text: '#14532D', accent: '#15803D' }), JSON.stringify(springBlocks(app.os === 'Android' ? 'https://play.google.com/store/apps/details?id=com.demo.shop' : 'https://apps.apple.com/app/id1234567890')), app.owner])).rows[0];
      await client.query(
        `INSERT INTO landings (app_id, account_id, name, slug, colours, blocks, created_by)
         VALUES ($1, $2, 'Summer collection (coming)', $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [app.id, app.account_id, `demo-shop-${platform}-summer`, JSON.stringify({ background: '#FFF7ED', text: '#431407', accent: '#C2410C' }), JSON.stringify(SUMMER), app.owner]);
      if (!spring) continue;
      if (campaign?.link_id) await client.query('UPDATE acq_links SET landing_id = $1 WHERE app_id = $2 AND id = $3', [spring.id, app.id, campaign.link_id]);
      const random = rng(4_200 + index);
      const days: string[] = [];
      const visits: number[] = [];
      const fromLinks: number[] = [];
      for (let back = 27; back >= 0; back--) {
        const n = Math.round(20 + 60 * random() + (back < 10 ? 40 : 0));
        days.push(new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10));
        visits.push(n);
        fromLinks.push(Math.round(n * (0.5 + 0.3 * random())));
      }
      await client.query(
        `INSERT INTO landing_visits (landing_id, app_id, day, visits, from_links)
         SELECT $1, $2, d, v, f FROM unnest($3::date[], $4::int[], $5::int[]) AS x(d, v, f)`,
        [spring.id, app.id, days, visits, fromLinks]);
    }
  });
}
