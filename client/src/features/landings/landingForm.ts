/**
 * The landing editor's values and checks, pure so they are tested: the values are the request
 * body as typed (`LandingInputDraft`), checked with the shared `LandingInput` schema; a refused
 * rule (slug, colour, domain, image or button address) is said in the person's language by its
 * `rule`, and the API's refusals (30 on slug or domain, 10 on campaign or link, ...) land on
 * their fields by their reason code.
 */
import type { ValidationIssue } from '@gd/shared/errors';
import { DEFAULT_LANDING_COLOURS, newBlock, type LandingBlock, type LandingBlockType, type LandingRule } from '@gd/shared/landings/model';
import { LandingInput, type Landing, type LandingInputDraft } from '@gd/shared/schemas/landings';
import type { TFunction, TKey } from '../../i18n/keys.ts';
import { splitFailure, validationText } from '../../ui/forms.ts';

export interface LandingValues {
  name: string;
  slug: string;
  domain: string;
  campaignId: string | null;
  linkId: string | null;
  colours: { background: string; text: string; accent: string };
  blocks: LandingBlock[];
}

/** Texts a new landing starts with, in the person's language. */
export interface StarterTexts { title: string; text: string; button: string }

/** The editor's values for a landing, or for a new one (a title, a text and a button to start from). */
export function landingValues(landing?: Landing, starter: StarterTexts = { title: '', text: '', button: '' }, makeId: () => string = blockId): LandingValues {
  if (landing) {
    return {
      name: landing.name, slug: landing.slug, domain: landing.domain ?? '', campaignId: landing.campaignId, linkId: landing.linkId,
      colours: { ...landing.colours }, blocks: landing.blocks.map((b) => structuredClone(b)),
    };
  }
  const title = newBlock('title', makeId());
  const text = newBlock('text', makeId());
  const buttons = newBlock('buttons', makeId());
  const blocks: LandingBlock[] = [
    title.type === 'title' ? { ...title, text: starter.title } : title,
    text.type === 'text' ? { ...text, text: starter.text } : text,
    buttons.type === 'buttons' ? { ...buttons, buttons: buttons.buttons.map((b) => ({ ...b, label: starter.button })) } : buttons,
  ];
  return { name: '', slug: '', domain: '', campaignId: null, linkId: null, colours: { ...DEFAULT_LANDING_COLOURS }, blocks };
}

/** The request body of the values. */
export function landingInput(values: LandingValues): LandingInputDraft {
  return {
    name: values.name,
    slug: values.slug.trim(),
    domain: values.domain.trim() === '' ? null : values.domain.trim(),
    campaignId: values.campaignId,
    linkId: values.linkId,
    colours: values.colours,
    blocks: values.blocks,
  };
}

const RULES: Record<LandingRule, TKey> = {
  slug: 'landings.issues.slug',
  colour: 'landings.issues.colour',
  domain: 'landings.issues.domain',
  image_url: 'landings.issues.image_url',
  button_url: 'landings.issues.button_url',
  block_ids: 'landings.issues.blocks',
};

/** The issues of the values as texts by path (`slug`, `colours.accent`, `blocks.2.buttons.0.url`). */
export function validateLanding(values: LandingValues, t: TFunction): Record<string, string> {
  const result = LandingInput.safeParse(landingInput(values));
  const errors: Record<string, string> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    if (path in errors) continue;
    const rule = (issue as { params?: { rule?: LandingRule } }).params?.rule;
    errors[path] = rule && RULES[rule] ? t(RULES[rule]) : validationText(issue as ValidationIssue, t);
  }
  return errors;
}

/** Whether any error is inside block `index`. */
export const blockHasError = (errors: Record<string, string>, index: number) => Object.keys(errors).some((p) => p === `blocks.${index}` || p.startsWith(`blocks.${index}.`));

const REASONS: Record<string, TKey> = {
  slug_taken: 'landings.issues.slug_taken',
  domain_taken: 'landings.issues.domain_taken',
  domain_reserved: 'landings.issues.domain_reserved',
  not_found: 'landings.issues.not_found',
  link_campaign: 'landings.issues.link_campaign',
  empty: 'landings.issues.empty',
};
const FIELDS = ['name', 'slug', 'domain', 'campaignId', 'linkId', 'blocks', 'colours.background', 'colours.text', 'colours.accent'];

/** A refused save or publication as field errors and a form error. */
export function landingFailure(error: unknown, t: TFunction): { fieldErrors: Record<string, string>; formError: unknown } {
  return splitFailure(error, t, FIELDS, (message) => {
    const key = REASONS[message];
    return key ? t(key) : undefined;
  });
}

/** A block id: 10 random letters and digits. */
export function blockId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `b${[...bytes].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('')}`;
}

/** The blocks with one added at the end. */
export const addBlock = (blocks: readonly LandingBlock[], type: LandingBlockType, colours: LandingValues['colours'], id = blockId()): LandingBlock[] => [...blocks, newBlock(type, id, colours)];

/** The blocks with block `index` moved by `by` (-1 up, +1 down); unchanged at the ends. */
export function moveBlock(blocks: readonly LandingBlock[], index: number, by: -1 | 1): LandingBlock[] {
  const to = index + by;
  if (index < 0 || index >= blocks.length || to < 0 || to >= blocks.length) return [...blocks];
  const next = [...blocks];
  const [moved] = next.splice(index, 1);
  if (moved) next.splice(to, 0, moved);
  return next;
}

/** A slug suggested from a name: lower case, accents dropped, other characters as single hyphens. */
export function slugFromName(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9_~.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 100);
}
