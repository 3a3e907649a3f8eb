/** The SDK's deferred deep link call (deferred.ts): asked once per install, the landing address's click and deep link. */
import { afterEach, describe, expect, it } from 'vitest';
import { deferredApi, landingClick } from './deferred.ts';

const CLICK = '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

function setup(answers: (Record<string, unknown> | Error)[], firstRun = true) {
  const store = new Map<string, string>();
  const calls: { url: string; body: unknown; key: string | null }[] = [];
  let flushed = 0;
  const fetcher = ((url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(init.body as string), key: new Headers(init.headers).get('x-app-key') });
    const next = answers.shift();
    if (!next || next instanceof Error) return Promise.reject(next ?? new Error('offline'));
    return Promise.resolve(new Response(JSON.stringify(next)));
  }) as typeof fetch;
  const api = deferredApi({
    base: 'https://api.example.com/api', appKey: 'key-1', fetcher, deviceId: 'device-123', firstRun,
    flush: () => { flushed++; return Promise.resolve(); }, store: { get: (k) => store.get(k) ?? null, set: (k, v) => void store.set(k, v) },
  });
  return { api, calls, store, flushed: () => flushed };
}

afterEach(() => {
  delete (globalThis as { location?: unknown }).location;
});

describe('deferredDeepLink', () => {
  it('flushes, asks the API with the device id, and answers once', async () => {
    const { api, calls, flushed } = setup([{ status: 'OK', deepLink: 'myapp://p/1', params: { p1: 'x' } }]);
    expect(await api.deferredDeepLink()).toEqual({ deepLink: 'myapp://p/1', params: { p1: 'x' } });
    expect(flushed()).toBe(1);
    expect(calls).toEqual([{ url: 'https://api.example.com/api/sdk/v1/deferred-link', body: { device: 'device-123' }, key: 'key-1' }]);
    expect(await api.deferredDeepLink()).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('answers null without a link, and does not ask again', async () => {
    const { api, calls } = setup([{ status: 'OK', deepLink: null, params: null }]);
    expect(await api.deferredDeepLink()).toBeNull();
    expect(await api.deferredDeepLink()).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('falls back to the landing address\'s gd_dl when the API cannot answer, once', async () => {
    (globalThis as { location?: unknown }).location = { search: `?gd_click=${CLICK}&gd_dl=${encodeURIComponent('myapp://sale')}` };
    expect(landingClick()).toEqual({ gd_click: CLICK });
    const { api } = setup([new Error('offline')]);
    expect(await api.deferredDeepLink()).toEqual({ deepLink: 'myapp://sale', params: { gd_click: CLICK } });
    expect(await api.deferredDeepLink()).toBeNull();
  });

  it('asks again later when the API could not answer and there was no gd_dl', async () => {
    const { api, calls } = setup([new Error('offline'), { status: 'OK', deepLink: 'myapp://late', params: {} }]);
    expect(await api.deferredDeepLink()).toBeNull();
    expect(await api.deferredDeepLink()).toEqual({ deepLink: 'myapp://late', params: {} });
    expect(calls).toHaveLength(2);
    expect(landingClick()).toBeUndefined();
  });
});
