import { describe, expect, it } from 'vitest';
import { JourneySimulationRequest } from '@gd/shared/schemas/journeySimulation';
import type { Journey } from '@gd/shared/journey/model';
import { emptyForm, fromRequest, messageSteps, personIdValid, splitPaths, toRequest, type SimForm } from './simulationForm.ts';

describe('simulation form', () => {
  const form: SimForm = {
    source: 'launched',
    personId: ' 42 ',
    events: [
      { key: 'a', eventId: 'purchase', atSeconds: 7_200.4 },
      { key: 'b', eventId: null, atSeconds: 60 },
    ],
    interactions: [{ key: 'c', kind: 'open', afterSeconds: 600, stepId: null }, { key: 'd', kind: 'click', afterSeconds: 60, stepId: 'push' }],
    segments: { 'split:p1': true, 'split:p2': false },
  };

  it('makes a request the endpoint accepts, leaving out unnamed events and false memberships', () => {
    const request = toRequest(form);
    expect(request).toEqual({
      source: 'launched',
      personId: '42',
      behaviour: {
        events: [{ eventId: 'purchase', atSeconds: 7_200 }],
        interactions: [{ kind: 'open', afterSeconds: 600 }, { kind: 'click', afterSeconds: 60, stepId: 'push' }],
        segments: { 'split:p1': true },
      },
    });
    expect(JourneySimulationRequest.safeParse(request).success).toBe(true);
    expect(JourneySimulationRequest.safeParse(toRequest(emptyForm())).success).toBe(true);
  });

  it('fills the form again from a stored request', () => {
    const again = fromRequest(toRequest(form));
    expect(toRequest(again)).toEqual(toRequest(form));
    expect(again.personId).toBe('42');
  });

  it('accepts an empty person id or a positive whole number only', () => {
    expect(personIdValid('')).toBe(true);
    expect(personIdValid(' 17 ')).toBe(true);
    expect(personIdValid('0')).toBe(false);
    expect(personIdValid('abc')).toBe(false);
  });

  it('offers every split path but the last, and the message steps', () => {
    const journey = {
      entryId: 's',
      steps: [
        { id: 's', type: 'sourceEvents', eventIds: ['x'], next: 'split' },
        { id: 'split', type: 'flowSplit', paths: [{ id: 'p1', name: '', next: null }, { id: 'p2', name: '', next: null }, { id: 'p3', name: '', next: 'push' }] },
        { id: 'push', type: 'actionMessagePush', campaignId: null, messageId: null, next: null },
      ],
    } as unknown as Journey;
    expect(splitPaths(journey)).toEqual([
      { stepId: 'split', pathId: 'p1', index: 0 },
      { stepId: 'split', pathId: 'p2', index: 1 },
    ]);
    expect(messageSteps(journey).map((s) => s.id)).toEqual(['push']);
  });
});
