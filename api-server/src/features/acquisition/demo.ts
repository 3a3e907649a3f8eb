/**
 * Demo providers (issue 16, piece A), after seed/acquisition.ts made the demo apps' sources: the
 * demo account connects four ad platforms from the catalogue and one agency of its own, ties the
 * paid sources of both apps to them, and makes the demo Provider user (Pedro Provider) a member of
 * the social platform, so /acquisition/apptracker-provider-view shows him only its campaigns.
 * Idempotent: does nothing when the account already has providers.
 */
import { tx, type Db } from '../../db/pool.ts';

const PROVIDERS: { name: string; catalogue: string | null; kind: string; sources: string[]; member?: true }[] = [
  { name: 'Meta Ads', catalogue: 'Meta Ads', kind: 'social', sources: ['Social Ads'], member: true },
  { name: 'Google Ads', catalogue: 'Google Ads', kind: 'search', sources: ['Search Ads'] },
  { name: 'Apple Search Ads', catalogue: 'Apple Search Ads', kind: 'appStoreSearch', sources: ['Store Search Ads'] },
  { name: 'TikTok for Business', catalogue: 'TikTok for Business', kind: 'shortVideo', sources: ['Short Video Ads'] },
  { name: 'Brightside Media (agency)', catalogue: null, kind: 'agency', sources: [] },
];

export async function seedDemoProviders(db: Db, ownerEmail: string, providerEmail: string): Promise<void> {
  await tx(db, async (client) => {
    const owner = (await client.query<{ account_id: string; id: string }>('SELECT account_id, id FROM users WHERE lower(email) = lower($1)', [ownerEmail])).rows[0];
    if (!owner) return;
    const exists = await client.query('SELECT 1 FROM account_providers WHERE account_id = $1', [owner.account_id]);
    if (exists.rowCount) return;
    for (const p of PROVIDERS) {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO account_providers (account_id, ad_provider_id, name, kind, created_by)
         VALUES ($1, (SELECT id FROM ad_providers WHERE name = $2 AND deleted_at IS NULL), $3, $4, $5) RETURNING id`,
        [owner.account_id, p.catalogue, p.name, p.kind, owner.id],
      );
      const id = rows[0]?.id;
      if (!id) continue;
      await client.query(
        `UPDATE acq_sources s SET account_provider_id = $1 FROM apps a
          WHERE a.id = s.app_id AND a.account_id = $2 AND s.name = ANY($3::text[]) AND s.deleted_at IS NULL`,
        [id, owner.account_id, p.sources],
      );
      if (p.member) {
        await client.query(
          `INSERT INTO provider_members (account_provider_id, user_id)
           SELECT $1, u.id FROM users u WHERE lower(u.email) = lower($2) AND u.account_id = $3 ON CONFLICT DO NOTHING`,
          [id, providerEmail, owner.account_id],
        );
      }
    }
  });
}
