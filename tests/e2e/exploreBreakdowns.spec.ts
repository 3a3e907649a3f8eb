/**
 * The "Breakdown" mark of the event catalogue (/manage/events) as an owner uses it: a fresh account
 * whose app received purchases with a `plan` property; the owner marks `plan` as a breakdown
 * property, sees it listed as counting past events (the backfill job runs a little later), the mark
 * survives a reload, explore still breaks purchases down by plan with the same figures, and the
 * mark can be removed again.
 */
import { expect, test } from '@playwright/test';
import { call } from '../support/api.ts';

const suffix = Date.now().toString(36);
const DAY = 86_400_000;

test('marks an event property as a breakdown, keeps it across a reload, and explore breaks down by it', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Bea Breakdown', email: `breakdown.${suffix}@e2e.example.com`, password: 'Explore-Pass-2026!', accountName: `Breakdown ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop', os: 'Android', timezone: 'UTC' })) as { app: { appKey: string } };
  const now = Date.now();
  const plans = ['pro', 'pro', 'pro', 'free', 'free', undefined];
  const res = await page.request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': app.appKey },
    data: {
      device: { id: `e2e-breakdown-${suffix}`, os: 'Android', country: 'ES' },
      events: plans.map((plan, i) => ({ id: `bd-${i}-${suffix}`, name: 'purchase', time: new Date(now - (1 + (i % 3)) * DAY).toISOString(), properties: plan ? { plan } : {} })),
    },
  });
  expect(((await res.json()) as { accepted: string[] }).accepted).toHaveLength(plans.length);

  await page.goto('/manage/events');
  const row = page.getByTestId('custom-event-row').filter({ hasText: 'purchase' });
  await expect(row.getByTestId('event-breakdowns')).toContainText('None');
  await row.getByRole('button', { name: 'Edit the breakdown properties of purchase' }).click();
  const dialog = page.getByRole('dialog', { name: 'Breakdown properties of purchase' });
  const input = dialog.getByRole('combobox', { name: 'Breakdown properties of purchase' });
  await input.fill('plan');
  await input.press('Enter');
  await dialog.getByTestId('save-breakdowns').click();
  await expect(dialog).toBeHidden();
  const badge = row.getByTestId('event-breakdowns').getByText('plan');
  await expect(badge).toBeVisible();
  await expect(row.getByLabel('counting past events')).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('custom-event-row').filter({ hasText: 'purchase' }).getByTestId('event-breakdowns')).toContainText('plan');

  // Explore by the property: pro 3, free 2, (empty) 1, whichever source answers.
  await page.goto('/behavior/explore?event=purchase&breakdown=property&property=plan');
  const table = page.getByTestId('explore-table');
  await expect(table.locator('thead th')).toHaveText(['Period', 'pro', 'free', '(empty)']);
  await expect(table.locator('tfoot tr').first().locator('th, td')).toHaveText(['Total', '3', '2', '1']);

  // Removing the mark empties the cell again.
  await page.goto('/manage/events');
  const again = page.getByTestId('custom-event-row').filter({ hasText: 'purchase' });
  await again.getByRole('button', { name: 'Edit the breakdown properties of purchase' }).click();
  const reopened = page.getByRole('dialog', { name: 'Breakdown properties of purchase' });
  await reopened.getByRole('combobox', { name: 'Breakdown properties of purchase' }).press('Backspace');
  await reopened.getByText('Explore breaks purchase down', { exact: false }).click(); // closes the suggestions over the buttons
  await reopened.getByTestId('save-breakdowns').click();
  await expect(reopened).toBeHidden();
  await expect(again.getByTestId('event-breakdowns')).toContainText('None');
});
