/**
 * The signed-in shell on a phone and the date range in the address.
 *
 * - At 390x844 the navigation is a drawer: the burger opens it, choosing a screen navigates and
 *   closes it, and no main screen is wider than the phone (wide tables scroll inside themselves).
 * - The date range lives in the URL: explore opened with ?from=&to= shows that range in the header
 *   (and asks for it), a range chosen in the header is written into the URL (a preset by name, the
 *   explore parameters kept), carried to the next screen, and an invalid range is ignored.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { MANAGER, signIn } from '../support/people.ts';
import { call } from '../support/api.ts';

const suffix = Date.now().toString(36);
const DAY = 86_400_000;
const PHONE = { width: 390, height: 844 };
const SCREENS = [
  '/user/account', '/user/account/apps', '/user/account/users', '/communication/journeys', '/behavior/audiences',
  '/behavior/people', '/behavior/explore', '/behavior/events', '/manage/events', '/manage/import-task', '/manage/tags',
  '/behavior/funnels', '/behavior/cohort', '/main/dashboards', '/main/executive', '/main/reports',
];

/** A JSON call of the app's API with the session's cookies and the CSRF token (as the web client sends it). */

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The header's text for a range of days, as the app formats it in English. */
const rangeText = (from: string, to: string) =>
  new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).formatRange(new Date(`${from}T12:00:00Z`), new Date(`${to}T12:00:00Z`));

test('on a phone the navigation is a drawer: the burger opens it, a link navigates and closes it, and no screen scrolls sideways', async ({ browser }) => {
  const { page, context } = await signIn(browser, MANAGER.email, { viewport: PHONE });
  await page.goto('/user/account');
  const burger = page.getByRole('button', { name: 'Open navigation' });
  const drawer = page.getByTestId('navbar');
  const drawerLeft = async () => (await drawer.boundingBox())?.x ?? Number.NaN;
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  // Closed, the drawer is off-screen and out of the tab order.
  await expect.poll(drawerLeft).toBeLessThanOrEqual(-PHONE.width);
  await expect(drawer).toHaveAttribute('inert', '');

  await burger.click();
  await expect(page.getByRole('button', { name: 'Close navigation' })).toHaveAttribute('aria-expanded', 'true');
  await expect(drawer).not.toHaveAttribute('inert', '');
  await expect.poll(drawerLeft).toBe(0);
  // On a phone the app switcher sits in the drawer, not in the header.
  await expect(drawer.getByTestId('app-switcher')).toBeVisible();
  await expect(page.getByRole('banner').getByTestId('app-switcher')).toHaveCount(0);
  await drawer.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Events' }).first().click();
  await expect(page).toHaveURL(/\/behavior\/events$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Events' })).toBeVisible();
  await expect(burger).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(drawerLeft).toBeLessThanOrEqual(-PHONE.width);
  await expect(drawer).toHaveAttribute('inert', '');

  for (const path of SCREENS) {
    await page.goto(path);
    await expect(page.locator('#main h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await pageWidth(page), path).toBeLessThanOrEqual(PHONE.width);
  }
  await context.close();
});

test('the date range is in the URL: explore opens on a linked range, a range chosen is written, kept across screens, and invalid ones are ignored', async ({ page }) => {
  await call(page.request, 'POST', '/auth/register', {
    name: 'Rita Range', email: `range.${suffix}@e2e.example.com`, password: 'Range-Pass-2026!', accountName: `Range ${suffix}`, plan: 'growth',
  });
  const { app } = (await call(page.request, 'POST', '/apps', { name: 'Range UTC', os: 'Android', timezone: 'UTC' })) as { app: { appKey: string } };
  const now = Date.now();
  const res = await page.request.post('/api/ingest/v1/batch', {
    headers: { 'x-app-key': app.appKey },
    data: { device: { id: randomUUID(), os: 'Android', appVersion: '1.0.0' }, events: [{ id: randomUUID(), name: 'level_up', time: new Date(now - 15 * DAY).toISOString() }] },
  });
  expect(((await res.json()) as { accepted: string[] }).accepted).toHaveLength(1);

  // Eleven days, from 20 to 10 days ago (the app's today is the UTC day).
  const from = day(now - 20 * DAY);
  const to = day(now - 10 * DAY);
  const asked = page.waitForRequest((r) => r.url().includes('/explore?') && r.url().includes(`startDay=${from}`) && r.url().includes(`endDay=${to}`));
  await page.goto(`/behavior/explore?event=level_up&from=${from}&to=${to}`);
  const control = page.getByTestId('date-range');
  await expect(control).toContainText(rangeText(from, to));
  await asked;
  await expect(page.getByTestId('explore-table').locator('tbody tr')).toHaveCount(11);
  await expect(page.getByTestId('explore-table').locator('tfoot')).toContainText('1');

  // A preset chosen in the header: written by name, replacing the days, the explore query kept.
  await control.click();
  await page.getByRole('dialog', { name: 'Date range' }).getByRole('button', { name: 'Last 30 days' }).click();
  await expect(control).toContainText('Last 30 days');
  await expect(page).toHaveURL(/[?&]range=last30(&|$)/);
  expect(new URL(page.url()).searchParams.get('from')).toBeNull();
  expect(new URL(page.url()).searchParams.get('event')).toBe('level_up');
  // Another group is written too, and explore's own changes keep the range.
  await page.getByRole('region', { name: 'Query' }).locator('label[for$="-week"]').click();
  await expect(page).toHaveURL(/[?&]group=week(&|$)/);
  await page.getByRole('combobox', { name: 'Metric' }).click();
  await page.getByRole('option', { name: 'Unique people' }).click();
  await expect(page).toHaveURL(/metric=people/);
  await expect(page).toHaveURL(/[?&]range=last30&group=week/);

  // Another screen keeps the range, in its own URL.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Events' }).first().click();
  await expect(page).toHaveURL(/\/behavior\/events\?range=last30&group=week$/);
  await expect(control).toContainText('Last 30 days');

  // A link with an invalid range: ignored, the default range on a fresh page, the bad values gone.
  await page.goto(`/behavior/explore?event=level_up&from=${to}&to=${from}`);
  await expect(control).toContainText('Last 7 days');
  await expect(page).toHaveURL(/\/behavior\/explore\?event=level_up$/);
  await page.goto('/behavior/explore?event=level_up&range=last8');
  await expect(control).toContainText('Last 7 days');
  await expect(page).toHaveURL(/\/behavior\/explore\?event=level_up$/);
});

test('/legacy sends a classic address to its new screen, signing in first when needed, and lists the areas for an unknown one', async ({ browser }) => {
  // Signed out: the classic hash route survives the sign-in and lands on its new screen.
  const anonymous = await browser.newContext();
  const page = await anonymous.newPage();
  await page.goto('/legacy#!/analytics/funnels/12');
  await expect(page).toHaveURL(/\/login\?next=%2Fbehavior%2Ffunnels$/);
  await anonymous.close();

  const { page: signed, context } = await signIn(browser, MANAGER.email);
  await signed.goto('/legacy?path=%2Fsettings%2Fusers%2F9');
  await expect(signed).toHaveURL(/\/user\/account\/users$/);
  await signed.goto('/es/legacy');
  await expect(signed.getByRole('heading', { name: 'La interfaz clásica se ha retirado' })).toBeVisible();
  await signed.getByTestId('legacy-address').fill('https://classic.example.com/app/#!/nothing-here');
  await signed.getByRole('button', { name: 'Buscar' }).click();
  await expect(signed.getByTestId('legacy-result')).toContainText('No conocemos esa dirección');
  await signed.getByTestId('legacy-address').fill('#/cohorts');
  await signed.getByRole('button', { name: 'Buscar' }).click();
  await signed.getByTestId('legacy-result').getByRole('link').click();
  await expect(signed).toHaveURL(/\/es\/behavior\/cohort$/);
  await context.close();
});
