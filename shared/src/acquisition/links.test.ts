import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  androidIntent, clickTarget, clickValues, hasDestination, linkUrl, mergeDestinations, playPackage, storeWithClick, webWithClick, withLandingFallback, withQueryParam,
} from './links.ts';
import { TRACKING_LINK_PARAMS } from './model.ts';

const CLICK = '0b4f3c3e-8d4e-4a43-9a4f-0f6c1d0b2a11';
const destinations = {
  ios: { store: 'https://apps.apple.com/app/id123', deepLink: 'shop://product/9' },
  android: { store: 'https://play.google.com/store/apps/details?id=com.example.shop', web: 'https://example.com/m' },
  desktop: { web: 'https://example.com/' },
};

describe('linkUrl', () => {
  it('is the base and the code, with the parameters in SPEC order and empty ones left out', () => {
    expect(linkUrl('https://go.example.com/l/', 'Ab3_x')).toBe('https://go.example.com/l/Ab3_x');
    expect(linkUrl('https://go.example.com/l', 'abc', { sid: 's 1', cid: 'c&1', p1: '', idfa: undefined, extra: 'x' }))
      .toBe('https://go.example.com/l/abc?cid=c%261&sid=s+1&extra=x');
  });

  it('round-trips any parameter values through URLSearchParams', () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom(...TRACKING_LINK_PARAMS), fc.string({ minLength: 1 })), (params) => {
      const url = new URL(linkUrl('https://h.example/l', 'code1', params));
      expect(Object.fromEntries(url.searchParams)).toEqual(params);
      expect(url.pathname).toBe('/l/code1');
    }));
  });
});

describe('clickValues', () => {
  it('keeps the tracking parameters (the click over the link) and the device ids, dropping the rest', () => {
    const query = new URLSearchParams('sid=net&p1=a&idfa=AAAA-1&gaid=&oaid=%7Boaid%7D&foo=bar&p2=' + 'x'.repeat(400));
    const { params, ids } = clickValues(query, { sid: 'fixed', cid: 'camp' });
    expect(params).toEqual({ cid: 'camp', idfa: 'AAAA-1', p1: 'a', p2: 'x'.repeat(256), sid: 'net' });
    expect(ids).toEqual({ idfa: 'AAAA-1' });
  });

  it('takes aaid as the Android advertising id and never a zero id', () => {
    expect(clickValues(new URLSearchParams('aaid=g-1')).ids).toEqual({ gaid: 'g-1' });
    expect(clickValues(new URLSearchParams('idfa=00000000-0000-0000-0000-000000000000')).ids).toEqual({});
  });
});

describe('destinations', () => {
  it('merges the link over the campaign field by field', () => {
    expect(mergeDestinations({ ios: { store: 'https://a.example/x' } }, { ios: { web: 'https://w.example' }, desktop: { web: 'https://d.example' } }))
      .toEqual({ ios: { web: 'https://w.example', store: 'https://a.example/x' }, desktop: { web: 'https://d.example' } });
    expect(hasDestination({ ios: { deepLink: 'app://x' } })).toBe(false);
    expect(hasDestination({ android: { web: 'https://x.example' } })).toBe(true);
  });

  it('adds a query parameter keeping the fragment, on web addresses and app schemes', () => {
    expect(withQueryParam('https://x.example/a#top', 'k', 'v w')).toBe('https://x.example/a?k=v%20w#top');
    expect(withQueryParam('https://x.example/a?b=1', 'k', 'v')).toBe('https://x.example/a?b=1&k=v');
    expect(withQueryParam('myapp://open?', 'k', 'v')).toBe('myapp://open?k=v');
  });

  it('carries the click id: install referrer on Google Play, gd_click and gd_dl on the web', () => {
    expect(storeWithClick(destinations.android.store, CLICK)).toBe(`${destinations.android.store}&referrer=gd_click%3D${CLICK}`);
    expect(storeWithClick(destinations.ios.store, CLICK)).toBe(destinations.ios.store);
    expect(webWithClick('https://example.com/', CLICK, 'shop://p/1')).toBe(`https://example.com/?gd_click=${CLICK}&gd_dl=shop%3A%2F%2Fp%2F1`);
    expect(playPackage(destinations.android.store)).toBe('com.example.shop');
  });
});

describe('clickTarget', () => {
  const base = { destinations, clickId: CLICK, deepLink: 'shop://home' };
  it('sends a tracking link to the store on a phone and to the web on a desktop', () => {
    expect(clickTarget({ ...base, kind: 'tracking', platform: 'ios' })).toEqual({ kind: 'redirect', url: destinations.ios.store });
    expect(clickTarget({ ...base, kind: 'tracking', platform: 'android' })).toEqual({ kind: 'redirect', url: `${destinations.android.store}&referrer=gd_click%3D${CLICK}` });
    expect(clickTarget({ ...base, kind: 'tracking', platform: 'desktop' })).toEqual({ kind: 'redirect', url: `https://example.com/?gd_click=${CLICK}&gd_dl=shop%3A%2F%2Fhome` });
  });

  it('falls back to the web address, and to nothing when there is none', () => {
    expect(clickTarget({ kind: 'tracking', platform: 'ios', destinations: { desktop: { web: 'https://d.example/' } }, clickId: CLICK }))
      .toEqual({ kind: 'redirect', url: `https://d.example/?gd_click=${CLICK}` });
    expect(clickTarget({ kind: 'tracking', platform: 'desktop', destinations: { ios: { store: 'https://apps.apple.com/app/id1' } }, clickId: CLICK })).toEqual({ kind: 'none' });
  });

  it('opens a powlink in the app first: the platform deep link, then the link one; Android through an intent', () => {
    expect(clickTarget({ ...base, kind: 'powlink', platform: 'ios' })).toEqual({ kind: 'open', deepLink: `shop://product/9?gd_click=${CLICK}`, fallback: destinations.ios.store });
    const android = clickTarget({ ...base, kind: 'powlink', platform: 'android' });
    const store = `${destinations.android.store}&referrer=gd_click%3D${CLICK}`;
    expect(android).toEqual({
      kind: 'open', deepLink: `shop://home?gd_click=${CLICK}`, fallback: store,
      intent: `intent://home?gd_click=${CLICK}#Intent;scheme=shop;package=com.example.shop;S.browser_fallback_url=${encodeURIComponent(store)};end`,
    });
    expect(clickTarget({ ...base, kind: 'powlink', platform: 'desktop' }).kind).toBe('redirect');
    expect(clickTarget({ ...base, deepLink: null, kind: 'powlink', platform: 'ios', destinations: { ios: { store: 'https://apps.apple.com/app/id1' } } }))
      .toEqual({ kind: 'redirect', url: 'https://apps.apple.com/app/id1' });
  });

  it('builds no intent for an https deep link', () => {
    expect(androidIntent('https://example.com/p', 'https://f.example')).toBeUndefined();
  });
});

describe('a landing page as the web fallback (issue 17)', () => {
  it('replaces the web addresses of every platform and keeps stores and deep links', () => {
    const destinations = { ios: { store: 'https://apps.apple.com/app/id1', web: 'https://old.example.com' }, android: { deepLink: 'shop://x' }, desktop: { web: 'https://old.example.com' } };
    const page = 'https://go.example.com/p/spring';
    expect(withLandingFallback(destinations, page)).toEqual({
      ios: { store: 'https://apps.apple.com/app/id1', web: page }, android: { deepLink: 'shop://x', web: page }, desktop: { web: page },
    });
    expect(withLandingFallback(destinations, null)).toBe(destinations);
    const target = clickTarget({ kind: 'powlink', platform: 'desktop', destinations: withLandingFallback({}, page), deepLink: 'shop://sale', clickId: 'c1' });
    expect(target).toEqual({ kind: 'redirect', url: `${page}?gd_click=c1&gd_dl=shop%3A%2F%2Fsale` });
  });
});
