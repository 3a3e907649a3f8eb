/**
 * An A/B test's analysis (shared schemas/abAnalysis.ts): the test run's counts per variant, all
 * over the run's own people (./repository.ts; conversions with the run's own goal and window), the
 * rates with their Wilson intervals, the winner on the test's primary metric (shared
 * message/abStats.ts, message/abTest.ts), the z-tests on the metric shown, and whether the winner
 * can be sent to the rest now.
 */
import {
  abTestOf, conversionOf, declareWinner, holdsBack, primaryMetricOf, twoProportionTest, wilsonInterval, type MessageDraft, type ProportionTest,
} from '@gd/shared';
import type { AbAnalysis, AbMetric, AbVariantResult, SendWinnerBlock, WinnerRun } from '@gd/shared/schemas/abAnalysis';
import type { Queryable } from '../../db/pool.ts';
import { findWinnerRun, variantCounts, type AbTestRow, type WinnerRunRow } from './repository.ts';

const typeOf = (definition: MessageDraft, variantId: string) => {
  const v = definition.variants.find((x) => x.id === variantId);
  return (v && (v.content[definition.defaultLanguage] ?? Object.values(v.content)[0])?.type) ?? null;
};

export const winnerRunOf = (r: WinnerRunRow): WinnerRun => ({
  sendId: r.id, variantId: r.variant_id, state: r.state, recipients: r.resolved, sent: r.sent, createdAt: r.created_at.toISOString(),
});

/** Successes and trials of a variant on a metric. */
function countsOn(v: Pick<AbVariantResult, 'sends' | 'opens' | 'clicks' | 'conversions'>, metric: AbMetric): { successes: number; trials: number } {
  switch (metric) {
    case 'open':
      return { successes: v.opens, trials: v.sends };
    case 'click':
      return { successes: v.clicks, trials: v.sends };
    case 'conversion':
      return { successes: v.conversions, trials: v.sends };
    default: {
      const never: never = metric;
      throw new Error(`unknown metric ${String(never)}`);
    }
  }
}

function compare(a: { successes: number; trials: number }, b: { successes: number; trials: number }): ProportionTest {
  return twoProportionTest(a.successes, a.trials, b.successes, b.trials);
}

/**
 * The analysis of a test run. The winner is declared on the run's primary metric only; `shown`
 * (default: that metric) chooses the metric of the comparisons shown, which decide nothing.
 */
export async function analyse(db: Queryable, appId: string, test: AbTestRow, shown?: AbMetric): Promise<AbAnalysis> {
  const definition = test.definition;
  const conversion = conversionOf(definition);
  const primaryMetric = primaryMetricOf(definition);
  const metric = shown ?? primaryMetric;
  const [counts, winnerRow] = await Promise.all([
    variantCounts(db, { appId, messageId: test.id, sendId: test.send_id, goal: conversion.eventName, windowDays: conversion.windowDays }),
    findWinnerRun(db, test.send_id),
  ]);
  const byId = new Map(counts.map((c) => [c.variant_id, c]));
  const base = definition.variants.map((v) => {
    const c = byId.get(v.id);
    const sends = c?.sends ?? 0;
    const opens = c?.opens ?? 0;
    const clicks = c?.clicks ?? 0;
    const conversions = c?.conversions ?? 0;
    return {
      id: v.id, name: v.name || v.id, type: typeOf(definition, v.id), sends, opens, clicks, conversions,
      rates: { open: wilsonInterval(opens, sends), click: wilsonInterval(clicks, sends), conversion: wilsonInterval(conversions, sends) },
    };
  });
  const decision = declareWinner(base.map((v) => ({ id: v.id, ...countsOn(v, primaryMetric) })));
  const control = base[0];
  const best = base.find((v) => v.id === decision.bestId);
  const variants: AbVariantResult[] = base.map((v) => ({
    ...v,
    vsControl: control && v.id !== control.id ? compare(countsOn(control, metric), countsOn(v, metric)) : null,
    vsBest: best && v.id !== best.id ? compare(countsOn(best, metric), countsOn(v, metric)) : null,
  }));
  const { testPercent } = abTestOf(definition);
  const sendBlock: SendWinnerBlock | null = !holdsBack(definition) ? 'noHoldOut'
    : winnerRow ? 'alreadySent'
      : test.state !== 'finished' ? 'testRunning'
        : test.status !== 'Finished' ? 'notFinished'
          : decision.winnerId === null ? 'noWinner' : null;
  return {
    message: { id: test.id, name: test.name, status: test.status, version: test.version, ownerId: test.owner_id },
    metric,
    primaryMetric,
    testPercent,
    startedAt: test.created_at.toISOString(),
    finishedAt: test.finished_at?.toISOString() ?? null,
    variants,
    decision: { winnerId: decision.winnerId, bestId: decision.bestId, reason: decision.reason, threshold: decision.threshold },
    heldBack: test.held_back,
    winnerRun: winnerRow ? winnerRunOf(winnerRow) : null,
    sendBlock,
  };
}
