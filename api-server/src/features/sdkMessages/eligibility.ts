/**
 * Which in-app messages and native ads a person is offered now (pure; repository.ts reads the
 * facts, routes.ts serves the answer).
 *
 * Decision (issue 13): in-app messages go through the same outbox as push and e-mail. Playing a
 * message whose type (or A/B variant's type) is in-app or a native ad writes one `message_outbox`
 * row per person of its target, channel 'inApp', address '-' (delivery/resolve.ts), so targeting,
 * the variant draw, the language and the idempotency key are the push and e-mail ones, and a page
 * resolved twice offers nothing twice. The send workers never lease those rows (migration 022);
 * 'queued' means "not yet handed to the person's device". The SDK asks for the person's rows, and
 * a row is offered when:
 *
 * - its message still runs (Processing, Ready, Sending, Active: not Scheduled, Paused, Finished,
 *   Deleted), or it belongs to a test run (offered to the test devices until it expires);
 * - its time came (`run_at`: a schedule, quiet hours and local-time waves move it, as for push)
 *   and its `life` has not run out (`expires_at`, from `run_at`);
 * - the variant's content is of the kind asked (in-app types for /in-app, native ads for
 *   /native-ads; a native ad's template must be the placement's), and it is among the first
 *   `limit` offers (native ads): only rows actually returned are marked delivered;
 * - the person has not closed it: a `dismissed_click` ends any of them; a `click` ends an in-app
 *   message other than a coupon (a coupon stays until redeemed max_redeems times);
 * - a coupon with `max_redeems` (> 0) has redemptions left for the person (message_redemptions);
 * - the frequency cap: a row not yet delivered is offered only when the person got fewer than the
 *   message's `frequencyCap` messages on the in-app channel during their current local day,
 *   counted by delivery/send.ts `sentToday` over every channel's 'sent' rows. The first offer
 *   marks the row 'sent' (delivered: the run's counts and the caps see it, once); a row already
 *   delivered is offered again without counting again (the person sees the message until they
 *   close it or it expires). Over the cap, the row stays queued for another day (not 'skipped' as a
 *   push would be: an in-app message has no moment of sending to miss). Test rows bypass caps.
 *
 * A live run whose in-app rows are all past their life finishes (send.ts `finishRuns`); without a
 * life, an in-app message runs until it is paused.
 */
import type { MessageContent, MessageDraft } from '@gd/shared';
import { DELIVERING_STATUSES, STANDING_STATUSES } from '@gd/shared/message/lifecycle';
import type { InAppType } from '@gd/shared/schemas/sdkMessages';
import { contentFor, fillPlaceholders } from '../delivery/email.ts';
import { languageFor } from '../delivery/plan.ts';


export interface Candidate {
  rowId: string;
  messageId: string;
  campaignId: string;
  variantId: string;
  /** The language the row was resolved with (the person's profile language then). */
  language: string;
  status: 'queued' | 'sent';
  test: boolean;
  runAt: Date;
  expiresAt: Date | null;
  messageStatus: string;
  /** A row of a journey's or rule's standing run (delivery/enqueue.ts): offered while the message is in STANDING_STATUSES. */
  standing?: boolean;
  definition: MessageDraft;
  /** The person's redemptions of the message. */
  redeems: number;
  /** The person's interactions with the message since the run started. */
  clicked: boolean;
  dismissed: boolean;
}

export interface Offer {
  candidate: Candidate;
  content: MessageContent;
  language: string;
  redeemsLeft: number | null;
}

/**
 * What the SDK asks for: in-app messages, or the native ads of one placement (`templateId`, the
 * placement's template; `templateOf` names the template an ad's content is shown through).
 */
export type Want = { kind: 'inApp' } | { kind: 'nativeAd'; templateId: string; templateOf: (content: MessageContent) => string | undefined };

const IN_APP_TYPES: ReadonlySet<string> = new Set<InAppType>(['banner', 'strip', 'startview', 'adball', 'coupon', 'dynamictab', 'default', 'blank']);

/** The person's redemptions left of a content (null: no limit; max_redeems 0 or null means none is set). */
export function redeemsLeft(content: Pick<MessageContent, 'max_redeems'>, redeems: number): number | null {
  const max = content.max_redeems;
  return max === null || max <= 0 ? null : Math.max(0, max - redeems);
}

/** Why a candidate is not offered (null: offered), before caps. */
export function refusal(c: Candidate, content: MessageContent | undefined, want: Want, now: Date): string | null {
  if (!c.test && !((c.standing ? STANDING_STATUSES : DELIVERING_STATUSES) as readonly string[]).includes(c.messageStatus)) return 'not_running';
  if (c.runAt > now) return 'not_yet';
  if (c.expiresAt && c.expiresAt <= now) return 'expired';
  if (!content) return 'no_content';
  const fits = want.kind === 'inApp' ? IN_APP_TYPES.has(content.type) : content.type === 'native_ad';
  if (!fits) return 'other_kind';
  if (want.kind === 'nativeAd' && want.templateOf(content) !== want.templateId) return 'other_placement';
  if (c.dismissed) return 'dismissed';
  if (c.clicked && want.kind === 'inApp' && content.type !== 'coupon') return 'clicked';
  if (redeemsLeft(content, c.redeems) === 0) return 'redeemed';
  return null;
}

/**
 * The offers among `candidates` (newest first as given), at most `limit`, and the rows to mark
 * delivered now: exactly the queued rows among the offers returned, so a row of another placement
 * or past the limit is never marked delivered (nor counted by the caps) without being shown.
 * `sentToday`: the person's delivered count on the in-app channel today (send.ts `sentToday`).
 */
export function decideOffers(candidates: readonly Candidate[], opts: { want: Want; now: Date; lang: string | null; sentToday: number; limit?: number; person?: Record<string, string | null> }): { offers: Offer[]; deliver: string[] } {
  const offers: Offer[] = [];
  const deliver: string[] = [];
  let sent = opts.sentToday;
  for (const c of candidates) {
    if (opts.limit !== undefined && offers.length >= opts.limit) break;
    const language = opts.lang ? languageFor(c.definition, opts.lang) : c.language;
    const content = contentFor(c.definition, c.variantId, language);
    if (!content || refusal(c, content, opts.want, opts.now) !== null) continue;
    if (c.status === 'queued') {
      const cap = c.definition.delivery.frequencyCap;
      if (!c.test && cap !== null && sent >= cap) continue;
      if (!c.test) sent += 1;
      deliver.push(c.rowId);
    }
    offers.push({ candidate: c, content: withPlaceholders(content, { ...opts.person, ...c.definition.parameters }), language, redeemsLeft: redeemsLeft(content, c.redeems) });
  }
  return { offers, deliver };
}

/** Placeholders filled: the person's built-ins and the message's communication parameters (others render empty, as in e-mail). */
function withPlaceholders(content: MessageContent, values: Record<string, string | null>): MessageContent {
  const fill = (s: string) => (s.includes('{{') ? fillPlaceholders(s, values) : s);
  return {
    ...content,
    title: fill(content.title),
    message: fill(content.message),
    promo_code: fill(content.promo_code),
    buttons: content.buttons.map((b) => ({ ...b, text: fill(b.text) })),
  };
}
