/**
 * Automatic rules (/communication/rules) as the API answers them, and what the rule form picks
 * from. The model and its checks: rules/model.ts and rules/validate.ts.
 */
import { z } from 'zod';
import { CommunicationStatus } from '../message/lifecycle.ts';
import { CommunicationType } from '../message/model.ts';
import { RuleStatus, RuleTrigger } from '../rules/model.ts';
import { TagValueType } from './tags.ts';

const Uuid = z.string().uuid();
const Time = z.string();

export const Rule = z.object({
  id: Uuid,
  appId: Uuid,
  name: z.string(),
  trigger: RuleTrigger,
  messageId: Uuid,
  /** The message as it is now (null once deleted: the rule then sends nothing until it is given another). */
  messageName: z.string().nullable(),
  messageType: CommunicationType.nullable(),
  /** Time-based rules: the hour (0 to 23) on the app's clock. */
  sendHour: z.number().int().nullable(),
  status: RuleStatus,
  /** Who created it: owner-only permissions (`ui:rule.edit:owner`...) follow it. */
  ownerId: Uuid.nullable(),
  ownerName: z.string().nullable(),
  createdAt: Time,
  updatedAt: Time,
  /** The last time the rule acted (a daily run, or an event that matched), null before the first. */
  lastRunAt: Time.nullable(),
  /** Messages the rule has queued so far. */
  sends: z.number().int(),
});
export type Rule = z.infer<typeof Rule>;

/** What the rule form picks from: the app's rule messages, its coupons and its user tags. */
export const RuleChoices = z.object({
  /** Messages of origin automaticRule that are not deleted; `approved`: has an approved version (only those can be picked). */
  messages: z.array(z.object({ id: Uuid, name: z.string(), type: CommunicationType, status: CommunicationStatus, approved: z.boolean() })),
  /** In-app coupon messages of any origin (what a coupon rule listens to). */
  coupons: z.array(z.object({ id: Uuid, name: z.string() })),
  tags: z.array(z.object({ id: Uuid, name: z.string(), valueType: TagValueType })),
});
export type RuleChoices = z.infer<typeof RuleChoices>;
