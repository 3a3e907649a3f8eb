/**
 * Message settings: an app's communication parameters (/manage/communication-parameters) and
 * native ad templates, the app's own (/manage/native-templates) and the platform's
 * (/admin/native-templates). SPEC.md section 3 names the parameter types and prefix; section 8
 * the codes 32 (a template name taken) and 33 (the default template would be deleted).
 *
 * - A parameter is the shared `CommunicationParameter` (message/draft.ts) with an id; its name is
 *   unique per app (30 on a duplicate), its choices unique within it.
 * - A template lists the fields a native ad carries. Exactly one template of an app is its
 *   default (the first one created; another becomes default by being made so, never by unsetting
 *   or deleting the default); the platform has its own default, seeded by migration 015, which a
 *   native ad uses when its app has no template of its own.
 */
import { z } from 'zod';
import { CommunicationParameter, CommunicationParameterType } from '../message/draft.ts';

const Time = z.string();

/** A parameter's choices hold each value once. */
export const CommunicationParameterInput = CommunicationParameter.refine(
  (p) => new Set(p.values).size === p.values.length,
  { message: 'Each value once', path: ['values'], params: { rule: 'values_unique' } },
);
export type CommunicationParameterInput = z.infer<typeof CommunicationParameterInput>;

export const CommunicationParameterRecord = z.object({
  id: z.string(),
  name: z.string(),
  label: z.string(),
  type: CommunicationParameterType,
  values: z.array(z.string()),
  createdAt: Time,
  updatedAt: Time,
});
export type CommunicationParameterRecord = z.infer<typeof CommunicationParameterRecord>;

export const NativeTemplateFieldKind = z.enum(['text', 'image', 'url', 'color']);
export type NativeTemplateFieldKind = z.infer<typeof NativeTemplateFieldKind>;
export const NATIVE_TEMPLATE_FIELDS_MAX = 30;
export const NATIVE_TEMPLATE_TEXT_MAX = 2000;

/** One field of a native ad: its key (what the SDK receives), what people see, its kind and limits. */
export const NativeTemplateField = z.object({
  key: z.string().trim().regex(/^[a-z][a-z0-9_]{0,39}$/, { message: 'Lower-case letters, digits and _, starting with a letter' }),
  label: z.string().trim().min(1, 'Required').max(80),
  kind: NativeTemplateFieldKind,
  required: z.boolean(),
  /** Longest text a text field takes (text fields only). */
  maxLength: z.number().int().min(1).max(NATIVE_TEMPLATE_TEXT_MAX).optional(),
}).refine((f) => f.kind === 'text' || f.maxLength === undefined, { message: 'Only text fields have a length', path: ['maxLength'] });
export type NativeTemplateField = z.infer<typeof NativeTemplateField>;

export const NativeTemplateInput = z.object({
  name: z.string().trim().min(1, 'Required').max(120),
  fields: z.array(NativeTemplateField).min(1).max(NATIVE_TEMPLATE_FIELDS_MAX),
  /** true makes it the default (the previous default stops being one); false on the default is refused (33). */
  isDefault: z.boolean().optional(),
}).superRefine((t, ctx) => {
  const seen = new Set<string>();
  t.fields.forEach((f, i) => {
    if (seen.has(f.key)) ctx.addIssue({ code: 'custom', message: 'Each key once', path: ['fields', i, 'key'], params: { rule: 'key_unique' } });
    seen.add(f.key);
  });
});
export type NativeTemplateInput = z.infer<typeof NativeTemplateInput>;

export const NativeTemplate = z.object({
  id: z.string(),
  name: z.string(),
  fields: z.array(z.object({ key: z.string(), label: z.string(), kind: NativeTemplateFieldKind, required: z.boolean(), maxLength: z.number().int().optional() })),
  isDefault: z.boolean(),
  /** 'app': the app's own; 'platform': shared by every account. */
  scope: z.enum(['app', 'platform']),
  createdAt: Time,
  updatedAt: Time,
});
export type NativeTemplate = z.infer<typeof NativeTemplate>;
