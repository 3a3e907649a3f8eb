import { describe, expect, it } from 'vitest';
import { CommunicationType, MessageContent, communicationGroup, createMessageContent, fieldsFor, positionsFor } from './model.ts';
import { validateMessage } from './validate.ts';

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
