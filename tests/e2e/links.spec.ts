/**
 * Links as a marketer uses them: create a tracking link for a campaign on /acquisition/links, see
 * its short link, QR code and a click address built with parameters; click it as an iPhone (sent
 * to the App Store) and as a crawler (flagged, not counted); the click shows in the link's list
 * and details. Then a powlink opened on Android answers the page that opens the app, with the
 * store as its fallback. The account, source and campaign are set up through the API.
 */
import { expect, test } from '@playwright/test';
import { call } from '../support/api.ts';
import { AFTER_LOAD } from '../support/people.ts';

const suffix = Date.now().toString(36);
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const APP_STORE = 'https://apps.apple.com/app/id6450000001';
const PLAY = 'https://play.google.com/store/apps/details?id=com.example.shop';

test('build a tracking link, click it, see the click; a powlink opens the app on Android', async ({ page, playwright }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Lina Links', email: `links.${suffix}@e2e.example.com`, password: 'Links-Pass-2026!', accountName: `Links ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop', os: 'iOS', timezone: 'UTC' })) as { app: { id: string } };
  const base = `/apps/${app.id}/acquisition`;
  const { source } = (await call(page.request, 'POST', `${base}/sources`, { name: 'Network A', type: 'adnetwork' })) as { source: { id: string } };
  const { campaign } = (await call(page.request, 'POST', `${base}/campaigns`, {
    name: 'Spring', sourceId: source.id, pricingModel: 'cpi', costValue: 1.2,
    destinations: { ios: { store: APP_STORE }, android: { store: PLAY }, desktop: { web: 'https://shop.example.com/' } },
  })) as { campaign: { id: string } };

  await page.goto('/acquisition/links');
  await expect(page.getByRole('heading', { name: 'Links' })).toBeVisible(AFTER_LOAD);
  await expect(page.getByText('No tracking links yet')).toBeVisible();
  await page.getByTestId('link-add').first().click();
  const dialog = page.getByRole('dialog', { name: 'Create a tracking link' });
  await dialog.getByLabel('Name', { exact: true }).fill('Spring, network A');
  await dialog.getByTestId('campaign-select').click();
  await page.getByRole('option', { name: /^Spring/ }).click();
  await dialog.getByLabel('Short code').fill(`spring-${suffix}`);
  await dialog.getByText('Tracking parameters').click();
  await dialog.getByLabel('sid', { exact: true }).fill('net-a');
  await dialog.getByTestId('link-save').click();

  // Saved: its details open with the short link, the QR code and the click address builder.
  const details = page.getByRole('dialog', { name: 'Link: Spring, network A' });
  await expect(details.getByTestId('link-qr')).toBeVisible();
  await details.getByLabel('p1', { exact: true }).fill('banner 7');
  await expect(details.getByTestId('built-url')).toContainText(`/l/spring-${suffix}?p1=banner+7&sid=net-a`);
  await expect(details.getByTestId('no-clicks')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(details).toBeHidden();

  // Clicks: an iPhone goes to the App Store; a crawler is answered too, but flagged.
  const url = new URL(`/l/spring-${suffix}?p1=banner7&idfa=AB12-CD34`, page.url()).toString();
  const phone = await playwright.request.newContext({ userAgent: IPHONE });
  const answer = await phone.get(url, { maxRedirects: 0 });
  expect(answer.status()).toBe(302);
  expect(answer.headers().location).toBe(APP_STORE);
  const crawler = await playwright.request.newContext({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
  expect((await crawler.get(url, { maxRedirects: 0 })).status()).toBe(302);

  await page.reload();
  const row = page.getByTestId('link-row').filter({ hasText: 'Spring, network A' });
  await expect(row.getByTestId('link-clicks')).toHaveText('1', AFTER_LOAD);
  await row.getByRole('button', { name: 'Details and QR code of Spring, network A' }).click();
  const clicks = page.getByRole('dialog', { name: 'Link: Spring, network A' }).getByTestId('click-row');
  await expect(clicks).toHaveCount(2);
  await expect(clicks.filter({ hasText: 'Counted' })).toContainText('idfa: AB12-CD34');
  await expect(clicks.filter({ hasText: 'Crawler' })).toHaveCount(1);

  // A powlink with a deep link, opened on Android: a page that opens the app, the store behind it.
  const { link } = (await call(page.request, 'POST', `${base}/links`, {
    campaignId: campaign.id, kind: 'powlink', name: 'Everywhere', deepLink: 'shop://home',
  })) as { link: { url: string } };
  const android = await playwright.request.newContext({ userAgent: PIXEL });
  const html = await (await android.get(link.url)).text();
  expect(html).toMatch(/intent:\/\/home\?gd_click=[0-9a-f-]{36}#Intent;scheme=shop;package=com\.example\.shop;S\.browser_fallback_url=https%3A%2F%2Fplay\.google\.com/);
  await page.goto('/acquisition/powlinks');
  await expect(page.getByTestId('link-row').filter({ hasText: 'Everywhere' })).toContainText('Android');
  await Promise.all([phone.dispose(), crawler.dispose(), android.dispose()]);
});

