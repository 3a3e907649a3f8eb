import { describe, expect, it } from 'vitest';
import { createMessageDraft, variantContent } from '@gd/shared/message/draft';
import { whatIfKey, whatIfRequest } from './whatIfRequest.ts';

describe('whatIfRequest', () => {
  it('asks nothing without a target', () => {
    expect(whatIfRequest(createMessageDraft('push'))).toBeNull();
    expect(whatIfRequest({ ...createMessageDraft('push'), target: { kind: 'audience', id: '' } })).toBeNull();
  });

  it('asks with the target, type and schedule only: text edits ask nothing new', () => {
    const draft = { ...createMessageDraft('email'), target: { kind: 'segment', id: 's-1' } as const };
    const request = whatIfRequest(draft)!;
    expect(request).toEqual({ target: { kind: 'segment', id: 's-1' }, type: 'email', schedule: { kind: 'now' } });
    expect(whatIfKey(whatIfRequest({ ...draft, name: 'Renamed' })!)).toBe(whatIfKey(request));
    expect(whatIfKey(whatIfRequest({ ...draft, schedule: { kind: 'at', at: '2026-12-01T09:00', basis: 'deviceLocal' } })!)).not.toBe(whatIfKey(request));
  });

  it('names an A/B test\'s variant types', () => {
    const draft = createMessageDraft('test_ab');
    const variants = [draft.variants[0]!, { ...draft.variants[1]!, content: variantContent('email', draft.languages) }];
    expect(whatIfRequest({ ...draft, variants, target: { kind: 'testDevices' } })).toMatchObject({ type: 'test_ab', variantTypes: ['push', 'email'] });
  });
});
