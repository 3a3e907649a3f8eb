/**
 * POST /apps/:appId/journeys/:journeyId/simulate (issue 14): one person through the draft or the
 * launched version against a simulated clock (./service.ts). Needs what seeing the journey needs: a
 * journey the user may not see (another app's, deleted, or not theirs with the owner-only view)
 * answers NO_PERMISSION, as the journey routes do.
 */
import type { Router } from 'express';
import { ErrorCode, can, fail, ok } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import * as journeys from '../journeys/repository.ts';
import { simulateJourney } from './service.ts';

const notFound = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this journey');
const iso = (ms: number) => new Date(ms).toISOString();

export function journeySimulationRoutes(router: Router, deps: Deps): void {
  route(router, deps, 'simulateJourney', async ({ app, subject, params, body }) => {
    const id = params.journeyId;
    const row = id && isUuid(id) ? await journeys.findJourney(deps.db, app.id, id) : undefined;
    if (!row || !can(subject, 'ui:journey.view', { ownerId: row.created_by })) return notFound();
    const simulated = await simulateJourney(deps, app.id, row, body, new Date());
    if (!simulated.ok) return simulated;
    const { result, version, startAt, horizonAt, segments, segmentProblems } = simulated.value;
    return ok({
      source: body.source,
      version,
      startAt: iso(startAt),
      horizonAt: iso(horizonAt),
      timeline: result.timeline.map((e) => ({ ...e, at: iso(e.at) })),
      ended: result.ended,
      endedAt: result.endedAt === null ? null : iso(result.endedAt),
      truncated: result.truncated,
      stepId: result.state?.stepId ?? null,
      converted: result.converted && { eventId: result.converted.eventId, at: iso(result.converted.at) },
      segments,
      segmentProblems,
    });
  });
}
