/**
 * Landing pages (issue 17, piece C): the block model both sides validate and the rules of the
 * public address. Rendering to static HTML is `render.ts`; the API's shapes are
 * `schemas/landings.ts`; the table is migrations/050_landings.sql.
 *
 * Decisions where SPEC is silent (written down as a user of such a product would expect):
 * - A landing is a page of an app, built from blocks in order: a title, a text (plain text;
 *   a blank line starts a paragraph, a line break stays a line break), an image (https address
 *   only, with alternative text), a row of 1 to 3 buttons (label, address, background and text
 *   colours) and a spacer. At most LANDING_LIMITS.blocks blocks.
 * - Page colours: background, text and accent, each `#RRGGBB` (SPEC §5); titles take the accent.
 *   Anything else is refused with 10001 (`rule: colour`).
 * - The slug is SPEC §5 slug-like text (letters, digits, `_`, `~`, `.`, `-`), 1 to 100
 *   characters, and not only dots (`.` and `..` name directories in an address). Slugs are
 *   unique per domain without regard to case: landings without a custom domain share the link
 *   host's one namespace (`/p/<slug>`, across every account, like short-link codes); a landing
 *   with a custom domain is served only there, at `https://<domain>/<slug>`, so the same slug may
 *   be used on another domain.
 * - A custom domain is a SPEC §5 domain name, stored in lower case. The first account that uses a
 *   domain keeps it: another account's landing naming it is refused (30 on `domain`), so nobody
 *   can put a page on a domain another customer points at the product.
 * - Buttons go to a public http(s) address or an app link (myapp://...). When the page is
 *   reached from a short link (its address carries `gd_click`), every button carries the same
 *   `gd_click=<id>` on, so the click id reaches the store, the web or the app.
 * - A landing is a draft or published; only a published one is served (404 otherwise).
 *   Saving a published landing changes the live page at once (the editor says so); unpublishing
 *   takes it down. Publishing needs at least one block.
 * - A visit is one request of the page by a person (crawlers, link previewers, prefetches and
 *   HEAD requests are not counted, with the link host's rules), counted per UTC day.
 */
import { z } from 'zod';
import { isAppSchemeUrl, isColour, isDomainName, isPublicUrl, isSlug } from '../formats.ts';

export const LANDING_LIMITS = {
  blocks: 40,
  buttons: 3,
  slug: 100,
  title: 200,
  text: 4000,
  label: 60,
  alt: 200,
  url: 2048,
} as const;

/** The statuses of a landing. */
export const LandingStatus = z.enum(['draft', 'published']);
export type LandingStatus = z.infer<typeof LandingStatus>;

/** A slug: SPEC §5 slug-like text, not only dots, at most LANDING_LIMITS.slug characters. */
export function isLandingSlug(s: string): boolean {
  return s.length >= 1 && s.length <= LANDING_LIMITS.slug && isSlug(s) && !/^\.+$/.test(s);
}

/** An image address a landing may show: https on a public host. */
export function isLandingImageUrl(s: string): boolean {
  return s.length <= LANDING_LIMITS.url && isPublicUrl(s, ['https:']);
}

/** A button's address: a public http(s) address or an app link. */
export function isLandingButtonUrl(s: string): boolean {
  return s.length <= LANDING_LIMITS.url && (isPublicUrl(s, ['http:', 'https:']) || isAppSchemeUrl(s));
}

/** A rule a refinement names in its issue's params, so the screen can say it in the person's words. */
export type LandingRule = 'slug' | 'colour' | 'domain' | 'image_url' | 'button_url' | 'block_ids';
const rule = (name: LandingRule, message: string) => ({ message, params: { rule: name } });

export const LandingSlug = z.string().trim().min(1, 'Required').max(LANDING_LIMITS.slug)
  .refine(isLandingSlug, rule('slug', 'Use letters, digits, _, ~, . and - only (not only dots)'));
export const LandingColour = z.string().trim().refine(isColour, rule('colour', 'Use a colour as #RRGGBB'));
export const LandingDomain = z.string().trim().toLowerCase().refine(isDomainName, rule('domain', 'Use a domain name such as promo.example.com'));

const BlockId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'A block id is 1 to 40 letters, digits, _ or -');
const Align = z.enum(['left', 'center']);

export const LandingButton = z.object({
  label: z.string().trim().min(1, 'Required').max(LANDING_LIMITS.label),
  url: z.string().trim().min(1, 'Required').refine(isLandingButtonUrl, rule('button_url', 'Use a public http(s) address or an app link (myapp://...)')),
  background: LandingColour,
  text: LandingColour,
}).strict();
export type LandingButton = z.infer<typeof LandingButton>;

export const TitleBlock = z.object({
  type: z.literal('title'), id: BlockId,
  text: z.string().trim().min(1, 'Required').max(LANDING_LIMITS.title),
  size: z.enum(['large', 'medium']), align: Align,
}).strict();
export const TextBlock = z.object({
  type: z.literal('text'), id: BlockId,
  text: z.string().trim().min(1, 'Required').max(LANDING_LIMITS.text),
  align: Align,
}).strict();
export const ImageBlock = z.object({
  type: z.literal('image'), id: BlockId,
  url: z.string().trim().min(1, 'Required').refine(isLandingImageUrl, rule('image_url', 'Use an https address on a public host')),
  alt: z.string().trim().max(LANDING_LIMITS.alt),
  width: z.enum(['full', 'medium']),
}).strict();
export const ButtonsBlock = z.object({
  type: z.literal('buttons'), id: BlockId,
  buttons: z.array(LandingButton).min(1).max(LANDING_LIMITS.buttons),
  align: Align,
}).strict();
export const SpacerBlock = z.object({
  type: z.literal('spacer'), id: BlockId,
  size: z.enum(['small', 'medium', 'large']),
}).strict();

export const LandingBlock = z.discriminatedUnion('type', [TitleBlock, TextBlock, ImageBlock, ButtonsBlock, SpacerBlock]);
export type LandingBlock = z.infer<typeof LandingBlock>;
export type LandingBlockType = LandingBlock['type'];
export const LANDING_BLOCK_TYPES = ['title', 'text', 'image', 'buttons', 'spacer'] as const satisfies readonly LandingBlockType[];

export const LandingBlocks = z.array(LandingBlock).max(LANDING_LIMITS.blocks).superRefine((blocks, ctx) => {
  const seen = new Set<string>();
  blocks.forEach((block, index) => {
    if (seen.has(block.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], ...rule('block_ids', 'Each block needs its own id') });
    seen.add(block.id);
  });
});

export const LandingColours = z.object({
  background: LandingColour,
  text: LandingColour,
  accent: LandingColour,
}).strict();
export type LandingColours = z.infer<typeof LandingColours>;

export const DEFAULT_LANDING_COLOURS: LandingColours = { background: '#FFFFFF', text: '#1F2937', accent: '#4F46E5' };

/** What a page is made of: what the renderer needs. */
export interface LandingPage {
  name: string;
  colours: LandingColours;
  blocks: readonly LandingBlock[];
}

/** A new block of a type, with the page's colours for buttons. */
export function newBlock(type: LandingBlockType, id: string, colours: LandingColours = DEFAULT_LANDING_COLOURS): LandingBlock {
  switch (type) {
    case 'title': return { type, id, text: '', size: 'large', align: 'center' };
    case 'text': return { type, id, text: '', align: 'center' };
    case 'image': return { type, id, url: '', alt: '', width: 'full' };
    case 'buttons': return { type, id, buttons: [{ label: '', url: '', background: colours.accent, text: '#FFFFFF' }], align: 'center' };
    case 'spacer': return { type, id, size: 'medium' };
    default: {
      const unknown: never = type;
      throw new Error(`unknown block type ${String(unknown)}`);
    }
  }
}

/**
 * The public address of a landing: on its domain (https), else under the link host's base of
 * landings (`<link host origin>/p`).
 */
export function landingUrl(hostBase: string, slug: string, domain: string | null | undefined): string {
  return domain ? `https://${domain}/${encodeURIComponent(slug)}` : `${hostBase.replace(/\/+$/, '')}/${encodeURIComponent(slug)}`;
}
