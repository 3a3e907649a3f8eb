import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RANDOM_AMOUNT,
  DEFAULT_WAIT_SECONDS,
  Journey,
  JourneyStep,
  STEP_TYPES,
  createStep,
  interactionsAfter,
  messageChannel,
  stepCategory,
  stepShape,
} from './model.ts';

describe('journey model', () => {
  it('createStep gives a schema-valid step of every type, with open ends', () => {
    for (const type of STEP_TYPES) {
      const step = createStep(type, `id-${type}`);
      expect(JourneyStep.parse(step)).toEqual(step);
      expect(step.type).toBe(type);
      if ('next' in step) expect(step.next).toBeNull();
      if ('paths' in step) expect(step.paths.map((p) => p.next)).toEqual([null, null]);
    }
  });

  it('uses the spec defaults: random 0.5 per path, 24 h waits, POST postbacks', () => {
    expect(createStep('flowRandom', 'r').paths.map((p) => p.amount)).toEqual([DEFAULT_RANDOM_AMOUNT, DEFAULT_RANDOM_AMOUNT]);
    expect(DEFAULT_RANDOM_AMOUNT).toBe(0.5);
    expect(createStep('flowWait', 'w').duration).toBe(86_400);
    expect(createStep('flowWaitInteraction', 'w').paths[1]?.duration).toBe(DEFAULT_WAIT_SECONDS);
    expect(createStep('actionPostback', 'p').postbackMethod).toBe('POST');
  });

  it('categorizes every step type', () => {
    const byCategory: Record<string, string[]> = {};
    for (const t of STEP_TYPES) (byCategory[stepCategory(t)] ??= []).push(t);
    expect(byCategory).toEqual({
      source: ['sourceAudience', 'sourceEvents'],
      flow: ['flowInteraction', 'flowEvent', 'flowRandom', 'flowSplit', 'flowJoin', 'flowWait', 'flowWaitInteraction'],
      action: ['actionMessagePush', 'actionMessageInApp', 'actionMessageEmail', 'actionPostback'],
      update: ['updateTagCount'],
      end: ['end'],
    });
    expect(STEP_TYPES.filter((t) => stepShape(t) === 'paths')).toEqual(['flowInteraction', 'flowEvent', 'flowRandom', 'flowSplit', 'flowWaitInteraction']);
  });

  it('maps message steps to channels and channels to the interactions that fit', () => {
    expect(STEP_TYPES.map(messageChannel).filter(Boolean)).toEqual(['push', 'inApp', 'email']);
    expect(interactionsAfter('inApp')).toEqual(['open']);
    expect(interactionsAfter('push')).toEqual(['impression', 'click', 'dismissed_click']);
    expect(interactionsAfter('email')).toEqual(['impression', 'click', 'dismissed_click']);
  });

  it('rejects unknown step types and invalid fields', () => {
    expect(JourneyStep.safeParse({ id: 'x', type: 'flowTeleport', next: null }).success).toBe(false);
    expect(JourneyStep.safeParse({ ...createStep('flowWait', 'w'), duration: -1 }).success).toBe(false);
    expect(JourneyStep.safeParse({ ...createStep('flowRandom', 'r'), paths: [{ id: 'p', name: '', next: null, amount: 2 }] }).success).toBe(false);
    expect(Journey.safeParse({ entryId: null, steps: [] }).success).toBe(true);
  });
});
