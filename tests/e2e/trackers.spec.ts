/**
 * Trackers as a marketer uses them: on /acquisition/trackers, create a tracker that sends purchases
 * to the provider of the campaign that brought the person. Then the whole path runs for real: a
 * click on the campaign's link (an Android phone with its advertising id), the app's install and
 * purchase through the ingestion API, attribution, and the postback queued with its macros; the
 * campaign's "Postbacks" tab on /acquisition/apptracker shows the call. The account, provider,
 * source, campaign and link are set up through the API.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { call } from '../support/api.ts';
import { AFTER_LOAD } from '../support/people.ts';

const suffix = Date.now().toString(36);
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const PLAY = 'https://play.google.com/store/apps/details?id=com.example.shop';

test('a tracker sends an attributed purchase to the campaign\'s provider, visible on the campaign', async ({ page, playwright }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Tomás Trackers', email: `trackers.${suffix}@e2e.example.com`, password: 'Tracker-Pass-2026!', accountName: `Trackers ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop', os: 'Android', timezone: 'UTC' })) as { app: { id: string; appKey: string } };
  const base = `/apps/${app.id}/acquisition`;
  const { provider } = (await call(page.request, 'POST', '/account/providers', {
    name: 'Adnet', kind: 'social', postbackMethod: 'GET',
    installPostbackUrl: 'https://postbacks.adnet.example/install?click={click_id}',
    eventPostbackUrl: 'https://postbacks.adnet.example/event?click={click_id}&campaign={campaign_id}',
  })) as { provider: { id: string } };
  const { source } = (await call(page.request, 'POST', `${base}/sources`, { name: 'Adnet feed', type: 'adnetwork', accountProviderId: provider.id })) as { source: { id: string } };
  const { campaign } = (await call(page.request, 'POST', `${base}/campaigns`, {
    name: 'Spring sale', sourceId: source.id, pricingModel: 'cpi', costValue: 1.2, destinations: { android: { store: PLAY } },
  })) as { campaign: { id: string } };

  await page.goto('/acquisition/trackers');
  await expect(page.getByRole('heading', { name: 'Trackers' })).toBeVisible(AFTER_LOAD);
  await expect(page.getByText('No trackers yet')).toBeVisible();
  await page.getByTestId('tracker-add').first().click();
  const dialog = page.getByRole('dialog', { name: 'Create a tracker' });
  await dialog.getByTestId('tracker-name').fill('Purchases to Adnet');
  await dialog.getByTestId('tracker-event').fill('gd_transaction');
  await dialog.getByLabel('Provider event name').fill('purchase');
  await dialog.getByTestId('tracker-macros').click();
  await page.getByRole('option', { name: 'amount', exact: true }).click();
  await dialog.getByLabel('Name', { exact: true }).click();
  await dialog.getByTestId('tracker-save').click();
  const row = page.getByTestId('tracker-row').filter({ hasText: 'Purchases to Adnet' });
  await expect(row).toContainText('gd_transaction');
  await expect(row).toContainText("Provider's event URL");
  await expect(row).toContainText('Any campaign of the provider');

  // A click on the campaign's link from an Android phone, then the install and a purchase.
  const { link } = (await call(page.request, 'POST', `${base}/links`, { campaignId: campaign.id, kind: 'tracking', name: 'Feed' })) as { link: { url: string } };
  const phone = await playwright.request.newContext({ userAgent: PIXEL });
  const gaid = randomUUID();
  expect((await phone.get(`${link.url}?gaid=${gaid}`, { maxRedirects: 0 })).status()).toBe(302);
  const device = { id: `device-${suffix}`, gaid, model: 'Pixel 8' };
  const send = async (events: unknown[]) => {
    const res = await phone.post('/api/ingest/v1/batch', { headers: { 'x-app-key': app.appKey }, data: { device, events } });
    expect(((await res.json()) as { status: string }).status).toBe('OK');
  };
  await send([{ id: randomUUID(), name: 'gd_install', time: new Date().toISOString() }]);
  const kinds = async () => {
    const answer = (await call(page.request, 'GET', `${base}/campaigns/${campaign.id}/postbacks`)) as { postbacks: { kind: string }[] };
    return answer.postbacks.map((p) => p.kind).sort();
  };
  // The purchase waits for the install's attribution, then credits its campaign.
  await send([{ id: randomUUID(), name: 'gd_transaction', time: new Date(Date.now() + 1000).toISOString(), revenue: 24.5, currency: 'EUR' }]);
  await expect.poll(kinds, AFTER_LOAD).toEqual(['event', 'install']);

  await page.goto('/acquisition/apptracker');
  await page.getByTestId('campaign-row').filter({ hasText: 'Spring sale' }).getByRole('button', { name: 'Spring sale' }).click();
  await page.getByRole('tab', { name: 'Postbacks' }).click();
  const calls = page.getByTestId('postback-row');
  await expect(calls).toHaveCount(2, AFTER_LOAD);
  await expect(calls.filter({ hasText: 'Install' })).toContainText('https://postbacks.adnet.example/install?click=');
  await expect(calls.filter({ hasText: 'Event' })).toContainText(`/event?click=`);
  await expect(calls.filter({ hasText: 'Event' })).toContainText('event=purchase&amount=24.5');
  await expect(calls.filter({ hasText: 'Event' })).toContainText('gd_transaction · Purchases to Adnet');
  await phone.dispose();
});
