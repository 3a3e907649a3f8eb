import { describe, expect, it } from 'vitest';
import { launchViolations } from './launchProblems.ts';

describe('launchViolations', () => {
  it('reads step, field path and code from the launch refusal details', () => {
    expect(
      launchViolations(
        [
          { path: 'steps.source.eventIds', message: 'source_events_missing' },
          { path: 'steps.a.b.paths.1.eventId', message: 'event_missing' },
          { path: 'journey', message: 'entry_missing' },
        ],
        ['source', 'a.b'],
      ),
    ).toEqual([
      { stepId: 'source', path: ['eventIds'], code: 'source_events_missing' },
      { stepId: 'a.b', path: ['paths', 1, 'eventId'], code: 'event_missing' },
      { stepId: null, path: [], code: 'entry_missing' },
    ]);
  });

  it('drops details whose code it does not know', () => {
    expect(launchViolations([{ path: 'steps.x', message: 'Required' }], ['x'])).toEqual([]);
  });

  it('keeps a step it does not know (deleted meanwhile) by its id', () => {
    expect(launchViolations([{ path: 'steps.gone.next', message: 'dangling_next' }], [])).toEqual([{ stepId: 'gone', path: ['next'], code: 'dangling_next' }]);
  });
});
