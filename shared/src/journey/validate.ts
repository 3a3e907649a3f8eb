/**
 * Journey validation: every step rule of SPEC.md section 5, the graph checks that launch and
 * approval enforce, and the section 4 invariants (normally already true after normalizeJourney;
 * reported so that approval can refuse a journey that was never normalized). Returns typed
 * violations, never text: the client translates the codes, the API turns them into a KO answer.
 */
import { z } from 'zod';
import { isPublicUrl } from '../formats.ts';
import { segmentConditions } from '../segment/model.ts';
import { conditionProblems, firstConditionValid, validateSegment } from '../segment/validate.ts';
import { backEdges, outEdges, reachable, stepIndex, type Edge } from './graph.ts';
import { journeyInvariantIssues, type InvariantCode } from './invariants.ts';
import { MAX_JOURNEY_STEPS, isSource, messageChannel, type Journey, type JourneyStep, type MessageChannel, type PostbackEntry } from './model.ts';
import { postbackTemplateValid, unknownPlaceholders } from './postback.ts';
import type { JourneySettings } from './settings.ts';

export const JourneyViolationCode = z.enum([
  // Step rules (SPEC.md section 5).
  'message_campaign_missing',
  'message_id_missing',
  'message_not_found',
  'postback_url_invalid',
  'postback_body_invalid',
  'postback_body_entry_invalid',
  'postback_header_invalid',
  'postback_placeholder_unknown',
  'postback_integration_missing',
  'event_paths_too_few',
  'event_missing',
  'split_segment_missing',
  'split_segment_invalid',
  'interaction_action_missing',
  'wait_interaction_duration_missing',
  'random_paths_too_few',
  'random_amount_missing',
  'wait_duration_missing',
  'source_events_missing',
  'source_audience_missing',
  'source_audience_segment_invalid',
  'tag_missing',
  // References (references.ts): what the journey names must exist in the app.
  'audience_not_found',
  'event_not_found',
  'segment_reference_missing',
  // Graph checks (launch and approval).
  'entry_missing',
  'entry_multiple',
  'entry_invalid',
  'duplicate_id',
  'dangling_next',
  'next_is_source',
  'open_end',
  'cycle',
  'unreachable',
  'too_many_steps',
  // Editing-rule invariants (SPEC.md section 4).
  'consecutive_waits',
  'interaction_action_invalid',
  'wait_missing',
  // Journey settings (settings.ts): stepId null, path under ['settings'].
  'reentry_period_missing',
  'goal_window_missing',
  'exit_segment_invalid',
]);
export type JourneyViolationCode = z.infer<typeof JourneyViolationCode>;

export interface JourneyViolation {
  /** The step concerned; null for journey-wide problems (no source at all). */
  stepId: string | null;
  /** Field path inside the step, e.g. ['paths', 1, 'eventId']. */
  path: (string | number)[];
  code: JourneyViolationCode;
  params?: Record<string, string | number>;
}

export interface JourneyValidationContext {
  /** Whether the message still exists (the channel lets the caller also check its kind). */
  messageExists(campaignId: string, messageId: string, channel: MessageChannel): boolean;
}

const filled = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';
const positive = (n: number | null | undefined) => typeof n === 'number' && n > 0;
/** RFC 9110 token: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

type Out = (code: JourneyViolationCode, path: (string | number)[], params?: Record<string, string | number>) => void;

function entriesCheck(entries: readonly PostbackEntry[], field: string, code: JourneyViolationCode, out: Out) {
  entries.forEach((e, i) => {
    const headerOk = field !== 'postbackHeader' || HEADER_NAME.test(e.param.trim());
    if (!filled(e.param) || !filled(e.value) || !headerOk) out(code, [field, i]);
  });
}

function placeholderCheck(texts: readonly string[], out: Out) {
  for (const name of new Set(texts.flatMap(unknownPlaceholders))) out('postback_placeholder_unknown', ['postbackBody'], { name });
}

function postbackChecks(step: Extract<JourneyStep, { type: 'actionPostback' }>, out: Out) {
  const body = step.postbackBody;
  if (step.target === 'https') {
    if (!isPublicUrl(step.postbackUrl.trim(), ['http:', 'https:'])) out('postback_url_invalid', ['postbackUrl']);
    if (typeof body === 'string') {
      if (!postbackTemplateValid(body)) out('postback_body_invalid', ['postbackBody']);
    } else entriesCheck(body, 'postbackBody', 'postback_body_entry_invalid', out);
    entriesCheck(step.postbackHeader, 'postbackHeader', 'postback_header_invalid', out);
  } else {
    if (!filled(step.integrationId)) out('postback_integration_missing', ['integrationId']);
    if (typeof body === 'string') out('postback_body_invalid', ['postbackBody']);
    else entriesCheck(body, 'postbackBody', 'postback_body_entry_invalid', out);
  }
  placeholderCheck(typeof body === 'string' ? [body] : body.map((e) => e.value), out);
}

/** The SPEC.md section 5 rules for one step. */
export function validateStep(step: JourneyStep, ctx: JourneyValidationContext): JourneyViolation[] {
  const found: JourneyViolation[] = [];
  const out: Out = (code, path, params) => found.push(params ? { stepId: step.id, path, code, params } : { stepId: step.id, path, code });
  const nonLast = <T>(items: readonly T[]) => items.slice(0, -1);
  switch (step.type) {
    case 'sourceAudience': {
      if (filled(step.audienceId)) break;
      const first = step.segment ? segmentConditions(step.segment)[0] : undefined;
      if (!first) out('source_audience_missing', ['audienceId']);
      else if (!firstConditionValid(step.segment)) {
        out('source_audience_segment_invalid', ['segment'], { reason: conditionProblems(first)[0]?.code ?? '' });
      }
      break;
    }
    case 'sourceEvents':
      if (!step.eventIds.some(filled)) out('source_events_missing', ['eventIds']);
      break;
    case 'flowInteraction':
    case 'flowWaitInteraction':
      nonLast(step.paths).forEach((p, i) => {
        if (!p.action) out('interaction_action_missing', ['paths', i, 'action']);
      });
      if (step.type === 'flowWaitInteraction') {
        const last = step.paths.length - 1;
        if (last >= 0 && !positive(step.paths[last]?.duration)) {
          out('wait_interaction_duration_missing', ['paths', last, 'duration']);
        }
      }
      break;
    case 'flowEvent':
      if (step.paths.length < 2) out('event_paths_too_few', ['paths']);
      nonLast(step.paths).forEach((p, i) => {
        if (!filled(p.eventId)) out('event_missing', ['paths', i, 'eventId']);
      });
      break;
    case 'flowRandom':
      if (step.paths.length < 2) out('random_paths_too_few', ['paths']);
      step.paths.forEach((p, i) => {
        if (!positive(p.amount)) out('random_amount_missing', ['paths', i, 'amount']);
      });
      break;
    case 'flowSplit':
      nonLast(step.paths).forEach((p, i) => {
        if (!p.segment || segmentConditions(p.segment).length === 0) out('split_segment_missing', ['paths', i, 'segment']);
        else {
          const first = validateSegment(p.segment)[0];
          if (first) out('split_segment_invalid', ['paths', i, 'segment'], { reason: first.code, key: first.key });
        }
      });
      break;
    case 'flowWait':
      if (!positive(step.duration)) out('wait_duration_missing', ['duration']);
      break;
    case 'actionMessagePush':
    case 'actionMessageInApp':
    case 'actionMessageEmail': {
      if (!filled(step.campaignId)) out('message_campaign_missing', ['campaignId']);
      if (!filled(step.messageId)) out('message_id_missing', ['messageId']);
      const channel = messageChannel(step.type) as MessageChannel;
      if (filled(step.campaignId) && filled(step.messageId) && !ctx.messageExists(step.campaignId, step.messageId, channel)) {
        out('message_not_found', ['messageId']);
      }
      break;
    }
    case 'actionPostback':
      postbackChecks(step, out);
      break;
    case 'updateTagCount':
      if (!filled(step.tagId)) out('tag_missing', ['tagId']);
      break;
    case 'flowJoin':
    case 'end':
      break;
    default: {
      const never: never = step;
      throw new Error(`unknown step ${JSON.stringify(never)}`);
    }
  }
  return found;
}

export const edgePath = (e: Edge): (string | number)[] => (e.pathIndex === null ? ['next'] : ['paths', e.pathIndex, 'next']);

const INVARIANT_CODES: Partial<Record<InvariantCode, JourneyViolationCode>> = {
  consecutive_waits: 'consecutive_waits',
  invalid_interaction_action: 'interaction_action_invalid',
  wait_missing_before: 'wait_missing',
  wait_missing_after_in_app: 'wait_missing',
};

/** Launch checks: one source as entry, no duplicate or dangling ids, no open ends, no cycles, all reachable. */
export function validateJourneyGraph(j: Journey): JourneyViolation[] {
  const out: JourneyViolation[] = [];
  const byId = stepIndex(j);
  const sources = j.steps.filter((s) => isSource(s.type));
  const entry = j.entryId === null ? undefined : byId.get(j.entryId);
  if (j.steps.length > MAX_JOURNEY_STEPS) out.push({ stepId: null, path: [], code: 'too_many_steps', params: { count: j.steps.length, max: MAX_JOURNEY_STEPS } });
  if (sources.length === 0) out.push({ stepId: null, path: [], code: 'entry_missing' });
  else if (!entry || !isSource(entry.type)) out.push({ stepId: j.entryId, path: [], code: 'entry_invalid' });
  for (const s of sources) if (sources.length > 1 && s.id !== entry?.id) out.push({ stepId: s.id, path: [], code: 'entry_multiple' });
  const seen = new Set<string>();
  for (const s of j.steps) {
    if (seen.has(s.id)) out.push({ stepId: s.id, path: [], code: 'duplicate_id' });
    seen.add(s.id);
    if ('paths' in s && s.paths.length === 0) out.push({ stepId: s.id, path: ['paths'], code: 'open_end' });
    for (const e of outEdges(s)) {
      const target = e.to === null ? undefined : byId.get(e.to);
      if (e.to === null) out.push({ stepId: s.id, path: edgePath(e), code: 'open_end' });
      else if (!target) out.push({ stepId: s.id, path: edgePath(e), code: 'dangling_next', params: { target: e.to } });
      else if (isSource(target.type)) out.push({ stepId: s.id, path: edgePath(e), code: 'next_is_source', params: { target: e.to } });
    }
  }
  for (const e of backEdges(j)) out.push({ stepId: e.from, path: edgePath(e), code: 'cycle', params: { target: e.to ?? '' } });
  if (entry && isSource(entry.type)) {
    const live = reachable(j, [entry.id]);
    for (const s of j.steps) if (!live.has(s.id) && !isSource(s.type)) out.push({ stepId: s.id, path: [], code: 'unreachable' });
  }
  for (const issue of journeyInvariantIssues(j)) {
    const code = INVARIANT_CODES[issue.code];
    if (!code) continue;
    const path = issue.pathIndex === null || issue.pathIndex === undefined ? ['next'] : ['paths', issue.pathIndex, issue.code === 'invalid_interaction_action' ? 'action' : 'next'];
    out.push({ stepId: issue.stepId, path, code });
  }
  return out;
}

/**
 * The settings' own rules (absent settings are the defaults, which pass): re-entry after a period
 * needs a period, a goal event needs a window, and an exit segment with conditions must be valid
 * (an exit segment without conditions is no exit criterion, like none).
 */
export function validateJourneySettings(settings: JourneySettings | undefined): JourneyViolation[] {
  if (!settings) return [];
  const out: JourneyViolation[] = [];
  const at = (path: (string | number)[], code: JourneyViolationCode, params?: Record<string, string | number>) =>
    out.push(params ? { stepId: null, path: ['settings', ...path], code, params } : { stepId: null, path: ['settings', ...path], code });
  if (settings.reentry.mode === 'afterPeriod' && !positive(settings.reentry.periodSeconds)) at(['reentry', 'periodSeconds'], 'reentry_period_missing');
  if (filled(settings.goal.eventId) && !positive(settings.goal.windowSeconds)) at(['goal', 'windowSeconds'], 'goal_window_missing');
  const exitSegment = settings.exit.segment;
  if (exitSegment && segmentConditions(exitSegment).length > 0) {
    const first = validateSegment(exitSegment)[0];
    if (first) at(['exit', 'segment'], 'exit_segment_invalid', { reason: first.code, key: first.key });
  }
  return out;
}

/** Every step rule, every graph check and the settings' rules. An empty list means the journey may be launched. */
export function validateJourney(j: Journey, ctx: JourneyValidationContext): JourneyViolation[] {
  return [...j.steps.flatMap((s) => validateStep(s, ctx)), ...validateJourneyGraph(j), ...validateJourneySettings(j.settings)];
}
