import { describe, expect, it } from 'vitest';
import { createMessageDraft, type MessageDraft } from '@gd/shared';
import { fillNativeAd } from '@gd/shared/message/nativeAd';
import { decideOffers, redeemsLeft, refusal, type Candidate } from './eligibility.ts';

const now = new Date('2026-03-01T12:00:00Z');
const banner = (change: (d: MessageDraft) => MessageDraft = (d) => d): MessageDraft => {
  const d = createMessageDraft('banner');
  return change({ ...d, variants: d.variants.map((v) => ({ ...v, content: { en: { ...v.content.en!, title: 'Hi {{customer_id}}' }, es: { ...v.content.es!, title: 'Hola' } } })) });
};
const candidate = (over: Partial<Candidate> = {}): Candidate => ({
  rowId: '1', messageId: 'm', campaignId: 'c', variantId: 'main', language: 'en', status: 'queued', test: false, runAt: new Date(now.getTime() - 1000),
  expiresAt: null, messageStatus: 'Sending', definition: banner(), redeems: 0, clicked: false, dismissed: false, ...over,
});
const content = (c: Candidate) => c.definition.variants[0]!.content.en!;

describe('in-app eligibility', () => {
  it('offers a running, started, unexpired, unclosed message of the kind asked', () => {
    const c = candidate();
    expect(refusal(c, content(c), { kind: 'inApp' }, now)).toBeNull();
    expect(refusal(candidate({ messageStatus: 'Paused' }), content(c), { kind: 'inApp' }, now)).toBe('not_running');
    expect(refusal(candidate({ messageStatus: 'Paused', test: true }), content(c), { kind: 'inApp' }, now)).toBeNull();
    expect(refusal(candidate({ runAt: new Date(now.getTime() + 1000) }), content(c), { kind: 'inApp' }, now)).toBe('not_yet');
    expect(refusal(candidate({ expiresAt: now }), content(c), { kind: 'inApp' }, now)).toBe('expired');
    expect(refusal(c, content(c), { kind: 'nativeAd', templateId: 't', templateOf: () => 't' }, now)).toBe('other_kind');
    expect(refusal(candidate({ clicked: true }), content(c), { kind: 'inApp' }, now)).toBe('clicked');
    expect(refusal(candidate({ dismissed: true }), content(c), { kind: 'inApp' }, now)).toBe('dismissed');
  });

  it('keeps a clicked coupon until its redemptions run out', () => {
    const coupon = { ...content(candidate()), type: 'coupon' as const, promo_code: 'X', max_redeems: 2 };
    expect(refusal(candidate({ clicked: true, redeems: 1 }), coupon, { kind: 'inApp' }, now)).toBeNull();
    expect(refusal(candidate({ redeems: 2 }), coupon, { kind: 'inApp' }, now)).toBe('redeemed');
    expect(redeemsLeft({ max_redeems: null }, 5)).toBeNull();
    expect(redeemsLeft({ max_redeems: 0 }, 5)).toBeNull();
    expect(redeemsLeft({ max_redeems: 3 }, 1)).toBe(2);
  });

  it('delivers first offers within the frequency cap, re-offers delivered ones without counting, and fills placeholders', () => {
    const capped = banner((d) => ({ ...d, delivery: { ...d.delivery, frequencyCap: 1 } }));
    const rows = [candidate({ rowId: 'a', status: 'sent', definition: capped }), candidate({ rowId: 'b', definition: capped }), candidate({ rowId: 'c', definition: capped, test: true })];
    const { offers, deliver } = decideOffers(rows, { want: { kind: 'inApp' }, now, lang: null, sentToday: 1, person: { customer_id: 'ana' } });
    expect(offers.map((o) => o.candidate.rowId)).toEqual(['a', 'c']);
    expect(deliver).toEqual(['c']);
    expect(offers[0]!.content.title).toBe('Hi ana');
    expect(decideOffers([candidate()], { want: { kind: 'inApp' }, now, lang: 'es-MX', sentToday: 0 }).offers[0]).toMatchObject({ language: 'es', content: { title: 'Hola' } });
  });

  it('offers and delivers only the native ads of the placement asked, up to the limit', () => {
    const ad = (template: string) => {
      const d = createMessageDraft('native_ad');
      return { ...d, variants: d.variants.map((v) => ({ ...v, content: { en: { ...v.content.en!, type: 'native_ad' as const, template_id: template } } })) };
    };
    const rows = [candidate({ rowId: 'a', definition: ad('t1') }), candidate({ rowId: 'b', definition: ad('t2') }), candidate({ rowId: 'c', definition: ad('t1') }), candidate({ rowId: 'd', definition: ad('t1') })];
    const want = { kind: 'nativeAd' as const, templateId: 't1', templateOf: (c: { template_id: string | null }) => c.template_id ?? undefined };
    expect(refusal(rows[1]!, rows[1]!.definition.variants[0]!.content.en, want, now)).toBe('other_placement');
    const { offers, deliver } = decideOffers(rows, { want, now, lang: null, sentToday: 0, limit: 2 });
    expect(offers.map((o) => o.candidate.rowId)).toEqual(['a', 'c']);
    expect(deliver).toEqual(['a', 'c']);
  });

  it('fills a native ad template by key, then by kind, cutting text to its length', () => {
    const c = { title: 'Fresh coffee today', message: 'Roasted', image_url: 'https://cdn.example.com/a.png', target_url: 'https://shop.example.com/c', buttons: [{ text: 'Buy', action: 'tap' as const, target_url: '', open_in: 'app' as const }] };
    expect(fillNativeAd({ fields: [{ key: 'headline', kind: 'text', maxLength: 5 }, { key: 'cta', kind: 'text' }, { key: 'pic', kind: 'image' }, { key: 'tint', kind: 'color' }, { key: 'extra', kind: 'text' }] }, c))
      .toEqual({ fields: { headline: 'Fresh', cta: 'Buy', pic: 'https://cdn.example.com/a.png', tint: '', extra: 'Roasted' }, clickUrl: 'https://shop.example.com/c' });
  });
});
