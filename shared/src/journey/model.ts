/**
 * The journey domain (SPEC.md section 3 "Journey"), stored flat: `{ entryId, steps }`, steps linked
 * by id. Single-next steps carry `next`; branching steps carry `paths`, each with its own `next`;
 * an `end` step has neither. A `null` next is an open end (normalization closes it with an end).
 *
 * Automatic steps (`auto: true`) are the end and wait steps that the editing rules insert
 * (rules.ts). They are the rules' own: removed again when nothing points to them, and a user edit
 * of one (updateStep) turns it into an ordinary step.
 */
import { z } from 'zod';
import { Segment } from '../segment/model.ts';
import { JourneySettings } from './settings.ts';

/** Journey wait default: 24 h (SPEC.md section 9). */
export const DEFAULT_WAIT_SECONDS = 86_400;
/** Random split default 50/50: each path 0.5. */
export const DEFAULT_RANDOM_AMOUNT = 0.5;
export const DEFAULT_POSTBACK_METHOD = 'POST';
/** updateTagCount adds this by default (the spec gives no fields for this step; ours). */
export const DEFAULT_TAG_COUNT_AMOUNT = 1;

export const STEP_TYPES = [
  'sourceAudience',
  'sourceEvents',
  'flowInteraction',
  'flowEvent',
  'flowRandom',
  'flowSplit',
  'flowJoin',
  'flowWait',
  'flowWaitInteraction',
  'actionMessagePush',
  'actionMessageInApp',
  'actionMessageEmail',
  'actionPostback',
  'updateTagCount',
  'end',
] as const;
export const StepType = z.enum(STEP_TYPES);
export type StepType = z.infer<typeof StepType>;

export const StepCategory = z.enum(['source', 'flow', 'action', 'update', 'end']);
export type StepCategory = z.infer<typeof StepCategory>;

export const InteractionType = z.enum(['impression', 'click', 'open', 'dismissed_click']);
export type InteractionType = z.infer<typeof InteractionType>;

export const PostbackTarget = z.enum(['https', 'integration']);
export const PostbackValueMode = z.enum(['static', 'dynamic']);
export const PostbackAction = z.enum(['activate', 'disable']);
export const PostbackMethod = z.enum(['POST', 'GET', 'PUT', 'PATCH', 'DELETE']);
export type PostbackMethod = z.infer<typeof PostbackMethod>;
export const PostbackEntry = z.object({ param: z.string().max(500), value: z.string().max(5000) });
export type PostbackEntry = z.infer<typeof PostbackEntry>;
/** A body is either a list of param/value entries or a JSON text (a template, see postback.ts). */
export const PostbackBody = z.union([z.array(PostbackEntry).max(200), z.string().max(100_000)]);
export type PostbackBody = z.infer<typeof PostbackBody>;

export const StepId = z.string().min(1).max(200);
export const MAX_DURATION_SECONDS = 10 * 366 * 86_400;
/** Seconds. */
export const DurationSeconds = z.number().int().min(0).max(MAX_DURATION_SECONDS);

export const JourneyPath = z.object({
  id: z.string().min(1).max(200),
  name: z.string().max(200),
  next: StepId.nullable(),
  /** flowInteraction, flowWaitInteraction: the interaction this path waits for. */
  action: InteractionType.nullable().optional(),
  /** flowEvent */
  eventId: z.string().max(200).nullable().optional(),
  /** flowSplit */
  segment: Segment.nullable().optional(),
  /** flowRandom: a relative weight (the worker divides by the sum). */
  amount: z.number().min(0).max(1).nullable().optional(),
  /** flowWaitInteraction, last path: how long to wait before giving up. */
  duration: DurationSeconds.nullable().optional(),
});
export type JourneyPath = z.infer<typeof JourneyPath>;

const base = { id: StepId, name: z.string().max(200).optional(), auto: z.boolean().optional() };
const single = { ...base, next: StepId.nullable() };
const branching = { ...base, paths: z.array(JourneyPath).max(50) };
const message = { ...single, campaignId: z.string().max(200).nullable(), messageId: z.string().max(200).nullable() };

export const SourceAudienceStep = z.object({
  ...single,
  type: z.literal('sourceAudience'),
  audienceId: z.string().max(200).nullable(),
  segment: Segment.nullable(),
});
export const SourceEventsStep = z.object({
  ...single,
  type: z.literal('sourceEvents'),
  eventIds: z.array(z.string().max(200)).max(200),
});
export const FlowInteractionStep = z.object({ ...branching, type: z.literal('flowInteraction') });
export const FlowEventStep = z.object({ ...branching, type: z.literal('flowEvent') });
export const FlowRandomStep = z.object({ ...branching, type: z.literal('flowRandom') });
export const FlowSplitStep = z.object({ ...branching, type: z.literal('flowSplit') });
export const FlowJoinStep = z.object({ ...single, type: z.literal('flowJoin') });
export const FlowWaitStep = z.object({ ...single, type: z.literal('flowWait'), duration: DurationSeconds.nullable() });
export const FlowWaitInteractionStep = z.object({ ...branching, type: z.literal('flowWaitInteraction') });
export const ActionMessagePushStep = z.object({ ...message, type: z.literal('actionMessagePush') });
export const ActionMessageInAppStep = z.object({ ...message, type: z.literal('actionMessageInApp') });
export const ActionMessageEmailStep = z.object({ ...message, type: z.literal('actionMessageEmail') });
export const ActionPostbackStep = z.object({
  ...single,
  type: z.literal('actionPostback'),
  target: PostbackTarget,
  valueMode: PostbackValueMode,
  action: PostbackAction,
  postbackUrl: z.string().max(2000),
  postbackBody: PostbackBody,
  postbackHeader: z.array(PostbackEntry).max(100),
  postbackMethod: PostbackMethod,
  /** For target `integration`: the experience-platform integration. */
  integrationId: z.string().max(200).nullable(),
});
export const UpdateTagCountStep = z.object({
  ...single,
  type: z.literal('updateTagCount'),
  tagId: z.string().max(200).nullable(),
  amount: z.number().int().min(-1_000_000).max(1_000_000),
});
export const EndStep = z.object({ ...base, type: z.literal('end') });

export const JourneyStep = z.discriminatedUnion('type', [
  SourceAudienceStep,
  SourceEventsStep,
  FlowInteractionStep,
  FlowEventStep,
  FlowRandomStep,
  FlowSplitStep,
  FlowJoinStep,
  FlowWaitStep,
  FlowWaitInteractionStep,
  ActionMessagePushStep,
  ActionMessageInAppStep,
  ActionMessageEmailStep,
  ActionPostbackStep,
  UpdateTagCountStep,
  EndStep,
]);
export type JourneyStep = z.infer<typeof JourneyStep>;
export type StepOf<T extends StepType> = Extract<JourneyStep, { type: T }>;
export type SingleNextStep = Extract<JourneyStep, { next: string | null }>;
export type BranchingStep = Extract<JourneyStep, { paths: JourneyPath[] }>;

/**
 * The most steps a journey holds, automatic ones included: the editor offers no new step beyond
 * it (canAddAfter), and a document that holds more anyway (an old client, a script) is refused at
 * launch with `too_many_steps`.
 */
export const MAX_JOURNEY_STEPS = 1000;

/** `settings` absent: the defaults (settings.ts); documents and versions made before settings existed stay valid. */
export const Journey = z.object({
  entryId: StepId.nullable(),
  steps: z.array(JourneyStep).max(MAX_JOURNEY_STEPS),
  settings: JourneySettings.optional(),
});
export type Journey = z.infer<typeof Journey>;

export function stepCategory(type: StepType): StepCategory {
  switch (type) {
    case 'sourceAudience':
    case 'sourceEvents':
      return 'source';
    case 'flowInteraction':
    case 'flowEvent':
    case 'flowRandom':
    case 'flowSplit':
    case 'flowJoin':
    case 'flowWait':
    case 'flowWaitInteraction':
      return 'flow';
    case 'actionMessagePush':
    case 'actionMessageInApp':
    case 'actionMessageEmail':
    case 'actionPostback':
      return 'action';
    case 'updateTagCount':
      return 'update';
    case 'end':
      return 'end';
    default: {
      const never: never = type;
      throw new Error(`unknown step type ${String(never)}`);
    }
  }
}

/** How a step links onward: one `next`, several `paths`, or nothing (end). */
export function stepShape(type: StepType): 'next' | 'paths' | 'none' {
  switch (type) {
    case 'flowInteraction':
    case 'flowEvent':
    case 'flowRandom':
    case 'flowSplit':
    case 'flowWaitInteraction':
      return 'paths';
    case 'end':
      return 'none';
    case 'sourceAudience':
    case 'sourceEvents':
    case 'flowJoin':
    case 'flowWait':
    case 'actionMessagePush':
    case 'actionMessageInApp':
    case 'actionMessageEmail':
    case 'actionPostback':
    case 'updateTagCount':
      return 'next';
    default: {
      const never: never = type;
      throw new Error(`unknown step type ${String(never)}`);
    }
  }
}

export const isSource = (type: StepType) => stepCategory(type) === 'source';
/** Steps that hold the user for a while: a wait, or a wait for an interaction (which has a timeout). */
export const isWaitLike = (type: StepType) => type === 'flowWait' || type === 'flowWaitInteraction';

export const MessageChannel = z.enum(['push', 'inApp', 'email']);
export type MessageChannel = z.infer<typeof MessageChannel>;

export function messageChannel(type: StepType): MessageChannel | null {
  if (type === 'actionMessagePush') return 'push';
  if (type === 'actionMessageInApp') return 'inApp';
  if (type === 'actionMessageEmail') return 'email';
  return null;
}

/** SPEC.md section 4: open only after in-app; click, impression, dismissed click only after email or push. */
export function interactionsAfter(channel: MessageChannel): readonly InteractionType[] {
  switch (channel) {
    case 'inApp':
      return ['open'];
    case 'push':
    case 'email':
      return ['impression', 'click', 'dismissed_click'];
    default: {
      const never: never = channel;
      throw new Error(`unknown channel ${String(never)}`);
    }
  }
}

/** A path with the defaults of its step type; `last` marks the otherwise/timeout path. */
export function createPath(type: BranchingStep['type'], id: string, last: boolean): JourneyPath {
  const path: JourneyPath = { id, name: '', next: null };
  switch (type) {
    case 'flowInteraction':
      return last ? path : { ...path, action: null };
    case 'flowWaitInteraction':
      return last ? { ...path, duration: DEFAULT_WAIT_SECONDS } : { ...path, action: null };
    case 'flowEvent':
      return last ? path : { ...path, eventId: null };
    case 'flowSplit':
      return last ? path : { ...path, segment: null };
    case 'flowRandom':
      return { ...path, amount: DEFAULT_RANDOM_AMOUNT };
    default: {
      const never: never = type;
      throw new Error(`unknown branching type ${String(never)}`);
    }
  }
}

const twoPaths = (type: BranchingStep['type']) => [createPath(type, 'p1', false), createPath(type, 'p2', true)];

/** A new step of `type` with valid defaults and open ends. */
export function createStep<T extends StepType>(type: T, id: string): StepOf<T>;
export function createStep(type: StepType, id: string): JourneyStep {
  switch (type) {
    case 'sourceAudience':
      return { id, type, next: null, audienceId: null, segment: null };
    case 'sourceEvents':
      return { id, type, next: null, eventIds: [] };
    case 'flowInteraction':
    case 'flowEvent':
    case 'flowRandom':
    case 'flowSplit':
    case 'flowWaitInteraction':
      return { id, type, paths: twoPaths(type) };
    case 'flowJoin':
      return { id, type, next: null };
    case 'flowWait':
      return { id, type, next: null, duration: DEFAULT_WAIT_SECONDS };
    case 'actionMessagePush':
    case 'actionMessageInApp':
    case 'actionMessageEmail':
      return { id, type, next: null, campaignId: null, messageId: null };
    case 'actionPostback':
      return {
        id,
        type,
        next: null,
        target: 'https',
        valueMode: 'static',
        action: 'activate',
        postbackUrl: '',
        postbackBody: [],
        postbackHeader: [],
        postbackMethod: DEFAULT_POSTBACK_METHOD,
        integrationId: null,
      };
    case 'updateTagCount':
      return { id, type, next: null, tagId: null, amount: DEFAULT_TAG_COUNT_AMOUNT };
    case 'end':
      return { id, type };
    default: {
      const never: never = type;
      throw new Error(`unknown step type ${String(never)}`);
    }
  }
}
