/**
 * The web push service worker (sw.ts) with a fake worker scope: a notification's url is opened
 * only when the in-app link rule allows it (http(s) or an app scheme).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';

type Handler = (event: unknown) => void;
const handlers = new Map<string, Handler>();
const openWindow = vi.fn((_url: string) => Promise.resolve());
const focus = vi.fn(() => Promise.resolve());

beforeAll(async () => {
  vi.stubGlobal('self', {
    location: { origin: 'https://shop.example.com' },
    registration: { showNotification: () => Promise.resolve() },
    clients: { openWindow, matchAll: () => Promise.resolve([{ focus }]) },
    addEventListener: (type: string, fn: Handler) => void handlers.set(type, fn),
  });
  vi.stubGlobal('caches', { open: () => Promise.resolve({ match: () => Promise.resolve(undefined) }) });
  await import('./sw.ts');
});

async function click(data: Record<string, unknown>) {
  const waits: Promise<unknown>[] = [];
  handlers.get('notificationclick')?.({ notification: { data, close: () => undefined }, waitUntil: (p: Promise<unknown>) => void waits.push(p) });
  await Promise.all(waits);
}

describe('notificationclick', () => {
  it('opens http(s) and app links, and focuses the page instead of any other', async () => {
    await click({ url: 'https://shop.example.com/sale', messageId: 'm-1' });
    await click({ url: 'myapp://promo/1' });
    expect(openWindow.mock.calls.map(([url]) => url)).toEqual(['https://shop.example.com/sale', 'myapp://promo/1']);
    openWindow.mockClear();
    for (const url of ['javascript:alert(1)', 'data:text/html,<script>1</script>', ' java\tscript:alert(1)', '/relative']) await click({ url });
    expect(openWindow).not.toHaveBeenCalled();
    expect(focus).toHaveBeenCalledTimes(4);
  });
});
