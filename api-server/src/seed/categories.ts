/**
 * Demo categories (/manage/categories) of the demo account: a few labels with their colours, given
 * to the demo apps, to apptracker campaigns by their names, and to the messages and message
 * campaigns that exist when it runs (by name). Idempotent: does nothing once the account has
 * categories.
 */
import type { CategoryEntityType } from '@gd/shared';
import { tx, type Db } from '../db/pool.ts';

interface DemoCategory { name: string; colour: string; entityTypes: CategoryEntityType[] }

const CATEGORIES: DemoCategory[] = [
  { name: 'Retail', colour: '#1C7ED6', entityTypes: ['app', 'campaign', 'message'] },
  { name: 'Shopping', colour: '#0CA678', entityTypes: ['app'] },
  { name: 'Prospecting', colour: '#7048E8', entityTypes: ['campaign'] },
  { name: 'Retargeting', colour: '#E8590C', entityTypes: ['campaign', 'message'] },
  { name: 'Brand', colour: '#F59F00', entityTypes: ['campaign'] },
  { name: 'Black Friday', colour: '#C2255C', entityTypes: ['campaign', 'message'] },
  { name: 'Onboarding', colour: '#495057', entityTypes: ['message'] },
];

/** Apptracker campaigns (seed/acquisition.ts names) and their categories. */
const CAMPAIGN_CATEGORIES: Record<string, string[]> = {
  spring_sale: ['Prospecting', 'Retail'],
  lookalike_buyers: ['Prospecting'],
  brand_awareness: ['Brand'],
  retarget_cart_abandoners: ['Retargeting', 'Black Friday'],
  winback_30d: ['Retargeting'],
  brand_keywords: ['Brand'],
  generic_shoes: ['Prospecting', 'Retail'],
  winback_brand: ['Retargeting', 'Brand'],
  brand_exact: ['Brand'],
};

/** `ownerEmail`: the demo account's owner (seed/demo.ts demoEmail('client')). */
export async function seedDemoCategories(db: Db, ownerEmail: string): Promise<void> {
  await tx(db, async (client) => {
    const owner = (await client.query<{ id: string; account_id: string }>('SELECT id, account_id FROM users WHERE email = $1', [ownerEmail])).rows[0];
    if (!owner) return;
    const existing = await client.query('SELECT 1 FROM categories WHERE account_id = $1 LIMIT 1', [owner.account_id]);
    if (existing.rowCount) return;
    const ids = new Map<string, string>();
    for (const c of CATEGORIES) {
      const { rows } = await client.query<{ id: string }>(
        'INSERT INTO categories (account_id, name, colour, entity_types, created_by) VALUES ($1, $2, $3, $4::text[], $5) RETURNING id',
        [owner.account_id, c.name, c.colour, c.entityTypes, owner.id]);
      const id = rows[0]?.id;
      if (id) ids.set(c.name, id);
    }
    const give = (names: string[], type: CategoryEntityType, entityId: string, appId: string) =>
      client.query(
        `INSERT INTO category_assignments (category_id, entity_type, entity_id, app_id) SELECT unnest($1::uuid[]), $2, $3, $4 ON CONFLICT DO NOTHING`,
        [names.map((n) => ids.get(n)), type, entityId, appId]);

    const apps = (await client.query<{ id: string }>('SELECT id FROM apps WHERE account_id = $1 ORDER BY created_at', [owner.account_id])).rows;
    for (const app of apps) await give(['Retail', 'Shopping'], 'app', app.id, app.id);

    const campaigns = (await client.query<{ id: string; app_id: string; name: string }>(
      `SELECT c.id, c.app_id, c.name FROM acq_campaigns c JOIN apps a ON a.id = c.app_id WHERE a.account_id = $1 AND c.deleted_at IS NULL`, [owner.account_id])).rows;
    for (const c of campaigns) {
      const names = CAMPAIGN_CATEGORIES[c.name];
      if (names) await give(names, 'campaign', c.id, c.app_id);
    }

    // Messages and their campaigns, when the demo has some: onboarding by name, the rest retail.
    const messages = (await client.query<{ id: string; app_id: string; name: string; campaign_id: string }>(
      'SELECT id, app_id, name, campaign_id FROM messages WHERE account_id = $1 AND deleted_at IS NULL', [owner.account_id])).rows;
    for (const m of messages) {
      await give(/welcome|onboard/i.test(m.name) ? ['Onboarding'] : /cart|win ?back/i.test(m.name) ? ['Retargeting'] : ['Retail'], 'message', m.id, m.app_id);
      await give(['Retail'], 'campaign', m.campaign_id, m.app_id);
    }
  });
}
