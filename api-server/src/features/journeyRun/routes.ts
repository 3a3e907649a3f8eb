/**
 * The journey engine's reads (endpoints/journeyRun.ts): step counts for the canvas, a journey's
 * people search, a person's journeys. Journey reads follow the journey's own visibility (view, or
 * view:owner on the journeys the user created); another app's journey answers as an unknown one.
 */
import type { Router } from 'express';
import { ErrorCode, PersonId, can, fail, ok } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { findJourney } from '../journeys/repository.ts';
import { resolvePerson } from '../people/repository.ts';
import { lastVersion, personEntries, searchJourneyPeople, stepCounts } from './reads.ts';

const notFound = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this journey');

export function journeyRunRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  async function visible(appId: string, journeyId: string | undefined, subject: Parameters<typeof can>[0]) {
    const row = journeyId && isUuid(journeyId) ? await findJourney(db, appId, journeyId) : undefined;
    return row && can(subject, 'ui:journey.view', { ownerId: row.created_by }) ? row : undefined;
  }

  route(router, deps, 'journeyStepCounts', async ({ app, subject, params, query }) => {
    const row = await visible(app.id, params.journeyId, subject);
    if (!row) return notFound();
    const version = query.version ?? row.live_version ?? (await lastVersion(db, row.id));
    const at = new Date().toISOString();
    if (version === null) return ok({ version: null, counts: [], totals: { entered: 0, inside: 0, ended: 0, exited: 0, converted: 0 }, at });
    const { counts, totals } = await stepCounts(db, row.id, version);
    return ok({ version, counts, totals, at });
  });

  route(router, deps, 'journeyPersonSearch', async ({ app, subject, params, query }) => {
    const row = await visible(app.id, params.journeyId, subject);
    if (!row) return notFound();
    return ok({ people: query.q === '' ? [] : await searchJourneyPeople(db, app.id, row.id, query.q) });
  });

  route(router, deps, 'personJourneys', async ({ app, params }) => {
    const id = PersonId.safeParse(params.personId);
    const personId = id.success && BigInt(id.data) <= 9223372036854775807n ? await resolvePerson(db, app.id, id.data) : null;
    if (!personId) return fail(ErrorCode.NOT_EXIST, `Person ${params.personId ?? ''} is not a person of this app`);
    return ok({ entries: await personEntries(db, app.id, personId) });
  });
}
