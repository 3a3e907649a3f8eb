/**
 * SKAdNetwork demo data for the iOS demo app: an App Store id, a conversion-value schema, its
 * campaigns mapped to an ad network's source identifiers, and a few hundred postbacks over the
 * last four weeks in the three windows (a few rejected). The postbacks are inserted as they would
 * be stored: the demo cannot sign them with Apple's key, so they are marked verified here.
 */
import { SkanConversionSchema, type SkanCoarse } from '@gd/shared/acquisition/skan';
import type { Db } from '../db/pool.ts';

const NETWORK = 'demo-network.skadnetwork';
const SCHEMA = SkanConversionSchema.parse({
  currency: 'EUR',
  fine: [
    { value: 0, events: [] },
    { value: 1, events: ['gd_register'] },
    { value: 8, events: ['gd_register', 'add_to_cart'] },
    { value: 24, events: ['gd_register', 'gd_transaction'], revenueMin: 0, revenueMax: 20 },
    { value: 40, events: ['gd_register', 'gd_transaction'], revenueMin: 20, revenueMax: 60 },
    { value: 63, events: ['gd_register', 'gd_transaction'], revenueMin: 60, revenueMax: null },
  ],
  coarse: [
    { window: 0, value: 'low', events: ['gd_register'] },
    { window: 0, value: 'medium', events: ['gd_transaction'], revenueMin: 0, revenueMax: 30 },
    { window: 0, value: 'high', events: ['gd_transaction'], revenueMin: 30, revenueMax: null },
    { window: 1, value: 'medium', events: ['gd_transaction'], revenueMin: 0, revenueMax: 30 },
    { window: 1, value: 'high', events: ['gd_transaction'], revenueMin: 30, revenueMax: null },
    { window: 2, value: 'high', events: ['gd_transaction'], revenueMin: 30, revenueMax: null },
  ],
});

/** A small deterministic generator, so the demo looks the same on every machine. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

/** `ownerEmail`: the demo account's owner (seed/demo.ts demoEmail('client')). */
export async function seedSkan(db: Db, ownerEmail: string, now = Date.now()): Promise<{ postbacks: number }> {
  const { rows: apps } = await db.query<{ id: string }>(
    `SELECT a.id FROM apps a JOIN users u ON u.account_id = a.account_id WHERE u.email = $1 AND a.os = 'iOS' ORDER BY a.created_at LIMIT 1`, [ownerEmail]);
  const app = apps[0];
  if (!app) return { postbacks: 0 };
  const { rows: campaigns } = await db.query<{ id: string }>('SELECT id FROM acq_campaigns WHERE app_id = $1 AND deleted_at IS NULL ORDER BY created_at, name LIMIT 4', [app.id]);
  await db.query(
    `INSERT INTO skan_settings (app_id, app_store_id, schema) VALUES ($1, 1488200001, $2)
     ON CONFLICT (app_id) DO NOTHING`, [app.id, JSON.stringify(SCHEMA)]);
  const identifiers = campaigns.map((_, i) => String(4100 + i * 11));
  for (const [i, c] of campaigns.entries()) {
    await db.query('INSERT INTO skan_mappings (app_id, ad_network_id, source_identifier, campaign_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [app.id, NETWORK, identifiers[i], c.id]);
  }
  identifiers.push('9031'); // one identifier nobody mapped
  const random = rng(16);
  const rows: unknown[][] = [];
  const fine = [0, 1, 1, 1, 8, 8, 24, 24, 40, 63];
  const coarse: SkanCoarse[] = ['low', 'low', 'medium', 'high'];
  for (let i = 0; i < 420; i++) {
    const window = i % 10 < 6 ? 0 : i % 10 < 9 ? 1 : 2;
    const identifier = identifiers[Math.floor(random() * identifiers.length)] ?? '';
    const tier = random();
    const at = new Date(now - Math.floor(random() * 27 * 86_400_000) - 3_600_000);
    const verified = random() > 0.03;
    const fineValue = window === 0 && tier > 0.45 ? (fine[Math.floor(random() * fine.length)] ?? 0) : null;
    const coarseValue = fineValue === null && tier > 0.12 ? (coarse[Math.floor(random() * coarse.length)] ?? 'low') : null;
    rows.push([app.id, at, '4.0', NETWORK, tier > 0.45 ? identifier : identifier.slice(-2), `demo-${i}-${identifier}`, window, random() > 0.2 ? 1 : 0,
      true, random() < 0.08, fineValue, coarseValue, verified, verified ? null : 'bad_signature']);
  }
  const columns = ['app_id', 'received_at', 'version', 'ad_network_id', 'source_identifier', 'transaction_id', 'sequence_index', 'fidelity_type',
    'did_win', 'redownload', 'fine_value', 'coarse_value', 'verified', 'reject_reason'];
  const values = rows.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')}, '{}')`).join(', ');
  const result = await db.query(`INSERT INTO skan_postbacks (${columns.join(', ')}, payload) VALUES ${values} ON CONFLICT DO NOTHING`, rows.flat());
  return { postbacks: result.rowCount ?? 0 };
}
