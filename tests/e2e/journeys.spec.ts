/**
 * Journeys as people use them: two people edit one journey together and see each other; one of
 * them goes offline, both keep editing, and after reconnecting both hold the same journey; a journey
 * opens offline from the browser's copy, also after a reload; a viewer cannot change it, and a
 * change forced into a viewer's copy is dropped; a journey with a problem cannot be launched and a
 * fixed one can; a copy the server refuses is dropped and reloaded.
 *
 * Offline: `context.setOffline(true)` cuts HTTP (the page's and its service worker's) and fires the
 * browser's `offline` event, on which the app closes its sync WebSocket (Playwright's offline mode
 * does not cut open WebSockets itself). A reload while offline is a real one: the app's service
 * worker answers with the app shell it keeps, the session comes from the browser's copy of
 * `/user/meta`, and the journey, its title and its count of unsaved changes from the browser's
 * other copies (IndexedDB). The worker answers navigations only once it is active, so the tests wait
 * for that before going offline.
 *
 * The app exposes its open documents to tests when `localStorage['gd.testHooks']` is '1'.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../support/env.ts';
import { linkIn, waitForMail } from '../support/mail.ts';

const MANAGER = { email: 'manager@demo.growthdeck.test', name: 'Marta Manager' };
const ADMIN = { email: 'admin@demo.growthdeck.test', name: 'Adrián Admin' };
const ANALYST = { email: 'analyst@demo.growthdeck.test', name: 'Inés Analyst' };
const suffix = Date.now().toString(36);
/** A full page load (the editor's chunk, the token, the browser copy, the sync) on a busy machine. */
const AFTER_LOAD = { timeout: 30_000 };

interface Person {
  context: BrowserContext;
  page: Page;
}

async function signIn(browser: Browser, email: string): Promise<Person> {
  const context = await browser.newContext();
  await context.addInitScript(() => window.localStorage.setItem('gd.testHooks', '1'));
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/, AFTER_LOAD);
  return { context, page };
}

/** Creates a journey from the list and returns the editor's address. */
async function createJourney(page: Page, name: string): Promise<string> {
  await page.goto('/communication/journeys');
  await page.getByTestId('new-journey').first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create journey' }).click();
  await expect(page).toHaveURL(/[?&]id=[0-9a-f-]{36}/);
  await expect(page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
  await expect(page.getByTestId('journey-name')).toHaveText(name);
  return page.url();
}

async function openEditor(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
}

const syncStatus = (page: Page) => page.getByTestId('sync-status');

/**
 * Waits until the app's service worker is active: it then keeps the app shell and answers every
 * navigation in its scope, a reload included. (Waiting for `navigator.serviceWorker.controller`
 * instead can wait forever: `clients.claim()` cannot take a page whose navigation was under way
 * while the worker activated; such a page is controlled from its next load on.)
 */
async function shellKept(page: Page) {
  await page.evaluate(async () => {
    const { active } = await navigator.serviceWorker.ready;
    if (!active || active.state === 'activated') return;
    await new Promise<void>((resolve) => active.addEventListener('statechange', () => active.state === 'activated' && resolve()));
  });
}

/** Whether the page's service worker can reach the server (false once the context is offline). */
async function workerReachesServer(context: BrowserContext): Promise<boolean> {
  const [worker] = context.serviceWorkers();
  if (!worker) throw new Error('no service worker');
  return worker.evaluate(() => fetch('/api/health', { cache: 'no-store' }).then(() => true, () => false));
}

/** The position stored for the entry step in this page's copy of the journey (null when none). */
function entryPosition(page: Page): Promise<unknown> {
  return page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): { get(k: string): unknown } } | null } }).__gdSync;
    return hooks.doc(hooks.names()[0] ?? '')?.getMap('layout').get('source') ?? null;
  });
}

/** Forces a position for the entry step into this page's copy (the UI never lets a viewer do it). */
async function forceEntryPosition(page: Page, x: number) {
  await page.evaluate((value) => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): { set(k: string, v: unknown): void } } | null } }).__gdSync;
    hooks.doc(hooks.names()[0] ?? '')?.getMap('layout').set('source', { x: value, y: value });
  }, x);
}
const FORCED = (x: number) => ({ x, y: x });

/** Inserts a step of `type` on the link that leaves the step named `after`. */
async function addStep(page: Page, after: string, type: string) {
  await page.getByRole('button', { name: `Add a step after ${after}`, exact: true }).first().click();
  await page.getByRole('menuitem').filter({ has: page.getByText(type, { exact: true }) }).click();
}

const nodeIds = (page: Page) => page.locator('.react-flow__node').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id') ?? '').sort());
const nodeNamed = (page: Page, type: string) => page.locator('.react-flow__node').filter({ has: page.getByText(type, { exact: true }) });

/** The journey document as this page holds it (steps and entry), keys sorted. */
function docContent(page: Page): Promise<string> {
  return page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): { toJSON(): unknown } } | null } }).__gdSync;
    const doc = hooks.doc(hooks.names()[0] ?? '');
    const canonical = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, canonical(x)])) : v;
    return JSON.stringify(canonical({ meta: doc?.getMap('meta').toJSON(), steps: doc?.getMap('steps').toJSON() }));
  });
}

test('two people edit one journey together, see each other, and converge after one of them worked offline', async ({ browser }) => {
  // Several people, each with a full sign-in and page loads: room for a busy shared machine.
  test.slow();
  const marta = await signIn(browser, MANAGER.email);
  const url = await createJourney(marta.page, `Onboarding ${suffix}`);
  const adrian = await signIn(browser, ADMIN.email);
  await openEditor(adrian.page, url);

  // Each sees the other.
  await expect(marta.page.getByTestId('presence-avatar').and(marta.page.locator(`[data-name="${ADMIN.name}"]`))).toBeVisible();
  await expect(adrian.page.getByTestId('presence-avatar').and(adrian.page.locator(`[data-name="${MANAGER.name}"]`))).toBeVisible();

  // Each one's steps appear for the other.
  await addStep(marta.page, 'Event entry', 'Wait');
  await expect(nodeNamed(adrian.page, 'Wait')).toHaveCount(1);
  await addStep(adrian.page, 'Wait', 'Update tag count');
  await expect(nodeNamed(marta.page, 'Update tag count')).toHaveCount(1);
  await expect(syncStatus(marta.page)).toHaveAttribute('data-status', 'online');

  // Marta goes offline; both keep editing.
  await marta.context.setOffline(true);
  await expect(syncStatus(marta.page)).toHaveAttribute('data-status', 'offline');
  await addStep(marta.page, 'Event entry', 'Postback');
  await expect(syncStatus(marta.page)).toContainText('not yet saved');
  expect(Number(await syncStatus(marta.page).getAttribute('data-unsynced'))).toBeGreaterThan(0);
  await addStep(adrian.page, 'Update tag count', 'Join');
  await expect(nodeNamed(adrian.page, 'Join')).toHaveCount(1);
  await expect(nodeNamed(marta.page, 'Join')).toHaveCount(0);
  await expect(nodeNamed(adrian.page, 'Postback')).toHaveCount(0);

  // Back online: both hold the same journey, with both people's offline-time edits.
  await marta.context.setOffline(false);
  await expect(syncStatus(marta.page)).toHaveAttribute('data-status', 'online', { timeout: 20_000 });
  await expect(syncStatus(marta.page)).toHaveAttribute('data-unsynced', '0');
  for (const page of [marta.page, adrian.page]) {
    await expect(nodeNamed(page, 'Postback')).toHaveCount(1);
    await expect(nodeNamed(page, 'Join')).toHaveCount(1);
  }
  await expect.poll(async () => (await docContent(marta.page)) === (await docContent(adrian.page))).toBe(true);
  expect(await nodeIds(marta.page)).toEqual(await nodeIds(adrian.page));

  // Undo takes back only one's own edit, never the other person's.
  await addStep(adrian.page, 'Join', 'Email');
  await expect(nodeNamed(marta.page, 'Email')).toHaveCount(1);
  await marta.page.getByTestId('undo').click();
  for (const page of [marta.page, adrian.page]) {
    await expect(nodeNamed(page, 'Postback')).toHaveCount(0);
    await expect(nodeNamed(page, 'Email')).toHaveCount(1);
  }
  await marta.page.getByTestId('redo').click();
  await expect(nodeNamed(adrian.page, 'Postback')).toHaveCount(1);

  await marta.context.close();
  await adrian.context.close();
});

test('a journey opens offline from the browser copy, also after a reload, and its offline edits reach the server later', async ({ browser }) => {
  // Several people, each with a full sign-in and page loads: room for a busy shared machine.
  test.slow();
  const marta = await signIn(browser, MANAGER.email);
  const { page, context } = marta;
  const url = await createJourney(page, `Offline ${suffix}`);
  await addStep(page, 'Event entry', 'Wait');
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');
  const online = await nodeIds(page);
  await shellKept(page);

  // Fully offline, inside the running app: the list shows its dated copy, the journey opens from IndexedDB.
  await context.setOffline(true);
  await page.getByRole('link', { name: 'All journeys' }).click();
  await expect(page.getByTestId('offline-copy')).toBeVisible();
  await page.getByTestId('journey-row').filter({ hasText: `Offline ${suffix}` }).getByRole('link').click();
  await expect(page.getByTestId('journey-editor')).toBeVisible();
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'offline');
  await expect(page.getByTestId('journey-name')).toHaveText(`Offline ${suffix}`);
  expect(await nodeIds(page)).toEqual(online);
  await addStep(page, 'Wait', 'Update tag count');
  await expect(nodeNamed(page, 'Update tag count')).toHaveCount(1);
  const offline = await nodeIds(page);

  // A real reload while offline: nothing reaches the server, not even the service worker; the page
  // comes from the worker's copy of the app, the session, the journey and its unsaved change from
  // the browser's copies.
  expect(await workerReachesServer(context)).toBe(false);
  await page.reload();
  await expect(page.getByTestId('session-offline')).toBeVisible(AFTER_LOAD);
  await expect(page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
  await expect(page.getByTestId('journey-name')).toHaveText(`Offline ${suffix}`);
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'offline');
  await expect(syncStatus(page)).toContainText('not yet saved');
  expect(await nodeIds(page)).toEqual(offline);
  // Editing goes on after the reload.
  await addStep(page, 'Update tag count', 'Postback');
  await expect(nodeNamed(page, 'Postback')).toHaveCount(1);
  const edited = await nodeIds(page);

  // Online again, without a reload: the session is the server's again, the offline edits reach
  // the server, and someone else sees them.
  await context.setOffline(false);
  await expect(page.getByTestId('session-offline')).toHaveCount(0);
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online', { timeout: 20_000 });
  await expect(syncStatus(page)).toHaveAttribute('data-unsynced', '0');
  const adrian = await signIn(browser, ADMIN.email);
  await openEditor(adrian.page, url);
  await expect.poll(() => nodeIds(adrian.page)).toEqual(edited);
  await expect(nodeNamed(adrian.page, 'Postback')).toHaveCount(1);

  // Logging out deletes this browser's copies: the documents and the cached lists.
  const docDatabases = () => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.includes('/journey/')));
  expect(await docDatabases()).not.toEqual([]);
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login/);
  expect(await docDatabases()).toEqual([]);
  const cachedLists = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('gd-local');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('lists')) return resolve(0);
          const count = db.transaction('lists').objectStore('lists').count();
          count.onsuccess = () => resolve(count.result);
        };
        open.onerror = () => resolve(-1);
      }),
  );
  expect(cachedLists).toBe(0);

  await adrian.context.close();
  await context.close();
});

test('a viewer cannot change a journey; a change forced into their copy reaches no one and is dropped from it', async ({ browser }) => {
  // Several people, each with a full sign-in and page loads: room for a busy shared machine.
  test.slow();
  const marta = await signIn(browser, MANAGER.email);
  const url = await createJourney(marta.page, `Viewer ${suffix}`);
  const ines = await signIn(browser, ANALYST.email);
  await openEditor(ines.page, url);

  // Read-only: said so, editing controls absent or disabled.
  await expect(ines.page.getByTestId('read-only')).toBeVisible();
  await expect(ines.page.getByRole('button', { name: /^Add a step after/ })).toHaveCount(0);
  await expect(ines.page.getByTestId('undo')).toHaveCount(0);
  await expect(ines.page.getByTestId('launch-journey')).toHaveAttribute('aria-disabled', 'true');
  await expect(ines.page.getByRole('button', { name: 'Rename the journey' })).toHaveAttribute('aria-disabled', 'true');
  // A viewer publishes no presence.
  await expect(marta.page.getByTestId('presence')).toHaveAttribute('data-count', '0');

  // A change forced into the viewer's document...
  const before = await entryPosition(ines.page);
  await forceEntryPosition(ines.page, 4242);
  // ...is refused by the server: the viewer's copy is dropped and reloaded from the server.
  await expect(ines.page.getByTestId('reloaded-notice')).toBeVisible();
  await expect.poll(() => entryPosition(ines.page)).toEqual(before);
  // It never reaches anyone: a later edit of the manager reaches the viewer, the forced one neither
  // the manager nor someone opening the journey afterwards.
  await addStep(marta.page, 'Event entry', 'Wait');
  await expect(nodeNamed(ines.page, 'Wait')).toHaveCount(1);
  expect(await entryPosition(marta.page)).toEqual(before);
  const adrian = await signIn(browser, ADMIN.email);
  await openEditor(adrian.page, url);
  await expect(nodeNamed(adrian.page, 'Wait')).toHaveCount(1);
  expect(await entryPosition(adrian.page)).toEqual(before);

  await adrian.context.close();
  await ines.context.close();
  await marta.context.close();
});

test('a change forced into a viewer\'s copy while offline stays only until the copy meets the server', async ({ browser }) => {
  // Several people, each with a full sign-in and page loads: room for a busy shared machine.
  test.slow();
  const marta = await signIn(browser, MANAGER.email);
  const url = await createJourney(marta.page, `Viewer offline ${suffix}`);
  await addStep(marta.page, 'Event entry', 'Wait');
  await expect(syncStatus(marta.page)).toHaveAttribute('data-status', 'online');
  const ines = await signIn(browser, ANALYST.email);
  await openEditor(ines.page, url);
  await expect(ines.page.getByTestId('read-only')).toBeVisible();
  await expect(nodeNamed(ines.page, 'Wait')).toHaveCount(1);
  const before = await entryPosition(ines.page);

  // Forced while offline, the change stays in the viewer's browser copy (a reload offline shows it)...
  await shellKept(ines.page);
  await ines.context.setOffline(true);
  await forceEntryPosition(ines.page, 4343);
  await ines.page.reload();
  await expect(ines.page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
  await expect.poll(() => entryPosition(ines.page)).toEqual(FORCED(4343));
  // ...only until the copy meets the server: it refuses it, and the copy is dropped and reloaded.
  await ines.context.setOffline(false);
  await expect(ines.page.getByTestId('reloaded-notice')).toBeVisible();
  await expect(syncStatus(ines.page)).toHaveAttribute('data-status', 'online');
  expect(await entryPosition(ines.page)).toEqual(before);
  await expect(nodeNamed(ines.page, 'Wait')).toHaveCount(1);
  // The browser copy no longer holds it: offline again, a reload shows the server's content.
  await ines.context.setOffline(true);
  await ines.page.reload();
  await expect(ines.page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
  await expect(nodeNamed(ines.page, 'Wait')).toHaveCount(1);
  expect(await entryPosition(ines.page)).toEqual(before);
  expect(await entryPosition(marta.page)).toEqual(before);

  await ines.context.close();
  await marta.context.close();
});

test('a journey with a problem cannot be launched; once fixed it launches, and a co-editor sees it live', async ({ browser }) => {
  test.slow();
  const marta = await signIn(browser, MANAGER.email);
  const { page } = marta;
  const url = await createJourney(page, `Launch ${suffix}`);
  const journeyId = new URL(url).searchParams.get('id') ?? '';
  // A co-editor has the journey open all along.
  const adrian = await signIn(browser, ADMIN.email);
  await openEditor(adrian.page, url);
  await expect(adrian.page.getByTestId('journey-status')).toHaveAttribute('data-status', 'draft');

  // A new journey's entry has no event yet: one problem, shown, and the launch is disabled.
  const launch = page.getByTestId('launch-journey');
  await expect(launch).toHaveAttribute('data-problems', '1');
  await expect(launch).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('problems-panel')).toContainText('Choose at least one event that starts the journey.');
  // The server refuses it too, naming the step and the rule.
  const appId = await page.evaluate(() => (window as unknown as { __gdSync: { names(): string[] } }).__gdSync.names()[0]?.split('/')[1] ?? '');
  const csrf = (await marta.context.cookies()).find((c) => c.name === 'gd_csrf')?.value ?? '';
  const refused = await page.request.post(`/api/apps/${appId}/journeys/${journeyId}/launch`, { headers: { 'x-csrf-token': csrf } });
  expect(await refused.json()).toMatchObject({ status: 'KO', code: 10001, details: [{ path: 'steps.source.eventIds', message: 'source_events_missing' }] });

  // Fixed: the entry gets an event; the launch goes through and the journey is live.
  await page.locator('.react-flow__node[data-id="source"]').click();
  const events = page.getByTestId('step-inspector').getByRole('combobox', { name: 'Events' });
  await events.fill('app_open');
  await events.press('Enter');
  await expect(launch).toHaveAttribute('data-problems', '0');
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');
  await expect(launch).not.toHaveAttribute('aria-disabled', 'true');
  await launch.click();
  await expect(page.getByText('Version 1 is live.')).toBeVisible();
  await expect(page.getByTestId('journey-status')).toHaveAttribute('data-status', 'live');
  await expect(page.getByTestId('launch-info')).toContainText('v1 live since');
  await expect(page.getByTestId('stop-journey')).toBeVisible();
  // The co-editor sees the launch without reloading: the sync server tells every open editor.
  await expect(adrian.page.getByTestId('journey-status')).toHaveAttribute('data-status', 'live', AFTER_LOAD);
  await expect(adrian.page.getByTestId('launch-info')).toContainText('v1 live since');
  await adrian.context.close();

  // The list says so too.
  await page.getByRole('link', { name: 'All journeys' }).click();
  const row = page.getByTestId('journey-row').filter({ hasText: `Launch ${suffix}` });
  await expect(row.getByTestId('journey-status')).toHaveAttribute('data-status', 'live');
  await expect(row).toContainText('v1');

  await marta.context.close();
});

test('when the server refuses an update, the browser copy is dropped and the journey reloads from the server', async ({ browser }) => {
  const marta = await signIn(browser, MANAGER.email);
  const { page } = marta;
  await createJourney(page, `Diverged ${suffix}`);
  await addStep(page, 'Event entry', 'Wait');
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');

  // A change the server refuses (a root journeys do not have): the server closes the connection.
  await page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): { set(k: string, v: unknown): void } } | null } }).__gdSync;
    hooks.doc(hooks.names()[0] ?? '')?.getMap('stray').set('x', 1);
  });
  await expect(page.getByTestId('reloaded-notice')).toBeVisible();
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');
  expect(await page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { share: Map<string, unknown> } | null } }).__gdSync;
    return hooks.doc(hooks.names()[0] ?? '')?.share.has('stray');
  })).toBe(false);
  // The server's content is back and editing goes on.
  await expect(nodeNamed(page, 'Wait')).toHaveCount(1);
  await addStep(page, 'Wait', 'Join');
  await expect(nodeNamed(page, 'Join')).toHaveCount(1);
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');

  await marta.context.close();
});

test('an editor whose role loses edit rights turns read-only at once, and nothing they send after is applied', async ({ browser }) => {
  test.slow();
  // The account owner makes a role that may edit journeys and invites someone with it.
  const owner = await signIn(browser, 'client@demo.growthdeck.test');
  const csrf = (await owner.context.cookies()).find((c) => c.name === 'gd_csrf')?.value ?? '';
  const api = async (method: 'GET' | 'PUT' | 'POST', path: string, data?: unknown) => {
    const res = await owner.page.request.fetch(`/api${path}`, { method, headers: { 'x-csrf-token': csrf }, ...(data ? { data } : {}) });
    const body = await res.json() as { status: string } & Record<string, unknown>;
    expect(body.status, JSON.stringify(body)).toBe('OK');
    return body;
  };
  const { roles } = await api('GET', '/user-roles') as unknown as { roles: { builtIn: string | null; userType: number; grants: string[] }[] };
  const builtIn = (name: string) => roles.find((r) => r.builtIn === name)!;
  const roleId = crypto.randomUUID();
  const role = (grants: string[]) => ({ name: `Editors ${suffix}`, userType: builtIn('manager').userType, grants });
  await api('PUT', `/user-roles/${roleId}`, role(builtIn('manager').grants));
  const email = `editor.${suffix}@demo.growthdeck.test`;
  await api('POST', '/account/users', { name: `Edu Editor ${suffix}`, email, roleId });
  const link = linkIn(await waitForMail(email, /auto-login\?token=/), /https?:\/\/\S+auto-login\?token=[\w%-]+/);

  const marta = await signIn(browser, MANAGER.email);
  const url = await createJourney(marta.page, `Downgraded ${suffix}`);
  const eduContext = await browser.newContext();
  await eduContext.addInitScript(() => window.localStorage.setItem('gd.testHooks', '1'));
  const edu = await eduContext.newPage();
  await edu.goto(link);
  await expect(edu).toHaveURL(/\/user\/password/, AFTER_LOAD);
  await openEditor(edu, url);
  await expect(edu.getByTestId('read-only')).toHaveCount(0);
  await addStep(edu, 'Event entry', 'Wait');
  await expect(nodeNamed(marta.page, 'Wait')).toHaveCount(1);

  // Their role may now only view journeys: the open editor turns read-only by itself.
  await api('PUT', `/user-roles/${roleId}`, role(builtIn('analyst').grants));
  await expect(edu.getByTestId('read-only')).toBeVisible(AFTER_LOAD);
  await expect(edu.getByTestId('access-changed-notice')).toContainText('you can now only view this document');
  await expect(edu.getByRole('button', { name: /^Add a step after/ })).toHaveCount(0);
  // A change forced into their copy afterwards reaches no one.
  await forceEntryPosition(edu, 5151);
  await addStep(marta.page, 'Wait', 'Postback');
  await expect(nodeNamed(edu, 'Postback')).toHaveCount(1, AFTER_LOAD);
  expect(await entryPosition(marta.page)).not.toEqual(FORCED(5151));

  await eduContext.close();
  await marta.context.close();
  await owner.context.close();
});
