import { describe, expect, it } from 'vitest';
import { createStep, type JourneyStep } from '@gd/shared/journey/model';
import { fullJourney } from '@gd/shared/journey/testing';
import { validateJourney } from '@gd/shared/journey/validate';
import type { CampaignSummary } from '@gd/shared/schemas/messages';
import { campaignsForChannel, channelOfType, heldMessageProblem, journeyMessageKey, journeyMessageKeys, messageContext, messagesForChannel, newJourneyMessageHref, notApprovedYet } from './messages.ts';

const C1 = '11111111-1111-4111-8111-111111111111';
const C2 = '22222222-2222-4222-8222-222222222222';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const campaigns: CampaignSummary[] = [
  {
    id: C1,
    name: 'Spring',
    messages: [
      { id: id(1), name: 'Push approved', type: 'push', origin: 'automaticJourney', status: 'Approved' },
      { id: id(2), name: 'Mail draft', type: 'email', origin: 'automaticJourney', status: 'Draft' },
      { id: id(3), name: 'Banner', type: 'banner', origin: 'automaticJourney', status: 'To validate' },
      { id: id(4), name: 'Native', type: 'native_ad', origin: 'automaticJourney', status: 'Active' },
      { id: id(5), name: 'Gone', type: 'push', origin: 'automaticJourney', status: 'Deleted' },
      { id: id(6), name: 'Push by hand', type: 'push', origin: 'classic', status: 'Active' },
      { id: id(7), name: 'Rule push', type: 'push', origin: 'automaticRule', status: 'Active' },
    ],
  },
  { id: C2, name: 'Empty', messages: [] },
];

describe('journey message matching (as launch checks)', () => {
  it('maps each type to the channel of the step that sends it', () => {
    expect(channelOfType('push')).toBe('push');
    expect(channelOfType('email')).toBe('email');
    for (const t of ['adball', 'banner', 'coupon', 'default', 'dynamictab', 'startview', 'strip', 'blank'] as const) expect(channelOfType(t)).toBe('inApp');
    expect(channelOfType('native_ad')).toBeNull();
    expect(channelOfType('test_ab')).toBeNull();
  });

  it('keys every live journey message of a journey channel, by campaign, message and channel (not those sent by hand or by rules)', () => {
    expect([...journeyMessageKeys(campaigns)].sort()).toEqual(
      [journeyMessageKey(C1, id(1), 'push'), journeyMessageKey(C1, id(2), 'email'), journeyMessageKey(C1, id(3), 'inApp')].sort(),
    );
    expect(journeyMessageKey(C1, id(1), 'push')).toBe(`${C1}/${id(1)}/push`);
  });

  it('offers a step only its campaign\'s messages of its channel', () => {
    expect(messagesForChannel(campaigns[0], 'push').map((m) => m.name)).toEqual(['Push approved']);
    expect(messagesForChannel(campaigns[0], 'inApp').map((m) => m.name)).toEqual(['Banner']);
    expect(messagesForChannel(campaigns[1], 'email')).toEqual([]);
    expect(messagesForChannel(undefined, 'push')).toEqual([]);
    expect(campaignsForChannel(campaigns, 'email').map((c) => [c.campaign.name, c.count])).toEqual([['Spring', 1], ['Empty', 0]]);
    // Campaigns with something to pick come first.
    expect(campaignsForChannel([campaigns[1]!, campaigns[0]!], 'push').map((c) => [c.campaign.name, c.count])).toEqual([['Spring', 1], ['Empty', 0]]);
  });

  it('says why a held message may not be named: another channel, or not one journeys send', () => {
    const [push, mail, , , , byHand, rule] = campaigns[0]!.messages;
    expect(heldMessageProblem(push!, 'push')).toBeNull();
    expect(heldMessageProblem(mail!, 'push')).toBe('wrongChannel');
    expect(heldMessageProblem(byHand!, 'push')).toBe('notJourney');
    expect(heldMessageProblem(rule!, 'push')).toBe('notJourney');
    expect(newJourneyMessageHref('email')).toBe('/communication/messaging?new=email&origin=automaticJourney');
    expect(newJourneyMessageHref('inApp')).toBe('/communication/messaging?new=banner&origin=automaticJourney');
  });

  it('flags drafts and messages waiting for review as not approved yet', () => {
    expect(notApprovedYet('Draft')).toBe(true);
    expect(notApprovedYet('To validate')).toBe(true);
    expect(notApprovedYet('Approved')).toBe(false);
    expect(notApprovedYet('Active')).toBe(false);
  });
});

describe('the editor\'s rule "the message must still exist"', () => {
  const withPush = (campaignId: string | null, messageId: string | null) => {
    const journey = fullJourney();
    return { ...journey, steps: journey.steps.map((s): JourneyStep => (s.type === 'actionMessagePush' ? { ...s, campaignId, messageId } : s)) };
  };
  const notFound = (keys: ReadonlySet<string> | null, campaignId: string | null, messageId: string | null) =>
    validateJourney(withPush(campaignId, messageId), messageContext(keys)).filter((v) => v.code === 'message_not_found' && v.stepId === 'push').map((v) => v.path);
  const keys = journeyMessageKeys(campaigns);

  it('accepts a live message of the step\'s channel', () => {
    expect(notFound(keys, C1, id(1))).toEqual([]);
  });

  it('reports a missing, deleted, other-campaign or other-channel message on the step\'s message field', () => {
    expect(notFound(keys, C1, id(99))).toEqual([['messageId']]);
    expect(notFound(keys, C1, id(5))).toEqual([['messageId']]);
    expect(notFound(keys, C2, id(1))).toEqual([['messageId']]);
    expect(notFound(keys, C1, id(2))).toEqual([['messageId']]);
    expect(notFound(keys, C1, id(4))).toEqual([['messageId']]);
    // A push sent by hand or by a rule is not one a journey sends.
    expect(notFound(keys, C1, id(6))).toEqual([['messageId']]);
    expect(notFound(keys, C1, id(7))).toEqual([['messageId']]);
  });

  it('checks nothing while the app\'s messages are not known (launch checks them)', () => {
    expect(notFound(null, C1, id(99))).toEqual([]);
  });

  it('leaves an unset message to the missing-field problems', () => {
    expect(notFound(keys, null, null)).toEqual([]);
    expect(validateJourney({ entryId: null, steps: [createStep('actionMessageInApp', 'm')] }, messageContext(keys)).map((v) => v.code)).toEqual(
      expect.arrayContaining(['message_campaign_missing', 'message_id_missing']),
    );
  });
});
