/**
 * Explore as an analyst uses it: a fresh account whose app (America/New_York) received events
 * through the ingestion API; the person picks the event and a breakdown, sees the chart and the
 * table, exports the CSV, and the file holds exactly the rows the table shows.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { call, parseCsv } from '../support/api.ts';

const suffix = Date.now().toString(36);
const DAY = 86_400_000;

/** A JSON call of the app's API with the session's cookies and the CSRF token (as the web client sends it). */

/** One device's events through the ingestion API, as an SDK sends them. */
async function sendEvents(request: APIRequestContext, appKey: string, country: string, times: number[]) {
  const res = await request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': appKey },
    data: {
      device: { id: `e2e-device-${country}-${suffix}`, os: 'iOS', appVersion: '2.1.0', country },
      events: times.map((time, i) => ({ id: `${country}-${i}-${suffix}`, name: 'purchase', time, revenue: 9.99, currency: 'EUR' })),
    },
  });
  const body = (await res.json()) as { status: string; accepted: string[] };
  expect(body.accepted).toHaveLength(times.length);
}

/** The cell texts of table rows. */
async function rowsText(rows: Locator): Promise<string[][]> {
  const out: string[][] = [];
  for (const row of await rows.all()) out.push((await row.locator('th, td').allInnerTexts()).map((s) => s.trim()));
  return out;
}

/** Header, body and totals of the explore table, as shown. */
async function tableText(page: Page): Promise<string[][]> {
  const table = page.getByTestId('explore-table');
  return [...(await rowsText(table.locator('thead tr'))), ...(await rowsText(table.locator('tbody tr'))), ...(await rowsText(table.locator('tfoot tr')))];
}

test('explore charts seeded events, and the CSV export holds exactly the table', async ({ page }) => {
  // A fresh account with an app in New York time, signed in through the API (the browser keeps the cookies).
  await call(page.request, 'POST', '/auth/register', {
    name: 'Eva Explorer', email: `explore.${suffix}@e2e.example.com`, password: 'Explore-Pass-2026!', accountName: `Explore ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop NY', os: 'iOS', timezone: 'America/New_York' })) as { app: { appKey: string } };

  // Purchases one to three days ago (always inside the default "last 7 days"), from three countries.
  const now = Date.now();
  await sendEvents(page.request, app.appKey, 'US', [now - DAY, now - DAY - 60_000, now - 2 * DAY]);
  await sendEvents(page.request, app.appKey, 'ES', [now - 2 * DAY, now - 3 * DAY]);
  await sendEvents(page.request, app.appKey, 'MX', [now - 3 * DAY]);

  await page.goto('/behavior/explore');
  await page.getByRole('combobox', { name: 'Event' }).click();
  await page.getByRole('option', { name: 'purchase' }).click();
  await page.getByRole('combobox', { name: 'Breakdown' }).click();
  await page.getByRole('option', { name: 'Country', exact: true }).click();
  await expect(page).toHaveURL(/event=purchase.*breakdown=country/);

  // The chart draws a line per country, and the table has a column per country and the totals.
  const chart = page.getByTestId('explore-chart');
  await expect(chart.locator('.recharts-line')).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'Legend' })).toContainText('US');
  const table = page.getByTestId('explore-table');
  await expect(table.locator('thead th')).toHaveText(['Period', 'US', 'ES', 'MX']);
  await expect(table.locator('tbody tr')).toHaveCount(7);
  await expect(table.locator('tfoot')).toContainText('Total');
  const shown = await tableText(page);
  expect(shown.at(-1)).toEqual(['Total', '3', '2', '1']);

  // The CSV download holds the same rows, cell for cell.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^explore-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}-purchase\.csv$/);
  const text = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
  expect(parseCsv(text)).toEqual(shown);

  // Comparing adds the previous period next to each series, in the table and so in the file.
  const compare = page.getByRole('switch', { name: 'Compare with the previous period' });
  await compare.click();
  await expect(compare).toBeChecked();
  await expect(table.locator('thead th')).toHaveText(['Period', 'US', 'US (previous period)', 'ES', 'ES (previous period)', 'MX', 'MX (previous period)']);
});

test('explore opens on the app\'s most frequent event of the range, and shows revenue in its currency', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Fran Frequent', email: `frequent.${suffix}@e2e.example.com`, password: 'Explore-Pass-2026!', accountName: `Frequent ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop UTC', os: 'Android', timezone: 'UTC' })) as { app: { appKey: string } };
  const now = Date.now();
  // In the last 7 days: 4 level_up, 3 purchases (in euros), 2 tutorial_done; before them, 9 old_event.
  const events = [
    ...[1, 2, 3, 4].map((d) => ({ name: 'level_up', time: new Date(now - d * DAY).toISOString() })),
    ...[1, 2, 3].map((d) => ({ name: 'purchase', time: new Date(now - d * DAY - 3_600_000).toISOString(), revenue: 10.5, currency: 'EUR' })),
    ...[1, 2].map((d) => ({ name: 'tutorial_done', time: new Date(now - d * DAY - 7_200_000).toISOString() })),
    ...Array.from({ length: 9 }, (_, i) => ({ name: 'old_event', time: new Date(now - 20 * DAY - i * 60_000).toISOString() })),
  ];
  const res = await page.request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': app.appKey },
    data: { device: { id: `e2e-frequent-${suffix}`, os: 'Android', appVersion: '1.0.0' }, events: events.map((e, i) => ({ id: `f-${i}-${suffix}`, ...e })) },
  });
  expect(((await res.json()) as { accepted: string[] }).accepted).toHaveLength(events.length);

  await page.goto('/behavior/explore');
  await expect(page.getByRole('combobox', { name: 'Event' })).toHaveValue('level_up');
  await expect(page).toHaveURL(/[?&]event=level_up(&|$)/);
  await expect(page.getByTestId('explore-table').locator('tfoot')).toContainText('4');

  // Over the last 30 days old_event is the most frequent: a fresh visit with that range opens on it.
  await page.goto('/behavior/explore?range=last30');
  await expect(page.getByRole('combobox', { name: 'Event' })).toHaveValue('old_event');
  await expect(page).toHaveURL(/event=old_event/);

  // Revenue in the events' currency, in the chart's table and in the events list.
  await page.goto('/behavior/explore?event=purchase&metric=revenue');
  await expect(page.getByTestId('explore-table').locator('tfoot')).toContainText('€31.50');
  await page.goto('/es/behavior/explore?event=purchase&metric=revenue');
  await expect(page.getByTestId('explore-table').locator('tfoot')).toContainText(/31,50\s€/);
  await page.goto('/behavior/events');
  await expect(page.getByRole('row', { name: /purchase/ })).toContainText('€31.50');
});
