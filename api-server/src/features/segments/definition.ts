/**
 * From a segment to a compiled query: the segment's current content (its live or stored Yjs
 * document), the evaluation context (the app's time zone, the tags and audiences it names), and
 * compile problems as catalogue failures.
 */
import * as Y from 'yjs';
import {
  ErrorCode, createSegment, fail, normalizeSegment, ok, segmentConditions, segmentFromDoc, type Failure, type Result, type Segment,
  type SegmentProblem,
} from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { readLatest, type LiveDocReader } from '../documents/liveDocs.ts';
import { compileSegment, segmentReferences, type CompileProblem, type CompiledSegment } from './compile.ts';
import * as repo from './repository.ts';

/**
 * The segment a document holds now, normalized as editors see it: live from the sync server when
 * one is reachable (the store lags by its debounce), else as stored; a document never stored is
 * the empty segment it starts as.
 */
export async function readSegmentDocument(db: Queryable, liveDocs: LiveDocReader | undefined, docName: string): Promise<Segment> {
  const state = await readLatest(liveDocs, db, docName);
  if (!state) return createSegment('root');
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, state);
    return normalizeSegment(segmentFromDoc(doc));
  } finally {
    doc.destroy();
  }
}

export interface Compiling {
  appId: string;
  now?: Date;
  /** When refreshing an audience: it may not depend on itself. */
  selfAudienceId?: string | undefined;
  /** Audiences need at least one condition; an estimate counts everyone for an empty segment. */
  requireConditions: boolean;
}

/** Loads what the segment names and compiles it. */
export async function compileFor(db: Queryable, segment: Segment, c: Compiling): Promise<{ ok: true; value: CompiledSegment } | { ok: false; problems: CompileProblem[] }> {
  if (c.requireConditions && segmentConditions(segment).length === 0) {
    return { ok: false, problems: [{ key: segment.rootKey, path: [], code: 'segment_empty', error: 'AudienceNotValid' }] };
  }
  const refs = segmentReferences(segment);
  const [timezone, tags, audiences] = await Promise.all([
    repo.appTimezone(db, c.appId), repo.tagTypes(db, c.appId, refs.tagIds), repo.existingAudiences(db, c.appId, refs.audienceIds),
  ]);
  return compileSegment(segment, { appId: c.appId, timezone, now: c.now ?? new Date(), tags, audiences, selfAudienceId: c.selfAudienceId, eventDays: true });
}

export const toSegmentProblems = (problems: readonly CompileProblem[]): SegmentProblem[] =>
  problems.map((p) => ({ key: p.key, path: p.path.join('.'), code: p.code, error: p.error }));

/** The error name of a list of problems: AudienceNotExist when an audience is missing, else AudienceNotValid. */
export const errorNameOf = (problems: readonly CompileProblem[]) =>
  problems.some((p) => p.error === 'AudienceNotExist') ? 'AudienceNotExist' : 'AudienceNotValid';

export function describeProblems(problems: readonly CompileProblem[]): string {
  const name = errorNameOf(problems);
  const list = problems.slice(0, 5).map((p) => `${p.key}${p.path.length ? `.${p.path.join('.')}` : ''}: ${p.code}`).join('; ');
  return `${name}: the segment has ${problems.length} problem(s) (${list}${problems.length > 5 ? '; ...' : ''})`;
}

/** Problems as a KO answer: 10 when an audience does not exist, else 10001; details per node and field. */
export function problemsFailure(problems: readonly CompileProblem[]): Failure {
  const code = errorNameOf(problems) === 'AudienceNotExist' ? ErrorCode.NOT_EXIST : ErrorCode.MANDATORY;
  return fail(code, describeProblems(problems), problems.map((p) => ({ path: ['nodes', p.key, ...p.path].join('.'), message: p.code })));
}

export function compiledOrFailure(result: Awaited<ReturnType<typeof compileFor>>): Result<CompiledSegment> {
  return result.ok ? ok(result.value) : problemsFailure(result.problems);
}
