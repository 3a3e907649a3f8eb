/**
 * Automatic rules of an app (schemas/rules.ts, rules/model.ts). Reading needs the screen's route
 * key and `ui:rule.view`; creating `ui:rule.create`; editing (and activating or pausing, which
 * SPEC gives no key of its own) `ui:rule.edit`, deleting `.delete`, cloning `.clone` (and
 * `.create`). Edit, delete and clone have owner variants: the route checks them on the rule
 * (`can(subject, key, { ownerId })`), a rule the caller may not touch answering like an unused id.
 *
 * Failures: 10001 with `details` for a bad field or a check of rules/validate.ts (`message` the
 * violation's code: message_not_approved, tag_not_found...); 30 for a name in use in the app;
 * 10004 for an id of nothing, of another app, or of a rule the caller may not act on.
 */
import { z } from 'zod';
import { NamedInput } from '../schemas/common.ts';
import { Rule, RuleChoices } from '../schemas/rules.ts';
import { RuleInput } from '../rules/model.ts';
import { ep, none } from './define.ts';

const VIEW = { and: ['route:/communication/rules', 'ui:rule.view'] } as const;
const EDIT = { or: ['ui:rule.edit', 'ui:rule.edit:owner'] } as const;

export const ruleEndpoints = {
  listRules: ep({ method: 'GET', path: '/apps/:appId/rules', summary: "The app's automatic rules, newest first, with their last run and sends", auth: VIEW, response: { rules: z.array(Rule) } }),
  ruleChoices: ep({ method: 'GET', path: '/apps/:appId/rule-choices', summary: 'What the rule form picks from: rule messages (approved or not), coupons and user tags', auth: VIEW, response: { choices: RuleChoices } }),
  getRule: ep({ method: 'GET', path: '/apps/:appId/rules/:ruleId', summary: 'An automatic rule', auth: VIEW, response: { rule: Rule } }),
  createRule: ep({ method: 'POST', path: '/apps/:appId/rules', summary: 'Create an automatic rule (active at once); the message must be an approved automaticRule message of the app', auth: 'ui:rule.create', request: RuleInput, response: { rule: Rule } }),
  updateRule: ep({ method: 'PUT', path: '/apps/:appId/rules/:ruleId', summary: 'Change a rule (its trigger, message, send hour or name); its status stays', auth: EDIT, request: RuleInput, response: { rule: Rule } }),
  cloneRule: ep({ method: 'POST', path: '/apps/:appId/rules/:ruleId/clone', summary: 'A paused copy of the rule under a new name', auth: { or: ['ui:rule.clone', 'ui:rule.clone:owner'] }, request: NamedInput, response: { rule: Rule } }),
  deleteRule: ep({ method: 'DELETE', path: '/apps/:appId/rules/:ruleId', summary: 'Delete a rule (kept for its sends\' history, gone from the list; it sends nothing more)', auth: { or: ['ui:rule.delete', 'ui:rule.delete:owner'] }, response: none }),
  activateRule: ep({ method: 'POST', path: '/apps/:appId/rules/:ruleId/activate', summary: 'Start a paused rule', auth: EDIT, response: { rule: Rule } }),
  pauseRule: ep({ method: 'POST', path: '/apps/:appId/rules/:ruleId/pause', summary: 'Pause a rule: it sends nothing until activated (events meanwhile are not sent later)', auth: EDIT, response: { rule: Rule } }),
} as const;
