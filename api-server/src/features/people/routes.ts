/**
 * /behavior/people: search, profile and timeline (permission `route:/behavior/people`, app-scoped:
 * the endpoint wrapper has already checked that the app belongs to the caller's account).
 *
 * Decisions where the spec is silent:
 * - A person id that is not a person of this app answers NOT_EXIST (10): the app itself is already
 *   checked, so the answer leaks nothing about other accounts (their apps answer 10004 earlier).
 * - A merged (anonymous) person's id answers the person it merged into, with `merged: true`, so
 *   old links keep working; merged people are never listed.
 * - "Last seen" is the latest `last_seen_at` of the person's devices: the latest event time the SDK
 *   sent (late and out-of-order batches never move it back, identify and profile calls never move
 *   it; see ingest/repository.ts), null before the person's first event.
 */
import type { Router } from 'express';
import {
  ErrorCode, PEOPLE_LIMITS, PersonId, decodeTimelineCursor, encodeTimelineCursor, fail, ok,
} from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import * as repo from './repository.ts';

const notFound = (id: string) => fail(ErrorCode.NOT_EXIST, `Person ${id} is not a person of this app`);

export function peopleRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  /** The person a path id stands for (merge target included), or null. */
  async function resolve(appId: string, raw: string | undefined): Promise<string | null> {
    const id = PersonId.safeParse(raw);
    if (!id.success || BigInt(id.data) > 9223372036854775807n) return null;
    return repo.resolvePerson(db, appId, id.data);
  }

  route(router, deps, 'searchPeople', async ({ app, query }) => {
    const people = query.q === '' ? await repo.recentPeople(db, app.id) : await repo.searchPeople(db, app.id, query.q);
    return ok({ people });
  });

  route(router, deps, 'getPerson', async ({ app, params }) => {
    const requested = params.personId ?? '';
    const personId = await resolve(app.id, requested);
    if (!personId) return notFound(requested);
    const person = await repo.findProfile(db, app.id, personId);
    if (!person) return notFound(requested);
    const [tags, devices, messages, eventNames] = await Promise.all([
      repo.personTags(db, app.id, personId),
      repo.personDevices(db, app.id, personId),
      repo.personMessages(db, app.id, personId),
      repo.personEventNames(db, app.id, personId),
    ]);
    const events = eventNames.reduce((sum, e) => sum + e.events, 0);
    const summary = await repo.personCounts(db, app.id, personId, events);
    return ok({ requestedId: requested, merged: requested !== personId, person, tags, devices, messages, eventNames, summary });
  });

  route(router, deps, 'personTimeline', async ({ app, params, query }) => {
    const requested = params.personId ?? '';
    const after = query.cursor === undefined ? null : decodeTimelineCursor(query.cursor);
    if (query.cursor !== undefined && !after) {
      return fail(ErrorCode.MANDATORY, 'Not a timeline cursor: pass back the nextCursor of the previous page', [{ path: 'cursor', message: 'Not a timeline cursor' }]);
    }
    const personId = await resolve(app.id, requested);
    if (!personId) return notFound(requested);
    const page = await repo.timelinePage(db, app.id, personId, { after, name: query.name ?? null, limit: PEOPLE_LIMITS.timelinePage });
    const nextCursor = page.more && page.last ? encodeTimelineCursor(page.last.time, page.last.clientId) : null;
    return ok({ personId, events: page.events, nextCursor });
  });
}
