/**
 * The journey simulation against real Postgres: a launched version (not the draft, unless asked)
 * run for a real person of the app, whose split is decided by the segment engine as it sees that
 * person; the draft as stored; refusals (never launched, not a person of the app, no permission).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ErrorCode, applyJourneyToDoc, normalizeJourney, type Journey } from '@gd/shared';
import { journey, linked, mk } from '@gd/shared/journey/testing';
import { freeze } from '../documents/versions.ts';
import { insertDocument } from '../documents/repository.ts';
import * as journeys from '../journeys/repository.ts';
import { seeder, single } from '../segments/testing/data.ts';
import { addMember, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
let people: { spain: string; france: string };

const START = '2025-01-06T09:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000).toISOString();
const inSpain = single({ type: 'attribute', id: 'country', condition: 'equals', input: 'ES' });

/** Enters on a purchase, pushes, waits `waitSeconds`, then e-mails people in Spain and ends the others. */
function definition(waitSeconds: number): Journey {
  return normalizeJourney(journey('s',
    linked('sourceEvents', 's', 'push', { eventIds: ['purchase'] }),
    linked('actionMessagePush', 'push', 'w', { campaignId: 'c1', messageId: 'm1' }),
    linked('flowWait', 'w', 'split', { duration: waitSeconds }),
    { ...mk('flowSplit', 'split'), paths: [{ id: 'es', name: 'Spain', next: 'email', segment: inSpain }, { id: 'rest', name: 'Others', next: 'done' }] },
    linked('actionMessageEmail', 'email', 'done', { campaignId: 'c1', messageId: 'm2' }),
    mk('end', 'done')));
}

/** A journey of the app whose stored draft waits `draftWait` and, when given, whose live version waits `liveWait`. */
async function makeJourney(name: string, draftWait: number, liveWait: number | null): Promise<string> {
  const { journey: created } = await owner.client.ok<{ journey: { id: string; docName: string } }>('createJourney', { name }, { appId });
  const doc = new Y.Doc();
  applyJourneyToDoc(doc, definition(draftWait));
  await insertDocument(api.db, { name: created.docName, accountId: owner.accountId, appId, kind: 'journey', entityId: created.id, state: Y.encodeStateAsUpdate(doc) });
  if (liveWait !== null) {
    const live = new Y.Doc();
    applyJourneyToDoc(live, definition(liveWait));
    await journeys.insertVersion(api.db, { journeyId: created.id, version: 1, definition: definition(liveWait), ...freeze(live), launchedBy: owner.userId });
    await journeys.updateJourney(api.db, created.id, { status: 'live', liveVersion: 1 });
  }
  return created.id;
}

interface Answer {
  source: string; version: number | null; startAt: string; horizonAt: string; ended: string | null; endedAt: string | null; truncated: boolean;
  stepId: string | null; segments: Record<string, boolean>; segmentProblems: string[];
  timeline: { at: string; offsetSeconds: number; stepId: string; stepType: string; pathId: string | null; reason: string; detail?: string; message?: unknown }[];
}

beforeAll(async () => {
  api = await startTestApi();
  owner = await registerAccount(api);
  const { app } = await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Simulation', os: 'iOS' });
  appId = app.id;
  const seed = seeder(api.db, appId);
  people = { spain: await seed.person({ customer_id: 'sim-es', country: 'ES' }), france: await seed.person({ customer_id: 'sim-fr', country: 'FR' }) };
});
afterAll(async () => {
  await api.stop();
});

describe('journey simulation', () => {
  it('runs the launched version for a real person: the segment engine decides their split', async () => {
    const id = await makeJourney('Launched', 7200, 3600);
    const simulate = (body: Record<string, unknown>) => owner.client.ok<Answer>('simulateJourney', { source: 'launched', startAt: START, ...body }, { appId, journeyId: id });

    // The behaviour says "not in Spain"; the person's own data says otherwise and wins.
    const spain = await simulate({ personId: people.spain, behaviour: { segments: { 'split:es': false } } });
    expect(spain).toMatchObject({
      source: 'launched', version: 1, startAt: START, horizonAt: at(90 * 86_400), ended: 'end', endedAt: at(3600), truncated: false,
      stepId: 'done', segments: { 'split:es': true }, segmentProblems: [],
    });
    expect(spain.timeline).toEqual([
      { at: START, offsetSeconds: 0, stepId: 's', stepType: 'sourceEvents', pathId: null, reason: 'entered' },
      { at: START, offsetSeconds: 0, stepId: 'push', stepType: 'actionMessagePush', pathId: null, reason: 'sent', message: { channel: 'push', campaignId: 'c1', messageId: 'm1' } },
      { at: at(3600), offsetSeconds: 3600, stepId: 'w', stepType: 'flowWait', pathId: null, reason: 'wait_elapsed' },
      { at: at(3600), offsetSeconds: 3600, stepId: 'split', stepType: 'flowSplit', pathId: 'es', reason: 'segment' },
      { at: at(3600), offsetSeconds: 3600, stepId: 'email', stepType: 'actionMessageEmail', pathId: null, reason: 'sent', message: { channel: 'email', campaignId: 'c1', messageId: 'm2' } },
      { at: at(3600), offsetSeconds: 3600, stepId: 'done', stepType: 'end', pathId: null, reason: 'end' },
    ]);

    const france = await simulate({ personId: people.france, behaviour: { segments: { 'split:es': true } } });
    expect(france.segments).toEqual({ 'split:es': false });
    expect(france.timeline.map((e) => [e.stepId, e.pathId])).toEqual([['s', null], ['push', null], ['w', null], ['split', 'rest'], ['done', null]]);

    // Without a person the described behaviour decides; a short horizon stops in the wait.
    const described = await simulate({ behaviour: { segments: { 'split:es': true } } });
    expect(described.timeline.map((e) => e.stepId)).toContain('email');
    const short = await simulate({ horizonSeconds: 60 });
    expect(short).toMatchObject({ ended: null, endedAt: null, truncated: true, stepId: 'w', horizonAt: at(60) });
  });

  it('runs the draft as stored when asked (without a sync server), and refuses a never-launched journey as launched', async () => {
    const id = await makeJourney('Draft only', 7200, null);
    const draft = await owner.client.ok<Answer>('simulateJourney', { source: 'draft', startAt: START, personId: people.spain }, { appId, journeyId: id });
    expect(draft).toMatchObject({ source: 'draft', version: null, ended: 'end', endedAt: at(7200) });
    expect(draft.timeline.find((e) => e.stepId === 'split')).toMatchObject({ at: at(7200), pathId: 'es' });

    const launched = await owner.client.call('simulateJourney', { source: 'launched' }, { appId, journeyId: id });
    expect(launched.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST, details: [{ path: 'source', message: 'not_launched' }] });
  });

  it('refuses a person of another app, a journey that does not exist, and a user who may not see journeys', async () => {
    const id = await makeJourney('Refusals', 60, 60);
    const { app: other } = await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Other', os: 'Android' });
    const stranger = await seeder(api.db, other.id).person({ customer_id: 'elsewhere' });
    const foreign = await owner.client.call('simulateJourney', { source: 'launched', personId: stranger }, { appId, journeyId: id });
    expect(foreign.body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST, details: [{ path: 'personId' }] });

    const missing = await owner.client.call('simulateJourney', { source: 'launched' }, { appId, journeyId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });
    expect((await owner.client.call('simulateJourney', { source: 'launched' }, { appId: other.id, journeyId: id })).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });

    const provider = await addMember(api, owner.client, 'provider');
    expect((await provider.call('simulateJourney', { source: 'launched' }, { appId, journeyId: id })).body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION });

    const invalid = await owner.client.call('simulateJourney', { source: 'sometime' }, { appId, journeyId: id });
    expect(invalid.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
  });
});
