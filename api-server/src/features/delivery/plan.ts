/**
 * What one person gets from a message version (pure): the variant (an A/B test's draw, fixed per
 * run and person so a resolver that runs a page twice agrees), the language, the channel each
 * variant sends on, and the idempotency key of the outbox row.
 */
import { createHash } from 'node:crypto';
import type { MessageDraft, MessageVariant } from '@gd/shared';
import { channelOf } from '@gd/shared/schemas/messageWhatIf';

/** The channels the outbox sends on; in-app messages are fetched by the SDK instead. */
export type OutboxChannel = 'email' | 'push';

/** A bucket 0..99 from the run and the person (SHA-256: stable across processes and versions). */
export function bucketOf(sendId: string, personId: string): number {
  return createHash('sha256').update(`${sendId}:${personId}`).digest().readUInt32BE(0) % 100;
}

/** The variant for a bucket: each takes its share of 0..99 in order; an A/B test's shares sum to 100. */
export function variantFor(variants: readonly MessageVariant[], bucket: number): MessageVariant {
  let upTo = 0;
  for (const v of variants) {
    upTo += v.share;
    if (bucket < upTo) return v;
  }
  // Shares below 100 (a single-variant message has share 100; validation refuses other sums).
  const last = variants.at(-1);
  if (!last) throw new Error('a message version has at least one variant');
  return last;
}

/** The outbox channel of a variant: the message's type, or for an A/B test the variant's content type. */
export function channelOfVariant(draft: MessageDraft, variant: MessageVariant): OutboxChannel | null {
  const type = draft.type === 'test_ab' ? (variant.content[draft.defaultLanguage]?.type ?? Object.values(variant.content)[0]?.type) : draft.type;
  const channel = type ? channelOf(type) : null;
  return channel === 'email' || channel === 'push' ? channel : null;
}

/** The person's language when the message has content in it, else the message's default language. */
export function languageFor(draft: MessageDraft, personLanguage: string | null): string {
  if (personLanguage) {
    if (draft.languages.includes(personLanguage)) return personLanguage;
    const base = (personLanguage.split('-')[0] ?? '').toLowerCase();
    if (draft.languages.includes(base)) return base;
  }
  return draft.defaultLanguage;
}

/**
 * One outbox row per run, person, channel and address: the key a second resolution of the page
 * collides on. The person id is zero-padded so a run's keys sort in the order the resolver writes
 * them (by person id): each page lands at the right edge of the unique index instead of all over
 * it (a million-person run: 90.6 s instead of 98.0 s, docs/BENCHMARKS.md).
 */
export const idempotencyKey = (sendId: string, personId: string, channel: OutboxChannel, address: string): string =>
  `${sendId}:${personId.padStart(19, '0')}:${channel}:${createHash('sha256').update(address).digest('base64url').slice(0, 22)}`;
