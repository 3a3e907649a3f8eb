/**
 * A native ad filled through its template (pure): the template names the fields the app's slot
 * renders; the message's content gives the values. Ours where SPEC.md is silent:
 *
 * - A field whose key names a content field takes it: headline/title → title; body/message/
 *   description/text → message; image/main_image/picture → image_url; click_url/url/link/target_url
 *   → target_url; call_to_action/cta/button → the first button's text.
 * - The other fields take, by kind and in order, what no field has taken yet: the first text field
 *   the title, the next the message; the first image field the image; the first url field the
 *   target. A colour, or a field with nothing left, is empty.
 * - Text is cut to the field's maxLength.
 */
import type { MessageContent } from './model.ts';

export interface NativeTemplateShape {
  fields: readonly { key: string; kind: 'text' | 'image' | 'url' | 'color'; maxLength?: number | undefined }[];
}

type Source = 'title' | 'message' | 'image_url' | 'target_url' | 'cta';

const BY_KEY: Record<string, Source> = {
  headline: 'title', title: 'title',
  body: 'message', message: 'message', description: 'message', text: 'message',
  image: 'image_url', main_image: 'image_url', image_url: 'image_url', picture: 'image_url',
  click_url: 'target_url', url: 'target_url', link: 'target_url', target_url: 'target_url',
  call_to_action: 'cta', cta: 'cta', button: 'cta',
};
const BY_KIND: Record<'text' | 'image' | 'url', readonly Source[]> = { text: ['title', 'message'], image: ['image_url'], url: ['target_url'] };

const valueOf = (content: Pick<MessageContent, 'title' | 'message' | 'image_url' | 'target_url' | 'buttons'>, source: Source): string =>
  source === 'cta' ? content.buttons[0]?.text ?? '' : content[source];

export function fillNativeAd(template: NativeTemplateShape, content: Pick<MessageContent, 'title' | 'message' | 'image_url' | 'target_url' | 'buttons'>): { fields: Record<string, string>; clickUrl: string } {
  const taken = new Set<Source>();
  const sourceOf = new Map<string, Source>();
  for (const f of template.fields) {
    const s = BY_KEY[f.key.toLowerCase()];
    if (s && !taken.has(s)) {
      taken.add(s);
      sourceOf.set(f.key, s);
    }
  }
  for (const f of template.fields) {
    if (sourceOf.has(f.key) || f.kind === 'color') continue;
    const s = BY_KIND[f.kind].find((c) => !taken.has(c));
    if (s) {
      taken.add(s);
      sourceOf.set(f.key, s);
    }
  }
  const fields: Record<string, string> = {};
  let clickUrl = '';
  for (const f of template.fields) {
    const s = sourceOf.get(f.key);
    const value = s ? valueOf(content, s) : '';
    fields[f.key] = f.maxLength !== undefined && f.kind === 'text' ? value.slice(0, f.maxLength) : value;
    if (f.kind === 'url' && !clickUrl && value) clickUrl = value;
  }
  return { fields, clickUrl: clickUrl || content.target_url };
}
