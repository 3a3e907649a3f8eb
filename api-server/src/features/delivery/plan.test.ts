import { describe, expect, it } from 'vitest';
import { createMessageDraft, type MessageDraft } from '@gd/shared';
import { bucketOf, channelOfVariant, idempotencyKey, languageFor, variantFor } from './plan.ts';
import { fillPlaceholders, renderEmail, textOf, trackLinks } from './email.ts';
import { linkSignature, linkSignedBy, rowOfToken, trackingToken } from './tracking.ts';
import { recipientTexts } from './recipientTexts.ts';

const abTest = (): MessageDraft => {
  const d = createMessageDraft('test_ab');
  return { ...d, variants: [{ ...d.variants[0]!, id: 'a', share: 30 }, { ...d.variants[0]!, id: 'b', share: 70 }] };
};

describe('who gets what', () => {
  it('draws a variant per run and person, stable, in proportion to the shares', () => {
    expect(bucketOf('run-1', '42')).toBe(bucketOf('run-1', '42'));
    const d = abTest();
    const counts = { a: 0, b: 0 } as Record<string, number>;
    for (let i = 0; i < 10_000; i++) counts[variantFor(d.variants, bucketOf('run-1', String(i))).id]! += 1;
    expect(counts.a! / 10_000).toBeGreaterThan(0.27);
    expect(counts.a! / 10_000).toBeLessThan(0.33);
    expect(variantFor(d.variants, 29).id).toBe('a');
    expect(variantFor(d.variants, 30).id).toBe('b');
  });

  it('writes every channel to the outbox: e-mail and push to send, in-app types and native ads for the SDK to fetch', () => {
    const email = createMessageDraft('email');
    expect(channelOfVariant(email, email.variants[0]!)).toBe('email');
    const push = createMessageDraft('push');
    expect(channelOfVariant(push, push.variants[0]!)).toBe('push');
    const banner = createMessageDraft('banner');
    expect(channelOfVariant(banner, banner.variants[0]!)).toBe('inApp');
    const ad = createMessageDraft('native_ad');
    expect(channelOfVariant(ad, ad.variants[0]!)).toBe('inApp');
  });

  it('picks the person\'s language when the message has it, its base language, else the default', () => {
    const d = { ...createMessageDraft('push'), languages: ['en', 'es', 'pt-BR'], defaultLanguage: 'en' };
    expect(languageFor(d, 'es')).toBe('es');
    expect(languageFor(d, 'es-MX')).toBe('es');
    expect(languageFor(d, 'pt-BR')).toBe('pt-BR');
    expect(languageFor(d, 'fr')).toBe('en');
    expect(languageFor(d, null)).toBe('en');
  });

  it('keys a row by run, person, channel and address', () => {
    expect(idempotencyKey('r', '1', 'email', 'a@x.com')).toBe(idempotencyKey('r', '1', 'email', 'a@x.com'));
    expect(idempotencyKey('r', '1', 'push', 'token-a')).not.toBe(idempotencyKey('r', '1', 'push', 'token-b'));
  });
});

describe('the e-mail', () => {
  it('fills placeholders, tracks http links only, and keeps a readable text alternative', () => {
    expect(fillPlaceholders('Hi {{customer_id}}, {{ email }}{{unknown}}', { customer_id: 'c1', email: 'a@x.com' })).toBe('Hi c1, a@x.com');
    expect(trackLinks('<a href="https://a.com/x?y=1&amp;z=2">A</a><a href="mailto:b@x.com">B</a>', (u) => `T(${u})`))
      .toBe('<a href="T(https://a.com/x?y=1&amp;z=2)">A</a><a href="mailto:b@x.com">B</a>');
    expect(textOf('<style>p{}</style><p>Hello &amp; <b>welcome</b></p><p><a href="https://a.com">Shop</a></p>')).toBe('Hello & welcome\nShop (https://a.com)');
  });

  it('renders the variant in the row\'s language, with the unsubscribe headers and a Message-ID from the idempotency key', () => {
    const d = createMessageDraft('email');
    const content = (lang: string) => ({ ...d.variants[0]!.content[lang]!, subject: `S-${lang} {{customer_id}}`, html_body: '<p>Hi</p>', sender_email: 'news@x.com', sender_name: '' });
    const draft = { ...d, variants: [{ ...d.variants[0]!, content: { en: content('en'), es: content('es') } }] };
    const row = { id: '77', idempotency_key: 'run:1:email:abc', address: 'p@x.com', variant_id: d.variants[0]!.id, language: 'es' };
    const mail = renderEmail({ definition: draft, row, person: { customer_id: 'c9', email: 'p@x.com' }, provider: { name: 'Team', address: 'team@x.com' }, baseUrl: 'https://gd.example.com/', secret: 's'.repeat(32) });
    expect(mail.subject).toBe('S-es c9');
    expect(mail.from).toEqual({ name: 'Team', address: 'news@x.com' });
    expect(mail.headers['List-Unsubscribe']).toBe(`<https://gd.example.com/api/email/unsubscribe/${trackingToken('s'.repeat(32), '77')}>`);
    expect(mail.messageId).toBe(renderEmail({ definition: draft, row, person: { customer_id: 'c9', email: null }, provider: { name: 'T', address: 't@x.com' }, baseUrl: 'https://gd.example.com', secret: 's'.repeat(32) }).messageId);
    expect(mail.html).toContain('/api/email/open/');
    // What the author did not write is in the row's language too.
    expect(mail.html).toContain('>Darse de baja</a>');
    expect(mail.text).toMatch(/\n\nDarse de baja: https:\/\/gd\.example\.com\/api\/email\/unsubscribe\//);
    const english = renderEmail({ definition: draft, row: { ...row, language: 'en' }, person: { customer_id: 'c9', email: null }, provider: { name: 'T', address: 't@x.com' }, baseUrl: 'https://gd.example.com', secret: 's'.repeat(32) });
    expect(english.html).toContain('>Unsubscribe</a>');
    // A language the product has no texts for (the interface's `to`, or a content language such as fr) reads English.
    expect(renderEmail({ definition: draft, row: { ...row, language: 'to' }, person: { customer_id: 'c9', email: null }, provider: { name: 'T', address: 't@x.com' }, baseUrl: 'https://gd.example.com', secret: 's'.repeat(32) }).html).toContain('>Unsubscribe</a>');
    // Regional and related tags map as the interface maps a browser's (languageFromBrowser).
    expect(recipientTexts('es-MX').lang).toBe('es');
    expect(recipientTexts('ca').lang).toBe('es');
    expect(recipientTexts('pt-BR').lang).toBe('en');
    expect(recipientTexts(null).lang).toBe('en');
  });

  it('accepts only tokens and link signatures this server made', () => {
    const secret = 'k'.repeat(32);
    const token = trackingToken(secret, '123');
    expect(rowOfToken(secret, token)).toBe('123');
    expect(rowOfToken('x'.repeat(32), token)).toBeNull();
    expect(rowOfToken(secret, token.replace('123', '124'))).toBeNull();
    expect(rowOfToken(secret, 'nonsense')).toBeNull();
    expect(linkSignedBy(secret, '123', 'https://a.com', linkSignature(secret, '123', 'https://a.com'))).toBe(true);
    expect(linkSignedBy(secret, '123', 'https://b.com', linkSignature(secret, '123', 'https://a.com'))).toBe(false);
  });
});
