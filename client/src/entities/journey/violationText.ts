/** Translated violation messages and the problems list grouped by step. Pure given `t`. */
import { outEdges } from '@gd/shared/journey/graph';
import type { Journey, JourneyStep } from '@gd/shared/journey/model';
import { POSTBACK_TEMPLATES } from '@gd/shared/journey/postback';
import type { JourneyViolation, JourneyViolationCode } from '@gd/shared/journey/validate';
import { SegmentConditionCode, SegmentStructureCode } from '@gd/shared/segment/validate';
import type { English } from '@gd/shared/i18n/en';
import type { TFunction, TKey } from '../../i18n/keys.ts';

/** Compile-time check: indexing fails when the catalogue lacks a message for some code. */
export type MessageOfEveryCode = English['journeyViolation'][JourneyViolationCode];

/** `TKey` strips plural-looking suffixes (`…_too_few`), so the key is built and widened here. */
const messageKey = (code: JourneyViolationCode) => `journeyViolation.${code}` as TKey;

function reasonText(t: TFunction, reason: string | number | undefined): string {
  const code = String(reason ?? '');
  const condition = SegmentConditionCode.safeParse(code);
  if (condition.success) return t(`journeyEditor.conditionProblem.${condition.data}`);
  const structure = SegmentStructureCode.safeParse(code);
  if (structure.success) return t(`journeyEditor.conditionProblem.${structure.data}`);
  return t('journeyEditor.conditionProblem.unknown');
}

/** The message of a violation (`journeyViolation.<code>`), its parameters filled in. */
export function violationText(t: TFunction, v: Pick<JourneyViolation, 'code' | 'params'>): string {
  const params = v.params ?? {};
  switch (v.code) {
    case 'split_segment_invalid':
    case 'source_audience_segment_invalid':
      return t(messageKey(v.code), { ...params, reason: reasonText(t, params.reason) });
    case 'postback_placeholder_unknown':
      return t(messageKey(v.code), { ...params, known: POSTBACK_TEMPLATES.join(', ') });
    default:
      return t(messageKey(v.code), params);
  }
}

/** Steps in reading order: depth first from the entry, following paths in order, then the rest. */
export function readingOrder(journey: Journey): JourneyStep[] {
  const byId = new Map(journey.steps.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const out: JourneyStep[] = [];
  const stack = journey.entryId === null ? [] : [journey.entryId];
  const visit = () => {
    while (stack.length) {
      const step = byId.get(stack.pop() ?? '');
      if (!step || seen.has(step.id)) continue;
      seen.add(step.id);
      out.push(step);
      const next = outEdges(step).flatMap((e) => (e.to === null ? [] : [e.to]));
      for (const id of next.reverse()) stack.push(id);
    }
  };
  visit();
  for (const s of journey.steps) {
    stack.push(s.id);
    visit();
  }
  return out;
}

export interface ProblemGroup {
  /** null: problems of the whole journey. */
  step: JourneyStep | null;
  violations: JourneyViolation[];
}

/** Violations grouped by step: journey-wide first, then steps in reading order. */
export function groupProblems(journey: Journey, violations: readonly JourneyViolation[]): ProblemGroup[] {
  const byStep = new Map<string | null, JourneyViolation[]>();
  for (const v of violations) {
    const key = v.stepId !== null && journey.steps.some((s) => s.id === v.stepId) ? v.stepId : null;
    byStep.set(key, [...(byStep.get(key) ?? []), v]);
  }
  const groups: ProblemGroup[] = [];
  const wide = byStep.get(null);
  if (wide) groups.push({ step: null, violations: wide });
  for (const step of readingOrder(journey)) {
    const own = byStep.get(step.id);
    if (own) groups.push({ step, violations: own });
  }
  return groups;
}
