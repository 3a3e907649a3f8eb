/**
 * The A/B analysis, sending an A/B test's winner to the people its test held back, and the
 * performance histograms (shared endpoints/abAnalysis.ts).
 *
 * Send-winner: the message must be one the person sees and may play (the play key, or its owner
 * variant on their own message, like play). It is idempotent: the winner run of a live run is
 * created once (migration 024's unique index), under the message's row lock, and a later call
 * answers that run with `created: false`. Otherwise it needs the analysis to declare, now, the
 * variant the person saw as the winner (409 when not), the test run finished and the message
 * Finished; it then moves the message Finished → Processing (`winnerSent`) and wakes delivery,
 * which writes exactly the held-back people (delivery/resolve.ts `testPortionOf`).
 *
 * A message id that is not an A/B test of the app that was played (another app's or account's,
 * deleted, unused) answers NO_PERMISSION like the message routes.
 */
import type { Router } from 'express';
import { ErrorCode, abTestOf, can, conflict, fail, ok } from '@gd/shared';
import { tx } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { applySystemEvent } from '../delivery/resolve.ts';
import { visible } from '../messages/routes.ts';
import { analyse, winnerRunOf } from './analysis.ts';
import { histograms, messagesWithSends } from './histograms.ts';
import { findAbTest, findWinnerRun, insertWinnerRun, listAbTests } from './repository.ts';

const notFound = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this message');

export function abAnalysisRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  route(router, deps, 'abAnalysis', async ({ app, query }) => {
    const rows = await listAbTests(db, app.id);
    const tests = rows.map((r) => ({ id: r.id, name: r.name, status: r.status, testPercent: abTestOf(r.definition).testPercent, startedAt: r.created_at.toISOString() }));
    let chosen = rows[0];
    if (query.messageId !== undefined) {
      chosen = isUuid(query.messageId) ? await findAbTest(db, app.id, query.messageId) : undefined;
      if (!chosen) return notFound();
    }
    return ok({ tests, analysis: chosen ? await analyse(db, app.id, chosen, query.metric) : null });
  });

  route(router, deps, 'sendAbWinner', async ({ app, principal, subject, params, body }) => {
    const test = params.messageId && isUuid(params.messageId) ? await findAbTest(db, app.id, params.messageId) : undefined;
    if (!test || !visible(subject, test)) return notFound();
    if (!can(subject, 'ui:message.play', { ownerId: test.owner_id })) return fail(ErrorCode.NO_PERMISSION, 'No permission to play this message');
    const existing = await findWinnerRun(db, test.send_id);
    if (existing) return ok({ run: winnerRunOf(existing), created: false });
    // The winner is the one declared on the test's own primary metric (approved with the version).
    const analysis = await analyse(db, app.id, test);
    if (analysis.sendBlock === 'noHoldOut') return conflict('This A/B test sent a variant to everyone: nobody was held back');
    if (analysis.sendBlock === 'testRunning' || analysis.sendBlock === 'notFinished') return conflict('The test is still sending; send the winner once it has finished');
    if (analysis.decision.winnerId !== body.variantId) return conflict('The analysis does not declare this variant the winner (any more): look at it again');
    const created = await tx(db, async (client) => {
      // The message's row lock orders concurrent calls; the unique index makes the run once anyway.
      const { rows } = await client.query<{ status: string }>('SELECT status FROM messages WHERE id = $1 FOR UPDATE', [test.id]);
      if (rows[0]?.status !== 'Finished') return false;
      const inserted = await insertWinnerRun(client, { accountId: principal.account.id, appId: app.id, messageId: test.id, live: test, variantId: body.variantId, userId: principal.user.id });
      if (inserted) await applySystemEvent(client, test.id, ['winnerSent']);
      return inserted;
    });
    const run = await findWinnerRun(db, test.send_id);
    if (!run) return conflict('The message is no longer finished; send the winner once it is');
    if (created) deps.notifyDelivery?.();
    return ok({ run: winnerRunOf(run), created });
  });

  route(router, deps, 'performanceHistograms', async ({ app, query }) => {
    const messageId = query.messageId !== undefined && isUuid(query.messageId) ? query.messageId : null;
    // An id that is no uuid names no message: nothing counts, as for an unused id.
    const nobody = '00000000-0000-0000-0000-000000000000';
    const [figures, messages] = await Promise.all([
      histograms(db, { appId: app.id, timeZone: app.timezone, startDay: query.startDay, endDay: query.endDay, messageId: query.messageId !== undefined && messageId === null ? nobody : messageId }),
      messagesWithSends(db, app.id),
    ]);
    return ok({ ...figures, messages });
  });
}
