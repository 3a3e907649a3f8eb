/**
 * /behavior/people as a growth analyst uses it: a person's data arrives through the ingestion API
 * with the app key (as an SDK would send it), then the signed-in demo user finds them by customer
 * id and by IDFA, reads the profile, tags, devices and messages, and pages through the timeline
 * with its event filter; the selected person survives a reload, and an unknown id says so.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { signInContext } from '../support/people.ts';

const suffix = Date.now().toString(36);
const customerId = `e2e-shopper-${suffix}`;
const idfa = randomUUID().toUpperCase();
/** More events than one timeline page (50), so scrolling has to load the older ones. */
const VIEWS = 64;
/** After a full page load the screen's lazy chunks arrive first; on a busy shared machine that can exceed the default 10 s. */
const AFTER_LOAD = { timeout: 30_000 };

async function ingest(request: APIRequestContext, appKey: string, path: 'batch' | 'identify' | 'profile', body: unknown) {
  const res = await request.post(`/api/ingest/v1/${path}`, { headers: { 'x-app-key': appKey }, data: body });
  const answer = (await res.json()) as { status: string; rejected?: unknown[] };
  expect(answer.status).toBe('OK');
  expect(answer.rejected ?? []).toEqual([]);
}

/** One shopper's install, views, a purchase, a push interaction, identity, profile and tags. */
async function seedShopper(request: APIRequestContext, appKey: string) {
  const device = { id: randomUUID(), os: 'iOS', osVersion: '17.5', appVersion: '4.2.0', model: 'iPhone15,3', country: 'ES', city: 'Sevilla', idfa, pushToken: `tok-${randomUUID()}`, pushEnabled: true };
  const start = Date.now() - 2 * 86_400_000;
  const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
  const events = [
    { id: randomUUID(), name: 'gd_install', time: at(0), source: 'Instagram', campaign: 'autumn' },
    ...Array.from({ length: VIEWS }, (_, i) => ({ id: randomUUID(), name: 'product_view', time: at(1 + i), properties: { sku: `SKU-${i}` } })),
    { id: randomUUID(), name: 'gd_transaction', time: at(VIEWS + 2), revenue: 42.5, currency: 'EUR', properties: { order_id: `ORD-${suffix}` } },
  ];
  await ingest(request, appKey, 'batch', {
    device, events,
    interactions: [{ id: randomUUID(), time: at(VIEWS + 3), channel: 'push', kind: 'click', campaignId: 'camp-e2e', messageId: 'msg-e2e' }],
  });
  await ingest(request, appKey, 'identify', { device, customerId, profile: { email: `${customerId}@example.com`, attributes: { plan: 'gold' } } });
  await ingest(request, appKey, 'profile', { device, tags: { loyalty_tier: 'Gold' } });
}

test('find a person by customer id and IDFA, read the profile and page through the timeline', async ({ page }) => {
  // Many steps and three full page loads: three times the default time on a shared, busy machine.
  test.slow();
  await signInContext(page.context(), 'client@demo.growthdeck.test');
  // The apps of the demo account, with their ingestion keys; the data goes to every one so
  // whichever app the shell opens on has it.
  const apps = (await (await page.request.get('/api/apps')).json()) as { apps: { id: string; appKey: string }[] };
  expect(apps.apps.length).toBeGreaterThan(0);
  for (const app of apps.apps) await seedShopper(page.request, app.appKey);

  await page.goto('/behavior/people');
  await expect(page.getByRole('heading', { name: 'People', level: 1 })).toBeVisible(AFTER_LOAD);
  await expect(page.getByText('Select a person')).toBeVisible();

  // Search by customer id.
  await page.getByTestId('people-search').fill(customerId);
  await expect(page.getByText('1 match', { exact: true })).toBeVisible();
  const row = page.getByTestId('person-row').filter({ hasText: customerId });
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId('person-row')).toHaveCount(1);
  await row.click();
  await expect(page).toHaveURL(/[?&]person=\d+/);
  const profile = page.getByTestId('person-profile');
  await expect(profile.getByTestId('person-title')).toHaveText(customerId);
  await expect(profile).toContainText(`${customerId}@example.com`);
  await expect(profile.getByTestId('person-tag').filter({ hasText: 'loyalty_tier' })).toContainText('Gold');
  await expect(profile).toContainText('Instagram');
  await expect(profile).toContainText('plan');

  // Devices and messages.
  await profile.getByRole('tab', { name: /Devices/ }).click();
  await expect(profile.getByTestId('person-device')).toContainText(idfa);
  await profile.getByRole('tab', { name: /Messages/ }).click();
  await expect(profile.getByTestId('person-message')).toContainText('msg-e2e');

  // The timeline: newest first, built-in events by their label, older pages on scroll.
  await profile.getByRole('tab', { name: /Events/ }).click();
  await expect(page).toHaveURL(/tab=timeline/);
  const names = profile.getByTestId('timeline-event-name');
  await expect(names.first()).toHaveText('Sale');
  await expect(profile.getByTestId('timeline-event').first()).toContainText('€42.50');
  const timeline = profile.getByTestId('timeline');
  await expect(profile.getByText(`${VIEWS + 2} events`)).toBeVisible();
  // Scroll to the end until the oldest event (the install) and the end marker are shown.
  await expect(async () => {
    await timeline.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(profile.getByTestId('timeline-end')).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(names.last()).toHaveText('Install');

  // Filter by event name.
  await profile.getByRole('combobox', { name: 'Event', exact: true }).click();
  await page.getByRole('option', { name: /^Sale/ }).click();
  await expect(profile.getByTestId('timeline-event')).toHaveCount(1);
  await expect(names).toHaveText(['Sale']);

  // Reload keeps the person and the tab.
  await page.reload();
  await expect(page.getByTestId('person-profile').getByTestId('person-title')).toHaveText(customerId, AFTER_LOAD);
  await expect(page.getByRole('tab', { name: /Events/, selected: true })).toBeVisible();

  // Search by IDFA finds the same person, with the match shown; Enter opens the best match.
  const personUrl = page.url();
  await page.goto('/behavior/people');
  await expect(page.getByText('Select a person')).toBeVisible(AFTER_LOAD);
  await page.getByTestId('people-search').fill(idfa);
  await page.getByTestId('people-search').press('Enter');
  await expect(page.getByTestId('person-row')).toHaveCount(1);
  await expect(page.getByTestId('person-row')).toContainText(customerId);
  await expect(page.getByTestId('person-row')).toContainText('IDFA');
  await expect(page.getByTestId('person-profile').getByTestId('person-title')).toHaveText(customerId);
  expect(new URL(page.url()).searchParams.get('person')).toBe(new URL(personUrl).searchParams.get('person'));

  // Nobody matches: the search says so.
  await page.getByTestId('people-search').fill(`nobody-${suffix}`);
  await expect(page.getByText(`Nobody matches “nobody-${suffix}”`)).toBeVisible();

  // An id that is not a person of this app.
  await page.goto('/behavior/people?person=999999999999');
  await expect(page.getByTestId('person-not-found')).toBeVisible(AFTER_LOAD);
});
