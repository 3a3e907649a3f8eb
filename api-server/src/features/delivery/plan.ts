/**
 * What one person gets from a message version (pure): the variant (an A/B test's draw, fixed per
 * run and person so a resolver that runs a page twice agrees), the language, the channel each
 * variant sends on, and the idempotency key of the outbox row.
 */
import { createHash } from 'node:crypto';
import type { MessageDraft, MessageVariant } from '@gd/shared';
import { channelOf } from '@gd/shared/schemas/messageWhatIf';

/**
 * The channels of outbox rows. E-mail and push rows are sent by the workers (send.ts); in-app rows
 * (in-app types and native ads) wait, 'queued', to be fetched by the person's SDK
 * (features/sdkMessages: eligibility.ts has the decision), so targeting, the variant draw and
 * idempotency are the same for every channel.
 */
export type OutboxChannel = 'email' | 'push' | 'inApp';

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
  return channel === 'email' || channel === 'push' || channel === 'inApp' ? channel : null;
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

/** A standing run's row (journeys and rules): the caller's key, per channel and address (a person may have several push tokens). */
export const standingKey = (key: string, channel: OutboxChannel, address: string): string =>
  `${key}:${channel}:${createHash('sha256').update(address).digest('base64url').slice(0, 22)}`;

/** The address of an in-app row: the person's SDK fetches it, so there is one row per person. */
export const IN_APP_ADDRESS = '-';
/** A test run's in-app rows are offered to the test devices for at most this long (a test is not a campaign). */
export const TEST_IN_APP_SECONDS = 24 * 3600;

/**
 * When an in-app row stops being offered: its content's `life` (seconds after it became
 * available, the variant's longest over its languages) from `runAt`; null: never (until the
 * message is paused or finished). A test's rows expire within TEST_IN_APP_SECONDS.
 */
export function inAppExpiry(variant: MessageVariant, runAt: Date, test: boolean): Date | null {
  const lives = Object.values(variant.content).map((c) => c.life);
  const life = lives.length && lives.every((l) => l !== null && l > 0) ? Math.max(...lives.map((l) => l ?? 0)) : null;
  const seconds = test ? Math.min(life ?? TEST_IN_APP_SECONDS, TEST_IN_APP_SECONDS) : life;
  return seconds === null ? null : new Date(runAt.getTime() + seconds * 1000);
}

/**
 * An A/B test's test portion (shared message/abTest.ts): a draw per live run and person, apart from
 * the variant's draw, so the portion holds every variant in its share. The winner run draws with
 * the live run's id too, and so names exactly the people the live run held back.
 */
export const portionBucketOf = (liveRunId: string, personId: string): number => bucketOf(`${liveRunId}:portion`, personId);

/** Whether the person is in the test portion of the live run (always, at 100%). */
export const inTestPortion = (liveRunId: string, personId: string, testPercent: number): boolean =>
  testPercent >= 100 || portionBucketOf(liveRunId, personId) < testPercent;
