/**
 * Automatic rules (issue 14; api-server/src/features/rules) against real Postgres: create, read,
 * edit, clone, pause, activate and delete with the catalogue's codes and the owner variants of the
 * roles; the trigger interests the app's active rules register; a birthday rule run by a
 * controlled clock that sends each person once a day however often it runs; an event rule that
 * queues a send for an inbox row; a tag rule that reaches a person once per value given.
 *
 * Other test files that run the rules loop would share the inbox: this file's servers run none
 * (RULES_IN_PROCESS off by default in the harness) and its checks read outcomes, not who acted.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type MessageSummary } from '@gd/shared';
import type { Rule } from '@gd/shared/schemas/rules';
import { addMember, createTestApp, registerAccount, type TestApi, type TestClient } from '../../api-server/src/testing/harness.ts';
import { consumeInbox, runDailyRules } from '../../api-server/src/features/rules/engine.ts';
import { approvedMessage, audienceOf, emailAccount, startApiWithSync, until, type DeliveryWorld } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let owner: Awaited<ReturnType<typeof emailAccount>>['owner'];
let appId: string;
let message: MessageSummary;

const content = { sender_name: 'Team', sender_email: 'news@example.com', subject: 'Happy birthday', html_body: '<p>Hello</p>' };

beforeAll(async () => {
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' });
  api = world.api;
  ({ owner, appId } = await emailAccount(api, 2525, { name: 'Rules app', timezone: 'Europe/Madrid' }));
  message = await ruleMessage('Birthday wishes');
});
afterAll(async () => {
  await world.stop();
});

async function ruleMessage(name: string, origin: 'automaticRule' | 'classic' = 'automaticRule'): Promise<MessageSummary> {
  const { audienceId } = await audienceOf(api, appId, [], `${name} audience`);
  return approvedMessage(owner.client, world, { appId, type: 'email', name, audienceId, content, origin });
}

const ruleBody = (over: Record<string, unknown> = {}) => ({
  name: `Rule ${randomUUID().slice(0, 8)}`, trigger: { kind: 'birthday' }, messageId: message.id, sendHour: 9, ...over,
});
const create = async (client: TestClient, over: Record<string, unknown> = {}) => (await client.ok<{ rule: Rule }>('createRule', ruleBody(over), { appId })).rule;
const ids = (rule: Rule) => ({ appId, ruleId: rule.id });
const interests = async () => (await api.db.query<{ name: string }>(`SELECT name FROM trigger_interests WHERE app_id = $1 AND consumer = 'rules' ORDER BY name`, [appId])).rows.map((r) => r.name);
/** The rule's outbox rows by their request key (the outbox adds the channel and address to it). */
const outboxKeys = async (ruleId: string) =>
  (await api.db.query<{ key: string }>(`SELECT idempotency_key AS key FROM message_outbox WHERE idempotency_key LIKE $1 ORDER BY 1`, [`r:${ruleId}:%`])).rows
    .map((r) => r.key.split(':').slice(0, 4).join(':'));

describe('automatic rules through the API', () => {
  it('creates, lists, edits, clones, pauses, activates and deletes, keeping the interests in step', async () => {
    const rule = await create(owner.client, { name: 'Birthdays' });
    expect(rule).toMatchObject({ name: 'Birthdays', status: 'active', sendHour: 9, messageId: message.id, messageName: 'Birthday wishes', ownerId: owner.userId, sends: 0, lastRunAt: null });
    const { rules } = await owner.client.ok<{ rules: Rule[] }>('listRules', undefined, { appId });
    expect(rules.map((r) => r.name)).toContain('Birthdays');

    // An event rule registers its event; a send hour given to it is dropped.
    const event = await create(owner.client, { name: 'Carts', trigger: { kind: 'event_made', eventId: 'add_to_cart' }, sendHour: 7 });
    expect(event.sendHour).toBeNull();
    expect(await interests()).toEqual(['add_to_cart']);
    const edited = (await owner.client.ok<{ rule: Rule }>('updateRule', ruleBody({ name: 'Screens', trigger: { kind: 'onscreen', screen: 'Checkout' } }), ids(event))).rule;
    expect(edited).toMatchObject({ name: 'Screens', trigger: { kind: 'onscreen', screen: 'Checkout' }, sendHour: null, status: 'active' });
    expect(await interests()).toEqual(['e_screen_name']);
    await owner.client.ok('pauseRule', undefined, ids(event));
    expect(await interests()).toEqual([]);
    expect((await owner.client.ok<{ rule: Rule }>('activateRule', undefined, ids(event))).rule.status).toBe('active');
    expect(await interests()).toEqual(['e_screen_name']);

    // A clone is a paused copy under its own name.
    const clone = (await owner.client.ok<{ rule: Rule }>('cloneRule', { name: 'Screens copy' }, ids(event))).rule;
    expect(clone).toMatchObject({ name: 'Screens copy', status: 'paused', trigger: edited.trigger });

    await owner.client.ok('deleteRule', undefined, ids(event));
    expect(await interests()).toEqual([]);
    expect((await owner.client.call('getRule', undefined, ids(event))).body.code).toBe(ErrorCode.NO_PERMISSION);
    const after = (await owner.client.ok<{ rules: Rule[] }>('listRules', undefined, { appId })).rules.map((r) => r.id);
    expect(after).not.toContain(event.id);
    expect(after).toContain(clone.id);
    // Soft: the row stays for the sends' history.
    expect((await api.db.query('SELECT 1 FROM rules WHERE id = $1 AND deleted_at IS NOT NULL', [event.id])).rowCount).toBe(1);
  });

  it('refuses bad input with the catalogue codes and the field', async () => {
    const details = async (body: Record<string, unknown>) => {
      const answer = await owner.client.call('createRule', ruleBody(body), { appId });
      return { code: answer.body.code, details: (answer.body as { details?: { path: string; message: string }[] }).details?.map((d) => `${d.path}:${d.message}`) };
    };
    expect(await details({ sendHour: null })).toEqual({ code: ErrorCode.MANDATORY, details: ['sendHour:send_hour_required'] });
    expect((await details({ trigger: { kind: 'spent_at_least', amount: -3 } })).code).toBe(ErrorCode.MANDATORY);
    expect(await details({ messageId: randomUUID() })).toEqual({ code: ErrorCode.MANDATORY, details: ['messageId:message_not_found'] });
    const classic = await ruleMessage('Classic newsletter', 'classic');
    expect(await details({ messageId: classic.id })).toEqual({ code: ErrorCode.MANDATORY, details: ['messageId:message_wrong_origin'] });
    const { message: draft } = await owner.client.ok<{ message: MessageSummary }>('createMessage', { name: 'Unapproved', type: 'email', origin: 'automaticRule', campaignName: 'Rules' }, { appId });
    expect(await details({ messageId: draft.id })).toEqual({ code: ErrorCode.MANDATORY, details: ['messageId:message_not_approved'] });
    expect(await details({ trigger: { kind: 'tag_value', tagId: randomUUID(), operator: 'equals', value: 'gold' } })).toEqual({ code: ErrorCode.MANDATORY, details: ['trigger.tagId:tag_not_found'] });
    await create(owner.client, { name: 'Taken name' });
    expect(await details({ name: 'taken NAME' })).toEqual({ code: ErrorCode.NAME_DUPLICATED, details: ['name:name_taken'] });
  });

  it('lets an author act on their own rules only, an analyst only read, and nobody from another account', async () => {
    const author = await addMember(api, owner.client, 'author');
    const analyst = await addMember(api, owner.client, 'analyst');
    const owners = await create(owner.client);
    const mine = await create(author);
    expect(mine.ownerId).toBe(author.userId);
    await author.ok('updateRule', ruleBody({ name: 'Author edit' }), ids(mine));
    await author.ok('pauseRule', undefined, ids(mine));
    await author.ok('cloneRule', { name: `Author clone ${randomUUID().slice(0, 6)}` }, ids(mine));
    for (const [name, body] of [['updateRule', ruleBody()], ['pauseRule', undefined], ['deleteRule', undefined]] as const) {
      expect((await author.call(name, body, ids(owners))).body.code).toBe(ErrorCode.NO_PERMISSION);
    }
    // Authors may clone what they may see (ui:rule.clone): a copy of their own.
    await author.ok('deleteRule', undefined, ids(mine));

    expect((await analyst.ok<{ rules: Rule[] }>('listRules', undefined, { appId })).rules.length).toBeGreaterThan(0);
    expect((await analyst.call('createRule', ruleBody(), { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await analyst.call('pauseRule', undefined, ids(owners))).body.code).toBe(ErrorCode.NO_PERMISSION);

    const stranger = await registerAccount(api);
    const theirApp = await createTestApp(stranger.client);
    expect((await stranger.client.call('listRules', undefined, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await stranger.client.call('getRule', undefined, { appId: theirApp.id, ruleId: owners.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await stranger.client.call('deleteRule', undefined, { appId: theirApp.id, ruleId: owners.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await owner.client.ok<{ rule: Rule }>('getRule', undefined, ids(owners))).rule.status).toBe('active');
  });
});

describe('the rules engine', () => {
  it('runs a birthday rule once a day at its hour on the app clock, each person once however often it runs', async () => {
    // Ten days ahead, at the app's 09:30: what the rule sees as "today".
    const { rows: [clock] } = await api.db.query<{ at: Date; md: string; before: Date }>(
      `SELECT ((d + time '09:30') AT TIME ZONE 'Europe/Madrid') AS at, ((d + time '08:59') AT TIME ZONE 'Europe/Madrid') AS before, to_char(d, 'MM-DD') AS md
         FROM (SELECT ((now() AT TIME ZONE 'Europe/Madrid')::date + 10) AS d) x`);
    if (!clock) throw new Error('no clock');
    const { personIds } = await audienceOf(api, appId, [{ email: 'ana@example.com' }, { email: 'ben@example.com' }, { email: 'cy@example.com' }], 'Birthday people');
    const [ana, ben, cy] = personIds as [string, string, string];
    // 1992 is a leap year: every month and day exists. Cy's birthday is two days later.
    const [month, dayOfMonth] = [Number(clock.md.slice(0, 2)), Number(clock.md.slice(3))];
    await api.db.query(`UPDATE people SET birthday = make_date(1992, $2::int, $3::int) WHERE app_id = $1 AND id = ANY($4::bigint[])`, [appId, month, dayOfMonth, [ana, ben]]);
    await api.db.query(`UPDATE people SET birthday = make_date(1992, $2::int, $3::int) + 2 WHERE app_id = $1 AND id = $4`, [appId, month, dayOfMonth, cy]);
    const rule = await create(owner.client, { name: 'Happy birthday', sendHour: 9 });

    // Before the hour: nothing.
    await runDailyRules(api.db, clock.before);
    expect(await outboxKeys(rule.id)).toEqual([]);
    // At the hour, twice (a restart, a second process): each birthday person once.
    await runDailyRules(api.db, clock.at);
    await runDailyRules(api.db, new Date(clock.at.getTime() + 60_000));
    const day = (await api.db.query<{ d: string }>(`SELECT to_char($1::timestamptz AT TIME ZONE 'Europe/Madrid', 'YYYY-MM-DD') AS d`, [clock.at])).rows[0]?.d;
    expect(await outboxKeys(rule.id)).toEqual([`r:${rule.id}:${ana}:${day}`, `r:${rule.id}:${ben}:${day}`].sort());
    const occurrence = await api.db.query<{ sent: number; finished: boolean }>(`SELECT sent, finished_at IS NOT NULL AS finished FROM rule_occurrences WHERE rule_id = $1`, [rule.id]);
    expect(occurrence.rows).toEqual([{ sent: 2, finished: true }]);
    const listed = (await owner.client.ok<{ rule: Rule }>('getRule', undefined, ids(rule))).rule;
    expect(listed.sends).toBe(2);
    expect(listed.lastRunAt).not.toBeNull();

    // Even a lost occurrence row (the day run again from scratch) sends nobody twice: the keys hold.
    await api.db.query('DELETE FROM rule_occurrences WHERE rule_id = $1', [rule.id]);
    await runDailyRules(api.db, clock.at);
    expect(await outboxKeys(rule.id)).toHaveLength(2);
    await owner.client.ok('pauseRule', undefined, ids(rule));
  });

  it('queues an event rule\'s send for an inbox row, and deletes the row', async () => {
    const rule = await create(owner.client, { name: 'Cart reminder', trigger: { kind: 'event_made', eventId: 'add_to_cart' } });
    const { personIds: [dana] } = await audienceOf(api, appId, [{ email: 'dana@example.com' }], 'Cart people');
    const clientId = randomUUID();
    const other = randomUUID();
    const { rows } = await api.db.query<{ id: string }>(
      `INSERT INTO trigger_inbox (consumer, app_id, person_id, kind, name, at, properties, client_id)
       VALUES ('rules', $1, $2, 'event', 'add_to_cart', now(), '{}', $3), ('rules', $1, $2, 'event', 'search', now(), '{}', $4) RETURNING id::text`,
      [appId, dana, clientId, other]);
    const inboxIds = rows.map((r) => r.id);
    await until(async () => {
      await consumeInbox(api.db, new Date());
      return (await api.db.query('SELECT 1 FROM trigger_inbox WHERE id = ANY($1::bigint[])', [inboxIds])).rowCount === 0;
    }, 'the inbox rows consumed');
    expect(await outboxKeys(rule.id)).toEqual([`r:${rule.id}:${dana}:${clientId}`]);
    const row = await api.db.query<{ origin: string; kind: string }>(
      `SELECT s.origin, s.kind FROM message_outbox o JOIN message_sends s ON s.id = o.send_id WHERE o.idempotency_key LIKE $1`, [`r:${rule.id}:${dana}:${clientId}:%`]);
    expect(row.rows).toEqual([{ origin: 'automaticRule', kind: 'rule' }]);
    await owner.client.ok('deleteRule', undefined, ids(rule));
  });

  it('reaches a tag rule\'s person once per value given', async () => {
    const { tag } = await owner.client.ok<{ tag: { id: string } }>('createTag', { name: `tier_${randomUUID().slice(0, 6)}`, kind: 'user_tag', valueType: 'text' }, { appId });
    const rule = await create(owner.client, { name: 'Gold members', trigger: { kind: 'tag_value', tagId: tag.id, operator: 'equals', value: 'gold' }, sendHour: 0 });
    const { personIds: [eva, fay] } = await audienceOf(api, appId, [{ email: 'eva@example.com' }, { email: 'fay@example.com' }], 'Tag people');
    await api.db.query(
      `INSERT INTO person_tags (app_id, person_id, tag_id, value_text, updated_at) VALUES ($1, $2, $4, 'gold', now()), ($1, $3, $4, 'silver', now())`, [appId, eva, fay, tag.id]);
    const day = (n: number) => new Date(Date.now() + n * 86_400_000);
    await runDailyRules(api.db, day(1));
    await runDailyRules(api.db, day(2));
    expect((await outboxKeys(rule.id)).map((k) => k.split(':')[2])).toEqual([eva]);
    // Given the value again after the last send: reached again the next day.
    await api.db.query(`UPDATE person_tags SET updated_at = $3 WHERE app_id = $1 AND person_id = $2`, [appId, eva, day(2.5)]);
    await runDailyRules(api.db, day(3));
    expect((await outboxKeys(rule.id)).map((k) => k.split(':')[2])).toEqual([eva, eva]);
    await owner.client.ok('deleteRule', undefined, ids(rule));
  });
});
