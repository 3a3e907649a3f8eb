/**
 * Dashboards and the executive view in Chromium, through the real server:
 * - a manager creates a dashboard, adds a key figure and a chart of events sent through the
 *   ingestion API (the KPI's total and its change on the same days of last week are the events
 *   sent), a second person (the admin) watching the same dashboard sees the manager's drag move
 *   the key figure live, and the dashboard is remembered: /main/dashboards opens it again, and
 *   explore's "Add to dashboard" appends its chart to it (the admin sees it arrive);
 * - on a fresh account, the dashboard's own "Add widget" dialog adds a funnel (steps picked from the
 *   event catalogue, a window of hours, strict order) and a retention table, which the dashboard
 *   draws over its window; the header's date range control is not shown on the open dashboard
 *   (its window sets the days) and is on explore;
 * - the executive view of a fresh account with two apps shows each app's installs, active people
 *   and revenue and their total.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, AFTER_LOAD, MANAGER, signIn } from '../support/people.ts';
import { call } from '../support/api.ts';

const suffix = Date.now().toString(36);
const DAY = 86_400_000;

async function send(request: APIRequestContext, appKey: string, device: string, events: { name: string; time: number; revenue?: number }[]) {
  const res = await request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': appKey },
    data: {
      device: { id: `e2e-dash-${device}-${suffix}`, os: 'iOS', country: 'ES' },
      events: events.map((e, i) => ({ id: `${device}-${i}-${suffix}`, name: e.name, time: new Date(e.time).toISOString(), ...(e.revenue ? { revenue: e.revenue, currency: 'EUR' } : {}) })),
    },
  });
  const body = (await res.json()) as { accepted: string[] };
  expect(body.accepted).toHaveLength(events.length);
}

async function pickOption(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByTestId(testId).fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

const box = async (page: Page, id: string) => (await page.locator(`[data-widget-id="${id}"]`).boundingBox())!;

test('a dashboard with a key figure and a chart, arranged live with a colleague, and remembered', async ({ browser }) => {
  const manager = await signIn(browser, MANAGER.email);
  const admin = await signIn(browser, ADMIN.email);
  const event = `dash_${suffix}`;
  // Three events now and two a week ago (the same weekday: the previous stretch of a week window), in every demo app.
  const { apps } = (await call(admin.page.request, 'GET', '/apps')) as { apps: { appKey: string }[] };
  const now = Date.now() - 60_000;
  for (const [i, app] of apps.entries()) {
    await send(admin.page.request, app.appKey, `a${i}`, [{ name: event, time: now }, { name: event, time: now - 1000 }, { name: event, time: now - 7 * DAY }]);
    await send(admin.page.request, app.appKey, `b${i}`, [{ name: event, time: now - 2000 }, { name: event, time: now - 7 * DAY + 1000 }]);
  }

  const page = manager.page;
  await page.goto('/main/dashboards');
  await page.getByTestId('new-dashboard').first().click();
  await page.getByTestId('dashboard-name').fill(`Growth ${suffix}`);
  await page.getByTestId('dashboard-submit').click();
  await expect(page).toHaveURL(/dashboard=[0-9a-f-]{36}/, AFTER_LOAD);
  const url = page.url();
  await expect(page.getByRole('heading', { name: `Growth ${suffix}` })).toBeVisible(AFTER_LOAD);

  // A key figure: 3 events this week so far against 2 on the same days of last week.
  await page.getByTestId('add-widget').click();
  await pickOption(page, 'widget-event', event);
  await page.getByTestId('widget-title-input').fill('Dash events');
  await page.getByTestId('add-widget-submit').click();
  const kpi = page.locator('[data-kind="kpi"]');
  await expect(kpi.getByTestId('kpi-total')).toHaveText('3', AFTER_LOAD);
  await expect(kpi.getByTestId('kpi-variation')).toHaveText('+50%');

  // A chart of the same event by day, with a title longer than 50 characters (shown truncated).
  const longTitle = `People sending ${event} every day of this week, all platforms`;
  await page.getByTestId('add-widget').click();
  await page.getByRole('dialog').getByText('Chart', { exact: true }).click();
  await pickOption(page, 'widget-event', event);
  await page.getByTestId('widget-title-input').fill(longTitle);
  await page.getByTestId('add-widget-submit').click();
  const chart = page.locator('[data-kind="explore"]');
  await expect(chart.getByTestId('explore-widget')).toBeVisible(AFTER_LOAD);
  await expect(chart.getByTestId('widget-title')).toHaveText(`${longTitle.slice(0, 50)}…`);

  // The admin watches the same dashboard.
  await admin.page.goto(url);
  await expect(admin.page.getByTestId('dashboard-widget')).toHaveCount(2, AFTER_LOAD);
  const kpiId = (await kpi.getAttribute('data-widget-id'))!;
  const before = await box(admin.page, kpiId);

  // The manager drags the key figure by its title bar to the right edge, below the chart's row.
  const handle = kpi.locator('.gd-widget-handle');
  const start = (await handle.boundingBox())!;
  const grid = (await page.getByTestId('dashboard-grid').boundingBox())!;
  await page.mouse.move(start.x + 20, start.y + start.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(start.x + 20 + ((grid.width - start.width) * i) / 10, start.y + start.height / 2 + 2 * i);
  await page.mouse.up();
  await expect.poll(async () => (await box(page, kpiId)).x, AFTER_LOAD).toBeGreaterThan(before.x + 200);

  // The admin sees it move, without reloading.
  await expect.poll(async () => (await box(admin.page, kpiId)).x, AFTER_LOAD).toBeGreaterThan(before.x + 200);
  // Both end where the manager dropped it (the grid animates moves, so the admin's may still be on its way).
  await expect.poll(async () => Math.abs((await box(admin.page, kpiId)).x - (await box(page, kpiId)).x), AFTER_LOAD).toBeLessThan(2);

  // Remembered for the session: /main/dashboards opens it again.
  await page.goto('/behavior/explore');
  await page.goto('/main/dashboards');
  await expect(page).toHaveURL(url, AFTER_LOAD);
  await expect(page.getByTestId('dashboard-widget')).toHaveCount(2, AFTER_LOAD);
  // From explore: "Add to dashboard" appends the chart to the remembered dashboard; the admin sees it arrive.
  await page.goto(`/behavior/explore?event=${event}&metric=people`);
  await page.getByTestId('add-to-dashboard').click();
  await expect(page.getByTestId('add-to-dashboard-pick')).toHaveValue(`Growth ${suffix}`);
  await page.getByTestId('add-to-dashboard-submit').click();
  await expect(page.getByText(`Added to Growth ${suffix}.`)).toBeVisible(AFTER_LOAD);
  await expect(admin.page.getByTestId('dashboard-widget')).toHaveCount(3, AFTER_LOAD);
  await page.goto('/main/dashboards');
  await expect(page).toHaveURL(url, AFTER_LOAD);
  await expect(page.locator('[data-kind="explore"]')).toHaveCount(2, AFTER_LOAD);
  // "All dashboards" shows the list.
  await page.getByRole('link', { name: 'All dashboards' }).click();
  await expect(page.getByTestId('dashboard-row').filter({ hasText: `Growth ${suffix}` })).toBeVisible(AFTER_LOAD);

  await manager.context.close();
  await admin.context.close();
});

test('a funnel and a retention table added from the dashboard\'s own dialog, without the header\'s date range', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Dina Dashboard', email: `dash-funnel.${suffix}@e2e.example.com`, password: 'Dashboard-Pass-2026!', accountName: `Dash funnel ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Shop', os: 'Android', timezone: 'UTC' })) as { app: { appKey: string } };
  // Today: two people open the app, one of them buys ten minutes later.
  const now = Date.now() - 60_000;
  await send(page.request, app.appKey, 'f1', [{ name: 'open_app', time: now - 600_000 }, { name: 'buy_now', time: now }]);
  await send(page.request, app.appKey, 'f2', [{ name: 'open_app', time: now - 300_000 }]);

  await page.goto('/behavior/explore');
  await expect(page.getByRole('banner').getByTestId('date-range')).toBeVisible(AFTER_LOAD);
  await page.goto('/main/dashboards');
  await page.getByTestId('new-dashboard').first().click();
  await page.getByTestId('dashboard-name').fill(`Funnels ${suffix}`);
  await page.getByTestId('dashboard-submit').click();
  await expect(page).toHaveURL(/dashboard=[0-9a-f-]{36}/, AFTER_LOAD);
  await expect(page.getByTestId('dashboard-range')).toBeVisible(AFTER_LOAD);
  await expect(page.getByTestId('date-range')).toHaveCount(0);

  // A funnel: two steps from the catalogue, a 2-hour window, strict order; the default title is its steps.
  await page.getByTestId('add-widget').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('Funnel', { exact: true }).click();
  await dialog.getByTestId('add-widget-submit').click();
  await expect(dialog.getByText('Choose an option')).toHaveCount(2); // neither step is chosen yet
  await pickOption(page, 'widget-step-1', 'open_app');
  await pickOption(page, 'widget-step-2', 'buy_now');
  await page.getByTestId('widget-window').fill('2');
  await page.getByTestId('widget-window-unit').click();
  await page.getByRole('option', { name: 'Hours', exact: true }).click();
  await page.getByTestId('widget-order').click();
  await page.getByRole('option', { name: 'Strict order', exact: true }).click();
  await dialog.getByTestId('add-widget-submit').click();
  await expect(dialog).toBeHidden();
  const funnel = page.locator('[data-kind="funnel"]');
  await expect(funnel.getByTestId('widget-title')).toHaveText('open_app → buy_now');
  await expect(funnel.getByTestId('funnel-chart')).toBeVisible(AFTER_LOAD);

  // A retention table: start event, any event as the return, by day.
  await page.getByTestId('add-widget').click();
  await dialog.getByText('Retention', { exact: true }).click();
  await pickOption(page, 'widget-start-event', 'open_app');
  await dialog.getByText('Day', { exact: true }).click();
  await dialog.getByTestId('add-widget-submit').click();
  await expect(dialog).toBeHidden();
  const retention = page.locator('[data-kind="cohort"]');
  await expect(retention.getByTestId('widget-title')).toHaveText('Cohorts: open_app');
  await expect(page.getByTestId('dashboard-widget')).toHaveCount(2);

  // Kept in the document: a reload draws both again; still no header date range here.
  await page.reload();
  await expect(page.locator('[data-kind="funnel"]').getByTestId('funnel-chart')).toBeVisible(AFTER_LOAD);
  await expect(page.locator('[data-kind="cohort"]').getByTestId('widget-title')).toHaveText('Cohorts: open_app');
  await expect(page.getByTestId('date-range')).toHaveCount(0);
});

test('the executive view puts two apps side by side with their total', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Elena Executive', email: `executive.${suffix}@e2e.example.com`, password: 'Executive-Pass-2026!', accountName: `Executive ${suffix}`, plan: 'growth',
  });
  const { app: alpha } = (await call(page.request, 'POST', '/apps', { name: 'Alpha shop', os: 'iOS', timezone: 'UTC' })) as { app: { appKey: string } };
  const { app: beta } = (await call(page.request, 'POST', '/apps', { name: 'Beta shop', os: 'Android', timezone: 'UTC' })) as { app: { appKey: string } };
  const now = Date.now() - 60_000;
  await send(page.request, alpha.appKey, 'x1', [{ name: 'gd_install', time: now }, { name: 'purchase', time: now, revenue: 10 }]);
  await send(page.request, alpha.appKey, 'x2', [{ name: 'gd_install', time: now }, { name: 'purchase', time: now, revenue: 30 }]);
  await send(page.request, beta.appKey, 'y1', [{ name: 'gd_install', time: now }, { name: 'view', time: now }]);

  await page.goto('/main/executive');
  const rows = page.getByTestId('executive-row');
  await expect(rows).toHaveCount(2, AFTER_LOAD);
  const cell = (row: ReturnType<Page['getByTestId']>, figure: string) => row.locator(`[data-figure="${figure}"] p`).first();
  const alphaRow = rows.filter({ hasText: 'Alpha shop' });
  const betaRow = rows.filter({ hasText: 'Beta shop' });
  const total = page.getByTestId('executive-total-row');
  await expect(cell(alphaRow, 'installs')).toHaveText('2');
  await expect(cell(alphaRow, 'activePeople')).toHaveText('2');
  await expect(cell(alphaRow, 'revenue')).toHaveText('€40.00');
  await expect(cell(alphaRow, 'arpu')).toHaveText('€20.00');
  await expect(cell(betaRow, 'installs')).toHaveText('1');
  await expect(cell(betaRow, 'revenue')).toHaveText('0.00');
  await expect(cell(total, 'installs')).toHaveText('3');
  await expect(cell(total, 'activePeople')).toHaveText('3');
  await expect(page.getByTestId('executive-total-installs').getByTestId('executive-value')).toHaveText('3');
});
