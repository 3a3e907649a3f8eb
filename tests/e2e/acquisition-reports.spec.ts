/**
 * The acquisition reports through the whole chain: a fresh account's campaign (cost per install)
 * and tracking link are set up through the API; a phone clicks the link with its advertising id
 * (the link host records it), the app reports the install with that id and a sale through the
 * ingestion API, and the attribution engine matches them. /acquisition/activity then shows the
 * clicks, the install, the conversion rate, the cost from the pricing model, the revenue and the
 * ROI by source; /acquisition/installs shows the install with its campaign and match kind; the
 * Spanish screen says the same in Spanish.
 */
import { expect, test } from '@playwright/test';
import { call } from '../support/api.ts';
import { AFTER_LOAD } from '../support/people.ts';

const suffix = Date.now().toString(36);
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const GAID = `3f2a9c1e-0000-4000-8000-${Date.now().toString(16).padStart(12, '0').slice(-12)}`;

test('a click, its attributed install and sale make the activity and installs reports', async ({ page, playwright }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Rita Reports', email: `acqreports.${suffix}@e2e.example.com`, password: 'Reports-Pass-2026!', accountName: `Reports ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop', os: 'Android', timezone: 'UTC' })) as { app: { id: string; appKey: string } };
  const base = `/apps/${app.id}/acquisition`;
  const { source } = (await call(page.request, 'POST', `${base}/sources`, { name: 'Network A', type: 'adnetwork' })) as { source: { id: string } };
  const { campaign } = (await call(page.request, 'POST', `${base}/campaigns`, {
    name: 'Spring', sourceId: source.id, pricingModel: 'cpi', costValue: 2,
    destinations: { android: { store: 'https://play.google.com/store/apps/details?id=com.example.shop' } },
  })) as { campaign: { id: string } };
  const { link } = (await call(page.request, 'POST', `${base}/links`, { campaignId: campaign.id, kind: 'tracking', name: 'Spring link' })) as { link: { url: string } };

  // Two clicks of the phone (one counted as its own, one more), then the install and a sale of 10.
  const phone = await playwright.request.newContext({ userAgent: PIXEL });
  for (let i = 0; i < 2; i++) expect((await phone.get(`${link.url}?gaid=${GAID}`, { maxRedirects: 0 })).status()).toBe(302);
  // After the clicks (the host stamps them with its own clock).
  const now = Date.now();
  const sent = await page.request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': app.appKey },
    data: {
      device: { id: `acq-reports-${suffix}`, os: 'Android', gaid: GAID, appVersion: '1.0.0' },
      events: [
        { id: `acq-${suffix}-1`, name: 'gd_install', time: new Date(now + 1000).toISOString() },
        { id: `acq-${suffix}-2`, name: 'gd_transaction', time: new Date(now + 2000).toISOString(), revenue: 10, currency: 'EUR' },
      ],
    },
  });
  expect(((await sent.json()) as { accepted: string[] }).accepted).toHaveLength(2);
  // The engine attributes pending installs as they arrive (woken by ingestion).
  await expect.poll(async () => ((await call(page.request, 'GET', `${base}/reports/installs`)) as { totals: { current: number }[] }).totals[0]?.current, AFTER_LOAD).toBe(1);

  await page.goto('/acquisition/activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible(AFTER_LOAD);
  await expect(page.getByTestId('kpi-clicks').getByTestId('kpi-value')).toHaveText('2', AFTER_LOAD);
  await expect(page.getByTestId('kpi-installs').getByTestId('kpi-value')).toHaveText('1');
  await expect(page.getByTestId('kpi-conversionRate').getByTestId('kpi-value')).toHaveText('50%');
  await expect(page.getByTestId('kpi-cost').getByTestId('kpi-value')).toHaveText('2.00');
  await expect(page.getByTestId('kpi-revenue').getByTestId('kpi-value')).toHaveText('10.00');
  await expect(page.getByTestId('kpi-roi').getByTestId('kpi-value')).toHaveText('400%');
  await expect(page.getByTestId('kpi-clicks').getByTestId('kpi-change')).toHaveText('No previous data');
  const network = page.getByTestId('source-row').filter({ hasText: 'Network A' });
  await expect(network).toContainText('Ad network');
  await expect(network.getByRole('cell').nth(2)).toHaveText(/^1\s/);
  await expect(page.getByTestId('source-row').filter({ hasText: 'Organic' })).toBeVisible();
  await expect(page.getByTestId('activity-chart')).toBeVisible();

  await page.goto('/acquisition/installs');
  await expect(page.getByRole('heading', { level: 1, name: 'Installs' })).toBeVisible(AFTER_LOAD);
  const row = page.getByTestId('latest-row');
  await expect(row).toHaveCount(1, AFTER_LOAD);
  await expect(row).toContainText('Spring');
  await expect(row).toContainText('Device id');
  await expect(page.getByTestId('report-by-campaign')).toContainText('Network A');

  await page.goto('/es/acquisition/installs');
  await expect(page.getByTestId('latest-row')).toContainText('Id de dispositivo', AFTER_LOAD);
  await expect(page.getByTestId('kpi-installs')).toContainText('Instalaciones');
  await phone.dispose();
});
