/**
 * What journeys name that the app does not have (launch's check, and the home screen's over every
 * live journey), against real Postgres: several journeys checked together each get exactly their
 * own problems (a missing audience, custom event, or tag or audience in a condition), the same as
 * checked one by one, in one query per kind however many journeys there are.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Journey, JourneyViolation } from '@gd/shared';
import { journey, linked } from '@gd/shared/journey/testing';
import type { Queryable } from '../../db/pool.ts';
import { createTestApp, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';
import { seeder, single } from '../segments/testing/data.ts';
import { missingReferences, missingReferencesMany } from './references.ts';

let api: TestApi;
let appId: string;
/** What the app has. */
let kept: { audience: string; tag: string };
beforeAll(async () => {
  api = await startTestApi();
  const owner = await registerAccount(api);
  appId = (await createTestApp(owner.client)).id;
  const seed = seeder(api.db, appId);
  kept = { audience: await seed.audience(owner.accountId, 'Kept', []), tag: await seed.tag('plan', 'text') };
  await api.db.query(`INSERT INTO event_definitions (app_id, name) VALUES ($1, 'custom_kept')`, [appId]);
});
afterAll(async () => {
  await api.stop();
});

/** What the app does not have (never created, or deleted since). */
const gone = { audience: randomUUID(), otherAudience: randomUUID(), tag: randomUUID(), event: 'custom_gone' };

const inAudience = (id: string) => single({ type: 'attribute', id: 'audience', condition: 'in_audience', input: id });
const tagSet = (id: string) => single({ type: 'user_tag', id, condition: 'is_set' });

/** Journeys naming different things, with what each lacks. */
function cases(): { journey: Journey; missing: JourneyViolation[] }[] {
  return [
    {
      // Starts on a deleted audience.
      journey: journey('s', linked('sourceAudience', 's', null, { audienceId: gone.audience })),
      missing: [{ stepId: 's', path: ['audienceId'], code: 'audience_not_found', params: { id: gone.audience } }],
    },
    {
      // Starts on a known event and a dropped one.
      journey: journey('s', linked('sourceEvents', 's', null, { eventIds: ['custom_kept', gone.event] })),
      missing: [{ stepId: 's', path: ['eventIds'], code: 'event_not_found', params: { name: gone.event } }],
    },
    {
      // Its entry's own conditions name a tag that does not exist.
      journey: journey('s', linked('sourceAudience', 's', null, { audienceId: null, segment: tagSet(gone.tag) })),
      missing: [{ stepId: 's', path: ['segment'], code: 'segment_reference_missing' }],
    },
    {
      // A split whose second path names a deleted audience (the first names one that exists).
      journey: journey('s',
        linked('sourceEvents', 's', 'split', { eventIds: ['custom_kept'] }),
        { ...linked('flowSplit', 'split', [null, null]), paths: [
          { id: 'a', name: '', next: null, segment: inAudience(kept.audience) },
          { id: 'b', name: '', next: null, segment: inAudience(gone.otherAudience) },
        ] }),
      missing: [{ stepId: 'split', path: ['paths', 1, 'segment'], code: 'segment_reference_missing' }],
    },
    {
      // Names only what exists.
      journey: journey('s',
        linked('sourceAudience', 's', 'split', { audienceId: kept.audience }),
        { ...linked('flowSplit', 'split', [null]), paths: [{ id: 'a', name: '', next: null, segment: tagSet(kept.tag) }] }),
      missing: [],
    },
    {
      // The same deleted audience as the first, and an unknown event after its entry.
      journey: journey('s',
        linked('sourceAudience', 's', 'ev', { audienceId: gone.audience }),
        { ...linked('flowEvent', 'ev', [null]), paths: [{ id: 'a', name: '', next: null, eventId: 'custom_other_gone' }] }),
      missing: [
        { stepId: 's', path: ['audienceId'], code: 'audience_not_found', params: { id: gone.audience } },
        { stepId: 'ev', path: ['paths', 0, 'eventId'], code: 'event_not_found', params: { name: 'custom_other_gone' } },
      ],
    },
  ];
}

/** The database, counting the queries sent through it. */
function counting(db: Queryable): Queryable & { queries: number } {
  const counter = {
    queries: 0,
    query: ((...args: Parameters<Queryable['query']>) => {
      counter.queries++;
      return (db.query as (...a: unknown[]) => unknown)(...args);
    }) as Queryable['query'],
  };
  return counter;
}

describe('missing references', () => {
  it('gives each of several journeys checked together exactly its own problems, as checked alone', async () => {
    const all = cases();
    expect(await missingReferencesMany(api.db, appId, all.map((c) => c.journey))).toEqual(all.map((c) => c.missing));
    for (const c of all) expect(await missingReferences(api.db, appId, c.journey)).toEqual(c.missing);
    expect(await missingReferencesMany(api.db, appId, [])).toEqual([]);
  });

  it('looks everything up in one query per kind, however many journeys', async () => {
    const all = cases();
    const one = counting(api.db);
    await missingReferencesMany(one, appId, [all[3]!.journey]);
    const many = counting(api.db);
    await missingReferencesMany(many, appId, [...all, ...all].map((c) => c.journey));
    // Audiences, events, tags and the app's time zone (conditions are compiled).
    expect([one.queries, many.queries]).toEqual([3, 4]);
  });
});
