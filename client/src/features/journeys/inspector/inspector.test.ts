import { describe, expect, it } from 'vitest';
import { createStep } from '@gd/shared/journey/model';
import { postbackTemplateValid } from '@gd/shared/journey/postback';
import { validateStep, type JourneyViolation } from '@gd/shared/journey/validate';
import { createSegment, segmentConditions } from '@gd/shared/segment/model';
import { firstConditionValid } from '@gd/shared/segment/validate';
import { sampleSegment } from '@gd/shared/journey/testing';
import { stepLevelViolations, violationsAt } from './fieldErrors.ts';
import { bodyStatus, entriesToJson, insertAt, jsonToEntries } from './postbackBody.ts';
import { firstCondition, withFirstCondition } from './segmentCondition.ts';
import { isOneOf, switchSourceKind, withName } from './stepEdits.ts';

describe('field errors', () => {
  const vs: JourneyViolation[] = [
    { stepId: 'a', path: ['paths', 1, 'eventId'], code: 'event_missing' },
    { stepId: 'a', path: ['paths', 1, 'next'], code: 'wait_missing' },
    { stepId: 'a', path: [], code: 'unreachable' },
    { stepId: 'b', path: ['paths', 1, 'eventId'], code: 'event_missing' },
  ];
  it('matches a field by step and exact path', () => {
    expect(violationsAt(vs, 'a', ['paths', 1, 'eventId']).map((v) => v.code)).toEqual(['event_missing']);
    expect(violationsAt(vs, 'a', ['paths', 0, 'eventId'])).toEqual([]);
  });
  it('leaves link and whole-step problems to the step summary', () => {
    expect(stepLevelViolations(vs, 'a').map((v) => v.code)).toEqual(['wait_missing', 'unreachable']);
  });
});

describe('first segment condition', () => {
  it('creates a segment with one condition when there is none', () => {
    const s = withFirstCondition(null, { type: 'attribute', id: 'country', condition: 'equals', input: 'ES' });
    expect(segmentConditions(s)).toHaveLength(1);
    expect(firstConditionValid(s)).toBe(true);
    expect(firstCondition(s).input).toBe('ES');
    expect(segmentConditions(withFirstCondition(createSegment(), { id: 'x' }))).toHaveLength(1);
  });
  it('patches the existing first condition only', () => {
    const s = withFirstCondition(sampleSegment(false), { input: 'FR' });
    expect(segmentConditions(s).map((c) => c.input)).toEqual(['FR']);
    expect(firstCondition(null).type).toBeNull();
  });
});

describe('postback body', () => {
  it('converts parameters to JSON and back', () => {
    const entries = [
      { param: 'id', value: '{{customerId}}' },
      { param: '', value: 'dropped' },
    ];
    const json = entriesToJson(entries);
    expect(postbackTemplateValid(json)).toBe(true);
    expect(jsonToEntries(json)).toEqual([{ param: 'id', value: '{{customerId}}' }]);
    expect(jsonToEntries('{"n":1,"o":{"a":true}}')).toEqual([
      { param: 'n', value: '1' },
      { param: 'o', value: '{"a":true}' },
    ]);
    expect(jsonToEntries('[1]')).toEqual([]);
    expect(jsonToEntries('{{unixTime}}')).toEqual([]);
  });
  it('inserts a placeholder at the caret', () => {
    expect(insertAt('{"t":}', '{{unixTime}}', 5)).toEqual({ text: '{"t":{{unixTime}}}', caret: 17 });
    expect(insertAt('abc', 'X', 1, 2)).toEqual({ text: 'aXc', caret: 2 });
    expect(insertAt('abc', 'X', 99)).toEqual({ text: 'abcX', caret: 4 });
  });
});

describe('step edits', () => {
  it('switches an entry between audience and events, keeping id, name and link', () => {
    const src = { ...createStep('sourceEvents', 's'), next: 'n', name: 'Entry', eventIds: ['e'] };
    expect(switchSourceKind(src, 'sourceAudience')).toEqual({ ...createStep('sourceAudience', 's'), next: 'n', name: 'Entry' });
  });
  it('names and unnames a step', () => {
    expect(withName(createStep('flowWait', 'w'), ' Cool-off ')).toMatchObject({ name: 'Cool-off' });
    expect('name' in withName({ ...createStep('flowWait', 'w'), name: 'x' }, '  ')).toBe(false);
  });
  it('guards step types', () => {
    expect(isOneOf('flowWait', 'end')(createStep('end', 'e'))).toBe(true);
    expect(isOneOf('flowWait')(createStep('end', 'e'))).toBe(false);
  });
});

describe('bodyStatus', () => {
  it('agrees with launch: a body with an unknown placeholder is not valid, even when it is valid JSON', () => {
    expect(bodyStatus('{"id": "{{customerId}}", "at": {{unixTime}}}')).toEqual({ kind: 'valid' });
    expect(bodyStatus('{"name": "{{user.name}}", "again": "{{user.name}}"}')).toEqual({ kind: 'unknown', names: ['{{user.name}}'] });
    expect(bodyStatus('{"id": {{customerId}')).toEqual({ kind: 'invalidJson' });
    // A dot part after a known name is a modifier, not a new name.
    expect(bodyStatus('{"id": "{{customerId.sha256}}"}')).toEqual({ kind: 'valid' });
  });

  it('says valid exactly when launch finds no placeholder or body problem', () => {
    const launchProblems = (body: string) =>
      validateStep({ ...createStep('actionPostback', 'p'), postbackUrl: 'https://example.com/hook', postbackBody: body }, { messageExists: () => true }).map((v) => v.code);
    for (const body of ['{"a": "{{customerId}}"}', '{"a": "{{user.name}}"}', '{"a": {{isoDate}}}', '[1, 2', '{"a": "{{uuidV4}}", "b": {{unixTime}}}']) {
      expect(bodyStatus(body).kind === 'valid').toBe(launchProblems(body).length === 0);
    }
  });
});
