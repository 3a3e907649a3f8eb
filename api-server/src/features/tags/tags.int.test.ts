/** Tags: CRUD with value counts, types locked by values, unique names per kind, permissions. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type Tag } from '@gd/shared';
import { addMember, createTestApp, ingest, registerAccount, startTestApi, type TestApi } from '../../testing/harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

describe('tags', () => {
  it('lists user tags with the people who have a value, and locks the type once values exist', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const params = { appId: app.id };
    const { tag: tier } = await client.ok<{ tag: Tag }>('createTag', { name: 'tier', kind: 'user_tag', valueType: 'text' }, params);
    const { tag: empty } = await client.ok<{ tag: Tag }>('createTag', { name: 'Spare', kind: 'user_tag', valueType: 'text', description: 'Not used yet' }, params);
    await client.ok('createTag', { name: 'tier', kind: 'audience_tag', valueType: 'date' }, params);
    for (const value of ['gold', 'silver']) {
      await ingest(api, app.appKey, 'ingestProfile', { device: { id: randomUUID() }, tags: { tier: value } });
    }
    const { tags } = await client.ok<{ tags: Tag[] }>('listTags', undefined, params);
    expect(tags.map((t) => [t.name, t.kind, t.valueType, t.people])).toEqual([
      ['Spare', 'user_tag', 'text', 0], ['tier', 'user_tag', 'text', 2], ['tier', 'audience_tag', 'date', 0],
    ]);
    const retype = await client.call('updateTag', { name: 'tier', valueType: 'number' }, { ...params, tagId: tier.id });
    expect(retype.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    const renamed = await client.ok<{ tag: Tag }>('updateTag', { name: 'Level', valueType: 'text', description: 'Loyalty level' }, { ...params, tagId: tier.id });
    expect(renamed.tag).toMatchObject({ name: 'Level', description: 'Loyalty level', people: 2 });
    expect((await client.ok<{ tag: Tag }>('updateTag', { name: 'Spare', valueType: 'date' }, { ...params, tagId: empty.id })).tag.valueType).toBe('date');
    const duplicate = await client.call('createTag', { name: 'LEVEL', kind: 'user_tag', valueType: 'text' }, params);
    expect(duplicate.body).toMatchObject({ code: ErrorCode.NAME_DUPLICATED });
    await client.ok('deleteTag', undefined, { ...params, tagId: tier.id });
    expect(Number((await api.deps.db.query<{ n: string }>('SELECT count(*) AS n FROM person_tags WHERE app_id = $1', [app.id])).rows[0]?.n)).toBe(0);
    expect((await client.call('deleteTag', undefined, { ...params, tagId: tier.id })).body.code).toBe(ErrorCode.NOT_EXIST);
  });

  it('refuses a bad name, another account, and users whose role may only view', async () => {
    const owner = await registerAccount(api);
    const app = await createTestApp(owner.client);
    const params = { appId: app.id };
    expect((await owner.client.call('createTag', { name: '=cmd()', kind: 'user_tag', valueType: 'text' }, params)).body.code).toBe(ErrorCode.MANDATORY);
    const stranger = await registerAccount(api);
    expect((await stranger.client.call('listTags', undefined, params)).body.code).toBe(ErrorCode.NO_PERMISSION);
    const analyst = await addMember(api, owner.client, 'analyst');
    expect((await analyst.ok<{ tags: Tag[] }>('listTags', undefined, params)).tags).toEqual([]);
    expect((await analyst.call('createTag', { name: 'x', kind: 'user_tag', valueType: 'text' }, params)).body.code).toBe(ErrorCode.NO_PERMISSION);
  });
});
