/**
 * Launching a journey: the live document (never the stored copy, which lags the editors by the
 * store debounce) is normalized as editors' clients repair it, checked by the SPEC §5 rules and
 * for references to what the app has (audiences, events, segments), compared with what the person
 * reviewed, and frozen into the next immutable version in one transaction. Messages will launch
 * their approved snapshots the same way (documents/versions.ts).
 */
import * as Y from 'yjs';
import {
  ErrorCode, conflict, fail, journeyFingerprint, journeyFromDoc, normalizeJourney, unavailable, validateJourney, type Failure, type Journey,
} from '@gd/shared';
import { tx } from '../../db/pool.ts';
import type { Deps } from '../../http/context.ts';
import { readLive } from '../documents/liveDocs.ts';
import { freeze } from '../documents/versions.ts';
import { journeyMessageKeys } from '../messages/repository.ts';
import { journeyLaunched } from '../journeyRun/lifecycle.ts';
import { processVersions } from '../journeyRun/definitions.ts';
import { missingReferences } from './references.ts';
import * as repo from './repository.ts';

const stepPath = (v: { stepId?: string | null | undefined; path: readonly (string | number)[] }) => [v.stepId ? `steps.${v.stepId}` : 'journey', ...v.path].join('.');

/** Launches `row` as `userId`; answers the new version number, or why not. */
export async function launchJourney(deps: Deps, input: { appId: string; row: repo.JourneyRow; userId: string; reviewed: string | undefined }): Promise<{ ok: true; version: number } | Failure> {
  const { db } = deps;
  const { row } = input;
  if (!deps.liveDocs) return unavailable('The sync server is not reachable; try again');
  const read = await readLive(deps.liveDocs, db, row.doc_name);
  if (!read.ok) return read;
  const doc = new Y.Doc();
  try {
    if (read.state) Y.applyUpdate(doc, read.state);
    // What editors see once their client repairs the merged state (SPEC §4 rules), then SPEC §5 checks.
    let journey: Journey;
    try {
      journey = normalizeJourney(journeyFromDoc(doc));
    } catch {
      return fail(ErrorCode.MANDATORY, 'The journey cannot be brought to a valid shape; change it in the editor and try again', [{ path: 'journey', message: 'not_normalizable' }]);
    }
    // A message step names a message of the app, of its channel, that is not deleted.
    const messages = await journeyMessageKeys(db, input.appId);
    const violations = validateJourney(journey, { messageExists: (campaignId, messageId, channel) => messages.has(`${campaignId}/${messageId}/${channel}`) });
    if (violations.length > 0) {
      // details: `steps.<stepId>.<field path>` (or `journey` for graph problems) and the violation code.
      return fail(ErrorCode.MANDATORY, `The journey has ${violations.length} problem(s) and cannot be launched`,
        violations.map((v) => ({ path: stepPath(v), message: v.code })));
    }
    // What it names must exist (shared journey/references.ts; the editor shows the same problems on the steps).
    const missing = await missingReferences(db, input.appId, journey);
    if (missing.length > 0) {
      return fail(ErrorCode.MANDATORY, `The journey names ${missing.length} thing(s) this app does not have and cannot be launched`,
        missing.map((v) => ({ path: stepPath(v), message: v.code })));
    }
    // Launched only as reviewed: a journey changed since (by anyone) is reviewed again.
    if (input.reviewed !== undefined && input.reviewed !== (await journeyFingerprint(journey))) {
      return { ...conflict('The journey changed after it was reviewed; review it again'), details: [{ path: 'reviewed', message: 'changed_since_review' }] };
    }
    const frozen = freeze(doc);
    const version = await tx(db, async (client) => {
      await repo.lockJourney(client, row.id);
      const next = await repo.nextVersion(client, row.id);
      await repo.insertVersion(client, { journeyId: row.id, version: next, definition: journey, ...frozen, launchedBy: input.userId });
      await repo.updateJourney(client, row.id, { status: 'live', liveVersion: next });
      await repo.recordEvent(client, row.id, 'launched', input.userId, next);
      // The engine starts the version with it: audience enrolment, trigger interests (features/journeyRun).
      await journeyLaunched(client, processVersions, { journeyId: row.id, appId: input.appId, version: next, definition: journey });
      return next;
    });
    deps.notifyJourneys?.();
    return { ok: true, version };
  } finally {
    doc.destroy();
  }
}
