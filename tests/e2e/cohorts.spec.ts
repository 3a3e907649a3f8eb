/**
 * Cohorts as an analyst uses them: a fresh account whose app (UTC) received sign-ups and returns
 * through the ingestion API over the last week; the person opens the retention table by day, reads
 * the cohort sizes and the day-1 cell, saves that cell as an audience, and the audience holds the
 * cell's people. The curve is drawn, incomplete periods are marked and the query lives in the URL.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { call } from '../support/api.ts';

const suffix = Date.now().toString(36);
const DAY = 86_400_000;
const HOUR = 3_600_000;

async function sendEvents(request: APIRequestContext, appKey: string, device: string, events: { name: string; time: number }[]) {
  const res = await request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': appKey },
    data: {
      device: { id: `e2e-cohort-${device}-${suffix}`, os: 'Android', appVersion: '1.0.0', country: 'ES' },
      events: events.map((e, i) => ({ id: `${device}-${i}-${suffix}`, name: e.name, time: new Date(e.time).toISOString() })),
    },
  });
  expect(((await res.json()) as { accepted: string[] }).accepted).toHaveLength(events.length);
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

test('a retention table on ingested activity, with a cell saved as an audience of its people', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Cora Cohort', email: `cohort.${suffix}@e2e.example.com`, password: 'Cohort-Pass-2026!', accountName: `Cohort ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Retention UTC', os: 'Android', timezone: 'UTC' })) as { app: { id: string; appKey: string } };
  const today = Math.floor(Date.now() / DAY) * DAY; // midnight UTC, the app's today
  const at = (daysAgo: number, hour: number) => today - daysAgo * DAY + hour * HOUR;
  // Cohort of 5 days ago: three sign-ups, two open the app the next day. Cohort of 3 days ago: one, back 2 days later.
  await sendEvents(page.request, app.appKey, 'a', [{ name: 'signup', time: at(5, 9) }, { name: 'app_open', time: at(4, 10) }, { name: 'app_open', time: at(3, 10) }]);
  await sendEvents(page.request, app.appKey, 'b', [{ name: 'signup', time: at(5, 12) }, { name: 'app_open', time: at(4, 20) }]);
  await sendEvents(page.request, app.appKey, 'c', [{ name: 'signup', time: at(5, 15) }]);
  await sendEvents(page.request, app.appKey, 'd', [{ name: 'signup', time: at(3, 8) }, { name: 'app_open', time: at(1, 8) }]);

  const cohort5 = dayOf(at(5, 0));
  await page.goto(`/behavior/cohort?start=signup&ret=app_open&period=day&periods=4&from=${dayOf(at(6, 0))}&to=${dayOf(at(1, 0))}`);
  await expect(page.getByRole('combobox', { name: 'Start event' })).toHaveValue('signup');
  const table = page.getByRole('table', { name: 'Retention' });
  await expect(table.locator('thead th')).toHaveText(['Cohort', 'People', 'Day 0', 'Day 1', 'Day 2', 'Day 3', 'Day 4']);
  const row5 = table.locator(`tr[data-cohort="${cohort5}"]`);
  await expect(row5.locator('td').nth(1)).toHaveText('3');
  await expect(row5.locator('td').nth(3)).toHaveText('67%');
  await expect(table.locator(`tr[data-cohort="${dayOf(at(3, 0))}"] td`).nth(4)).toHaveText('100%');
  // Day 4 of the 5-days-ago cohort is yesterday (complete); the cohort of 3 days ago has not reached day 4 yet (no cell), its day 3 is today (incomplete).
  await expect(table.locator(`tr[data-cohort="${dayOf(at(3, 0))}"] [data-complete="false"]`)).toHaveCount(1);
  await expect(page.getByRole('img', { name: 'Retention curve' }).locator('.recharts-line')).toHaveCount(1);

  // The day-1 cell of that cohort: two people; saved as an audience.
  await row5.getByRole('button', { name: /Day 1:/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Save as audience' });
  await expect(dialog).toContainText('2 people');
  await dialog.getByLabel('Name').fill(`Came back ${suffix}`);
  await dialog.getByRole('button', { name: 'Save audience' }).click();
  await expect(page.getByText(`Audience Came back ${suffix} saved with 2 people.`)).toBeVisible();
  const { audiences } = (await call(page.request, 'GET', `/apps/${app.id}/audiences`)) as { audiences: { name: string; personCount: number; status: string }[] };
  expect(audiences.find((a) => a.name === `Came back ${suffix}`)).toMatchObject({ personCount: 2, status: 'ready' });

  // On or after: the 3-days-ago person came back on day 2, so days 1 and 2 count them.
  await page.getByText('On or after', { exact: true }).click();
  await expect(page).toHaveURL(/on=onOrAfter/);
  await expect(table.locator(`tr[data-cohort="${dayOf(at(3, 0))}"] td`).nth(3)).toHaveText('100%');
});
