/**
 * Journey editor helpers for the end-to-end tests (the people and signing in: people.ts): creating
 * and opening a journey, the canvas and the sync badge, and reading or forcing a page's
 * copy of the document.
 *
 * Offline: `context.setOffline(true)` cuts HTTP (the page's and its service worker's) and fires the
 * browser's `offline` event, on which the app closes its sync WebSocket (Playwright's offline mode
 * does not cut open WebSockets itself). A reload while offline is a real one: the app's service
 * worker answers with the app shell it keeps, the session comes from the browser's copy of
 * `/user/meta`, and the journey, its title and its count of unsaved changes from the browser's
 * other copies (IndexedDB). The worker answers navigations only once it is active (`shellKept`).
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { AFTER_LOAD } from './people.ts';

export { ADMIN, AFTER_LOAD, ANALYST, MANAGER, signIn, type Person } from './people.ts';
export const suffix = Date.now().toString(36);

/** Creates a journey from the list and returns the editor's address. */
export async function createJourney(page: Page, name: string): Promise<string> {
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

export async function openEditor(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
}

export const syncStatus = (page: Page) => page.getByTestId('sync-status');

/**
 * Waits until the app's service worker is active: it then keeps the app shell and answers every
 * navigation in its scope, a reload included. (Waiting for `navigator.serviceWorker.controller`
 * instead can wait forever: `clients.claim()` cannot take a page whose navigation was under way
 * while the worker activated; such a page is controlled from its next load on.)
 */
export async function shellKept(page: Page) {
  await page.evaluate(async () => {
    const { active } = await navigator.serviceWorker.ready;
    if (!active || active.state === 'activated') return;
    await new Promise<void>((resolve) => active.addEventListener('statechange', () => active.state === 'activated' && resolve()));
  });
}

/** Whether the page's service worker can reach the server (false once the context is offline). */
export async function workerReachesServer(context: BrowserContext): Promise<boolean> {
  const [worker] = context.serviceWorkers();
  if (!worker) throw new Error('no service worker');
  return worker.evaluate(() => fetch('/api/health', { cache: 'no-store' }).then(() => true, () => false));
}

/** The position stored for the entry step in this page's copy of the journey (null when none). */
export function entryPosition(page: Page): Promise<unknown> {
  return page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): { get(k: string): unknown } } | null } }).__gdSync;
    return hooks.doc(hooks.names()[0] ?? '')?.getMap('layout').get('source') ?? null;
  });
}

/** Forces a position for the entry step into this page's copy (the UI never lets a viewer do it). */
/** How many sessions the page's open journey had since the page loaded (registry test hook `opened`). */
export function sessionsOpened(page: Page): Promise<number> {
  return page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; opened(n: string): number } }).__gdSync;
    return hooks.opened(hooks.names()[0] ?? '');
  });
}

export async function forceEntryPosition(page: Page, x: number) {
  await page.evaluate((value) => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): { set(k: string, v: unknown): void } } | null } }).__gdSync;
    hooks.doc(hooks.names()[0] ?? '')?.getMap('layout').set('source', { x: value, y: value });
  }, x);
}
export const FORCED = (x: number) => ({ x, y: x });

/**
 * Waits until this page's browser copies (IndexedDB) hold every change made in it so far, before a
 * reload: the copy stores each change in a write begun as the change is made, and a read of the
 * same store begun afterwards only runs once that write is done (IndexedDB orders them).
 */
export async function copiesStored(page: Page) {
  await page.evaluate(async () => {
    const hooks = (window as unknown as { __gdSync: { names(): string[] } }).__gdSync;
    const names = hooks.names();
    const copies = (await indexedDB.databases()).map((d) => d.name ?? '').filter((db) => names.some((n) => db.endsWith(`:${n}`)));
    if (copies.length === 0) throw new Error(`no browser copy of ${names.join(', ')}`);
    for (const copy of copies) {
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(copy);
        open.onerror = () => reject(open.error ?? new Error(`cannot open ${copy}`));
        open.onsuccess = () => {
          const db = open.result;
          const read = db.transaction('updates', 'readonly');
          read.objectStore('updates').count();
          read.oncomplete = () => { db.close(); resolve(); };
          read.onerror = () => { db.close(); reject(read.error ?? new Error(`cannot read ${copy}`)); };
        };
      });
    }
  });
}

/** Inserts a step of `type` on the link that leaves the step named `after`. */
export async function addStep(page: Page, after: string, type: string) {
  await page.getByRole('button', { name: `Add a step after ${after}`, exact: true }).first().click();
  await page.getByRole('menuitem').filter({ has: page.getByText(type, { exact: true }) }).click();
}

export const nodeIds = (page: Page) => page.locator('.react-flow__node').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id') ?? '').sort());
export const nodeNamed = (page: Page, type: string) => page.locator('.react-flow__node').filter({ has: page.getByText(type, { exact: true }) });

/** The journey document as this page holds it (steps and entry), keys sorted. */
export function docContent(page: Page): Promise<string> {
  return page.evaluate(() => {
    const hooks = (window as unknown as { __gdSync: { names(): string[]; doc(n: string): { getMap(r: string): { toJSON(): unknown } } | null } }).__gdSync;
    const doc = hooks.doc(hooks.names()[0] ?? '');
    const canonical = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, canonical(x)])) : v;
    return JSON.stringify(canonical({ meta: doc?.getMap('meta').toJSON(), steps: doc?.getMap('steps').toJSON() }));
  });
}
