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
 * - **The decision metric is fixed in advance** (`primaryMetric`), with the version that is
 *   approved and sent: the winner is declared only on it; the other metrics the analysis shows are
 *   informational. Letting whoever sends the winner pick the metric after seeing the figures
 *   ("metric shopping": three tries at 5% each) raises the false-winner rate to ~14%. The default
 *   is `click`: it exists for every channel an A/B variant may use (e-mail, push, in-app, native),
 *   while an e-mail `open` is unreliable (image blocking, privacy proxies fetching every pixel) and
 *   push and in-app have no open of their own; a test meant to move purchases sets `conversion`
 *   (the version's own conversion goal and window, message/conversion.ts).
 * Older drafts and versions without the field read the default (`abTestOf`): `testPercent` 100,
 * `primaryMetric` 'click'. No document migration is needed for `primaryMetric`: documents of
 * schema version 4 keep their stored `abTest` ({ testPercent }) and read 'click' until someone
 * chooses another metric (the field is optional in the stored settings, and `abTestOf` /
 * `primaryMetricOf` fill it in), which is what every test sent before it existed was decided on
 * (the analysis screen's default metric).
 */
import { z } from 'zod';

export const AB_TEST_LIMITS = { minTestPercent: 10, maxTestPercent: 100, defaultTestPercent: 100 } as const;

/** The metrics an A/B test can be decided on. */
export const AbMetric = z.enum(['open', 'click', 'conversion']);
export type AbMetric = z.infer<typeof AbMetric>;
export const DEFAULT_AB_METRIC: AbMetric = 'click';

export const AbTestSettings = z.object({
  /** Percent of the audience the variants go to first; the rest waits for the winner. */
  testPercent: z.number().int().min(AB_TEST_LIMITS.minTestPercent).max(AB_TEST_LIMITS.maxTestPercent),
  /** The metric the winner is declared on, decided before sending (absent: DEFAULT_AB_METRIC). */
  primaryMetric: AbMetric.optional(),
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

/** The metric the winner of a stored definition is declared on. */
export function primaryMetricOf(definition: unknown): AbMetric {
  return abTestOf(definition).primaryMetric ?? DEFAULT_AB_METRIC;
}

/** Whether a definition holds people back for a winner: an A/B test sent first to part of its audience. */
export function holdsBack(definition: { type: string; abTest?: unknown }): boolean {
  return definition.type === 'test_ab' && abTestOf(definition).testPercent < AB_TEST_LIMITS.maxTestPercent;
}
