/**
 * A journey for one person at a time: it opens offline from the browser's copy, also after a
 * reload, and its offline edits reach the server later; a viewer cannot change it, and a change
 * forced into a viewer's copy is dropped; a copy the server refuses is dropped and reloaded; an
 * editor whose role loses edit rights turns read-only at once. Several people on one journey:
 * journeys-together.spec.ts. Helpers and how offline works here: ../support/journeys.ts.
 */
import { expect, test } from '@playwright/test';
import { MANAGER, ADMIN, ANALYST, suffix, AFTER_LOAD, signIn, createJourney, openEditor, syncStatus, shellKept, workerReachesServer, entryPosition, forceEntryPosition, FORCED, sessionsOpened, copiesStored, addStep, nodeIds, nodeNamed } from '../support/journeys.ts';
import { linkIn, waitForMail } from '../support/mail.ts';

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
  await copiesStored(page);
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

test('an offline session larger than the server takes in one live message, reloaded offline, arrives whole; the badge is exact throughout', async ({ browser }) => {
  test.slow();
  const marta = await signIn(browser, MANAGER.email);
  const { page, context } = marta;
  const url = await createJourney(page, `Big offline ${suffix}`);
  for (let i = 0; i < 6; i++) await addStep(page, 'Event entry', 'Postback');
  await expect(nodeNamed(page, 'Postback')).toHaveCount(6);
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');
  await expect(syncStatus(page)).toHaveAttribute('data-unsynced', '0');
  await shellKept(page);

  // Offline, six request bodies of ~95 KB each (the field takes 100,000 characters): ~570 KB in
  // all, above the 512 KB a live message may carry. Each is one change.
  await context.setOffline(true);
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'offline');
  await page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): Map<string, { get(k: string): unknown; set(k: string, v: unknown): void }>; transact(f: () => void): void } | null } }).__gdSync;
    const doc = hooks.doc(hooks.names()[0] ?? '');
    if (!doc) throw new Error('no document');
    const postbacks = [...doc.getMap('steps').values()].filter((s) => s.get('type') === 'actionPostback');
    postbacks.forEach((step, i) => doc.transact(() => step.set('postbackBody', JSON.stringify({ batch: i, note: String(i).repeat(95_000) }))));
  });
  await expect(syncStatus(page)).toHaveAttribute('data-unsynced', '6');
  await expect(syncStatus(page)).toContainText('6 changes not yet saved');

  // Reloaded while offline: the same six changes are still waiting, and said so.
  await copiesStored(page);
  await page.reload();
  await expect(page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'offline');
  await expect(syncStatus(page)).toHaveAttribute('data-unsynced', '6');

  // Back online: "Saved" only once the server confirmed everything, and all of it arrived.
  await context.setOffline(false);
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online', { timeout: 30_000 });
  await expect(syncStatus(page)).toHaveAttribute('data-unsynced', '0');
  await expect(page.getByTestId('recovery-notice')).toHaveCount(0);
  await expect(page.getByTestId('reloaded-notice')).toHaveCount(0);
  const adrian = await signIn(browser, ADMIN.email);
  await openEditor(adrian.page, url);
  const bodies = () =>
    adrian.page.evaluate(() => {
      const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): Map<string, { get(k: string): unknown }> } | null } }).__gdSync;
      const steps = [...(hooks.doc(hooks.names()[0] ?? '')?.getMap('steps').values() ?? [])];
      return steps.map((s) => s.get('postbackBody')).filter((b): b is string => typeof b === 'string' && b.length > 90_000).length;
    });
  await expect.poll(bodies, AFTER_LOAD).toBe(6);

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
  await copiesStored(ines.page);
  await ines.page.reload();
  await expect(ines.page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
  await expect.poll(() => entryPosition(ines.page)).toEqual(FORCED(4343));
  // ...only until the copy meets the server: it refuses it, and the copy is dropped and reloaded.
  // The editor stays mounted meanwhile (the journey list reloads under it), so the document keeps
  // its one session, which says it reloaded (a remount used to close it in the middle).
  expect(await sessionsOpened(ines.page)).toBe(1);
  const listReloaded = ines.page.waitForResponse((r) => /\/api\/apps\/[^/]+\/journeys\?/.test(r.url()) && r.status() === 200);
  await ines.context.setOffline(false);
  await expect(ines.page.getByTestId('reloaded-notice')).toBeVisible(AFTER_LOAD);
  await expect(syncStatus(ines.page)).toHaveAttribute('data-status', 'online');
  await listReloaded;
  await expect(ines.page.getByTestId('journey-editor')).toBeVisible();
  expect(await sessionsOpened(ines.page)).toBe(1);
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

test('when the server refuses the browser copy, it is kept before the journey reloads from the server, and the person restores their version', async ({ browser }) => {
  const marta = await signIn(browser, MANAGER.email);
  const { page, context } = marta;
  await createJourney(page, `Diverged ${suffix}`);
  await addStep(page, 'Event entry', 'Wait');
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');

  // Offline: a change the server refuses (a root journeys do not have), then a step of hers.
  await context.setOffline(true);
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'offline');
  await page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): { set(k: string, v: unknown): void } } | null } }).__gdSync;
    hooks.doc(hooks.names()[0] ?? '')?.getMap('stray').set('x', 1);
  });
  await addStep(page, 'Wait', 'Join');
  const hasStray = () => page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { share: Map<string, unknown> } | null } }).__gdSync;
    return hooks.doc(hooks.names()[0] ?? '')?.share.has('stray');
  });

  // Back online, the server closes the connection on the catch-up: the copy is kept, then dropped,
  // and the journey is the server's again (without her step), with her version offered.
  await context.setOffline(false);
  const notice = page.getByTestId('recovery-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Your version was kept');
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');
  await expect(nodeNamed(page, 'Join')).toHaveCount(0);
  expect(await hasStray()).toBe(false);

  // Restored: her step is back on top of the server's journey, and the server takes it this time.
  await notice.getByTestId('recovery-restore').click();
  await expect(notice).toHaveCount(0);
  await expect(nodeNamed(page, 'Join')).toHaveCount(1);
  await expect(nodeNamed(page, 'Wait')).toHaveCount(1);
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');
  expect(await hasStray()).toBe(false);
  await expect(page.getByTestId('reloaded-notice')).toHaveCount(0);

  // Another person opening the journey sees her restored step.
  const url = page.url();
  const ines = await signIn(browser, ADMIN.email);
  await openEditor(ines.page, url);
  await expect(nodeNamed(ines.page, 'Join')).toHaveCount(1);

  await ines.context.close();
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

test('a name as long as names may be is kept whole, and in the list it is ellipsised without pushing the other columns away', async ({ browser }) => {
  const { page, context } = await signIn(browser, MANAGER.email);
  await page.setViewportSize({ width: 1280, height: 720 });
  // NAME_MAX characters: one rule for every name; the field takes no more.
  const name = `Long ${suffix} ${'onboarding-reactivation-'.repeat(10)}`.slice(0, 120);
  await page.goto('/communication/journeys');
  await page.getByTestId('new-journey').first().click();
  const field = page.getByRole('dialog').getByLabel('Name');
  await field.fill(`${name}-beyond-the-limit`);
  await expect(field).toHaveValue(name);
  await page.getByRole('dialog').getByRole('button', { name: 'Create journey' }).click();
  await expect(page.getByTestId('journey-name')).toHaveText(name, AFTER_LOAD);
  await page.goto('/communication/journeys');
  const row = page.getByTestId('journey-row').filter({ has: page.locator(`a[title="${name}"]`) });
  const link = row.getByRole('link', { name: `Open ${name}` });
  await expect(link).toBeVisible();
  expect(await link.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  // Every column still fits in the window.
  const rowBox = await row.boundingBox();
  expect(rowBox && rowBox.x + rowBox.width).toBeLessThanOrEqual(1280);
  await expect(row.getByTestId('journey-status')).toBeInViewport();
  await context.close();
});
