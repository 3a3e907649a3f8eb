import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '@gd/shared/i18n/all';
import { es } from '@gd/shared/i18n/es';
import { STEP_TYPES } from '@gd/shared/journey/model';
import { fullJourney } from '@gd/shared/journey/testing';
import { JourneyViolationCode, type JourneyViolation } from '@gd/shared/journey/validate';
import { SegmentConditionCode, SegmentStructureCode } from '@gd/shared/segment/validate';
import type { TFunction } from '../../../i18n/keys.ts';
import { catalogueT } from '../canvas/testing.ts';
import { groupProblems, readingOrder, violationText } from '../../../entities/journey/violationText.ts';

let t: TFunction;
beforeAll(async () => {
  t = await catalogueT('en');
});

describe('catalogues', () => {
  it('have a message for every violation code and a label for every step type, in English and Spanish', () => {
    for (const cat of [en, es]) {
      for (const code of JourneyViolationCode.options) expect(cat.journeyViolation[code], code).toMatch(/\S/);
      for (const type of STEP_TYPES) expect(cat.stepType[type], type).toMatch(/\S/);
      for (const code of [...SegmentConditionCode.options, ...SegmentStructureCode.options]) {
        expect(cat.journeyEditor.conditionProblem[code], code).toMatch(/\S/);
      }
    }
  });
});

describe('violationText', () => {
  it('fills parameters and translates segment reasons', () => {
    expect(violationText(t, { code: 'postback_placeholder_unknown', params: { name: '{{foo}}' } })).toBe('Unknown placeholder {{foo}}: the placeholders are customerId, campaignId, campaignType, journeyId, unixTime, isoDate, uuidV4.');
    expect(violationText(t, { code: 'split_segment_invalid', params: { reason: 'value_missing', key: 'c1' } })).toBe(
      'The segment of this path is incomplete: enter a value.',
    );
    expect(violationText(t, { code: 'source_audience_segment_invalid', params: { reason: '' } })).toBe('The segment is incomplete: it is not complete.');
    expect(violationText(t, { code: 'event_paths_too_few' })).toBe('An event branch needs at least two paths.');
  });
});

describe('groupProblems', () => {
  const j = fullJourney();

  it('orders steps from the entry along paths', () => {
    const order = readingOrder(j).map((s) => s.id);
    expect(order[0]).toBe('s');
    expect(order.indexOf('push')).toBeLessThan(order.indexOf('w'));
    expect(new Set(order).size).toBe(j.steps.length);
  });

  it('puts journey-wide problems first, then steps in reading order', () => {
    const vs: JourneyViolation[] = [
      { stepId: 'tag', path: ['tagId'], code: 'tag_missing' },
      { stepId: 'push', path: ['campaignId'], code: 'message_campaign_missing' },
      { stepId: null, path: [], code: 'entry_missing' },
      { stepId: 'push', path: ['messageId'], code: 'message_id_missing' },
      { stepId: 'ghost', path: [], code: 'duplicate_id' },
    ];
    const groups = groupProblems(j, vs);
    expect(groups.map((g) => g.step?.id ?? null)).toEqual([null, 'push', 'tag']);
    expect(groups[0]?.violations.map((v) => v.code)).toEqual(['entry_missing', 'duplicate_id']);
    expect(groups[1]?.violations).toHaveLength(2);
  });

  it('is empty without violations', () => {
    expect(groupProblems(j, [])).toEqual([]);
  });
});
