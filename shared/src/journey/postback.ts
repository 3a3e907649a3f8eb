/**
 * Postback body templates (SPEC.md sections 3 and 5). A JSON body may hold `{{name}}` or
 * `{{name.part}}` placeholders (letters, digits, dash, underscore; one optional dot part). The
 * check replaces each with a sample value and parses the result as JSON, so a placeholder must sit
 * where its value will be valid: `"{{customerId}}"` inside quotes, `{{unixTime}}` also bare.
 *
 * The part before the dot names the template; the dot part is a modifier the worker may use (the
 * spec gives no meaning to it). Only the names of POSTBACK_TEMPLATES exist (SPEC §3 "Body
 * templates"): another (`{{user.name}}`) is refused by the editor's live check and by launch alike
 * (postbackTemplateCheck; the validator's postback_placeholder_unknown); for the JSON check it is
 * replaced with the sample `0`, which is valid bare or quoted.
 */
import { z } from 'zod';

export const POSTBACK_TEMPLATES = [
  'customerId',
  'campaignId',
  'campaignType',
  'journeyId',
  'unixTime',
  'isoDate',
  'uuidV4',
] as const;
export const PostbackTemplate = z.enum(POSTBACK_TEMPLATES);
export type PostbackTemplate = z.infer<typeof PostbackTemplate>;

/** Samples as they appear in the body text (no quotes: strings must be quoted by the template). */
export const POSTBACK_TEMPLATE_SAMPLES: Readonly<Record<PostbackTemplate, string>> = {
  customerId: 'customer-1',
  campaignId: 'campaign-1',
  campaignType: 'push',
  journeyId: 'journey-1',
  unixTime: '1700000000',
  isoDate: '2023-11-14T22:13:20.000Z',
  uuidV4: '9b2f6c1e-3d4a-4f8b-9c7e-1a2b3c4d5e6f',
};
const UNKNOWN_SAMPLE = '0';

const PLACEHOLDER = /\{\{([A-Za-z0-9_-]+)(?:\.([A-Za-z0-9_-]+))?\}\}/g;

export interface PostbackPlaceholder {
  /** The whole placeholder text, braces included. */
  text: string;
  name: string;
  part: string | null;
}

export function postbackPlaceholders(text: string): PostbackPlaceholder[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => ({ text: m[0], name: m[1] ?? '', part: m[2] ?? null }));
}

export const isPostbackTemplate = (name: string): name is PostbackTemplate =>
  (POSTBACK_TEMPLATES as readonly string[]).includes(name);

/** Replaces every placeholder with `value(placeholder)`. */
export function fillPostbackTemplate(text: string, value: (p: PostbackPlaceholder) => string): string {
  return text.replace(PLACEHOLDER, (whole: string, name: string, part: string | undefined) =>
    value({ text: whole, name, part: part ?? null }),
  );
}

export const unknownPlaceholders = (text: string): string[] =>
  postbackPlaceholders(text)
    .filter((p) => !isPostbackTemplate(p.name))
    .map((p) => p.text);

/** True when `body`, with every placeholder replaced by its sample, is valid JSON. */
export function postbackTemplateValid(body: string): boolean {
  const filled = fillPostbackTemplate(body, (p) =>
    isPostbackTemplate(p.name) ? POSTBACK_TEMPLATE_SAMPLES[p.name] : UNKNOWN_SAMPLE,
  );
  try {
    JSON.parse(filled);
    return true;
  } catch {
    return false;
  }
}

/**
 * The check the body field shows while typing, and the one launch applies (validate.ts): the body
 * is valid JSON with samples in place, and every placeholder is one of POSTBACK_TEMPLATES (a dot
 * part is allowed after a known name). Both must hold for the template to be valid.
 */
export function postbackTemplateCheck(body: string): { json: boolean; unknown: string[] } {
  return { json: postbackTemplateValid(body), unknown: [...new Set(unknownPlaceholders(body))] };
}
