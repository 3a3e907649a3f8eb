import { describe, expect, it } from 'vitest';
import { normalizeJourney } from './normalize.ts';
import { journeyReferences, referenceViolations } from './references.ts';
import { journey, linked } from './testing.ts';

const j = normalizeJourney(
  journey(
    's',
    linked('sourceEvents', 's', 'ev', { eventIds: ['purchase', 'gd_install', 'never_sent', 'e_screen_name'] }),
    linked('flowEvent', 'ev', [null, null], { paths: [{ id: 'p1', name: '', next: null, eventId: 'ghost' }, { id: 'p2', name: '', next: null }] }),
  ),
);

describe('journey references', () => {
  it('lists the custom events and audiences a journey names (built-in and screen events always exist)', () => {
    expect(journeyReferences(j)).toEqual({ audienceIds: [], eventNames: ['purchase', 'never_sent', 'ghost'] });
  });

  it('reports each missing one on its step and field, and nothing when all exist', () => {
    const known = new Set(['purchase']);
    expect(referenceViolations(j, { audienceExists: () => true, eventExists: (n) => known.has(n) })).toEqual([
      { stepId: 's', path: ['eventIds'], code: 'event_not_found', params: { name: 'never_sent' } },
      { stepId: 'ev', path: ['paths', 0, 'eventId'], code: 'event_not_found', params: { name: 'ghost' } },
    ]);
    expect(referenceViolations(j, { audienceExists: () => true, eventExists: () => true })).toEqual([]);
    const onAudience = normalizeJourney(journey('s', linked('sourceAudience', 's', null, { audienceId: 'Android' })));
    expect(referenceViolations(onAudience, { audienceExists: () => false, eventExists: () => true })).toEqual([{ stepId: 's', path: ['audienceId'], code: 'audience_not_found', params: { id: 'Android' } }]);
  });
});
