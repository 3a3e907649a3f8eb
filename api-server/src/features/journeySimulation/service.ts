/**
 * The simulation of a journey (schemas/journeySimulation.ts): the journey to run (the live document
 * as launch reads it, or the live version's definition), the splits' segments for a person of the
 * app, then the shared simulator. Nothing is sent or stored.
 */
import * as Y from 'yjs';
import {
  ErrorCode, Journey, fail, initialJourney, journeyFromDoc, normalizeJourney, ok, simulate, type Result, type SimulationResult,
} from '@gd/shared';
import type { JourneySimulationRequest } from '@gd/shared/schemas/journeySimulation';
import type { Deps } from '../../http/context.ts';
import { readLive } from '../documents/liveDocs.ts';
import * as journeys from '../journeys/repository.ts';
import { resolvePerson } from '../people/repository.ts';
import { compileFor } from '../segments/definition.ts';
import { personInSegment } from './repository.ts';

/** The draft as editors see it once their client repairs the merged state (as launch reads it). */
async function draftJourney(deps: Deps, row: journeys.JourneyRow): Promise<Result<Journey>> {
  const read = await readLive(deps.liveDocs, deps.db, row.doc_name);
  if (!read.ok) return read;
  if (!read.state) return ok(initialJourney());
  const doc = new Y.Doc();
  try {
    Y.applyUpdate(doc, read.state);
    return ok(normalizeJourney(journeyFromDoc(doc)));
  } catch {
    return fail(ErrorCode.MANDATORY, 'The journey cannot be brought to a valid shape; change it in the editor and try again', [{ path: 'journey', message: 'not_normalizable' }]);
  }
}

async function launchedJourney(deps: Deps, row: journeys.JourneyRow): Promise<Result<{ journey: Journey; version: number }>> {
  const notLaunched = fail(ErrorCode.NOT_EXIST, 'This journey has never been launched', [{ path: 'source', message: 'not_launched' }]);
  if (row.live_version === null) return notLaunched;
  const version = await journeys.findVersion(deps.db, row.id, row.live_version);
  if (!version) return notLaunched;
  const parsed = Journey.safeParse(version.definition);
  if (!parsed.success) throw new Error(`journey ${row.id} version ${row.live_version}: stored definition does not parse`);
  return ok({ journey: parsed.data, version: version.version });
}

/** Each split path's segment (the last path is the otherwise) for `personId` now; paths that do not compile are listed apart. */
async function personSegments(deps: Deps, appId: string, journey: Journey, personId: string): Promise<{ segments: Record<string, boolean>; problems: string[] }> {
  const segments: Record<string, boolean> = {};
  const problems: string[] = [];
  const now = new Date();
  for (const step of journey.steps) {
    if (step.type !== 'flowSplit') continue;
    for (const path of step.paths.slice(0, -1)) {
      const key = `${step.id}:${path.id}`;
      if (!path.segment) {
        segments[key] = false;
        continue;
      }
      const compiled = await compileFor(deps.db, path.segment, { appId, now, requireConditions: true });
      if (!compiled.ok) problems.push(key);
      segments[key] = compiled.ok && (await personInSegment(deps.db, compiled.value, personId));
    }
  }
  return { segments, problems };
}

export interface Simulated {
  version: number | null;
  startAt: number;
  horizonAt: number;
  result: SimulationResult;
  segments: Record<string, boolean>;
  segmentProblems: string[];
}

/** Simulates `row` for the request; a person that is not one of the app answers NOT_EXIST. */
export async function simulateJourney(deps: Deps, appId: string, row: journeys.JourneyRow, req: JourneySimulationRequest, now: Date): Promise<Result<Simulated>> {
  const loaded = req.source === 'draft'
    ? await draftJourney(deps, row).then((r) => (r.ok ? ok({ journey: r.value, version: null }) : r))
    : await launchedJourney(deps, row);
  if (!loaded.ok) return loaded;
  const { journey, version } = loaded.value;

  let segments = req.behaviour.segments;
  let segmentProblems: string[] = [];
  let personId: string | undefined;
  if (req.personId !== undefined) {
    personId = (await resolvePerson(deps.db, appId, req.personId)) ?? undefined;
    if (!personId) return fail(ErrorCode.NOT_EXIST, `Person ${req.personId} is not a person of this app`, [{ path: 'personId', message: 'not_found' }]);
    const evaluated = await personSegments(deps, appId, journey, personId);
    segments = { ...segments, ...evaluated.segments };
    segmentProblems = evaluated.problems;
  }

  const startAt = req.startAt ? Date.parse(req.startAt) : now.getTime();
  const horizonSeconds = req.horizonSeconds;
  const result = simulate(journey, { ...req.behaviour, segments }, {
    startAt, ...(horizonSeconds === undefined ? {} : { horizonSeconds }),
    ...(req.startStepId === undefined ? {} : { startStepId: req.startStepId }),
    ...(personId === undefined ? {} : { personId }),
  });
  return ok({ version, startAt, horizonAt: result.horizonAt, result, segments, segmentProblems });
}
