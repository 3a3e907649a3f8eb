/** The attribution rules with known answers (attribution.ts). */
import { describe, expect, it } from 'vitest';
import { DAY_MS, ORGANIC, attribute, referrerClickId, type PendingTouch, type RefClick, type RefSource } from './attribution.ts';

const APP = 'app-1';
const T = new Date('2026-11-20T12:00:00.000Z');
const at = (msBefore: number) => new Date(T.getTime() - msBefore);
const H = 3_600_000;

const src = (id: string, over: Partial<RefSource> = {}): RefSource => ({ id, type: 'adnetwork', attribution: 'last_click', lookbackDays: 7, reattributionDays: 90, fingerprint: true, ...over });
let n = 0;
const click = (over: Partial<RefClick>): RefClick => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, appId: APP, campaignId: 'camp-a', sourceId: 's1', clickedAt: at(H),
  ip: '203.0.113.7', userAgent: 'UA', bot: false, ...over,
});
const touch = (over: Partial<PendingTouch> = {}): PendingTouch => ({ appId: APP, kind: 'install', eventTime: T, device: { idfa: 'IDFA-1' }, ip: '203.0.113.7', userAgent: 'UA', referrerClickId: null, ...over });
const sources = (...list: RefSource[]) => new Map(list.map((s) => [s.id, s]));

describe('attribute', () => {
  it('prefers a device id match over a newer fingerprint match', () => {
    const byId = click({ campaignId: 'camp-a', clickedAt: at(5 * H), idfa: 'IDFA-1', ip: '198.51.100.1' });
    const byPrint = click({ campaignId: 'camp-b', clickedAt: at(H) });
    const a = attribute(touch(), [byId, byPrint], sources(src('s1')));
    expect(a).toMatchObject({ campaignId: 'camp-a', clickId: byId.id, match: 'device_id', assisted: [byPrint.id] });
  });

  it('last click credits the newest click; unique click ignores repeats of a campaign already clicked', () => {
    const a1 = click({ campaignId: 'camp-a', clickedAt: at(30 * H), idfa: 'IDFA-1' });
    const b = click({ campaignId: 'camp-b', clickedAt: at(20 * H), idfa: 'IDFA-1' });
    const a2 = click({ campaignId: 'camp-a', clickedAt: at(10 * H), idfa: 'IDFA-1' });
    expect(attribute(touch(), [a1, b, a2], sources(src('s1')))).toMatchObject({ clickId: a2.id, mode: 'last_click', assisted: [b.id] });
    expect(attribute(touch(), [a1, b, a2], sources(src('s1', { attribution: 'unique_click' })))).toMatchObject({ clickId: b.id, campaignId: 'camp-b', mode: 'unique_click', assisted: [a1.id, a2.id] });
  });

  it('counts a click exactly at the lookback edge and not one a second older', () => {
    const edge = click({ clickedAt: at(7 * DAY_MS), idfa: 'IDFA-1' });
    const older = click({ clickedAt: at(7 * DAY_MS + 1000), idfa: 'IDFA-1', campaignId: 'camp-b' });
    expect(attribute(touch(), [edge], sources(src('s1')))).toMatchObject({ clickId: edge.id });
    expect(attribute(touch(), [older], sources(src('s1')))).toEqual(ORGANIC);
    const later = click({ clickedAt: new Date(T.getTime() + 1000), idfa: 'IDFA-1' });
    expect(attribute(touch(), [later], sources(src('s1')))).toEqual(ORGANIC);
  });

  it('is Organic without a match; bots and other apps never match', () => {
    expect(attribute(touch(), [], sources(src('s1')))).toEqual(ORGANIC);
    const bot = click({ idfa: 'IDFA-1', bot: true });
    const other = click({ idfa: 'IDFA-1', appId: 'app-2' });
    expect(attribute(touch(), [bot, other], sources(src('s1')))).toEqual(ORGANIC);
  });

  it('matches the referrer click id before the fingerprint, and fingerprints only within 24 h on sources that allow it', () => {
    const ref = click({ clickedAt: at(30 * H), ip: '198.51.100.9', campaignId: 'camp-r' });
    const print = click({ clickedAt: at(H), campaignId: 'camp-f' });
    expect(attribute(touch({ device: {}, referrerClickId: ref.id }), [ref, print], sources(src('s1')))).toMatchObject({ clickId: ref.id, match: 'referrer' });
    expect(attribute(touch({ device: {} }), [print], sources(src('s1')))).toMatchObject({ clickId: print.id, match: 'fingerprint' });
    const stale = click({ clickedAt: at(24 * H + 1000) });
    expect(attribute(touch({ device: {} }), [stale], sources(src('s1')))).toEqual(ORGANIC);
    expect(attribute(touch({ device: {} }), [print], sources(src('s1', { fingerprint: false })))).toEqual(ORGANIC);
  });

  it('credits retargeting sources only with retargeting opens', () => {
    const rt = click({ sourceId: 'rt', idfa: 'IDFA-1', campaignId: 'camp-rt' });
    const ua = click({ sourceId: 's1', idfa: 'IDFA-1', clickedAt: at(2 * H) });
    const all = sources(src('s1'), src('rt', { type: 'retargeting' }));
    expect(attribute(touch({ kind: 'retargeting_open' }), [rt, ua], all)).toMatchObject({ campaignId: 'camp-rt', match: 'device_id' });
    expect(attribute(touch({ kind: 'retargeting_open' }), [ua], all)).toEqual(ORGANIC);
    expect(attribute(touch(), [rt, ua], all)).toMatchObject({ clickId: ua.id });
  });

  it('keeps the original attribution of a reinstall inside the window, not outside; a newer click re-attributes', () => {
    const first = click({ clickedAt: at(40 * DAY_MS + H), idfa: 'IDFA-1' });
    const all = sources(src('s1', { reattributionDays: 30 }));
    const install = { eventTime: at(40 * DAY_MS), attribution: attribute(touch({ eventTime: at(40 * DAY_MS) }), [first], all) };
    expect(install.attribution.clickId).toBe(first.id);
    expect(attribute(touch({ kind: 'reinstall' }), [first], all, { previousInstall: install })).toEqual(ORGANIC);
    const inside = { eventTime: at(20 * DAY_MS), attribution: install.attribution };
    expect(attribute(touch({ kind: 'reinstall' }), [first], all, { previousInstall: inside })).toMatchObject({ clickId: first.id, match: 'device_id' });
    const fresh = click({ clickedAt: at(H), idfa: 'IDFA-1', campaignId: 'camp-new' });
    expect(attribute(touch({ kind: 'reinstall' }), [first, fresh], all, { previousInstall: inside })).toMatchObject({ clickId: fresh.id, campaignId: 'camp-new' });
  });
});

describe('referrerClickId', () => {
  const id = '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
  it('reads gd_click, the Play install referrer and a bare id', () => {
    expect(referrerClickId({ gd_click: id.toUpperCase() })).toBe(id);
    expect(referrerClickId({ referrer: `utm_source=x&gd_click=${id}` })).toBe(id);
    expect(referrerClickId({ referrer: encodeURIComponent(`gd_click=${id}&utm_medium=cpc`) })).toBe(id);
    expect(referrerClickId({ referrer: id })).toBe(id);
    expect(referrerClickId({ referrer: 'gd_click=nope' })).toBeNull();
    expect(referrerClickId({})).toBeNull();
    expect(referrerClickId(null)).toBeNull();
  });
});
