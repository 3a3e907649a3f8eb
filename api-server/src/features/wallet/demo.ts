/**
 * Demo wallet for `npm start` (called once from seed/demo.ts): each demo app gets a coupon design
 * and a loyalty card design. No signing settings: the screen shows how to add the Apple
 * certificate and the Google issuer, and offers wallet links only once they are set.
 */
import { defaultDesign, type PassDesign } from '@gd/shared/wallet/model';
import { tx, type Db } from '../../db/pool.ts';

const COUPON: PassDesign = {
  ...defaultDesign('coupon', 'Demo Shop'),
  description: 'Demo Shop spring coupon',
  primaryFields: [{ label: 'Spring sale', value: '15% off' }],
  secondaryFields: [{ label: 'Uses', value: '{{max_redeems}}' }, { label: 'Valid', value: 'Until 31 May' }],
  auxiliaryFields: [{ label: 'Where', value: 'All stores and the app' }],
};

const LOYALTY: PassDesign = {
  ...defaultDesign('loyalty', 'Demo Shop'),
  logoText: 'Demo Shop Club',
  description: 'Demo Shop Club card',
  secondaryFields: [{ label: 'Level', value: 'Silver' }],
  barcodeFormat: 'pdf417',
};

/** `ownerEmail`: the demo account's owner (seed/demo.ts demoEmail('client')). */
export async function seedDemoWallet(db: Db, ownerEmail: string): Promise<void> {
  await tx(db, async (client) => {
    const { rows: apps } = await client.query<{ id: string; account_id: string; owner: string }>(
      `SELECT a.id, a.account_id, u.id AS owner FROM apps a JOIN users u ON u.account_id = a.account_id AND u.email = $1 ORDER BY a.created_at, a.id`, [ownerEmail]);
    for (const app of apps) {
      for (const [name, kind, design] of [['Spring coupon', 'coupon', COUPON], ['Demo Shop Club', 'loyalty', LOYALTY]] as const) {
        await client.query(
          `INSERT INTO wallet_designs (account_id, app_id, name, kind, design, created_by) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
          [app.account_id, app.id, name, kind, JSON.stringify(design), app.owner]);
      }
    }
  });
}
