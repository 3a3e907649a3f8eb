/** What the segment compiler takes and answers (see ../compile.ts). */
import type { SegmentSemanticCode, SegmentViolationCode, TagValueType } from '@gd/shared';

export interface CompileContext {
  appId: string;
  timezone: string;
  /** "Now": today and relative days are computed from it, in `timezone`. */
  now: Date;
  /** Tags of the app referenced by the segment, by id. */
  tags: ReadonlyMap<string, TagValueType>;
  /** Audiences of the app (not deleted) referenced by the segment. */
  audiences: ReadonlySet<string>;
  /** The audience being refreshed: it may not depend on itself. */
  selfAudienceId?: string | undefined;
  /**
   * `timezone` is the app's own zone, the one the person-month day bitmaps (migration 034) are kept
   * in: an event condition on whole days reads them instead of the events.
   */
  eventDays?: boolean | undefined;
}

/** Besides the shared codes: a missing audience, an audience naming itself, an audience without conditions. */
export type CompileProblemCode = SegmentViolationCode | SegmentSemanticCode | 'audience_not_exist' | 'self_reference' | 'segment_empty';
export interface CompileProblem {
  key: string;
  path: (string | number)[];
  code: CompileProblemCode;
  /** SPEC.md section 8 audience error names. */
  error: 'AudienceNotValid' | 'AudienceNotExist';
}

export interface CompiledSegment {
  /** `SELECT p.id FROM people p WHERE <where>`. */
  sql: string;
  /** The condition on `people p`, merged people and other apps excluded. */
  where: string;
  params: unknown[];
}

export type CompileResult = { ok: true; value: CompiledSegment } | { ok: false; problems: CompileProblem[] };
