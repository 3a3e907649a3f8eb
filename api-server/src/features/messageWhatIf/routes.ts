/**
 * POST /apps/:appId/messages/what-if (issue 12): the draft's target as the segment engine and the
 * members table see it now, reach per channel and send times per time zone (./whatIf.ts).
 *
 * The target names an audience or a segment of the app in the path; one of another app or account,
 * a deleted one and an unused id all answer the same NO_PERMISSION (as the segment routes do), so
 * ids leak nothing. A segment is read live (its Yjs document, as editors see it) and compiled by
 * the segment engine; a definition that does not compile answers its problems (10001 / 10).
 */
import type { Router } from 'express';
import { ErrorCode, SEGMENT_LIMITS, fail, ok, unavailable, type Result } from '@gd/shared';
import { channelsOf } from '@gd/shared/schemas/messageWhatIf';
import { isQueryCanceled } from '../../db/errors.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { compileFor, compiledOrFailure, readSegmentDocument } from '../segments/definition.ts';
import * as segments from '../segments/repository.ts';
import { audienceTarget, segmentTarget, testDevicesTarget, whatIf, type TargetSql } from './whatIf.ts';

const noAudience = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this audience');
const noSegment = () => fail(ErrorCode.NO_PERMISSION, 'No permission for this segment');

export function messageWhatIfRoutes(router: Router, deps: Deps): void {
  const { db } = deps;

  /** The target's people as SQL, or null for no target (nobody). */
  async function targetSql(appId: string, target: { kind: string; id?: string }): Promise<Result<TargetSql | null>> {
    switch (target.kind) {
      case 'none':
        return ok(null);
      case 'testDevices':
        return ok(testDevicesTarget(appId));
      case 'audience': {
        const row = target.id && isUuid(target.id) ? await segments.findAudience(db, appId, target.id) : undefined;
        return row ? ok(audienceTarget(appId, row.id)) : noAudience();
      }
      case 'segment': {
        const row = target.id && isUuid(target.id) ? await segments.findSegment(db, appId, target.id) : undefined;
        if (!row) return noSegment();
        const definition = await readSegmentDocument(db, deps.liveDocs, row.doc_name);
        const compiled = compiledOrFailure(await compileFor(db, definition, { appId, requireConditions: false }));
        return compiled.ok ? ok(segmentTarget(compiled.value)) : compiled;
      }
      default:
        throw new Error(`unknown target ${target.kind}`);
    }
  }

  route(router, deps, 'messageWhatIf', async ({ app, body }) => {
    const target = await targetSql(app.id, body.target);
    if (!target.ok) return target;
    const channels = channelsOf(body.type, body.variantTypes);
    try {
      return ok(await whatIf(db, target.value, { schedule: body.schedule, appTimeZone: app.timezone, channels, timeoutMs: SEGMENT_LIMITS.estimateTimeoutMs }));
    } catch (error) {
      if (!isQueryCanceled(error)) throw error;
      return unavailable(`The what-if took longer than ${SEGMENT_LIMITS.estimateTimeoutMs / 1000} s; try again`);
    }
  });
}
