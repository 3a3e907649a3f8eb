// @vitest-environment jsdom
/**
 * The tracker's message calls and the in-app renderer in a DOM (jsdom), against an in-process
 * fake of the API: coupon redemptions counted once, the renderer's buttons, native ads, answers
 * of the wrong shape, and shutdown.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTracker } from '../tracker.ts';
import { memoryStorage } from '../storage.ts';
import type { InAppMessage, NativeAd, Tracker } from '../types.ts';
import './renderEntry.ts';

interface Sent { url: string; body: Record<string, unknown> | null }
type Handler = (req: Sent) => unknown;

const plugin = { position: 'bottom', accentColor: '#0b7285', zIndex: 99, closeButton: true };
const message = (over: Partial<InAppMessage> = {}): InAppMessage => ({
  messageId: 'm-1', campaignId: 'c-1', variantId: 'a', test: false, type: 'coupon', language: 'en', title: 'Half price', message: 'Today only',
  image_url: '', target_url: '', buttons: [], position: null, shown_time: null, promo_code: 'SAVE50', redeemsLeft: 1, expiresAt: null, ...over,
});

function fakeApi(sdk: Handler) {
  const sent: Sent[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = { url: url as string, body: init?.body ? JSON.parse(init.body as string) as Record<string, unknown> : null };
    sent.push(req);
    const answer = req.url.includes('/ingest/v1/') ? { status: 'OK', accepted: [], duplicates: [], rejected: [] } : await sdk(req);
    if (answer instanceof Error) throw answer;
    return new Response(JSON.stringify(answer), { status: 200 });
  };
  const interactions = () => sent.flatMap((r) => (r.body?.interactions ?? []) as { kind: string; channel: string; messageId: string }[]);
  const redeems = () => sent.filter((r) => r.url.endsWith('/sdk/v1/redeem'));
  return { fetch, sent, interactions, redeems };
}

let trackers: Tracker[] = [];
const tracker = (api: ReturnType<typeof fakeApi>, storage = memoryStorage()) => {
  const t = createTracker({ appKey: 'key-1', endpoint: 'https://gd.example.com/api', storage, fetch: api.fetch, autoTrack: false, flushAt: 1000 });
  trackers.push(t);
  return t;
};
const shadow = () => document.getElementById('growthdeck-in-app')?.shadowRoot ?? null;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(async () => {
  for (const t of trackers) await t.shutdown();
  trackers = [];
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('coupon redemptions', () => {
  it('retries a redemption with the same client id until the API answers OK, then starts a new one', async () => {
    let refuse = true;
    const api = fakeApi((req) => (req.url.endsWith('/redeem') ? (refuse ? new Error('offline') : { status: 'OK', counted: true }) : { status: 'OK' }));
    const storage = memoryStorage();
    const gd = tracker(api, storage);
    expect(await gd.redeem('m-1', 'a')).toBeNull();
    expect(await gd.redeem('m-1', 'a')).toBeNull();
    // A reload: the stored id is reused.
    const again = tracker(api, storage);
    refuse = false;
    expect(await again.redeem('m-1', 'a')).toMatchObject({ status: 'OK' });
    const ids = api.redeems().map((r) => r.body?.clientId);
    expect(new Set(ids).size).toBe(1);
    expect(await again.redeem('m-1', 'a')).toMatchObject({ status: 'OK' });
    expect(api.redeems().at(-1)?.body?.clientId).not.toBe(ids[0]);
  });

  it('sends two calls at once with one client id, keeps ids apart per variant, and takes the app\'s own id', async () => {
    const api = fakeApi(() => ({ status: 'OK', counted: true }));
    const gd = tracker(api);
    await Promise.all([gd.redeem('m-1', 'a'), gd.redeem('m-1', 'a'), gd.redeem('m-1', 'b')]);
    const [x, y, z] = api.redeems().map((r) => r.body?.clientId);
    expect(x).toBe(y);
    expect(z).not.toBe(x);
    await gd.redeem('m-1', 'a', 'app-id-1');
    expect(api.redeems().at(-1)?.body).toMatchObject({ messageId: 'm-1', variantId: 'a', clientId: 'app-id-1' });
  });
});

describe('the in-app renderer', () => {
  it('redeems a coupon once on a double tap, reports one click, and shows ✓ only on an OK answer', async () => {
    let answer: unknown = { status: 'KO', code: 20003, message: 'max_redeems reached' };
    const api = fakeApi((req) => (req.url.endsWith('/redeem') ? answer : { status: 'OK', messages: [message()], plugin }));
    const gd = tracker(api);
    await gd.inApp();
    const code = shadow()?.querySelector<HTMLButtonElement>('button.code');
    expect(code?.textContent).toBe('SAVE50');
    code?.click();
    code?.click();
    expect(code?.disabled).toBe(true);
    await settle();
    await settle();
    expect(api.redeems()).toHaveLength(1);
    // Refused: no ✓, and the code may be tapped again (the same redemption).
    expect(code?.textContent).toBe('SAVE50');
    expect(code?.disabled).toBe(false);
    answer = { status: 'OK', counted: true };
    code?.click();
    await settle();
    await settle();
    expect(code?.textContent).toBe('SAVE50 ✓');
    expect(code?.disabled).toBe(true);
    const [first, second] = api.redeems().map((r) => r.body?.clientId);
    expect(second).toBe(first);
    await gd.flush();
    expect(api.interactions().filter((i) => i.kind === 'click')).toHaveLength(1);
  });

  it('makes the ball and the tab buttons, labels cards by their heading, and closes in the message\'s language', async () => {
    const api = fakeApi(() => ({ status: 'OK', messages: [message({ type: 'adball', language: 'es-MX', title: 'Oferta' })], plugin }));
    const gd = tracker(api);
    await gd.inApp();
    const ball = shadow()?.querySelector('[data-type="adball"]');
    const open = ball?.querySelector('button.open');
    expect(open?.tagName).toBe('BUTTON');
    expect(open?.getAttribute('aria-label')).toBe('Oferta');
    (open as HTMLButtonElement).click();
    const card = shadow()?.querySelector('[role="dialog"]');
    const heading = card?.querySelector('h2');
    expect(heading?.id).toBeTruthy();
    expect(card?.getAttribute('aria-labelledby')).toBe(heading?.id);
    expect(card?.querySelector('button.x')?.getAttribute('aria-label')).toBe('Cerrar');

    const tabApi = fakeApi(() => ({ status: 'OK', messages: [message({ messageId: 'm-2', type: 'dynamictab', language: 'fr' })], plugin }));
    document.body.innerHTML = '';
    const other = tracker(tabApi);
    await other.inApp();
    const tab = [...document.querySelectorAll('#growthdeck-in-app')].at(-1)?.shadowRoot?.querySelector('[data-type="dynamictab"]');
    expect(tab?.querySelector('button.open')?.textContent).toBe('Half price');
  });

  it('shows nothing for an answer without messages, without throwing', async () => {
    const api = fakeApi(() => ({ status: 'OK' }));
    const gd = tracker(api);
    await expect(gd.inApp()).resolves.toEqual([]);
    const odd = tracker(fakeApi(() => ({ status: 'OK', messages: {}, plugin })));
    await expect(odd.inApp()).resolves.toEqual([]);
    expect(document.getElementById('growthdeck-in-app')).toBeNull();
  });

  it('removes what it shows on shutdown, and shows nothing after', async () => {
    const api = fakeApi(() => ({ status: 'OK', messages: [message({ type: 'default' })], plugin }));
    const gd = tracker(api);
    await gd.inApp();
    expect(shadow()?.querySelector('[data-type="default"]')).not.toBeNull();
    await gd.shutdown();
    expect(document.getElementById('growthdeck-in-app')).toBeNull();
    await gd.inApp();
    expect(document.getElementById('growthdeck-in-app')).toBeNull();
  });
});

describe('native ads', () => {
  const ad = (clickUrl: string): NativeAd => ({ messageId: 'n-1', campaignId: 'c-1', variantId: 'a', test: false, templateId: 't', templateName: 'card', fields: {}, clickUrl });

  it('reports one impression per ad view and answers only safe click URLs', async () => {
    const api = fakeApi(() => ({ status: 'OK', ads: [ad('https://shop.example.com/x'), ad('javascript:alert(1)'), ad('myapp://promo/1')] }));
    const gd = tracker(api);
    const [safe, unsafe, app] = await gd.nativeAds('card');
    safe?.impression();
    safe?.impression();
    expect(safe?.click()).toBe('https://shop.example.com/x');
    expect(unsafe?.click()).toBeNull();
    expect(unsafe?.clickUrl).toBe('');
    expect(app?.click()).toBe('myapp://promo/1');
    await gd.flush();
    expect(api.interactions().filter((i) => i.kind === 'impression')).toHaveLength(1);
  });

  it('answers no ads for an answer of another shape', async () => {
    const gd = tracker(fakeApi(() => ({ status: 'OK', ads: { oops: true } })));
    await expect(gd.nativeAds('card')).resolves.toEqual([]);
  });
});
