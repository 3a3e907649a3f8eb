/**
 * A journey at work (issue 14), as the people who build it see it:
 * - a marketer sets the journey's conversion goal and simulates the draft for a described person
 *   (an event an hour in): the timeline says when each step is passed and that the person converts;
 *   a colleague with the same journey open sees the same simulation and the same settings;
 * - a launched journey (an event entry, an in-app message, the end) runs for a visitor of a shop
 *   page with the web SDK: the visitor's event moves the counts on the canvas and the totals, the
 *   in-app message shows on the page, and the visitor's passage is found by person id in the
 *   editor and on their profile's journeys tab.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { applyJourneyToDoc, applyMessageDraftToDoc, createStep, messageDraftFromDoc, normalizeJourney, type Journey } from '@gd/shared';
import { openApiDoc, waitFor, type TestClient as DocClient } from '../../sync-server/src/testing/clients.ts';
import { ADMIN, AFTER_LOAD, MANAGER, addStep, createJourney, openEditor, signIn, suffix, syncStatus } from '../support/journeys.ts';

test('a simulation of the draft shows its timeline, and a colleague on the same journey sees the same one', async ({ browser }) => {
  test.slow();
  const marta = await signIn(browser, MANAGER.email);
  const { page } = marta;
  const url = await createJourney(page, `Simulated ${suffix}`);
  await addStep(page, 'Event entry', 'Wait');
  await expect(syncStatus(page)).toHaveAttribute('data-status', 'online');

  // The goal: an event of the app's catalogue, counted within the default week.
  await page.getByTestId('open-settings').click();
  const settings = page.getByTestId('journey-settings');
  await expect(settings).toBeVisible();
  await settings.getByTestId('goal-event').click();
  const firstEvent = page.getByRole('listbox').getByRole('option').first();
  const goal = (await firstEvent.textContent())?.trim() ?? '';
  expect(goal).not.toBe('');
  await firstEvent.click();
  await expect(settings.getByTestId('goal-event')).toHaveValue(goal);
  await expect(settings.getByLabel('Counts within')).toHaveValue('7');

  // The simulation: the person does the goal event an hour after entering.
  await page.getByTestId('open-simulation').click();
  const panel = page.getByTestId('simulation-panel');
  await expect(panel.getByTestId('simulation-empty')).toBeVisible();
  await panel.getByTestId('simulation-add-event').click();
  await panel.getByTestId('simulation-event-name').click();
  await page.getByRole('listbox').getByRole('option', { name: goal, exact: true }).click();
  await expect(syncStatus(page)).toHaveAttribute('data-unsynced', '0');
  await panel.getByTestId('run-simulation').click();

  const expectTimeline = async (p: Page) => {
    const result = p.getByTestId('simulation-result');
    await expect(result).toBeVisible(AFTER_LOAD);
    const rows = result.getByTestId('simulation-entry');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('Event entry');
    await expect(rows.nth(0)).toContainText('Entered the journey');
    await expect(rows.nth(0).getByTestId('simulation-offset')).toHaveText('+0 s');
    await expect(rows.nth(1)).toContainText('Wait over');
    await expect(rows.nth(1).getByTestId('simulation-offset')).toHaveText('+1 d');
    await expect(rows.nth(2)).toContainText('Reached the end');
    await expect(result.getByTestId('simulation-outcome')).toHaveText('Ended at +1 d');
    await expect(result.getByTestId('simulation-converted')).toHaveText('Converted at +1 h');
    // The simulated path is marked on the canvas: every step of this journey was passed.
    await expect(p.locator('.react-flow__node .is-mark-path')).toHaveCount(3);
  };
  await expectTimeline(page);
  await expect(page.getByTestId('simulation-by')).toHaveText(/^Draft simulated/);

  // A colleague opens the same journey: the same simulation, who ran it, and the goal set.
  const adrian = await signIn(browser, ADMIN.email);
  await openEditor(adrian.page, url);
  await expect(adrian.page.getByTestId('open-simulation').locator('.mantine-Indicator-indicator')).toBeVisible();
  await adrian.page.getByTestId('open-simulation').click();
  await expectTimeline(adrian.page);
  await expect(adrian.page.getByTestId('simulation-by')).toHaveText(new RegExp(`^Draft simulated by ${MANAGER.name}`));
  await adrian.page.getByTestId('open-settings').click();
  await expect(adrian.page.getByTestId('journey-settings').getByTestId('goal-event')).toHaveValue(goal);

  // Marta runs it again without the event: Adrián's panel follows (no conversion any more).
  await page.getByTestId('simulation-event').getByRole('button', { name: 'Remove' }).click();
  await page.getByTestId('run-simulation').click();
  await adrian.page.getByTestId('open-simulation').click();
  await expect(adrian.page.getByTestId('simulation-result')).toBeVisible();
  await expect(adrian.page.getByTestId('simulation-converted')).toHaveCount(0);
  await expect(adrian.page.getByTestId('simulation-outcome')).toHaveText('Ended at +1 d');
  await marta.context.close();
  await adrian.context.close();
});

test('a journey launched on an audience enters the visitors the web SDK put in it: the counts show them and the message reaches them', async ({ page, baseURL }) => {
  test.slow();
  const { app, shop, docs, close } = await shopWorld(page, baseURL, { name: 'Au Dience', email: 'journeyaudience', account: 'Journey audience', app: 'Audience shop' });
  try {

    // Two visitors browse the shop through the web SDK; only the first adds to the cart.
    const buyer = await page.context().newPage();
    await buyer.goto(shop);
    await buyer.waitForFunction(() => 'gd' in window);
    await gd(buyer, async (t) => { t.track('add_to_cart'); await t.flush(); });
    const browser2 = await page.context().browser()?.newContext();
    if (!browser2) throw new Error('no browser');
    const looker = await browser2.newPage();
    await looker.goto(shop);
    await looker.waitForFunction(() => 'gd' in window);
    await gd(looker, async (t) => { t.track('page_view'); await t.flush(); });

    // The demo audience: people who added to the cart in the last 7 days.
    const { audience } = (await call(page.request, 'POST', `/apps/${app.id}/audiences`, {
      name: `Cart adders ${suffix}`, source: { from: 'rules', rules: [{ kind: 'event_made', event: 'add_to_cart', days: 7 }] },
    })) as { audience: { id: string; status: string; personCount: number | null } };
    expect(audience).toMatchObject({ status: 'ready', personCount: 1 });

    // The journey: the audience → the in-app message → end, launched.
    const message = await approvedBanner(page, app.id, docs, `Audience banner ${suffix}`, `Audience ${suffix}`);
    const tokens = { ok: async <T,>(_name: 'docToken', body: { name: string }) => (await call(page.request, 'POST', '/docs/token', body)) as T };
    const { journey } = (await call(page.request, 'POST', `/apps/${app.id}/journeys`, { name: `Cart adders welcome ${suffix}` })) as { journey: { id: string; docName: string } };
    const journeyDoc = await openApiDoc(tokens, journey.docName, docs);
    applyJourneyToDoc(journeyDoc.doc, normalizeJourney({
      entryId: 'entry',
      steps: [
        { ...createStep('sourceAudience', 'entry'), audienceId: audience.id, next: 'banner' },
        { ...createStep('actionMessageInApp', 'banner'), campaignId: message.campaignId, messageId: message.id, next: 'done' },
        createStep('end', 'done'),
      ],
    }));
    await waitFor(() => !journeyDoc.provider.hasUnsyncedChanges, 'journey written');
    await call(page.request, 'POST', `/apps/${app.id}/journeys/${journey.id}/launch`, {});

    // The audience's one member entered at launch: the canvas and the totals count them.
    await page.goto(`/communication/journeys?id=${journey.id}`);
    await expect(page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
    await expect(count(page, 'entry')).toHaveAttribute('data-total', '1', { timeout: 30_000 });
    await expect(count(page, 'banner')).toHaveAttribute('data-total', '1', { timeout: 15_000 });
    await expect(page.getByTestId('total-entered')).toHaveAttribute('data-value', '1');

    // The message reaches the buyer through the SDK, and not the visitor outside the audience.
    await buyer.goto(`${shop}?show`);
    const banner = buyer.locator('#growthdeck-in-app [data-type="banner"]');
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toHaveAttribute('data-message', message.id);
    // (Its SDK has asked what is on offer, and got nothing.)
    const asked = looker.waitForResponse((r) => r.url().includes('/api/sdk/v1/in-app'));
    await looker.goto(`${shop}?show`);
    expect(((await (await asked).json()) as { messages?: unknown[] }).messages ?? []).toEqual([]);
    await expect(looker.locator('#growthdeck-in-app [data-type="banner"]')).toHaveCount(0);
    await browser2.close();
  } finally {
    close();
  }
});

/**
 * A new account (authors approve their own) with a web app whose web plugin shows in-app messages,
 * and the customer's shop page on its own loopback server with the SDK from the product.
 */
async function shopWorld(page: Page, baseURL: string | undefined, who: { name: string; email: string; account: string; app: string }) {
  let html = '';
  const shopServer = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => shopServer.listen(0, '127.0.0.1', resolve));
  const shop = `http://127.0.0.1:${(shopServer.address() as AddressInfo).port}/`;
  const docs: DocClient[] = [];
  await call(page.request, 'POST', '/auth/register', {
    name: who.name, email: `${who.email}.${suffix}@e2e.example.com`, password: 'Journey-Pass-2026!', accountName: `${who.account} ${suffix}`, plan: 'growth',
  });
  await call(page.request, 'PUT', '/account/approval-policy', { required: 1, authorsMayApprove: true });
  const { app } = (await call(page.request, 'POST', '/apps', { name: who.app, os: 'Web', timezone: 'Europe/Madrid' })) as { app: { id: string; appKey: string } };
  await call(page.request, 'PUT', `/apps/${app.id}/web-plugin`, { enabled: true, domains: ['shop.example.com'], position: 'bottom', accentColor: '#0b7285', zIndex: 100000, closeButton: true });
  html = shopPage(new URL(baseURL ?? '').origin, app.appKey);
  return {
    app, shop, docs,
    close: () => {
      for (const d of docs) d.destroy();
      shopServer.close();
    },
  };
}

/** An in-app banner of origin "automatic journey", written in its document, submitted and approved. */
async function approvedBanner(page: Page, appId: string, docs: DocClient[], name: string, campaignName: string): Promise<{ id: string; docName: string; campaignId: string }> {
  const tokens = { ok: async <T,>(_name: 'docToken', body: { name: string }) => (await call(page.request, 'POST', '/docs/token', body)) as T };
  const { message } = (await call(page.request, 'POST', `/apps/${appId}/messages`, { name, type: 'banner', origin: 'automaticJourney', campaignName })) as {
    message: { id: string; docName: string; campaignId: string };
  };
  const messageDoc = await openApiDoc(tokens, message.docName, docs);
  const draft = messageDraftFromDoc(messageDoc.doc);
  applyMessageDraftToDoc(messageDoc.doc, {
    ...draft,
    variants: draft.variants.map((v) => ({
      ...v,
      content: Object.fromEntries(Object.entries(v.content).map(([lang, c]) => [lang, { ...c, title: 'Your cart is waiting', message: 'Finish your order today', position: 'top', shown_time: null }])),
    })),
  });
  await waitFor(() => !messageDoc.provider.hasUnsyncedChanges, 'message written');
  const submitted = (await call(page.request, 'POST', `/apps/${appId}/messages/${message.id}/submit`)) as { message: { submission: { id: string } } };
  await call(page.request, 'POST', `/apps/${appId}/messages/${message.id}/approve`, { submissionId: submitted.message.submission.id });
  return message;
}

async function call(request: APIRequestContext, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<Record<string, unknown>> {
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const res = await request.fetch(`/api${path}`, { method, headers: { 'x-csrf-token': csrfToken }, ...(data === undefined ? {} : { data }) });
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.status, JSON.stringify(body)).toBe('OK');
  return body;
}

/** The customer's page: the SDK from the product, showing in-app messages when asked (`?show`). */
function shopPage(productOrigin: string, appKey: string): string {
  return `<!doctype html><html><head><title>Shop</title>
<script src="${productOrigin}/sdk/growthdeck.js"></script>
<script>
  window.gd = Growthdeck.createTracker({ appKey: ${JSON.stringify(appKey)}, endpoint: ${JSON.stringify(`${productOrigin}/api`)},
    flushAt: 1000, flushIntervalMs: 3600000, inApp: location.search === '?show' });
</script></head><body><h1>Shop</h1></body></html>`;
}

type Tracker = { deviceId: string; flush(): Promise<void>; track(name: string, props?: Record<string, unknown>): unknown; queued: number };
const gd = <T>(page: Page, fn: (gd: Tracker) => T | Promise<T>): Promise<T> => page.evaluate<T>(`(${fn.toString()})(window.gd)`);

const count = (page: Page, stepId: string) => page.locator(`.react-flow__node[data-id="${stepId}"] [data-testid="step-count"]`);

test('a launched journey runs for a visitor of a page with the web SDK: the counts move on the canvas and the in-app message shows', async ({ page, baseURL }) => {
  test.slow();
  // The marketer's account, a web app with the web plugin (in-app messages on the page), and the customer's shop page.
  const { app, shop, docs, close } = await shopWorld(page, baseURL, { name: 'Jo Journey', email: 'journeyrun', account: 'Journey run', app: 'Journey shop' });
  try {

    // A first visit: the visitor becomes known and `checkout` enters the app's event catalogue.
    const visitor = await page.context().newPage();
    await visitor.goto(shop);
    await visitor.waitForFunction(() => 'gd' in window);
    const deviceId = await gd(visitor, async (t) => { t.track('checkout'); await t.flush(); return t.deviceId; });

    // The journey's in-app message (origin automatic journey), written, submitted and approved.
    const message = await approvedBanner(page, app.id, docs, `Cart banner ${suffix}`, `Cart ${suffix}`);
    const tokens = { ok: async <T,>(_name: 'docToken', body: { name: string }) => (await call(page.request, 'POST', '/docs/token', body)) as T };

    // The journey: checkout → the in-app message → end, written in its document as the editor's
    // rules make it (a wait of a day comes in before the end, automatically) and launched.
    const { journey } = (await call(page.request, 'POST', `/apps/${app.id}/journeys`, { name: `Cart rescue ${suffix}` })) as { journey: { id: string; docName: string } };
    const journeyDoc = await openApiDoc(tokens, journey.docName, docs);
    const definition: Journey = normalizeJourney({
      entryId: 'entry',
      steps: [
        { ...createStep('sourceEvents', 'entry'), eventIds: ['checkout'], next: 'banner' },
        { ...createStep('actionMessageInApp', 'banner'), campaignId: message.campaignId, messageId: message.id, next: 'done' },
        createStep('end', 'done'),
      ],
    });
    const wait = definition.steps.find((s) => s.type === 'flowWait' && s.auto);
    expect(wait).toBeDefined();
    const waitId = wait?.id ?? '';
    applyJourneyToDoc(journeyDoc.doc, definition);
    await waitFor(() => !journeyDoc.provider.hasUnsyncedChanges, 'journey written');
    await call(page.request, 'POST', `/apps/${app.id}/journeys/${journey.id}/launch`, {});

    // The editor shows the launched version's counts: nobody yet.
    await page.goto(`/communication/journeys?id=${journey.id}`);
    await expect(page.getByTestId('journey-editor')).toBeVisible(AFTER_LOAD);
    await expect(page.getByTestId('run-totals')).toBeVisible(AFTER_LOAD);
    await expect(page.getByTestId('total-entered')).toHaveAttribute('data-value', '0');
    await expect(count(page, 'entry')).toHaveAttribute('data-total', '0');

    // The visitor checks out: the counts move on the canvas (polled every 3 s) and in the totals;
    // they now wait a day before the end.
    await gd(visitor, async (t) => { t.track('checkout'); await t.flush(); });
    await expect(count(page, 'entry')).toHaveAttribute('data-total', '1', { timeout: 30_000 });
    await expect(count(page, 'banner')).toHaveAttribute('data-total', '1', { timeout: 15_000 });
    await expect(count(page, waitId)).toHaveAttribute('data-now', '1', { timeout: 15_000 });
    await expect(count(page, 'entry')).toContainText('0 now · 1 total');
    await expect(count(page, waitId)).toContainText('1 now · 1 total');
    await expect(count(page, 'done')).toHaveAttribute('data-total', '0');
    await expect(page.getByTestId('total-entered')).toHaveAttribute('data-value', '1');
    await expect(page.getByTestId('total-inside')).toHaveAttribute('data-value', '1');
    await expect(page.getByTestId('total-ended')).toHaveAttribute('data-value', '0');
    // The document was written as the rules make it: nothing to launch again.
    await expect(page.getByTestId('launch-journey')).toHaveAttribute('data-up-to-date', 'true');

    // The in-app message arrives through the SDK on the visitor's next page.
    await visitor.goto(`${shop}?show`);
    const banner = visitor.locator('#growthdeck-in-app [data-type="banner"]');
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toHaveAttribute('data-message', message.id);
    await expect(banner.getByRole('heading')).toHaveText('Your cart is waiting');

    // Where is the visitor? Found by person id in the editor: waiting, the steps passed, the send queued.
    const { people } = (await call(page.request, 'GET', `/apps/${app.id}/people?q=${encodeURIComponent(deviceId)}`)) as { people: { id: string }[] };
    const personId = people[0]?.id ?? '';
    expect(personId).not.toBe('');
    await page.getByTestId('open-people').click();
    await page.getByTestId('person-search-input').fill(personId);
    await page.getByTestId('person-search-submit').click();
    const trace = page.getByTestId('person-search').getByTestId('entry-trace');
    await expect(trace).toHaveCount(1);
    await expect(trace).toHaveAttribute('data-status', 'waiting');
    await expect(trace.getByTestId('entry-current')).toHaveText('At Wait');
    await expect(trace.getByTestId('entry-state')).toContainText('Waiting until');
    const passages = trace.getByTestId('passage');
    await expect(passages).toHaveCount(2);
    await expect(passages.nth(0)).toContainText('Event entry');
    await expect(passages.nth(0)).toContainText('Entered the journey');
    await expect(passages.nth(1)).toContainText('In-app message');
    await expect(passages.nth(1).getByTestId('passage-effect')).toHaveText('Message queued');
    // A passage shows its step on the canvas.
    await passages.nth(1).getByRole('button').click();
    await expect(page.locator('.react-flow__node[data-id="banner"] .is-mark-focus')).toHaveCount(1);

    // A simulation of the launched version, kept in the journey's document, is no edit of the journey.
    await page.getByTestId('open-simulation').click();
    await page.getByTestId('simulation-source').getByText('Launched · v1').click();
    await page.getByTestId('run-simulation').click();
    await expect(page.getByTestId('simulation-by')).toHaveText(/^Version 1 simulated/);
    await expect(page.getByTestId('simulation-result').getByTestId('simulation-message')).toHaveText(`Would send in-app: Cart banner ${suffix}`);
    await expect(page.getByTestId('launch-journey')).toHaveAttribute('data-up-to-date', 'true');

    // And on the visitor's profile, the journeys tab.
    await page.goto(`/behavior/people?person=${personId}&tab=journeys`);
    const profileTrace = page.getByTestId('person-journeys').getByTestId('entry-trace');
    await expect(profileTrace).toHaveCount(1, AFTER_LOAD);
    await expect(profileTrace).toContainText(`Cart rescue ${suffix}`);
    await expect(profileTrace).toHaveAttribute('data-status', 'waiting');
    await expect(profileTrace.getByTestId('passage')).toHaveCount(2);
  } finally {
    close();
  }
});
