/** Builders for tests: small journeys written by hand. Not exported from the package index. */
import { createConditionNode, createGroupNode, type Segment } from '../segment/model.ts';
import { createStep, type Journey, type JourneyStep, type StepOf, type StepType } from './model.ts';
import { normalizeJourney } from './normalize.ts';

export function mk<T extends StepType>(type: T, id: string, patch: Partial<StepOf<T>> = {}): StepOf<T> {
  return { ...createStep(type, id), ...patch };
}

/** A step with its links set: `next` for single-next steps, path nexts in order for branching ones. */
export function linked<T extends StepType>(type: T, id: string, to: (string | null)[] | string | null, patch: Partial<StepOf<T>> = {}): StepOf<T> {
  const s: JourneyStep = mk(type, id, patch);
  const targets = Array.isArray(to) ? to : [to];
  if ('paths' in s) {
    const base = s.paths;
    const paths = targets.map((next, i) => ({ ...(base[Math.min(i, base.length - 1)] ?? { name: '' }), id: base[i]?.id ?? `p${i + 1}`, next }));
    return { ...s, paths } as StepOf<T>;
  }
  if ('next' in s) return { ...s, next: targets[0] ?? null } as StepOf<T>;
  return s as StepOf<T>;
}

export const journey = (entryId: string | null, ...steps: JourneyStep[]): Journey => ({ entryId, steps });

export const byId = (j: Journey, id: string): JourneyStep | undefined => j.steps.find((s) => s.id === id);

/** The id the link (step, pathIndex) points to. */
export function target(j: Journey, id: string, pathIndex: number | null = null): string | null | undefined {
  const s = byId(j, id);
  if (!s) return undefined;
  if ('paths' in s) return pathIndex === null ? undefined : s.paths[pathIndex]?.next;
  return 'next' in s ? s.next : undefined;
}

export const sortSteps = (j: Journey): Journey => ({
  ...j,
  steps: [...j.steps].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
});

export const sampleSegment = (valid: boolean): Segment => ({
  rootKey: 'root',
  nodes: [
    { ...createGroupNode('root'), children: ['c1'] },
    createConditionNode('c1', { type: 'attribute', id: 'country', condition: 'equals', input: valid ? 'ES' : null }),
  ],
});

/** A journey that uses every step type and passes every rule. */
export function fullJourney(): Journey {
  return normalizeJourney(
    journey(
      's',
      linked('sourceEvents', 's', 'push', { eventIds: ['e1'] }),
      linked('actionMessagePush', 'push', 'w', { campaignId: 'c', messageId: 'm' }),
      linked('flowWait', 'w', 'int', { duration: 3600 }),
      { ...mk('flowInteraction', 'int'), paths: [{ id: 'a', name: '', next: 'ev', action: 'click' }, { id: 'b', name: '', next: 'inapp' }] },
      { ...mk('flowEvent', 'ev'), paths: [{ id: 'a', name: '', next: 'split', eventId: 'e2' }, { id: 'b', name: '', next: 'split' }] },
      { ...mk('flowSplit', 'split'), paths: [{ id: 'a', name: '', next: 'rnd', segment: sampleSegment(true) }, { id: 'b', name: '', next: 'rnd' }] },
      linked('flowRandom', 'rnd', ['join', 'join']),
      linked('flowJoin', 'join', 'pb'),
      linked('actionPostback', 'pb', 'pi', { postbackUrl: 'https://example.com/hook', postbackBody: '{"id":"{{customerId}}","t":{{unixTime}}}', postbackHeader: [{ param: 'X-Key', value: 'k' }] }),
      linked('actionPostback', 'pi', 'tag', { target: 'integration', integrationId: 'int-1', postbackBody: [{ param: 'id', value: '{{customerId}}' }] }),
      linked('updateTagCount', 'tag', 'email', { tagId: 't1' }),
      linked('actionMessageEmail', 'email', null, { campaignId: 'c', messageId: 'm2' }),
      linked('actionMessageInApp', 'inapp', 'wi', { campaignId: 'c', messageId: 'm3' }),
      { ...mk('flowWaitInteraction', 'wi'), paths: [{ id: 'a', name: '', next: null, action: 'open' }, { id: 'b', name: '', next: null, duration: 600 }] },
    ),
  );
}

