/**
 * Sharing an audience to an ad platform, as a person does it: a fresh account's app has two
 * phones (their advertising ids came in through the ingestion API) in an audience, and a Trade
 * Desk integration (created through the API, its address the loopback Data API this spec starts).
 * On the audience's page the person picks "Share to a trade-desk platform", chooses the
 * integration and shares; the share section shows it syncing, then ready with both people on the
 * platform, and the platform holds both devices in the segment.
 */
import { expect, test } from '@playwright/test';
import { createConditionNode, createGroupNode } from '@gd/shared';
import { call } from '../support/api.ts';
import { AFTER_LOAD } from '../support/people.ts';
import { startTradeDeskPlatform, type TradeDeskFixture } from '../../api-server/src/testing/platforms/tradeDesk.ts';

const suffix = Date.now().toString(36);
const GAIDS = ['5e1d2c3b-0000-4000-8000-000000000001', '5e1d2c3b-0000-4000-8000-000000000002'];
let ttd: TradeDeskFixture;

test.beforeAll(async () => {
  ttd = await startTradeDeskPlatform({ advertiserId: 'adv-e2e', secretKey: 'e2e-data-key' });
});
test.afterAll(async () => {
  await ttd.close();
});

test('an audience shared to a trade-desk platform becomes ready with its people uploaded', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Sara Share', email: `share.${suffix}@e2e.example.com`, password: 'Sharing-Pass-2026!', accountName: `Share ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop', os: 'Android', timezone: 'UTC' })) as { app: { id: string; appKey: string } };
  for (const [i, gaid] of GAIDS.entries()) {
    const sent = await page.request.post('/api/ingest/v1/batch', {
      headers: { 'x-app-key': app.appKey },
      data: { device: { id: `share-${suffix}-${i}`, os: 'Android', gaid, appVersion: '1.0.0' }, events: [{ id: `share-${suffix}-${i}`, name: 'gd_install', time: new Date().toISOString() }] },
    });
    expect(((await sent.json()) as { accepted: string[] }).accepted).toHaveLength(1);
  }
  const root = createGroupNode('root');
  root.children.push('c1');
  const { audience } = (await call(page.request, 'POST', `/apps/${app.id}/audiences`, {
    name: 'Android phones', source: { from: 'definition', segment: { rootKey: 'root', nodes: [root, createConditionNode('c1', { type: 'device_os', id: 'os', condition: 'is_set' })] } },
  })) as { audience: { id: string; personCount: number } };
  expect(audience.personCount).toBe(2);
  await call(page.request, 'POST', `/apps/${app.id}/integrations`, {
    name: 'Trade Desk EU', service: 'the_trade_desk', config: { baseUrl: ttd.baseUrl, advertiserId: 'adv-e2e' }, secrets: { username: 'growth', password: 'e2e-data-key' },
  });

  await page.goto(`/behavior/audiences?audience=${audience.id}`);
  await expect(page.getByTestId('audience-name')).toHaveText('Android phones', AFTER_LOAD);
  await expect(page.getByTestId('audience-shares-empty')).toBeVisible();
  await page.getByTestId('audience-actions').click();
  await page.getByRole('menuitem', { name: 'Share to a trade-desk platform' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share to a trade-desk platform' });
  await dialog.getByTestId('share-integration').click();
  await page.getByRole('option', { name: /Trade Desk EU/ }).click();
  await dialog.getByTestId('share-submit').click();
  await expect(dialog).toBeHidden();

  const share = page.getByTestId('audience-share');
  await expect(share).toContainText('Trade Desk EU');
  await expect(share).toHaveAttribute('data-status', 'ready', AFTER_LOAD);
  await expect(share.getByTestId('share-status')).toHaveText('Ready');
  await expect(share.getByTestId('share-uploaded')).toHaveText('2 on the platform');
  await expect(share).toContainText(`growthdeck-${audience.id}`);
  expect(ttd.ids(`growthdeck-${audience.id}`)).toEqual(GAIDS.map((g) => `DAID:${g}`));
  await expect(page.getByTestId('audience-status')).toHaveAttribute('data-status', 'ready');
});
