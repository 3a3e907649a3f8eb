/**
 * A small demo marketplace for the demo account (seed/demo.ts): two providers, a running
 * campaign, four offers (active, paused, draft), two partners (one who has signed in, one only
 * invited), tracking URLs for partners and a channel, and clicks over the last three weeks.
 * Idempotent: does nothing when the account already has skudo providers.
 */
import type { Db } from '../../db/pool.ts';
import { single, tx } from '../../db/pool.ts';

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function seedSkudo(db: Db, ownerEmail: string, now = Date.now()): Promise<void> {
  const { rows } = await db.query<{ account_id: string; id: string }>('SELECT account_id, id FROM users WHERE email = $1', [ownerEmail]);
  const owner = rows[0];
  if (!owner) return;
  const account = owner.account_id;
  const existing = await db.query('SELECT 1 FROM skudo_providers WHERE account_id = $1 LIMIT 1', [account]);
  if (existing.rowCount) return;
  await tx(db, async (q) => {
    const insert = async (sql: string, args: unknown[]) => single((await q.query<{ id: string }>(`${sql} RETURNING id`, args)).rows).id;
    const provider = (name: string, website: string, email: string) =>
      insert('INSERT INTO skudo_providers (account_id, name, website, contact_email, created_by) VALUES ($1, $2, $3, $4, $5)', [account, name, website, email, owner.id]);
    const nordic = await provider('Nordic Outdoor Co.', 'https://www.nordic-outdoor.example.com', 'partners@nordic-outdoor.example.com');
    const lumen = await provider('Lumen Fitness', 'https://lumenfitness.example.com', 'affiliates@lumenfitness.example.com');

    const spring = await insert(
      "INSERT INTO skudo_campaigns (account_id, name, description, starts_on, ends_on, status, created_by) VALUES ($1, 'Spring launch', 'New season offers for outdoor and fitness audiences.', $2, $3, 'active', $4)",
      [account, day(now - 30 * DAY), day(now + 60 * DAY), owner.id]);
    await insert(
      "INSERT INTO skudo_campaigns (account_id, name, description, starts_on, ends_on, status, created_by) VALUES ($1, 'Black Friday', 'Deals for the November weekend.', $2, $3, 'paused', $4)",
      [account, day(now + 120 * DAY), day(now + 124 * DAY), owner.id]);

    let offers = 0;
    const offer = (providerId: string, campaignId: string | null, o: { title: string; description: string; model: string; amount: number; currency: string; url: string; status: string }) =>
      insert(
        `INSERT INTO skudo_offers (account_id, provider_id, campaign_id, title, description, payout_model, payout_amount, currency, destination_url, status, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() - make_interval(secs => $12))`,
        [account, providerId, campaignId, o.title, o.description, o.model, o.amount, o.currency, o.url, o.status, owner.id, (offers += 1) * 3600]);
    const shoes = await offer(nordic, spring, {
      title: '20% off trail running shoes', description: 'Every trail shoe of the spring collection, for new customers. Free returns within 30 days.',
      model: 'cps', amount: 12, currency: 'EUR', url: 'https://www.nordic-outdoor.example.com/trail?utm_source=skudo', status: 'active',
    });
    const trial = await offer(lumen, spring, {
      title: 'Free 7-day fitness trial', description: 'Unlimited classes for a week; the lead counts when the trial starts.',
      model: 'cpl', amount: 2.5, currency: 'USD', url: 'https://lumenfitness.example.com/trial?sub={click_id}', status: 'active',
    });
    const jackets = await offer(nordic, null, {
      title: 'Winter jacket clearance', description: 'Last season jackets at half price while stocks last.',
      model: 'cpc', amount: 0.35, currency: 'EUR', url: 'https://www.nordic-outdoor.example.com/outlet', status: 'paused',
    });
    await offer(lumen, null, {
      title: 'Yoga mat bundle', description: 'A mat, a strap and two blocks; launching next month.',
      model: 'cpa', amount: 4, currency: 'USD', url: 'https://lumenfitness.example.com/bundle', status: 'draft',
    });

    const partner = (name: string, email: string, signedInDaysAgo: number | null) =>
      insert('INSERT INTO skudo_partners (account_id, name, email, last_sign_in_at, created_by) VALUES ($1, $2, $3, $4, $5)',
        [account, name, email, signedInDaysAgo === null ? null : new Date(now - signedInDaysAgo * DAY), owner.id]);
    const blog = await partner('Trailblazer Blog', 'hello@trailblazer.example.com', 2);
    const deals = await partner('FitDeals Newsletter', 'editor@fitdeals.example.com', null);

    const url = async (offerId: string, partnerId: string | null, label: string, code: string, clicks: number, active = true) => {
      const id = await insert(
        'INSERT INTO skudo_tracking_urls (account_id, offer_id, partner_id, label, code, active, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [account, offerId, partnerId, label, code, active, owner.id]);
      // Clicks spread over the last 21 days, a tenth of them bots (stored, not counted).
      await q.query(
        `INSERT INTO skudo_clicks (id, account_id, url_id, clicked_at, ip, user_agent, bot)
         SELECT gen_random_uuid(), $1, $2, $3::timestamptz - make_interval(secs => (i * 7919 % 1814400)), '203.0.113.' || (i % 250 + 1),
                'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148', i % 10 = 0
           FROM generate_series(1, $4::int) AS i`, [account, id, new Date(now), clicks]);
      await q.query(
        `UPDATE skudo_tracking_urls u SET clicks = s.n, last_click_at = s.last
           FROM (SELECT count(*) FILTER (WHERE NOT bot) AS n, max(clicked_at) FILTER (WHERE NOT bot) AS last FROM skudo_clicks WHERE url_id = $1) s
          WHERE u.id = $1`, [id]);
    };
    await url(shoes, blog, 'Trailblazer Blog', 'TrBl5hoe', 412);
    await url(shoes, null, 'Instagram bio', 'IgSh0esA', 138);
    await url(trial, deals, 'FitDeals Newsletter', 'FdTr7alx', 96);
    await url(trial, blog, 'Trailblazer Blog', 'TrBlTr7a', 57);
    await url(jackets, blog, 'Trailblazer Blog', 'TrBlJk3t', 230, false);
  });
}
