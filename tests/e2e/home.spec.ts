/**
 * The home screen (`/`) as people find it: the demo owner lands on it after signing in; on an app
 * of their own (created for the test, so other specs' data stays out of the figures) it first says
 * to set up the SDK, then, once events arrive through the ingestion API, shows people, sessions,
 * events and revenue with their change on the previous period, the recent journeys and "all good".
 * A new account without an app is asked to create its first one.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { AFTER_LOAD, signInThroughUi } from '../support/people.ts';
import { call } from '../support/api.ts';

const suffix = Date.now().toString(36);
const DAY = 86_400_000;
const OWNER = 'client@demo.growthdeck.test';

/** One device's events through the ingestion API, as an SDK sends them. */
async function send(request: APIRequestContext, appKey: string, device: string, events: { name: string; time: number; revenue?: number }[]) {
  const res = await request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': appKey },
    data: {
      device: { id: `home-${device}-${suffix}`, os: 'Android', appVersion: '1.0.0' },
      events: events.map((e, i) => ({
        id: `home-${device}-${i}-${suffix}`, name: e.name, time: new Date(e.time).toISOString(),
        ...(e.revenue === undefined ? {} : { revenue: e.revenue, currency: 'EUR' }),
      })),
    },
  });
  expect(((await res.json()) as { accepted: string[] }).accepted).toHaveLength(events.length);
}

test('the demo owner lands on the home: key figures with their change, recent journeys and all good', async ({ browser }) => {
  // The one sign-in through the login page (the other specs sign in through the API).
  const { page, context } = await signInThroughUi(browser, OWNER);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible(AFTER_LOAD);
  // The navigation leads back home from any screen.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Tags' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/manage/tags');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible(AFTER_LOAD);

  // An app of our own, in UTC (the header's default range: the last 7 days including today).
  const name = `Home e2e ${suffix}`;
  const { app } = (await call(page.request, 'POST', '/apps', { name, os: 'Android', timezone: 'UTC' })) as { app: { id: string; appKey: string } };
  await page.reload();
  await page.getByTestId('app-switcher').click();
  await page.getByRole('menuitem', { name: new RegExp(name) }).click();
  await expect(page.getByTestId('app-switcher')).toContainText(name, AFTER_LOAD);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/');

  // No data yet: how to set up the SDK; nothing needs attention; no journeys or audiences yet.
  await expect(page.getByTestId('home-no-data')).toContainText(`No data from ${name} yet`);
  await expect(page.getByTestId('home-no-data').getByRole('link', { name: 'Set up the SDK' })).toHaveAttribute('href', '/user/setup');
  await expect(page.getByTestId('attention-all-good')).toContainText('Nothing needs your attention');
  await expect(page.getByTestId('home-journeys')).toContainText('No journeys yet');
  await expect(page.getByTestId('home-audiences')).toContainText('No audiences yet');

  // This week: two people, one session, three events, 12.50 EUR. The week before: one person, two events, 10 EUR.
  const now = Date.now();
  await send(page.request, app.appKey, 'a', [{ name: 'gd_start_session', time: now - 3_600_000 }, { name: 'purchase', time: now - 3_500_000, revenue: 12.5 }]);
  await send(page.request, app.appKey, 'b', [{ name: 'view', time: now - 2 * DAY }]);
  await send(page.request, app.appKey, 'c', [{ name: 'view', time: now - 9 * DAY }, { name: 'purchase', time: now - 9 * DAY, revenue: 10 }]);
  await call(page.request, 'POST', `/apps/${app.id}/journeys`, { name: `Welcome ${suffix}` });

  await page.reload();
  const figure = (id: string) => page.getByTestId(`figure-${id}`);
  await expect(figure('people').getByTestId('figure-value')).toHaveText('2', AFTER_LOAD);
  await expect(figure('people').getByTestId('figure-change')).toHaveText('+100%');
  await expect(figure('sessions').getByTestId('figure-value')).toHaveText('1');
  await expect(figure('sessions').getByTestId('figure-change')).toHaveText('No previous data');
  await expect(figure('events').getByTestId('figure-value')).toHaveText('3');
  await expect(figure('events').getByTestId('figure-change')).toHaveText('+50%');
  await expect(figure('events').getByTestId('figure-previous')).toHaveText('Previous period: 2');
  await expect(figure('revenue').getByTestId('figure-value')).toHaveText('€12.50');
  await expect(figure('revenue').getByTestId('figure-change')).toHaveText('+25%');
  await expect(figure('revenue').getByTestId('figure-change')).toHaveAttribute('data-kind', 'up');
  await expect(page.getByTestId('attention-all-good')).toBeVisible();

  // The journey is among the recent ones, with its status, and opens from there.
  const row = page.getByTestId('home-journeys-row').filter({ hasText: `Welcome ${suffix}` });
  await expect(row).toContainText('Draft');
  await row.getByRole('link', { name: `Welcome ${suffix}` }).click();
  await expect(page).toHaveURL(/\/communication\/journeys\?id=[0-9a-f-]{36}/);

  // The same home in Spanish.
  await page.goto('/es');
  await expect(page.getByRole('heading', { level: 1, name: 'Inicio' })).toBeVisible(AFTER_LOAD);
  await expect(figure('revenue').getByTestId('figure-value')).toHaveText(/12,50\s€/);
  await expect(figure('sessions').getByTestId('figure-change')).toHaveText('Sin datos anteriores');
  await context.close();
});

test('an account without an app is asked to create its first one', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Nadia New', email: `home.${suffix}@e2e.example.com`, password: 'Home-Pass-2026!', accountName: `Home ${suffix}`, plan: 'growth',
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible(AFTER_LOAD);
  const prompt = page.getByTestId('home-no-app');
  await expect(prompt).toContainText('Create your first app');
  await expect(page.getByTestId('home-shortcuts')).toBeVisible();
  await prompt.getByRole('link', { name: 'Create your first app' }).click();
  await expect(page).toHaveURL(/\/user\/setup$/);
});
