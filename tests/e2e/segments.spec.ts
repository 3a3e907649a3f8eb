/**
 * Segments and audiences as a growth team uses them (issue 5, must-show 1 and 3): people arrive
 * through the ingestion API with the app key (so the expected counts are known), two people of the
 * same account build one segment together in their own browsers and see each other and each
 * other's conditions, the live estimate follows the conditions, the segment is saved as an
 * audience (one of them reloads it offline: it opens from the browser's copies, named), the audience is exported as CSV, and the file has as many data rows as the audience
 * has people. Undo takes back only one's own changes; an analyst sees the segment read-only.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { ADMIN, AFTER_LOAD, ANALYST, MANAGER, signIn } from '../support/people.ts';
import { shellKept } from '../support/journeys.ts';

const suffix = Date.now().toString(36);
/** The city every seeded person lives in: no one else has it. */
const CITY = `Segville-${suffix}`;
/** Seeded people in CITY, and those of them on the newer app version. */
const IN_CITY = 7;
const ON_NEW_VERSION = 4;
const NEW_VERSION = '9.2.0';

/** Signed in, with downloads kept (the audience export is read back). */
const signedIn = async (browser: Browser, email: string): Promise<Page> => (await signIn(browser, email, { acceptDownloads: true })).page;

/** IN_CITY people in every app of the account (whichever app the shell opens on has them), ON_NEW_VERSION of them on NEW_VERSION. */
async function seedPeople(request: APIRequestContext) {
  const apps = (await (await request.get('/api/apps')).json()) as { apps: { appKey: string }[] };
  expect(apps.apps.length).toBeGreaterThan(0);
  for (const app of apps.apps) {
    for (let i = 0; i < IN_CITY; i++) {
      const device = { id: randomUUID(), os: 'Android', osVersion: '14', appVersion: i < ON_NEW_VERSION ? NEW_VERSION : '9.1.0', model: 'Pixel 8', country: 'ES', city: CITY };
      const res = await request.post('/api/ingest/v1/batch', {
        headers: { 'x-app-key': app.appKey },
        data: { device, events: [{ id: randomUUID(), name: 'gd_install', time: new Date(Date.now() - 3_600_000).toISOString() }] },
      });
      const answer = (await res.json()) as { status: string; rejected?: unknown[] };
      expect(answer.status).toBe('OK');
      expect(answer.rejected ?? []).toEqual([]);
    }
  }
}

/** Picks `option` in the Mantine select `select` (clicks it open, then the option). */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const conditions = (page: Page) => page.getByTestId('segment-condition');
const estimateCount = (page: Page) => page.getByTestId('estimate');

test('two people build one segment together, the estimate follows, and the saved audience exports as many rows as it counts', async ({ browser }) => {
  // Two browsers, a live document, estimates and an export on a shared 2-core machine: generous, not a timing claim.
  test.setTimeout(240_000);
  const marta = await signedIn(browser, MANAGER.email);
  await seedPeople(marta.request);

  // Marta starts a segment from the audiences screen.
  await marta.goto('/behavior/audiences');
  await expect(marta.getByRole('heading', { name: 'Audiences', level: 1 })).toBeVisible();
  await marta.getByTestId('new-audience').click();
  await marta.getByTestId('new-from-segment').click();
  const dialog = marta.getByRole('dialog');
  await dialog.getByLabel('Name').fill(`Segville shoppers ${suffix}`);
  await dialog.getByRole('button', { name: 'Create segment' }).click();
  await expect(marta).toHaveURL(/[?&]segment=[0-9a-f-]{36}/);
  await expect(marta.getByTestId('segment-editor')).toBeVisible({ timeout: 30_000 });
  await expect(marta.getByTestId('segment-name')).toHaveText(`Segville shoppers ${suffix}`);
  await expect(marta.getByTestId('sync-status')).toHaveAttribute('data-status', 'online');

  // Adrián opens the same address.
  const adrian = await signedIn(browser, ADMIN.email);
  await adrian.goto(marta.url());
  await expect(adrian.getByTestId('segment-editor')).toBeVisible({ timeout: 30_000 });
  await expect(adrian.getByTestId('segment-editor')).toHaveAttribute('data-read-only', 'false');

  // Each sees the other.
  await expect(marta.getByTestId('presence-avatar').and(marta.locator(`[data-name="${ADMIN.name}"]`))).toBeVisible();
  await expect(adrian.getByTestId('presence-avatar').and(adrian.locator(`[data-name="${MANAGER.name}"]`))).toBeVisible();

  // Marta: city equals CITY. Adrián sees the condition as she builds it.
  await marta.getByTestId('add-condition').last().click();
  await expect(conditions(marta)).toHaveCount(1);
  await expect(conditions(adrian)).toHaveCount(1);
  const first = conditions(marta).first();
  await choose(marta, first.getByTestId('condition-kind'), 'User attribute');
  await choose(marta, first.getByTestId('condition-field'), 'City');
  await choose(marta, first.getByTestId('condition-operator'), 'equals');
  await first.getByTestId('condition-values').fill(CITY);
  await first.getByTestId('condition-values').press('Enter');
  await expect(conditions(adrian).first().getByTestId('condition-field')).toHaveValue('City');
  await expect(conditions(adrian).first()).toContainText(CITY);
  // While Marta works on it, Adrián sees her name on the condition.
  await expect(conditions(adrian).first().getByTestId('condition-peer')).toContainText(MANAGER.name);

  // The estimate, on both screens, counts the seeded people of the city.
  await expect(estimateCount(marta)).toHaveAttribute('data-count', String(IN_CITY));
  await expect(estimateCount(adrian)).toHaveAttribute('data-count', String(IN_CITY));
  await expect(marta.getByTestId('estimate-sample').getByTestId('sample-person')).toHaveCount(IN_CITY);

  // Adrián narrows it: app version equals NEW_VERSION. Marta sees it and her estimate follows.
  await adrian.getByTestId('add-condition').last().click();
  await expect(conditions(adrian)).toHaveCount(2);
  const second = conditions(adrian).nth(1);
  await choose(adrian, second.getByTestId('condition-kind'), 'User attribute');
  // An incomplete condition is shown with what it lacks, and left out of the estimate.
  await expect(second.getByTestId('condition-problems')).toContainText('Choose a field.');
  await expect(estimateCount(adrian)).toHaveAttribute('data-count', String(IN_CITY));
  await choose(adrian, second.getByTestId('condition-field'), 'App version');
  await choose(adrian, second.getByTestId('condition-operator'), 'equals');
  await second.getByLabel('Condition 2: Value').fill(NEW_VERSION);
  await second.getByLabel('Condition 2: Value').press('Enter');
  await expect(conditions(marta)).toHaveCount(2);
  await expect(conditions(marta).nth(1).getByLabel('Condition 2: Value')).toHaveValue(NEW_VERSION);
  await expect(estimateCount(marta)).toHaveAttribute('data-count', String(ON_NEW_VERSION));
  await expect(estimateCount(adrian)).toHaveAttribute('data-count', String(ON_NEW_VERSION));
  await expect(marta.getByTestId('problem-count')).toHaveCount(0);

  // Undo is per person: Marta's undo takes back her own last change (the city), never Adrián's condition; redo restores it.
  const values = (page: Page) => page.locator('[data-testid="segment-condition"] input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  await marta.getByTestId('undo').click();
  await expect(adrian.getByTestId('segment-editor')).not.toContainText(CITY);
  await expect.poll(() => values(adrian)).toContain(NEW_VERSION);
  await expect.poll(() => values(marta)).toContain(NEW_VERSION);
  await marta.getByTestId('redo').click();
  await expect(conditions(adrian).first()).toContainText(CITY);
  await expect(estimateCount(marta)).toHaveAttribute('data-count', String(ON_NEW_VERSION));
  const segmentUrl = marta.url();

  // Offline, Adrián's estimate does not pretend to update: it says it is from before his change.
  await expect(estimateCount(adrian)).toHaveAttribute('data-count', String(ON_NEW_VERSION));
  await shellKept(adrian);
  await adrian.context().setOffline(true);
  await expect(adrian.getByTestId('sync-status')).toHaveAttribute('data-status', 'offline');
  await conditions(adrian).nth(1).getByLabel('Condition 2: Value').fill('0.0.0-offline');
  await conditions(adrian).nth(1).getByLabel('Condition 2: Value').press('Enter');
  await expect(adrian.getByTestId('estimate-stale')).toBeVisible();
  await expect(estimateCount(adrian)).toHaveAttribute('data-pending', 'false');
  // Taken back before the connection returns: the estimate is current again, and nothing was sent.
  await adrian.getByTestId('undo').click();
  await expect(adrian.getByTestId('estimate-stale')).toHaveCount(0);
  // Reloaded while still offline: the segment opens from the browser's copies, with its name.
  await adrian.reload();
  await expect(adrian.getByTestId('segment-editor')).toBeVisible(AFTER_LOAD);
  await expect(adrian.getByTestId('segment-name')).toHaveText(`Segville shoppers ${suffix}`);
  await expect(adrian.getByTestId('sync-status')).toHaveAttribute('data-status', 'offline');
  await expect(conditions(adrian)).toHaveCount(2);
  await adrian.context().setOffline(false);
  await expect(adrian.getByTestId('sync-status')).toHaveAttribute('data-status', 'online', { timeout: 20_000 });
  await expect(estimateCount(adrian)).toHaveAttribute('data-count', String(ON_NEW_VERSION));

  // Marta saves it as an audience; the detail shows the count.
  await marta.getByTestId('save-as-audience').click();
  const save = marta.getByRole('dialog');
  await save.getByTestId('audience-name').fill(`Segville new version ${suffix}`);
  await save.getByTestId('audience-form-submit').click();
  await expect(marta).toHaveURL(/[?&]audience=[0-9a-f-]{36}/);
  const detail = marta.getByTestId('audience-detail');
  await expect(detail.getByTestId('audience-status')).toHaveAttribute('data-status', 'ready');
  await expect(detail.getByTestId('audience-person-count')).toHaveAttribute('data-count', String(ON_NEW_VERSION));
  await expect(detail.getByTestId('audience-members').getByTestId('sample-person')).toHaveCount(ON_NEW_VERSION);

  // The list shows it with its state, count and source.
  await marta.goto('/behavior/audiences');
  const row = marta.getByTestId('audience-row').filter({ hasText: `Segville new version ${suffix}` });
  await expect(row.getByTestId('audience-status')).toHaveAttribute('data-status', 'ready');
  await expect(row.getByTestId('audience-count')).toHaveText(String(ON_NEW_VERSION));
  await expect(row.getByTestId('audience-segment-link')).toHaveText(`Segville shoppers ${suffix}`);
  await row.getByRole('link', { name: `Open audience Segville new version ${suffix}` }).click();
  await expect(detail).toBeVisible();

  // Export as CSV: the file is written in the background, then offered; its data rows are the audience's people.
  const count = Number(await detail.getByTestId('audience-person-count').getAttribute('data-count'));
  await detail.getByTestId('audience-export').click();
  await marta.getByRole('menuitem', { name: 'CSV file' }).click();
  const downloading = marta.waitForEvent('download');
  await detail.getByTestId('audience-export-download').click({ timeout: 60_000 });
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const file = await download.path();
  const lines = (await readFile(file, 'utf8')).split(/\r?\n/).filter((line) => line.trim() !== '');
  expect(lines.length - 1).toBe(count);
  expect(count).toBe(ON_NEW_VERSION);

  // An analyst (no "modify segment") sees the same segment, read-only.
  const ines = await signedIn(browser, ANALYST.email);
  await ines.goto(segmentUrl);
  await expect(ines.getByTestId('segment-editor')).toHaveAttribute('data-read-only', 'true', { timeout: 30_000 });
  await expect(ines.getByTestId('read-only')).toBeVisible();
  await expect(conditions(ines)).toHaveCount(2);
  await expect(ines.getByTestId('add-condition')).toHaveCount(0);
  await expect(ines.getByTestId('remove-condition')).toHaveCount(0);
  for (const page of [ines, adrian, marta]) await page.context().close();
});

/** The countries of the people the country test seeds in Picktown (no one else lives there). */
const PICKTOWN = `Picktown-${suffix}`;
const PICKTOWN_COUNTRIES = ['ES', 'ES', 'ES', 'FR', 'MX'] as const;

/** The values of the `country` condition in this page's copy of the segment document. */
function countryValues(page: Page): Promise<unknown> {
  return page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): { toJSON(): Record<string, { id?: string; multiSelect?: unknown }> } } | null } }).__gdSync;
    const name = hooks.names().find((n) => n.includes('/segment/')) ?? '';
    const nodes = Object.values(hooks.doc(name)?.getMap('nodes').toJSON() ?? {});
    return nodes.find((n) => n.id === 'country')?.multiSelect ?? null;
  });
}

test('a country is picked by its name, in English or Spanish, and the condition holds its code', async ({ browser }) => {
  test.setTimeout(120_000);
  const marta = await signedIn(browser, MANAGER.email);
  const apps = (await (await marta.request.get('/api/apps')).json()) as { apps: { appKey: string }[] };
  for (const app of apps.apps) {
    for (const country of PICKTOWN_COUNTRIES) {
      const device = { id: randomUUID(), os: 'iOS', osVersion: '18', appVersion: '1.0.0', country, city: PICKTOWN };
      const res = await marta.request.post('/api/ingest/v1/batch', {
        headers: { 'x-app-key': app.appKey },
        data: { device, events: [{ id: randomUUID(), name: 'gd_install', time: new Date(Date.now() - 3_600_000).toISOString() }] },
      });
      expect(((await res.json()) as { status: string }).status).toBe('OK');
    }
    // Someone elsewhere: after Picktown is chosen, the city's suggestions still hold a value.
    const elsewhere = { id: randomUUID(), os: 'iOS', osVersion: '18', appVersion: '1.0.0', country: 'ES', city: `Elsewhere-${suffix}` };
    await marta.request.post('/api/ingest/v1/batch', { headers: { 'x-app-key': app.appKey }, data: { device: elsewhere, events: [{ id: randomUUID(), name: 'gd_install', time: new Date(Date.now() - 3_600_000).toISOString() }] } });
  }
  const inSpain = PICKTOWN_COUNTRIES.filter((c) => c === 'ES').length;

  await marta.goto('/behavior/audiences');
  await marta.getByTestId('new-audience').click();
  await marta.getByTestId('new-from-segment').click();
  await marta.getByRole('dialog').getByLabel('Name').fill(`Picktown ${suffix}`);
  await marta.getByRole('dialog').getByRole('button', { name: 'Create segment' }).click();
  await expect(marta.getByTestId('segment-editor')).toBeVisible({ timeout: 30_000 });
  await expect(marta.getByTestId('sync-status')).toHaveAttribute('data-status', 'online');

  // City is Picktown (everyone seeded), and the country is picked by typing "Spa".
  await marta.getByTestId('add-condition').last().click();
  const city = conditions(marta).first();
  await choose(marta, city.getByTestId('condition-kind'), 'User attribute');
  await choose(marta, city.getByTestId('condition-field'), 'City');
  await choose(marta, city.getByTestId('condition-operator'), 'equals');
  await city.getByTestId('condition-values').fill(PICKTOWN);
  await city.getByTestId('condition-values').press('Enter');
  await expect(estimateCount(marta)).toHaveAttribute('data-count', String(PICKTOWN_COUNTRIES.length));
  // Once a value is added the other suggestions close, so they cover nothing (Add condition below).
  await expect(marta.getByRole('option', { name: new RegExp(`Elsewhere-${suffix}`) })).toBeHidden();

  await marta.getByTestId('add-condition').last().click();
  const country = conditions(marta).nth(1);
  await choose(marta, country.getByTestId('condition-kind'), 'User attribute');
  await choose(marta, country.getByTestId('condition-field'), 'Country');
  await choose(marta, country.getByTestId('condition-operator'), 'equals');
  const picker = country.getByTestId('condition-countries');
  await picker.click();
  // The app's countries come first, with how many people have each.
  await expect(marta.getByRole('listbox')).toContainText('In your data');
  await picker.fill('Spa');
  await expect(marta.getByRole('option').first()).toContainText('Spain');
  await picker.press('Enter');
  await expect(country).toContainText('Spain');
  await expect.poll(() => countryValues(marta)).toEqual(['ES']);
  await expect(estimateCount(marta)).toHaveAttribute('data-count', String(inSpain));
  await expect(marta.getByTestId('problem-count')).toHaveCount(0);

  // In Spanish the same condition shows España; picked again by typing "Esp", it still holds ES.
  const url = new URL(marta.url());
  await marta.goto(`/es${url.pathname}${url.search}`);
  await expect(marta.getByTestId('segment-editor')).toBeVisible({ timeout: 30_000 });
  const again = conditions(marta).nth(1);
  await expect(again).toContainText('España');
  // Backspace in the empty search takes the last country away.
  await again.getByTestId('condition-countries').click();
  await again.getByTestId('condition-countries').press('Backspace');
  await expect.poll(() => countryValues(marta)).toEqual([]);
  await again.getByTestId('condition-countries').fill('Esp');
  await expect(marta.getByRole('option').first()).toContainText('España');
  await again.getByTestId('condition-countries').press('Enter');
  await expect(again).toContainText('España');
  await expect.poll(() => countryValues(marta)).toEqual(['ES']);
  await expect(estimateCount(marta)).toHaveAttribute('data-count', String(inSpain));
  await marta.context().close();
});
