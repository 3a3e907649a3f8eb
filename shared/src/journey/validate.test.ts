import { describe, expect, it } from 'vitest';
import { createGroupNode, type Segment } from '../segment/model.ts';
import { MAX_JOURNEY_STEPS, createStep, type Journey, type JourneyStep } from './model.ts';
import { canAddAfter } from './edit.ts';
import { normalizeJourney } from './normalize.ts';
import { fullJourney, journey, linked, mk, sampleSegment as segment } from './testing.ts';
import { validateJourney, validateJourneyGraph, type JourneyValidationContext } from './validate.ts';

const ctx: JourneyValidationContext = { messageExists: (campaignId) => campaignId !== 'gone' };
const valid = fullJourney;

const edit = (j: Journey, id: string, f: (s: JourneyStep) => JourneyStep): Journey => ({
  ...j,
  steps: j.steps.map((s) => (s.id === id ? f(s) : s)),
});
const codes = (j: Journey) => validateJourney(j, ctx).map((v) => `${v.stepId ?? '-'}:${v.code}:${v.path.join('.')}`);
function violates(j: Journey, expected: string) {
  expect(codes(valid())).toEqual([]);
  expect(codes(j)).toContain(expected);
}

describe('validateJourney: step rules', () => {
  it('accepts the journey that uses every step type', () => {
    expect(codes(valid())).toEqual([]);
  });

  it('message steps need campaignId, messageId, and an existing message', () => {
    violates(edit(valid(), 'push', (s) => ({ ...s, campaignId: null })), 'push:message_campaign_missing:campaignId');
    violates(edit(valid(), 'push', (s) => ({ ...s, messageId: ' ' })), 'push:message_id_missing:messageId');
    violates(edit(valid(), 'email', (s) => ({ ...s, campaignId: 'gone' })), 'email:message_not_found:messageId');
  });

  it('passes the channel to messageExists', () => {
    const seen: string[] = [];
    validateJourney(valid(), { messageExists: (_c, m, channel) => (seen.push(`${m}:${channel}`), true) });
    expect(seen.sort()).toEqual(['m2:email', 'm3:inApp', 'm:push']);
  });

  it('https postback: public http(s) URL, JSON or entry body, header entries', () => {
    for (const url of ['ftp://example.com/x', 'http://127.0.0.1/x', 'https://10.0.0.1/', 'not a url', 'http://localhost:3000/']) {
      violates(edit(valid(), 'pb', (s) => ({ ...s, postbackUrl: url })), 'pb:postback_url_invalid:postbackUrl');
    }
    expect(codes(edit(valid(), 'pb', (s) => ({ ...s, postbackUrl: 'http://example.com/' })))).toEqual([]);
    violates(edit(valid(), 'pb', (s) => ({ ...s, postbackBody: '{"id": {{customerId}}}' })), 'pb:postback_body_invalid:postbackBody');
    violates(edit(valid(), 'pb', (s) => ({ ...s, postbackBody: [{ param: 'a', value: '' }] })), 'pb:postback_body_entry_invalid:postbackBody.0');
    expect(codes(edit(valid(), 'pb', (s) => ({ ...s, postbackBody: [{ param: 'a', value: '1' }] })))).toEqual([]);
    violates(edit(valid(), 'pb', (s) => ({ ...s, postbackHeader: [{ param: '', value: 'x' }] })), 'pb:postback_header_invalid:postbackHeader.0');
    violates(edit(valid(), 'pb', (s) => ({ ...s, postbackHeader: [{ param: 'Bad Header', value: 'x' }] })), 'pb:postback_header_invalid:postbackHeader.0');
  });

  it('flags unknown placeholders', () => {
    violates(edit(valid(), 'pb', (s) => ({ ...s, postbackBody: '{"x":"{{nope}}"}' })), 'pb:postback_placeholder_unknown:postbackBody');
  });

  it('integration postback: integrationId and a list of entries with param and value', () => {
    violates(edit(valid(), 'pi', (s) => ({ ...s, integrationId: null })), 'pi:postback_integration_missing:integrationId');
    violates(edit(valid(), 'pi', (s) => ({ ...s, postbackBody: '{}' })), 'pi:postback_body_invalid:postbackBody');
    violates(edit(valid(), 'pi', (s) => ({ ...s, postbackBody: [{ param: '', value: 'v' }] })), 'pi:postback_body_entry_invalid:postbackBody.0');
  });

  it('event flow: more than one path, an event on every path but the last', () => {
    violates(edit(valid(), 'ev', (s) => ('paths' in s ? { ...s, paths: s.paths.slice(1) } : s)), 'ev:event_paths_too_few:paths');
    violates(edit(valid(), 'ev', (s) => ('paths' in s ? { ...s, paths: s.paths.map((p, i) => (i === 0 ? { ...p, eventId: null } : p)) } : s)), 'ev:event_missing:paths.0.eventId');
  });

  it('split: a non-empty valid segment on every path but the last', () => {
    const setSeg = (seg: Segment | null) => edit(valid(), 'split', (s) => ('paths' in s ? { ...s, paths: s.paths.map((p, i) => (i === 0 ? { ...p, segment: seg } : p)) } : s));
    violates(setSeg(null), 'split:split_segment_missing:paths.0.segment');
    violates(setSeg({ rootKey: 'root', nodes: [createGroupNode('root')] }), 'split:split_segment_missing:paths.0.segment');
    violates(setSeg(segment(false)), 'split:split_segment_invalid:paths.0.segment');
    expect(validateJourney(setSeg(segment(false)), ctx)[0]?.params).toEqual({ reason: 'value_missing', key: 'c1' });
  });

  it('interaction and wait-interaction: an action on every path but the last', () => {
    violates(edit(valid(), 'int', (s) => ('paths' in s ? { ...s, paths: s.paths.map((p) => ({ ...p, action: null })) } : s)), 'int:interaction_action_missing:paths.0.action');
    violates(edit(valid(), 'wi', (s) => ('paths' in s ? { ...s, paths: s.paths.map((p) => ({ ...p, action: null })) } : s)), 'wi:interaction_action_missing:paths.0.action');
  });

  it('wait-interaction: a duration on the last path', () => {
    violates(edit(valid(), 'wi', (s) => ('paths' in s ? { ...s, paths: s.paths.map((p, i) => (i === 1 ? { ...p, duration: null } : p)) } : s)), 'wi:wait_interaction_duration_missing:paths.1.duration');
  });

  it('random: more than one path, each with a nonzero amount', () => {
    violates(edit(valid(), 'rnd', (s) => ('paths' in s ? { ...s, paths: s.paths.slice(0, 1) } : s)), 'rnd:random_paths_too_few:paths');
    violates(edit(valid(), 'rnd', (s) => ('paths' in s ? { ...s, paths: s.paths.map((p, i) => (i === 1 ? { ...p, amount: 0 } : p)) } : s)), 'rnd:random_amount_missing:paths.1.amount');
  });

  it('wait: a duration', () => {
    violates(edit(valid(), 'w', (s) => ({ ...s, duration: null })), 'w:wait_duration_missing:duration');
    violates(edit(valid(), 'w', (s) => ({ ...s, duration: 0 })), 'w:wait_duration_missing:duration');
  });

  it('events source: at least one event', () => {
    violates(edit(valid(), 's', (s) => ({ ...s, eventIds: [] })), 's:source_events_missing:eventIds');
    violates(edit(valid(), 's', (s) => ({ ...s, eventIds: [''] })), 's:source_events_missing:eventIds');
  });

  it('audience source: an audience id or a valid first segment condition', () => {
    const audience = (patch: object) => edit(valid(), 's', (s) => ({ ...mk('sourceAudience', 's'), next: 'next' in s ? s.next : null, ...patch }));
    violates(audience({}), 's:source_audience_missing:audienceId');
    violates(audience({ segment: segment(false) }), 's:source_audience_segment_invalid:segment');
    expect(codes(audience({ audienceId: 'a1' }))).toEqual([]);
    expect(codes(audience({ segment: segment(true) }))).toEqual([]);
  });

  it('update tag count: a tag', () => {
    violates(edit(valid(), 'tag', (s) => ({ ...s, tagId: null })), 'tag:tag_missing:tagId');
  });
});

describe('validateJourneyGraph', () => {
  const push = (id: string, next: string | null) => linked('actionMessagePush', id, next, { campaignId: 'c', messageId: 'm' });
  const src = (id: string, next: string | null) => linked('sourceEvents', id, next, { eventIds: ['e'] });
  const graph = (j: Journey) => validateJourneyGraph(j).map((v) => `${v.stepId ?? '-'}:${v.code}`);

  it('needs exactly one source, as entry', () => {
    expect(graph(journey(null, mk('end', 'e')))).toContain('-:entry_missing');
    expect(graph(journey('s', src('s', 'e'), src('t', 'e'), mk('end', 'e')))).toEqual(['t:entry_multiple']);
    expect(graph(journey('e', src('s', 'e'), mk('end', 'e')))).toContain('e:entry_invalid');
  });

  it('finds open ends, dangling links, links into sources, duplicates', () => {
    expect(graph(journey('s', src('s', null)))).toEqual(['s:open_end']);
    expect(graph(journey('s', src('s', 'ghost')))).toEqual(['s:dangling_next']);
    expect(graph(journey('s', src('s', 'p'), push('p', 's')))).toContain('p:next_is_source');
    expect(graph(journey('s', src('s', 'e'), mk('end', 'e'), mk('end', 'e')))).toContain('e:duplicate_id');
    expect(graph(journey('s', src('s', 'r'), { ...mk('flowRandom', 'r'), paths: [] }))).toContain('r:open_end');
  });

  it('finds cycles and unreachable steps', () => {
    expect(graph(journey('s', src('s', 'a'), push('a', 'b'), push('b', 'a')))).toEqual(['b:cycle']);
    expect(graph(journey('s', src('s', 'e'), mk('end', 'e'), push('x', 'e')))).toEqual(['x:unreachable']);
  });

  it('reports the editing-rule invariants of a journey that was not normalized', () => {
    const wait = (id: string, next: string) => linked('flowWait', id, next, { duration: 60 });
    expect(graph(journey('s', src('s', 'a'), wait('a', 'b'), wait('b', 'e'), mk('end', 'e')))).toEqual(['a:consecutive_waits']);
    expect(graph(journey('s', src('s', 'v'), linked('flowEvent', 'v', ['e', 'e']), mk('end', 'e')))).toEqual(['s:wait_missing']);
    expect(graph(journey('s', src('s', 'm'), linked('actionMessageInApp', 'm', 'e'), mk('end', 'e')))).toEqual(['m:wait_missing']);
    const badAction = journey('s', src('s', 'm'), push('m', 'w'), wait('w', 'i'), { ...mk('flowInteraction', 'i'), paths: [{ id: 'a', name: '', next: 'e', action: 'open' }] }, mk('end', 'e'));
    expect(graph(badAction)).toEqual(['i:interaction_action_invalid']);
    expect(validateJourneyGraph(normalizeJourney(badAction))).toEqual([]);
  });
});

describe('the step limit', () => {
  it('a journey with more than MAX_JOURNEY_STEPS steps is refused, and the editor offers no step that would pass it', () => {
    const many = normalizeJourney({
      entryId: 's',
      steps: [
        { ...createStep('sourceEvents', 's'), eventIds: ['e'], next: 'w0' },
        ...Array.from({ length: MAX_JOURNEY_STEPS }, (_, i) => ({ ...createStep('updateTagCount', `w${i}`), tagId: 't', next: i + 1 < MAX_JOURNEY_STEPS ? `w${i + 1}` : null })),
      ],
    });
    expect(many.steps.length).toBeGreaterThan(MAX_JOURNEY_STEPS);
    expect(validateJourneyGraph(many)).toContainEqual({ stepId: null, path: [], code: 'too_many_steps', params: { count: many.steps.length, max: MAX_JOURNEY_STEPS } });
    expect(canAddAfter(many, 's', null, 'flowWait')).toBe(false);
    const small = normalizeJourney({ entryId: 's', steps: [{ ...createStep('sourceEvents', 's'), eventIds: ['e'], next: null }] });
    expect(canAddAfter(small, 's', null, 'flowWait')).toBe(true);
    expect(validateJourneyGraph(small).map((v) => v.code)).not.toContain('too_many_steps');
  });
});
