/**
 * Funnels as a growth analyst uses them: a fresh account whose app received events through the
 * ingestion API (six people viewed an item, four of them added it to the cart, two bought); the
 * analyst builds view_item → add_to_cart → purchase, sees the people per step, reloads the page
 * from its URL, opens the people who dropped before step 3, saves them as an audience, and finds
 * the audience in /behavior/audiences with the same count, marked as coming from a funnel; then
 * puts the funnel on a new dashboard and sees it drawn there.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { call } from '../support/api.ts';

const suffix = Date.now().toString(36);
const MINUTE = 60_000;

/** One person's events (minutes after `start`) through the ingestion API, as an SDK sends them. */
async function sendPerson(request: APIRequestContext, appKey: string, person: number, start: number, events: [string, number][]) {
  const res = await request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': appKey },
    data: {
      device: { id: `e2e-funnel-${person}-${suffix}`, os: 'Android', appVersion: '3.0.0', country: person % 2 ? 'ES' : 'MX' },
      events: events.map(([name, minutes], i) => ({ id: `fn-${person}-${i}-${suffix}`, name, time: new Date(start + minutes * MINUTE).toISOString() })),
    },
  });
  const body = (await res.json()) as { accepted: string[] };
  expect(body.accepted).toHaveLength(events.length);
}

async function pickStep(page: Page, step: number, event: string) {
  await page.getByTestId(`funnel-step-${step}`).getByRole('combobox', { name: 'Pick an event' }).click();
  await page.getByRole('option', { name: event, exact: true }).click();
}

async function expectCounts(page: Page, counts: string[]) {
  for (const [i, count] of counts.entries()) await expect(page.getByTestId(`funnel-row-${i + 1}`).getByTestId('count')).toHaveText(count);
}

test('build a funnel, drill into the people who dropped, save them as an audience, and put the funnel on a dashboard', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Fiona Funnel', email: `funnel.${suffix}@e2e.example.com`, password: 'Funnel-Pass-2026!', accountName: `Funnel ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop', os: 'Android', timezone: 'UTC' })) as { app: { appKey: string } };
  // Two days ago (inside the default "last 7 days"): 6 view, 4 then add to cart, 2 then buy; one
  // more buys before viewing (out of order: not a conversion).
  const start = Date.now() - 2 * 86_400_000;
  const journeys: [string, number][][] = [
    [['view_item', 0], ['add_to_cart', 5], ['purchase', 9]],
    [['view_item', 1], ['add_to_cart', 3], ['purchase', 30]],
    [['view_item', 2], ['add_to_cart', 4]],
    [['view_item', 3], ['add_to_cart', 8]],
    [['view_item', 4], ['search', 6]],
    [['purchase', 1], ['view_item', 5]],
  ];
  for (const [i, events] of journeys.entries()) await sendPerson(page.request, app.appKey, i, start, events);

  await page.goto('/behavior/funnels');
  await expect(page.getByText('Choose the steps')).toBeVisible();
  await pickStep(page, 1, 'view_item');
  await pickStep(page, 2, 'add_to_cart');
  await page.getByRole('button', { name: 'Add step' }).click();
  await pickStep(page, 3, 'purchase');

  await expectCounts(page, ['6', '4', '2']);
  await expect(page.getByTestId('funnel-conversion')).toHaveText('33.3%');
  await expect(page.getByTestId('funnel-row-3').getByTestId('dropped')).toHaveText('2');
  await expect(page.getByTestId('funnel-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();

  // The funnel is in the URL: a reload shows the same answer.
  await expect(page).toHaveURL(/funnel=/);
  const funnelUrl = page.url();
  await page.reload();
  await expectCounts(page, ['6', '4', '2']);

  // The two who added to the cart but did not buy.
  await page.getByRole('button', { name: 'People who dropped before step 3' }).click();
  const drill = page.getByTestId('funnel-drill');
  await expect(drill.getByTestId('funnel-drill-count')).toHaveText('2 people');
  await expect(drill.locator('tbody tr')).toHaveCount(2);
  await drill.getByRole('button', { name: 'Save as audience' }).click();
  const name = `Cart abandoners ${suffix}`;
  const dialog = page.getByRole('dialog', { name: 'Save as audience' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('button', { name: 'Save as audience' }).click();
  await expect(page.getByText(`Audience "${name}" saved with 2 people.`)).toBeVisible();

  // The audience list has it, with the same count, as coming from a funnel.
  await page.goto('/behavior/audiences');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('audience-source')).toHaveText('Funnel');
  await expect(row).toContainText('2');

  // The funnel goes on a new dashboard, which draws it (the dashboard's window sets its days).
  await page.goto(funnelUrl);
  await expectCounts(page, ['6', '4', '2']);
  await page.getByTestId('add-to-dashboard').click();
  const board = `Conversion ${suffix}`;
  await page.getByTestId('add-to-dashboard-name').fill(board);
  await page.getByTestId('add-to-dashboard-submit').click();
  await expect(page.getByText(`Added to ${board}.`)).toBeVisible();
  await page.goto('/main/dashboards');
  const widget = page.locator('[data-kind="funnel"]');
  await expect(widget.getByTestId('widget-title')).toHaveText('view_item → add_to_cart → purchase');
  await expect(widget.getByTestId('funnel-chart')).toBeVisible();
});
