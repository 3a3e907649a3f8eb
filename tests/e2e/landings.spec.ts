/**
 * Landing pages as a marketer builds them on /manage/landings: a new page from blocks, a malformed
 * address refused, the live preview following the blocks, saved, published and opened at its
 * address (text escaped, the visit counted), then a powlink whose web fallback is that page. The
 * account, campaign and powlink are set up through the API.
 */
import { expect, test } from '@playwright/test';
import { call } from '../support/api.ts';
import { AFTER_LOAD } from '../support/people.ts';

const suffix = Date.now().toString(36);
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

test('build a landing page, publish it, open it, and reach it from a powlink', async ({ page, browser }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Lola Landings', email: `landings.${suffix}@e2e.example.com`, password: 'Landing-Pass-2026!', accountName: `Landings ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop', os: 'iOS', timezone: 'UTC' })) as { app: { id: string } };
  const base = `/apps/${app.id}/acquisition`;
  const { source } = (await call(page.request, 'POST', `${base}/sources`, { name: 'Network A', type: 'adnetwork' })) as { source: { id: string } };
  const { campaign } = (await call(page.request, 'POST', `${base}/campaigns`, { name: 'Spring', sourceId: source.id, pricingModel: 'cpi', costValue: 1 })) as { campaign: { id: string } };

  await page.goto('/manage/landings');
  await expect(page.getByRole('heading', { name: 'Landings' })).toBeVisible(AFTER_LOAD);
  await expect(page.getByText('No landing pages yet')).toBeVisible(AFTER_LOAD);
  await page.getByTestId('landing-add').first().click();
  await expect(page.getByRole('heading', { name: 'New landing page' })).toBeVisible(AFTER_LOAD);

  await page.getByTestId('landing-name').fill('Spring sale');
  await expect(page.getByTestId('landing-slug')).toHaveValue('spring-sale');
  await page.getByTestId('landing-slug').fill('spring sale!');
  await page.getByTestId('block-title-text').fill('Spring <b>sale</b>');
  await page.getByTestId('block-text').fill('Everything 30% off until Sunday.');
  await page.getByTestId('button-label').fill('Buy now');
  await page.getByTestId('button-url').fill('https://shop.example.com/buy');
  const preview = page.frameLocator('[data-testid="landing-preview"]');
  await expect(preview.getByRole('heading', { name: 'Spring <b>sale</b>' })).toBeVisible(AFTER_LOAD);
  await expect(preview.getByText('Buy now')).toBeVisible();

  // The address is refused until it is slug-like; nothing is saved meanwhile.
  await page.getByTestId('landing-save').click();
  await expect(page.getByText('Use letters, digits, _, ~, . and - only (not only dots).')).toBeVisible();
  await page.getByTestId('landing-slug').fill(`spring-${suffix}`);
  await page.getByTestId('landing-publish').click();
  await expect(page.getByTestId('landing-status')).toHaveText('Published', AFTER_LOAD);
  const url = (await page.getByTestId('landing-url').textContent()) ?? '';
  expect(url).toMatch(new RegExp(`/p/spring-${suffix}$`));

  // Opened by a person: the page, its text escaped, its button; the visit counted.
  const visitor = await browser.newContext({ userAgent: DESKTOP });
  const tab = await visitor.newPage();
  const answer = await tab.goto(url);
  expect(answer?.headers()['content-security-policy']).toContain("default-src 'none'");
  await expect(tab.getByRole('heading', { name: 'Spring <b>sale</b>' })).toBeVisible(AFTER_LOAD);
  await expect(tab.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', 'https://shop.example.com/buy');
  await page.reload();
  await expect(page.getByTestId('landing-visits-total')).toHaveText('1 visit', AFTER_LOAD);

  // A powlink whose web fallback is the page: a computer lands on it, the click id on its button.
  const { landings } = (await call(page.request, 'GET', `/apps/${app.id}/landings`)) as { landings: { id: string }[] };
  const { link } = (await call(page.request, 'POST', `${base}/links`, { campaignId: campaign.id, kind: 'powlink', name: 'Everywhere', landingId: landings[0]?.id })) as { link: { url: string } };
  await tab.goto(link.url);
  await expect(tab).toHaveURL(new RegExp(`/p/spring-${suffix}\\?gd_click=[0-9a-f-]{36}`));
  await expect(tab.getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', /^https:\/\/shop\.example\.com\/buy\?gd_click=[0-9a-f-]{36}$/);
  await visitor.close();

  // Back to the list (a fresh load: the editor's own list query may be less than the cache's second old).
  await page.getByTestId('landing-back').click();
  await expect(page.getByTestId('landing-row')).toHaveCount(1);
  await page.reload();
  const row = page.getByTestId('landing-row').filter({ hasText: 'Spring sale' });
  await expect(row.getByTestId('landing-status')).toHaveText('Published', AFTER_LOAD);
  await expect(row.getByTestId('landing-visits')).toHaveText('2');
  await expect(row.getByTestId('landing-links')).toHaveText('1');
});
