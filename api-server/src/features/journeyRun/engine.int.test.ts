/**
 * The journey engine against real Postgres (issue 14), on an injected clock far from the real one
 * (2100) and a worker scoped to each test's app, so no other file's worker and no real clock
 * disturbs it: every step type through a month; re-entry never / after a period / always; the entry
 * key; exit events cancelling a queued send; the exit segment; the conversion goal; stop; a new
 * version while people are inside the old one; a deleted message recorded and passed; audience
 * entry (all members over several pages, then those a refresh adds); and the reads (step counts, a person's journeys, the search) through the API. Last, worker
 * processes killed with SIGKILL while 1,000 people run through a journey with a message step
 * (postbacks: postbacks.int.test.ts) (in this file, after the clock tests: the real-clock workers never see their 2100 entries, and
 * no test's inbox rows are left for them to take).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Journey } from '@gd/shared';
import { journey, linked, mk } from '@gd/shared/journey/testing';
import type { JourneySettings } from '@gd/shared/journey/settings';
import { createTestApp } from '../../testing/harness.ts';
import { notifyAudienceJourneys } from './enter.ts';
import { START, countryIs, journeySuite, run, settings } from './testing/suite.ts';
import {
  DAY, HOUR, TestClock, audience, entriesOf, event, inboxEvent, interaction, journeyMessage, launch, passagesOf, people, stop, worker, type World,
} from './testing/world.ts';

const suite = journeySuite();
const newWorld = () => suite.newWorld();


describe('interactions reported without their journey step', () => {
  it('count for the step that sent the message (push and in-app SDKs name only the message), from its send on', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const push = await journeyMessage(w);
    const def: Journey = {
      ...journey('s',
        linked('sourceEvents', 's', 'm', { eventIds: ['start'] }),
        linked('actionMessagePush', 'm', 'w', push),
        linked('flowWait', 'w', 'wi', { duration: 3600 }),
        { ...mk('flowWaitInteraction', 'wi'), paths: [{ id: 'clicked', name: '', next: 'end', action: 'click' }, { id: 'late', name: '', next: 'end', duration: 86_400 }] },
        mk('end', 'end')),
      settings: settings({}),
    };
    const { journeyId } = await launch(w, def);
    const [clicker, early] = await people(w, 2);
    if (!clicker || !early) throw new Error('people');
    // A click on the same message before this journey sent it (another send) answers nothing here.
    await interaction(w, early, 'click', new Date(clock.now().getTime() - HOUR), { journeyId: null, stepId: null, messageId: push.messageId });
    for (const p of [clicker, early]) await inboxEvent(w.db, w.appId, p, 'start', clock.now());
    await run(engine, clock, 3 * DAY, HOUR, async (t) => {
      if (t === 2 * HOUR) await interaction(w, clicker, 'click', clock.now(), { journeyId: null, stepId: null, messageId: push.messageId });
    });
    const entries = await entriesOf(w.db, journeyId);
    const wi = async (person: string) => (await passagesOf(w.db, entries.find((e) => e.person_id === person)?.id ?? '')).find((p) => p.step_id === 'wi');
    expect(await wi(clicker)).toMatchObject({ path_id: 'clicked', reason: 'interaction', detail: 'click' });
    // Woken by the click's inbox row (which names no journey), not left waiting for the timeout.
    expect((await wi(clicker))!.at.getTime() - new Date(START).getTime()).toBeLessThanOrEqual(3 * HOUR);
    expect(await wi(early)).toMatchObject({ path_id: 'late', reason: 'timeout' });
  });
});

describe('every step type', () => {
  it('runs a journey with every step type through a month, from the launched version', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const mail = await journeyMessage(w);
    const gone = await journeyMessage(w);
    await w.db.query(`UPDATE messages SET status = 'Deleted', deleted_at = now() WHERE id = $1`, [gone.messageId]);
    const tagId = (await w.db.query<{ id: string }>(`INSERT INTO tags (app_id, name, kind, value_type) VALUES ($1, 'visits', 'user_tag', 'number') RETURNING id`, [w.appId])).rows[0]?.id ?? '';
    const def: Journey = {
      ...journey('s',
        linked('sourceEvents', 's', 'm1', { eventIds: ['start'] }),
        linked('actionMessageEmail', 'm1', 'w', mail),
        linked('flowWait', 'w', 'wi', { duration: DAY / 1000 }),
        { ...mk('flowWaitInteraction', 'wi'), paths: [{ id: 'clicked', name: '', next: 'ev', action: 'click' }, { id: 'late', name: '', next: 'ev', duration: 3 * 86_400 }] },
        { ...mk('flowEvent', 'ev'), paths: [{ id: 'bought', name: '', next: 'split', eventId: 'buy' }, { id: 'none', name: '', next: 'split' }] },
        { ...mk('flowSplit', 'split'), paths: [{ id: 'es', name: '', next: 'rnd', segment: countryIs('ES') }, { id: 'other', name: '', next: 'rnd' }] },
        linked('flowRandom', 'rnd', ['join', 'join']),
        linked('flowJoin', 'join', 'push'),
        linked('actionMessagePush', 'push', 'inapp', gone),
        linked('actionMessageInApp', 'inapp', 'fi', gone),
        { ...mk('flowInteraction', 'fi'), paths: [{ id: 'opened', name: '', next: 'pb', action: 'open' }, { id: 'otherwise', name: '', next: 'pb' }] },
        linked('actionPostback', 'pb', 'tag', { target: 'integration', integrationId: 'x' }),
        linked('updateTagCount', 'tag', 'w2', { tagId, amount: 3 }),
        linked('flowWait', 'w2', 'end', { duration: 7 * 86_400 }),
        mk('end', 'end')),
      settings: settings({}),
    };
    const { journeyId } = await launch(w, def);
    // A later draft never runs: only launched versions do (the engine reads journey_versions only).
    const [clicker, idle, abroad] = await people(w, 3);
    if (!clicker || !idle || !abroad) throw new Error('people');
    await w.db.query(`UPDATE people SET country = 'FR' WHERE id = $1`, [abroad]);
    for (const p of [clicker, idle, abroad]) await inboxEvent(w.db, w.appId, p, 'start', clock.now());
    await run(engine, clock, 30 * DAY, HOUR, async (t) => {
      if (t === 2 * HOUR) await interaction(w, clicker, 'click', clock.now(), { journeyId, stepId: 'm1', messageId: mail.messageId });
      if (t === DAY) await event(w, clicker, 'buy', clock.now());
    });
    const entries = await entriesOf(w.db, journeyId);
    expect(entries.map((e) => [e.person_id, e.status, e.step_id, e.end_reason])).toEqual([clicker, idle, abroad].map((p) => [p, 'ended', 'end', 'end']));
    const trace = async (person: string) => passagesOf(w.db, entries.find((e) => e.person_id === person)?.id ?? '');
    const clickerTrace = await trace(clicker);
    expect(clickerTrace.map((p) => p.step_id)).toEqual(['s', 'm1', 'w', 'wi', 'ev', 'split', 'rnd', 'join', 'push', 'inapp', 'fi', 'pb', 'tag', 'w2', 'end']);
    expect(clickerTrace.find((p) => p.step_id === 'wi')).toMatchObject({ path_id: 'clicked', reason: 'interaction', detail: 'click' });
    expect(clickerTrace.find((p) => p.step_id === 'ev')).toMatchObject({ path_id: 'bought', reason: 'event', detail: 'buy' });
    expect(clickerTrace.find((p) => p.step_id === 'split')).toMatchObject({ path_id: 'es', reason: 'segment' });
    expect(clickerTrace.find((p) => p.step_id === 'm1')).toMatchObject({ effect_kind: 'send', effect_status: 'queued' });
    // The deleted message is recorded on its steps and the person moved on.
    expect(clickerTrace.find((p) => p.step_id === 'push')).toMatchObject({ effect_kind: 'send', effect_status: 'skipped', effect_reason: 'message_gone' });
    expect(clickerTrace.find((p) => p.step_id === 'tag')).toMatchObject({ effect_kind: 'tag', effect_status: 'applied' });
    const idleTrace = await trace(idle);
    expect(idleTrace.find((p) => p.step_id === 'wi')).toMatchObject({ path_id: 'late', reason: 'timeout' });
    expect(idleTrace.find((p) => p.step_id === 'ev')).toMatchObject({ path_id: 'none', reason: 'otherwise' });
    expect((await trace(abroad)).find((p) => p.step_id === 'split')).toMatchObject({ path_id: 'other', reason: 'otherwise' });
    // One queued e-mail per person for m1; the wait of 1 day and the 3-day timeout took their time.
    const outbox = await w.db.query<{ person_id: string; n: number }>(`SELECT person_id::text, count(*)::int AS n FROM message_outbox WHERE journey_id = $1 GROUP BY person_id`, [journeyId]);
    expect(outbox.rows.map((r) => r.n)).toEqual([1, 1, 1]);
    const idleEntry = entries.find((e) => e.person_id === idle);
    const at = await w.db.query<{ step_id: string; at: Date }>(`SELECT step_id, at FROM journey_passages WHERE entry_id = $1`, [idleEntry?.id]);
    const when = (s: string) => at.rows.find((r) => r.step_id === s)?.at.getTime() ?? 0;
    expect(when('w') - when('s')).toBe(DAY);
    expect(when('wi') - when('w')).toBe(3 * DAY);
    expect(when('end') - when('wi')).toBe(7 * DAY);
    // Postback to an integration the step names by an id of no integration: recorded failed with
    // the reason (integrationPostback.int.test.ts sends through a real one). Tags: +3 each.
    const postbacks = await w.db.query<{ status: string; error: string }>(`SELECT status, error FROM journey_postbacks WHERE journey_id = $1`, [journeyId]);
    expect(postbacks.rows).toEqual([0, 1, 2].map(() => ({ status: 'failed', error: 'integration_not_found: the step names no integration' })));
    const tags = await w.db.query<{ v: string }>(`SELECT value_number::text AS v FROM person_tags WHERE tag_id = $1`, [tagId]);
    expect(tags.rows.map((r) => Number(r.v))).toEqual([3, 3, 3]);
    // Counts: every step reached by the three.
    const counts = await w.db.query<{ step_id: string; cumulative: number }>(`SELECT step_id, cumulative FROM journey_step_counts WHERE journey_id = $1 AND step_id NOT LIKE '$%'`, [journeyId]);
    expect(counts.rows.length).toBe(def.steps.length);
    for (const c of counts.rows) expect(c.cumulative, c.step_id).toBe(3);
  });
});

describe('entry', () => {
  const simple = (reentry: JourneySettings['reentry'], entryKey: string | null = null): Journey => ({
    ...journey('s', linked('sourceEvents', 's', 'w', { eventIds: ['go'] }), linked('flowWait', 'w', 'end', { duration: 3600 }), mk('end', 'end')),
    settings: settings({ reentry, entryKey }),
  });

  it.each([
    ['never', { mode: 'never' as const, periodSeconds: 0 }, 1],
    ['after a period of 2 days', { mode: 'afterPeriod' as const, periodSeconds: 2 * 86_400 }, 3],
    ['always', { mode: 'always' as const, periodSeconds: 0 }, 5],
  ])('re-entry %s', async (_name, reentry, expected) => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const { journeyId } = await launch(w, simple(reentry));
    const [p] = await people(w, 1);
    // Five triggers a day apart, each after the previous entry ended (the wait is an hour); plus
    // one while the first entry is open: never a second open entry.
    for (let day = 0; day < 5; day++) {
      await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
      await engine.drain();
      if (day === 0) {
        await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
        await engine.drain();
      }
      clock.advance(DAY);
      await engine.drain();
    }
    const entries = await entriesOf(w.db, journeyId);
    expect(entries.length).toBe(expected);
    expect(entries.every((e) => e.status === 'ended')).toBe(true);
  });

  it('re-entry holds across versions, and people inside an old version finish it while new ones enter the new one', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const first = await launch(w, simple({ mode: 'never', periodSeconds: 0 }));
    const [a, b] = await people(w, 2);
    await inboxEvent(w.db, w.appId, a ?? '', 'go', clock.now());
    await engine.drain();
    const second = await launch(w, simple({ mode: 'never', periodSeconds: 0 }), first.journeyId);
    expect(second.version).toBe(2);
    await inboxEvent(w.db, w.appId, a ?? '', 'go', clock.now());
    await inboxEvent(w.db, w.appId, b ?? '', 'go', clock.now());
    await engine.drain();
    clock.advance(2 * HOUR);
    await engine.drain();
    const entries = await entriesOf(w.db, first.journeyId);
    expect(entries.map((e) => [e.person_id, e.version, e.status])).toEqual([[a, 1, 'ended'], [b, 2, 'ended']]);
  });

  it('the entry key separates concurrent entries of one person', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const { journeyId } = await launch(w, simple({ mode: 'never', periodSeconds: 0 }, 'order'));
    const [p] = await people(w, 1);
    for (const order of ['o1', 'o2', 'o1']) await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now(), { order });
    await engine.drain();
    const entries = await w.db.query<{ entry_key: string; status: string }>(`SELECT entry_key, status FROM journey_entries WHERE journey_id = $1 ORDER BY entry_key`, [journeyId]);
    expect(entries.rows).toEqual([{ entry_key: 'o1', status: 'waiting' }, { entry_key: 'o2', status: 'waiting' }]);
  });

  it('an audience source enrols every member at launch over several pages, and those a refresh adds', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const members = await people(w, 12_050);
    const audienceId = await audience(w, members);
    const { journeyId } = await launch(w, { ...journey('s', linked('sourceAudience', 's', 'w', { audienceId, segment: null }), linked('flowWait', 'w', 'end', { duration: 60 }), mk('end', 'end')), settings: settings({}) });
    await engine.drain();
    const count = async () => (await w.db.query<{ n: number }>(`SELECT count(DISTINCT person_id)::int AS n FROM journey_entries WHERE journey_id = $1`, [journeyId])).rows[0]?.n;
    expect(await count()).toBe(12_050);
    // A refresh (an import) adds two members: they enter; the others do not enter twice.
    const added = await people(w, 2);
    // As a refresh writes them: the members and refreshed_at in one transaction (the same instant, to the microsecond).
    await w.db.query(`WITH m AS (INSERT INTO audience_members (app_id, audience_id, person_id) SELECT $1, $2, unnest($3::bigint[]))
                      UPDATE audiences SET refreshed_at = now() WHERE id = $2`, [w.appId, audienceId, added]);
    expect(await notifyAudienceJourneys(w.db, audienceId)).toBe(1);
    expect(await notifyAudienceJourneys(w.db, audienceId)).toBe(0);
    await engine.drain();
    expect(await count()).toBe(12_052);
    const enrolments = await w.db.query<{ entered: number }>(`SELECT entered FROM journey_enrolments WHERE journey_id = $1 ORDER BY id`, [journeyId]);
    expect(enrolments.rows.map((r) => r.entered)).toEqual([12_050, 2]);
  });
});

describe('exit, goal and stop', () => {
  async function mailJourney(w: World, s: Partial<JourneySettings>) {
    const mail = await journeyMessage(w);
    const def: Journey = {
      ...journey('s', linked('sourceEvents', 's', 'w0', { eventIds: ['go'] }), linked('flowWait', 'w0', 'm1', { duration: 600 }),
        linked('actionMessageEmail', 'm1', 'w', mail), linked('flowWait', 'w', 'm2', { duration: 2 * 86_400 }), linked('actionMessageEmail', 'm2', 'end', mail), mk('end', 'end')),
      settings: settings(s),
    };
    return { mail, ...(await launch(w, def)) };
  }

  it('an exit event takes the person out and cancels their queued send', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const { journeyId } = await mailJourney(w, { exit: { eventIds: ['unsubscribe'], segment: null } });
    const [leaver, stayer] = await people(w, 2);
    for (const p of [leaver, stayer]) await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
    await engine.drain();
    clock.advance(HOUR);
    await engine.drain();
    const queued = async () => (await w.db.query<{ person_id: string; status: string; error: string | null }>(`SELECT person_id::text, status, error FROM message_outbox WHERE journey_id = $1 ORDER BY person_id`, [journeyId])).rows;
    expect((await queued()).map((r) => r.status)).toEqual(['queued', 'queued']);
    await inboxEvent(w.db, w.appId, leaver ?? '', 'unsubscribe', clock.now());
    await engine.drain();
    expect(await queued()).toEqual([{ person_id: leaver, status: 'skipped', error: 'journey_exit' }, { person_id: stayer, status: 'queued', error: null }]);
    clock.advance(3 * DAY);
    await engine.drain();
    const entries = await entriesOf(w.db, journeyId);
    expect(entries.map((e) => [e.person_id, e.status, e.end_reason, e.step_id])).toEqual([[leaver, 'exited', 'exit_event', 'w'], [stayer, 'ended', 'end', 'end']]);
    expect((await passagesOf(w.db, entries[0]?.id ?? '')).at(-1)).toMatchObject({ step_id: 'w', reason: 'exit_event', detail: 'unsubscribe' });
  });

  it('leaving the exit segment takes the person out when the entry is next looked at', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const { journeyId } = await mailJourney(w, { exit: { eventIds: [], segment: countryIs('ES') } });
    const [mover, stayer] = await people(w, 2);
    for (const p of [mover, stayer]) await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
    await engine.drain();
    clock.advance(HOUR);
    await engine.drain();
    await w.db.query(`UPDATE people SET country = 'FR' WHERE id = $1`, [mover]);
    // Waiting 2 days, the entry is looked at again within the recheck period (15 minutes).
    clock.advance(20 * 60_000);
    await engine.drain();
    const entries = await entriesOf(w.db, journeyId);
    expect(entries.map((e) => [e.person_id, e.status, e.end_reason])).toEqual([[mover, 'exited', 'exit_segment'], [stayer, 'waiting', null]]);
    const outbox = await w.db.query<{ status: string }>(`SELECT status FROM message_outbox WHERE journey_id = $1 AND person_id = $2`, [journeyId, mover]);
    expect(outbox.rows.map((r) => r.status)).toEqual(['skipped']);
  });

  it('the goal event within its window converts the entry, credited to its last message step', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const { journeyId, version } = await mailJourney(w, { goal: { eventId: 'purchase', windowSeconds: 86_400 } });
    const [buyer, late] = await people(w, 2);
    for (const p of [buyer, late]) await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
    await engine.drain();
    clock.advance(HOUR);
    await engine.drain();
    await inboxEvent(w.db, w.appId, buyer ?? '', 'purchase', clock.now());
    await inboxEvent(w.db, w.appId, buyer ?? '', 'purchase', clock.now());
    await inboxEvent(w.db, w.appId, late ?? '', 'purchase', new Date(clock.ms + 2 * DAY));
    await engine.drain();
    const entries = await entriesOf(w.db, journeyId);
    expect(entries.map((e) => [e.person_id, e.converted_at?.getTime() ?? null, e.conversion_step_id])).toEqual([[buyer, clock.ms, 'm1'], [late, null, null]]);
    const counts = await w.db.query<{ step_id: string; conversions: number; cumulative: number }>(
      `SELECT step_id, conversions, cumulative FROM journey_step_counts WHERE journey_id = $1 AND version = $2 AND (conversions > 0 OR step_id = '$converted')`, [journeyId, version]);
    expect(counts.rows.sort((a, b) => a.step_id.localeCompare(b.step_id))).toEqual([{ step_id: '$converted', conversions: 0, cumulative: 1 }, { step_id: 'm1', conversions: 1, cumulative: 2 }]);
  });

  it('stop: no new entries, people exit with their queued sends cancelled', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const { journeyId } = await mailJourney(w, {});
    const inside = await people(w, 30);
    for (const p of inside) await inboxEvent(w.db, w.appId, p, 'go', clock.now());
    await engine.drain();
    clock.advance(HOUR);
    await engine.drain();
    await stop(w, journeyId);
    const [late] = await people(w, 1);
    await inboxEvent(w.db, w.appId, late ?? '', 'go', clock.now());
    await engine.drain();
    clock.advance(5 * DAY);
    await engine.drain();
    const entries = await entriesOf(w.db, journeyId);
    expect(entries.length).toBe(30);
    expect(new Set(entries.map((e) => `${e.status}:${e.end_reason}`))).toEqual(new Set(['exited:stopped']));
    const outbox = await w.db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM message_outbox WHERE journey_id = $1 GROUP BY status`, [journeyId]);
    expect(outbox.rows).toEqual([{ status: 'skipped', n: 30 }]);
    expect((await w.db.query(`SELECT 1 FROM trigger_interests WHERE app_id = $1 AND consumer = 'journeys'`, [w.appId])).rowCount).toBe(0);
  });
});

describe('reads', () => {
  it('answers step counts, a person\'s journeys and the search inside a journey', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock);
    const mail = await journeyMessage(w);
    const { journeyId } = await launch(w, {
      ...journey('s', linked('sourceEvents', 's', 'm1', { eventIds: ['go'] }), linked('actionMessageEmail', 'm1', 'w', mail), linked('flowWait', 'w', 'end', { duration: 86_400 }), mk('end', 'end')),
      settings: settings({ goal: { eventId: 'buy', windowSeconds: 86_400 } }),
    });
    const group = await people(w, 3);
    for (const p of group) await inboxEvent(w.db, w.appId, p, 'go', clock.now());
    await engine.drain();
    await inboxEvent(w.db, w.appId, group[0] ?? '', 'buy', clock.now());
    await engine.drain();
    const ids = { appId: w.appId, journeyId };
    const counts = await w.client.ok<{ version: number; counts: { currentStepId: string; users: number; cumulativeUsers: number; conversions: number }[]; totals: Record<string, number> }>('journeyStepCounts', undefined, ids);
    expect(counts.version).toBe(1);
    expect(counts.counts).toEqual([
      { currentStepId: 's', users: 0, cumulativeUsers: 3, conversions: 0 },
      { currentStepId: 'm1', users: 0, cumulativeUsers: 3, conversions: 1 },
      { currentStepId: 'w', users: 3, cumulativeUsers: 3, conversions: 0 },
      { currentStepId: 'end', users: 0, cumulativeUsers: 0, conversions: 0 },
    ]);
    expect(counts.totals).toEqual({ entered: 3, inside: 3, ended: 0, exited: 0, converted: 1 });
    const mine = await w.client.ok<{ entries: { journeyId: string; stepId: string; status: string; passages: { stepId: string; reason: string; effect: unknown }[] }[] }>('personJourneys', undefined, { appId: w.appId, personId: group[0] ?? '' });
    expect(mine.entries).toHaveLength(1);
    expect(mine.entries[0]).toMatchObject({ journeyId, stepId: 'w', status: 'waiting' });
    expect(mine.entries[0]?.passages.map((p) => [p.stepId, p.reason])).toEqual([['s', 'entered'], ['m1', 'sent']]);
    expect(mine.entries[0]?.passages[1]?.effect).toEqual({ kind: 'send', status: 'queued', reason: null });
    const customer = (await w.db.query<{ customer_id: string }>('SELECT customer_id FROM people WHERE id = $1', [group[1]])).rows[0]?.customer_id ?? '';
    for (const q of [customer, `${customer}@EXAMPLE.test`, group[1] ?? '']) {
      const found = await w.client.ok<{ people: { personId: string; entries: { stepId: string }[] }[] }>('journeyPersonSearch', undefined, ids, { q });
      expect(found.people.map((p) => [p.personId, p.entries.map((e) => e.stepId)]), q).toEqual([[group[1], ['w']]]);
    }
    // Another app's id answers as an unknown journey.
    const other = await createTestApp(suite.owner.client);
    const refused = await w.client.call('journeyStepCounts', undefined, { appId: other.id, journeyId });
    expect(refused.body.status).toBe('KO');
  });
});

describe('crash', () => {
  const workers: ChildProcess[] = [];
  afterAll(() => {
    for (const c of workers) if (c.exitCode === null) c.kill('SIGKILL');
  });
  /**
   * A journeys-only worker process on the test database, with small batches so a kill lands
   * mid-run, scoped to this test's app: other files' inbox rows and entries are not its to take.
   */
  function startWorker(appId: string): ChildProcess {
    const root = path.resolve(import.meta.dirname, '../../../..');
    const child = spawn(process.execPath, [path.join(root, 'api-server/src/worker.ts')], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: inject('databaseUrl'), JWT_SECRET: suite.api.deps.config.JWT_SECRET, WORKER_ONLY: 'journeys', JOURNEY_BATCH_SIZE: '25', JOURNEY_APP_IDS: appId, LOG_LEVEL: 'silent', DATA_DIR: '/tmp/gd-it' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    workers.push(child);
    return child;
  }
  async function until(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const kill = async (c: ChildProcess) => {
    c.kill('SIGKILL');
    await new Promise<void>((resolve) => (c.exitCode !== null ? resolve() : c.once('exit', () => resolve())));
  };

  it('workers killed while 1,000 people run a journey with a message step: each person got it exactly once and everyone reached the end', { timeout: 180_000 }, async () => {
    const w = await newWorld();
    const mail = await journeyMessage(w);
    const group = await people(w, 1000);
    const audienceId = await audience(w, group);
    const { journeyId } = await launch(w, {
      ...journey('s', linked('sourceAudience', 's', 'm1', { audienceId, segment: null }), linked('actionMessageEmail', 'm1', 'w', mail), linked('flowWait', 'w', 'end', { duration: 1 }), mk('end', 'end')),
      settings: settings({}),
    });
    const sent = async () => (await w.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM message_outbox WHERE journey_id = $1`, [journeyId])).rows[0]?.n ?? 0;
    const ended = async () => (await w.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journey_entries WHERE journey_id = $1 AND status = 'ended'`, [journeyId])).rows[0]?.n ?? 0;
    // Two kills at different points (mid-send, mid-wait), then a worker that finishes.
    const first = startWorker(w.appId);
    await until(async () => (await sent()) >= 200, 'the first 200 sends');
    await kill(first);
    const atFirstKill = await sent();
    const second = startWorker(w.appId);
    await until(async () => (await ended()) >= 300 || (await sent()) >= 1000, 'more progress');
    await kill(second);
    const atSecondKill = await ended();
    startWorker(w.appId);
    await until(async () => (await ended()) === 1000, 'everyone to reach the end', 120_000);
    expect(atFirstKill).toBeLessThan(1000);
    expect(atSecondKill).toBeLessThan(1000);
    const perPerson = await w.db.query<{ n: number; people: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT person_id)::int AS people FROM message_outbox WHERE journey_id = $1 AND step_id = 'm1'`, [journeyId]);
    expect(perPerson.rows[0]).toEqual({ n: 1000, people: 1000 });
    const entries = await w.db.query<{ n: number; people: number }>(`SELECT count(*)::int AS n, count(DISTINCT person_id)::int AS people FROM journey_entries WHERE journey_id = $1`, [journeyId]);
    expect(entries.rows[0]).toEqual({ n: 1000, people: 1000 });
    // Every entry's trace holds each step once; the counts add up.
    const traces = await w.db.query<{ steps: string; n: number }>(
      `SELECT steps, count(*)::int AS n FROM (SELECT string_agg(p.step_id, ',' ORDER BY p.id) AS steps FROM journey_passages p JOIN journey_entries e ON e.id = p.entry_id WHERE e.journey_id = $1 GROUP BY p.entry_id) t GROUP BY steps`, [journeyId]);
    expect(traces.rows).toEqual([{ steps: 's,m1,w,end', n: 1000 }]);
    const counts = await w.db.query<{ step_id: string; cumulative: number }>(`SELECT step_id, cumulative FROM journey_step_counts WHERE journey_id = $1 ORDER BY step_id`, [journeyId]);
    expect(counts.rows).toEqual([['$ended', 1000], ['end', 1000], ['m1', 1000], ['s', 1000], ['w', 1000]].map(([step_id, cumulative]) => ({ step_id, cumulative })));
  });
});
