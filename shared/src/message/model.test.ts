import { describe, expect, it } from 'vitest';
import { CommunicationType, MessageContent, communicationGroup, createMessageContent, fieldsFor, positionsFor } from './model.ts';
import { CommunicationParameter, MessageDraft, createMessageDraft, evenShares, variantTypes } from './draft.ts';
import { placeholdersIn, validateDraft, validateMessage } from './validate.ts';

const codes = (c: MessageContent) => validateMessage(c).map((v) => `${v.code}:${v.path.join('.')}`);

describe('message content', () => {
  it('creates schema-valid content for every type, with a position when the type has placements', () => {
    for (const type of CommunicationType.options) {
      const c = createMessageContent(type);
      expect(MessageContent.parse(c)).toEqual(c);
      expect(c.position).toBe(positionsFor(type)[0] ?? null);
      expect(fieldsFor(type)[0]).toBe('type');
    }
  });

  it('groups push and email as messages, in-app types together', () => {
    expect(CommunicationType.options.filter((t) => communicationGroup(t) === 'message')).toEqual(['email', 'push']);
    expect(CommunicationType.options.filter((t) => communicationGroup(t) === 'inApp')).toEqual(['adball', 'banner', 'coupon', 'default', 'dynamictab', 'startview', 'strip', 'blank']);
    expect(communicationGroup('native_ad')).toBe('nativeAd');
    expect(communicationGroup('test_ab')).toBe('abTest');
  });

  it('push needs a message; links must be public web addresses or deeplinks', () => {
    const push = createMessageContent('push');
    expect(codes(push)).toEqual(['message_missing:message']);
    expect(codes({ ...push, message: 'Hi', target_url: 'myapp://offer/1', image_url: 'https://cdn.example.com/a.png' })).toEqual([]);
    expect(codes({ ...push, message: 'Hi', target_url: 'http://192.168.1.1/x' })).toEqual(['url_invalid:target_url']);
    expect(codes({ ...push, message: 'Hi', buttons: [{ text: '', action: 'deeplink', target_url: 'nope', open_in: 'app' }] })).toEqual([
      'button_text_missing:buttons.0.text',
      'button_url_invalid:buttons.0.target_url',
    ]);
    expect(codes({ ...push, message: 'Hi', buttons: [{ text: 'OK', action: 'tap', target_url: '', open_in: 'app' }] })).toEqual([]);
  });

  it('email needs subject, body (or template) and a sender; bcc must be addresses', () => {
    const email = createMessageContent('email');
    expect(codes(email)).toEqual(['subject_missing:subject', 'body_missing:html_body', 'sender_email_invalid:sender_email']);
    const filled = { ...email, subject: 'S', html_body: '<p>x</p>', sender_email: 'news@example.com' };
    expect(codes(filled)).toEqual([]);
    expect(codes({ ...filled, html_body: '', template_id: 't1' })).toEqual([]);
    expect(codes({ ...filled, bcc: 'a@example.com, nope' })).toEqual(['bcc_invalid:bcc']);
  });

  it('in-app types need some content, a placement of their set, and coupons a code', () => {
    const banner = createMessageContent('banner');
    expect(codes(banner)).toEqual(['content_missing:message']);
    expect(codes({ ...banner, title: 'T', position: 'left' })).toEqual(['position_invalid:position']);
    expect(codes({ ...createMessageContent('coupon'), title: 'T' })).toEqual(['promo_code_missing:promo_code']);
    expect(codes(createMessageContent('blank'))).toEqual([]);
  });
});

describe('message drafts', () => {
  const known = {
    tags: ['points'],
    parameters: [
      { name: 'communicationParameter__tone', label: 'Tone', type: 'valueSelection' as const, values: ['warm', 'formal'] },
      { name: 'communicationParameter__note', label: 'Note', type: 'openText' as const, values: [] },
    ],
  };
  const draftCodes = (d: MessageDraft) => validateDraft(d, known).map((v) => `${v.code}:${v.path.join('.')}${v.params?.name ? `:${v.params.name}` : ''}`);
  const filledPush = (): MessageDraft => {
    const d = createMessageDraft('push');
    const content = (message: string) => ({ ...createMessageContent('push'), message });
    return { ...d, name: 'Promo', target: { kind: 'segment', id: 's1' }, variants: [{ ...d.variants[0]!, content: { en: content('Hi {{ customer_id }}'), es: content('Hola {{points}}') } }] };
  };

  it('a new draft of every type parses, and an A/B test starts with two even variants', () => {
    for (const type of CommunicationType.options) expect(MessageDraft.parse(createMessageDraft(type))).toEqual(createMessageDraft(type));
    const ab = createMessageDraft('test_ab');
    expect(ab.variants.map((v) => [v.id, v.share, v.content.en!.type])).toEqual([['A', 50, 'push'], ['B', 50, 'push']]);
    expect(evenShares(3)).toEqual([34, 33, 33]);
    expect(variantTypes()).not.toContain('test_ab');
  });

  it('checks every variant in every language, placeholders against known names, parameters, target and schedule', () => {
    expect(draftCodes(filledPush())).toEqual([]);
    expect(draftCodes(createMessageDraft('push'))).toEqual(['name_missing:name', 'target_missing:target', 'message_missing:variants.0.content.en.message', 'message_missing:variants.0.content.es.message']);
    const d = filledPush();
    const en = { ...d.variants[0]!.content.en!, title: '{{nickname}} and {{communicationParameter__tone}}' };
    expect(draftCodes({ ...d, variants: [{ ...d.variants[0]!, content: { ...d.variants[0]!.content, en } }] })).toEqual(['placeholder_unknown:variants.0.content.en.title:nickname']);
    expect(draftCodes({ ...d, languages: ['en', 'es', 'fr'] })).toEqual(['language_missing:variants.0.content.fr']);
    expect(draftCodes({ ...d, defaultLanguage: 'de' })).toEqual(['default_language_invalid:defaultLanguage']);
    expect(draftCodes({ ...d, parameters: { communicationParameter__tone: 'loud', communicationParameter__note: 'anything', communicationParameter__gone: 'x' } }))
      .toEqual(['parameter_value_invalid:parameters.communicationParameter__tone:communicationParameter__tone', 'parameter_unknown:parameters.communicationParameter__gone:communicationParameter__gone']);
    expect(draftCodes({ ...d, schedule: { kind: 'recurring', startsAt: '2026-12-01T09:00', basis: 'deviceLocal', frequency: 'weekly', endsAt: '2026-11-01T09:00' } })).toEqual(['schedule_end_before_start:schedule.endsAt']);
    expect(draftCodes({ ...d, delivery: { frequencyCap: null, quietHours: { from: '22:00', to: '22:00' } } })).toEqual(['quiet_hours_empty:delivery.quietHours']);
  });

  it('asks a message sent by hand for its target, not one a journey or a rule sends', () => {
    const d = { ...filledPush(), target: { kind: 'none' as const } };
    expect(draftCodes(d)).toEqual(['target_missing:target']);
    expect(draftCodes({ ...d, origin: 'automaticJourney' })).toEqual([]);
    expect(draftCodes({ ...d, origin: 'automaticRule' })).toEqual([]);
    // Their delivery rules still hold.
    expect(draftCodes({ ...d, origin: 'automaticJourney', delivery: { frequencyCap: null, quietHours: { from: '22:00', to: '22:00' } } })).toEqual(['quiet_hours_empty:delivery.quietHours']);
  });

  it('an A/B test needs two variants whose shares sum to 100', () => {
    const ab = createMessageDraft('test_ab');
    const filled = { ...ab, name: 'AB', target: { kind: 'testDevices' as const }, variants: ab.variants.map((v) => ({ ...v, content: { en: { ...v.content.en!, message: 'x' }, es: { ...v.content.es!, message: 'y' } } })) };
    expect(draftCodes(filled)).toEqual([]);
    expect(draftCodes({ ...filled, variants: [{ ...filled.variants[0]!, share: 60 }, filled.variants[1]!] })).toEqual(['shares_not_100:variants']);
    expect(draftCodes({ ...filled, variants: [{ ...filled.variants[0]!, share: 100 }] })).toEqual(['variants_too_few:variants']);
    expect(placeholdersIn('{{a}} {{ b }} {c} {{}}')).toEqual(['a', 'b']);
  });

  it('parameter definitions: the reserved prefix, values only for a choice', () => {
    expect(CommunicationParameter.safeParse({ name: 'communicationParameter__tone', label: 'T', type: 'valueSelection', values: ['a'] }).success).toBe(true);
    expect(CommunicationParameter.safeParse({ name: 'tone', label: 'T', type: 'openText', values: [] }).success).toBe(false);
    expect(CommunicationParameter.safeParse({ name: 'communicationParameter__tone', label: 'T', type: 'valueSelection', values: [] }).success).toBe(false);
    expect(CommunicationParameter.safeParse({ name: 'communicationParameter__tone', label: 'T', type: 'openText', values: ['a'] }).success).toBe(false);
  });
});
