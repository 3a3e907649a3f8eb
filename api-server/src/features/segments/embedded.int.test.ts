/**
 * Segments and audiences on the embedded database of `npm start` (PGlite behind a loopback
 * socket): the compiled SQL, the helper functions of migration 004, the estimate and the
 * one-statement materialisation run there as on Postgres, with the scheduler running in process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { startServer } from '../../server.ts';
import { createTestApp, registerAccount } from '../../testing/harness.ts';
import { seeder, single } from './testing/data.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'gd-embedded-segments-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('estimates and refreshes audiences on PGlite', { timeout: 120_000 }, async () => {
  const server = await startServer(loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { log: pino({ level: 'silent' }) });
  try {
    const owner = await registerAccount(server);
    const appId = (await createTestApp(owner.client, { timezone: 'America/New_York' })).id;
    await server.db.query(`SELECT gd_ensure_month_partitions('2026-01-01', '2026-12-31')`);
    const s = seeder(server.db, appId);
    const ana = await s.person({ customer_id: 'ana', country: 'ES', app_version: '1.10.0' });
    const ben = await s.person({ customer_id: 'ben', country: 'ES', app_version: '1.9' });
    await s.person({ customer_id: 'cai', country: 'FR' });
    await s.event(ana, 'purchase_done', '2026-03-14T10:00:00Z', { amount: '30' });
    await s.event(ben, 'purchase_done', '2026-03-14T10:00:00Z', { amount: 5 });

    const spanish = single({ type: 'attribute', id: 'country', condition: 'equals', input: 'es' });
    const estimate = await owner.client.ok<{ count: number; sample: { customerId: string }[] }>('estimateSegment', { segment: spanish }, { appId });
    expect(estimate).toMatchObject({ count: 2, sample: [{ customerId: 'ben' }, { customerId: 'ana' }] });

    const bigSpenders = single({ type: 'user_event_tag', id: 'purchase_done/amount', condition: 'greater_than', input: 10, dateRange: { startDay: '2026-03-01', endDay: '2026-03-31' } });
    expect((await owner.client.ok<{ count: number }>('estimateSegment', { segment: bigSpenders }, { appId })).count).toBe(1);
    const newer = single({ type: 'attribute', id: 'app_version', condition: 'greater_than', input: '1.9.9' });
    expect((await owner.client.ok<{ count: number }>('estimateSegment', { segment: newer }, { appId })).count).toBe(1);

    const { audience } = await owner.client.ok<{ audience: { id: string; status: string; personCount: number } }>(
      'createAudience', { name: 'Spanish', source: { from: 'definition', segment: spanish } }, { appId });
    expect(audience).toMatchObject({ status: 'ready', personCount: 2 });
    await server.db.query(`UPDATE people SET country = 'ES' WHERE app_id = $1 AND customer_id = 'cai'`, [appId]);
    const refreshed = await owner.client.ok<{ audience: { personCount: number } }>('refreshAudience', undefined, { appId, audienceId: audience.id });
    expect(refreshed.audience.personCount).toBe(3);
  } finally {
    await server.stop();
  }
});
