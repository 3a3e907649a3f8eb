/**
 * An A/B test's hold-out (issue 13, "send the winner to the rest"). A test may go first to a test
 * portion of its audience (`testPercent`, 10 to 100; 100, the default, sends a variant to everyone
 * as before); the rest is held back. Once the analysis declares a winner (abStats.ts `declareWinner`),
 * a person with the play key sends the winner to the held-back people: one follow-up run of the
 * version, created once (delivery: message_sends kind 'winner', migration 024).
 *
 * Decisions:
 * - **Who is in the test portion** is a draw per live run and person, independent of the variant's
 *   draw (otherwise a 50% portion with two 50% variants would put everyone in A): `portionBucket`
 *   of the live run's id and the person (delivery/plan.ts), below `testPercent`. The winner run
 *   draws again with the *live* run's id, so it names exactly the people the first run held back,
 *   whoever is in the target when it resolves (people who joined the target since get their own
 *   draw: inside the portion they get nothing, since the test is over; outside, the winner).
 * - **The winner is never automatic**: a person decides to send it, from the analysis, when the
 *   statistics declared one. An automatic send at the end of a window would send an e-mail nobody
 *   looked at to most of the audience on what may be a novelty effect; the analysis screen shows
 *   why the button is disabled until a winner is declared.
 * Older drafts and versions without the field read the default (`abTestOf`).
 */
import { z } from 'zod';

export const AB_TEST_LIMITS = { minTestPercent: 10, maxTestPercent: 100, defaultTestPercent: 100 } as const;

export const AbTestSettings = z.object({
  /** Percent of the audience the variants go to first; the rest waits for the winner. */
  testPercent: z.number().int().min(AB_TEST_LIMITS.minTestPercent).max(AB_TEST_LIMITS.maxTestPercent),
});
export type AbTestSettings = z.infer<typeof AbTestSettings>;

export function defaultAbTest(): AbTestSettings {
  return { testPercent: AB_TEST_LIMITS.defaultTestPercent };
}

/** The A/B settings of a stored definition (a version or a send's jsonb): the default when absent or unreadable. */
export function abTestOf(definition: unknown): AbTestSettings {
  const raw = definition && typeof definition === 'object' ? (definition as { abTest?: unknown }).abTest : undefined;
  const parsed = AbTestSettings.safeParse(raw);
  return parsed.success ? parsed.data : defaultAbTest();
}

/** Whether a definition holds people back for a winner: an A/B test sent first to part of its audience. */
export function holdsBack(definition: { type: string } & Record<string, unknown>): boolean {
  return definition.type === 'test_ab' && abTestOf(definition).testPercent < AB_TEST_LIMITS.maxTestPercent;
}
