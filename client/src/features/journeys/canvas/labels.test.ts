import { beforeAll, describe, expect, it } from 'vitest';
import { createStep, type JourneyStep } from '@gd/shared/journey/model';
import { fullJourney, mk, sampleSegment } from '@gd/shared/journey/testing';
import type { TFunction } from '../../../i18n/keys.ts';
import { formatDuration, pathLabelText, stepLabel, stepSummary } from './labels.ts';
import { catalogueT } from './testing.ts';

let t: TFunction;
let es: TFunction;
beforeAll(async () => {
  t = await catalogueT('en');
  es = await catalogueT('es');
});

const step = (id: string): JourneyStep => fullJourney().steps.find((s) => s.id === id) ?? createStep('end', id);

describe('step summaries', () => {
  it('reads like a product', () => {
    expect(stepSummary(t, createStep('flowWait', 'w'))).toBe('Wait 1 day');
    expect(stepSummary(t, step('push'))).toBe('Push · campaign c');
    expect(stepSummary(t, createStep('actionMessageEmail', 'm'))).toBe('Email · choose a message');
    expect(stepSummary(t, step('s'))).toBe('On e1');
    expect(stepSummary(t, step('int'))).toBe('Clicked · Otherwise');
    expect(stepSummary(t, step('rnd'))).toBe('50% · 50%');
    expect(stepSummary(t, step('wi'))).toBe('Opened · After 10 minutes');
    expect(stepSummary(t, step('pb'))).toBe('POST example.com');
    expect(stepSummary(t, step('pi'))).toBe('Integration int-1');
    expect(stepSummary(t, step('tag'))).toBe('Tag t1 +1');
    expect(stepSummary(t, mk('sourceAudience', 'a', { segment: sampleSegment(true) }))).toBe('Segment: country equals ES');
    expect(stepSummary(t, createStep('end', 'e'))).toBe('Users leave the journey');
  });

  it('names what the step holds by id: the audience, the country in the person\'s language', () => {
    const names = (language: string) => ({ audience: (id: string) => (id === 'aud-1' ? 'Big spenders' : undefined), language });
    expect(stepSummary(t, mk('sourceAudience', 'a', { audienceId: 'aud-1' }), names('en'))).toBe('Audience Big spenders');
    expect(stepSummary(t, mk('sourceAudience', 'a', { audienceId: 'gone' }), names('en'))).toBe('Audience gone');
    expect(stepSummary(t, mk('sourceAudience', 'a', { segment: sampleSegment(true) }), names('en'))).toBe('Segment: country equals Spain');
    expect(stepSummary(es, mk('sourceAudience', 'a', { segment: sampleSegment(true) }), names('es'))).toMatch(/España$/);
  });

  it('names the message a message step sends, once the app\'s messages are known', () => {
    const names = { audience: () => undefined, message: (c: string, m: string) => (c === 'c' && m === 'm' ? 'Spring sale' : m === 'gone' ? null : undefined), language: 'en' };
    expect(stepSummary(t, step('push'), names)).toBe('Push · Spring sale');
    expect(stepSummary(t, mk('actionMessageEmail', 'x', { campaignId: 'c', messageId: 'gone' }), names)).toBe('Email · message not found');
    expect(stepSummary(t, mk('actionMessageEmail', 'x', { campaignId: 'c', messageId: 'not-loaded' }), names)).toBe('Email · campaign c');
    expect(stepSummary(es, step('push'), { ...names, language: 'es' })).toBe('Push · Spring sale');
  });

  it('is translated', () => {
    expect(stepSummary(es, createStep('flowWait', 'w'))).toBe('Esperar 1 día');
    expect(stepLabel(es, createStep('flowSplit', 'x'))).toBe('División por segmento');
  });

  it('names a step by its name, else by its type', () => {
    expect(stepLabel(t, { ...createStep('flowWait', 'w'), name: '  Cool-off ' })).toBe('Cool-off');
    expect(stepLabel(t, createStep('flowWait', 'w'))).toBe('Wait');
  });
});

describe('durations and path labels', () => {
  it('formats durations with plurals', () => {
    expect(formatDuration(t, 86_400)).toBe('1 day');
    expect(formatDuration(t, 3 * 3_600)).toBe('3 hours');
    expect(formatDuration(t, 60)).toBe('1 minute');
  });

  it('translates every label kind', () => {
    expect(pathLabelText(t, { kind: 'none' })).toBe('');
    expect(pathLabelText(t, { kind: 'name', text: 'VIP' })).toBe('VIP');
    expect(pathLabelText(t, { kind: 'otherwise' })).toBe('Otherwise');
    expect(pathLabelText(t, { kind: 'action', action: 'open' })).toBe('Opened');
    expect(pathLabelText(t, { kind: 'event', eventId: 'purchase' })).toBe('purchase');
    expect(pathLabelText(t, { kind: 'segment', index: 2 })).toBe('Segment 2');
    expect(pathLabelText(t, { kind: 'percent', value: 50 })).toBe('50%');
    expect(pathLabelText(t, { kind: 'timeout', seconds: 86_400 })).toBe('After 1 day');
  });
});
