/**
 * Categories against real Postgres (issue 17, piece D): CRUD with its refusals (30, 10001, 10),
 * assignments to apps, apptracker campaigns, message campaigns and messages with their permission
 * checks, the list filters returning only the chosen category's items, and assignments cleaned
 * when a category, a type, or an entity goes away.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type Category } from '@gd/shared';
import { addMember, createTestApp, registerAccount, startTestApi, type TestApi, type TestClient } from '../../testing/harness.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
});

const create = async (client: TestClient, name: string, entityTypes: string[] = ['app', 'campaign', 'message'], colour = '#1C7ED6') =>
  (await client.ok<{ category: Category }>('createCategory', { name, colour, entityTypes })).category;
const assign = (client: TestClient, appId: string, entityType: string, entityId: string, categoryIds: string[]) =>
  client.call('setCategoryAssignments', { entityType, entityId, categoryIds }, { appId });
const assignmentRows = async (appId: string) =>
  (await api.db.query<{ entity_type: string; entity_id: string; category_id: string }>(
    'SELECT entity_type, entity_id::text, category_id::text FROM category_assignments WHERE app_id = $1 ORDER BY entity_type, entity_id, category_id', [appId])).rows;

/** An apptracker campaign (with its source) of the app. */
async function acqCampaign(client: TestClient, appId: string, name: string): Promise<string> {
  const { source } = await client.ok<{ source: { id: string } }>('createSource', { name: `Source ${name}`, type: 'custom' }, { appId });
  const { campaign } = await client.ok<{ campaign: { id: string } }>('createCampaign', {
    name, sourceId: source.id, pricingModel: 'cpi', destinations: { desktop: { web: 'https://www.example.com/get' } },
  }, { appId });
  return campaign.id;
}
/** A message (in a new message campaign named after it). */
async function message(client: TestClient, appId: string, name: string): Promise<{ id: string; campaignId: string }> {
  const { message: m } = await client.ok<{ message: { id: string; campaignId: string } }>('createMessage', { name, type: 'push' }, { appId });
  return m;
}

describe('categories', () => {
  it('creates, lists with counts, renames, refuses bad input and duplicates, and deletes with the assignments', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const retail = await create(client, 'Retail', ['app', 'campaign']);
    expect(retail).toMatchObject({ name: 'Retail', colour: '#1C7ED6', entityTypes: ['app', 'campaign'], counts: { app: 0, campaign: 0, message: 0 } });
    // Entity types come back in their fixed order, once each.
    const promo = await create(client, 'promo', ['message', 'campaign', 'message'], '#e03131');
    expect(promo.entityTypes).toEqual(['campaign', 'message']);

    for (const [body, path] of [
      [{ name: 'Bad colour', colour: 'red', entityTypes: ['app'] }, 'colour'],
      [{ name: 'Short colour', colour: '#fff', entityTypes: ['app'] }, 'colour'],
      [{ name: 'No types', colour: '#000000', entityTypes: [] }, 'entityTypes'],
      [{ name: 'Bad type', colour: '#000000', entityTypes: ['journey'] }, 'entityTypes.0'],
      [{ name: '   ', colour: '#000000', entityTypes: ['app'] }, 'name'],
    ] as const) {
      const refused = await client.call('createCategory', body);
      expect(refused.body, JSON.stringify(body)).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY, details: [expect.objectContaining({ path })] });
    }
    const duplicate = await client.call('createCategory', { name: 'RETAIL', colour: '#000000', entityTypes: ['app'] });
    expect(duplicate.body).toMatchObject({ code: ErrorCode.NAME_DUPLICATED, details: [{ path: 'name' }] });
    // Another account may use the same name.
    const other = await registerAccount(api);
    await create(other.client, 'Retail');

    expect((await assign(client, app.id, 'app', app.id, [retail.id])).body.status).toBe('OK');
    const { categories } = await client.ok<{ categories: Category[] }>('listCategories');
    expect(categories.map((c) => [c.name, c.counts.app])).toEqual([['promo', 0], ['Retail', 1]]);
    const forMessages = await client.ok<{ categories: Category[] }>('listCategories', undefined, undefined, { entityType: 'message' });
    expect(forMessages.categories.map((c) => c.name)).toEqual(['promo']);

    const renamed = await client.ok<{ category: Category }>('updateCategory', { name: 'Retail apps', colour: '#0CA678', entityTypes: ['app', 'campaign'] }, { categoryId: retail.id });
    expect(renamed.category).toMatchObject({ name: 'Retail apps', colour: '#0CA678', counts: { app: 1 } });
    expect((await client.call('updateCategory', { name: 'Promo', colour: '#0CA678', entityTypes: ['app'] }, { categoryId: retail.id })).body.code).toBe(ErrorCode.NAME_DUPLICATED);
    expect((await client.call('updateCategory', { name: 'x', colour: '#0CA678', entityTypes: ['app'] }, { categoryId: randomUUID() })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await client.call('updateCategory', { name: 'x', colour: '#0CA678', entityTypes: ['app'] }, { categoryId: 'not-a-uuid' })).body.code).toBe(ErrorCode.NOT_EXIST);

    await client.ok('deleteCategory', undefined, { categoryId: retail.id });
    expect(await assignmentRows(app.id)).toEqual([]);
    expect((await client.call('deleteCategory', undefined, { categoryId: retail.id })).body.code).toBe(ErrorCode.NOT_EXIST);
  });

  it('assigns categories to the app, its campaigns and messages, refuses what does not fit, and cleans up', async () => {
    const { client } = await registerAccount(api);
    const app = await createTestApp(client);
    const [appCat, campaignCat, messageCat, everywhere] = [
      await create(client, 'Apps only', ['app']), await create(client, 'Campaigns only', ['campaign']),
      await create(client, 'Messages only', ['message']), await create(client, 'Everywhere'),
    ];
    const acq = await acqCampaign(client, app.id, 'Spring');
    const msg = await message(client, app.id, 'Welcome push');

    const ok = await assign(client, app.id, 'app', app.id, [everywhere.id, appCat.id, appCat.id.toUpperCase()]);
    expect(ok.body).toMatchObject({ status: 'OK', assignment: { entityId: app.id, categoryIds: [appCat.id, everywhere.id] } });
    expect((await assign(client, app.id, 'campaign', acq, [campaignCat.id])).body.status).toBe('OK');
    expect((await assign(client, app.id, 'campaign', msg.campaignId, [everywhere.id])).body.status).toBe('OK');
    expect((await assign(client, app.id, 'message', msg.id, [messageCat.id, everywhere.id])).body.status).toBe('OK');

    // Refusals change nothing.
    const before = await assignmentRows(app.id);
    expect((await assign(client, app.id, 'message', msg.id, [appCat.id])).body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'categoryIds', message: 'category_not_for_type' }] });
    expect((await assign(client, app.id, 'message', msg.id, [randomUUID()])).body).toMatchObject({ code: ErrorCode.NOT_EXIST, details: [{ path: 'categoryIds' }] });
    expect((await assign(client, app.id, 'campaign', randomUUID(), [campaignCat.id])).body).toMatchObject({ code: ErrorCode.NOT_EXIST, details: [{ path: 'entityId' }] });
    // An app's own assignment names the app in the path, not another app.
    const otherApp = await createTestApp(client);
    expect((await assign(client, app.id, 'app', otherApp.id, [appCat.id])).body.code).toBe(ErrorCode.NOT_EXIST);
    // A message is not a campaign.
    expect((await assign(client, app.id, 'campaign', msg.id, [campaignCat.id])).body.code).toBe(ErrorCode.NOT_EXIST);
    expect(await assignmentRows(app.id)).toEqual(before);

    const read = async (entityType: string) =>
      (await client.ok<{ assignments: { entityId: string; categoryIds: string[] }[] }>('categoryAssignments', undefined, { appId: app.id }, { entityType })).assignments;
    expect(await read('app')).toEqual([{ entityId: app.id, categoryIds: [appCat.id, everywhere.id] }]);
    expect(new Map((await read('campaign')).map((a) => [a.entityId, a.categoryIds]))).toEqual(new Map([[acq, [campaignCat.id]], [msg.campaignId, [everywhere.id]]]));
    expect(await read('message')).toEqual([{ entityId: msg.id, categoryIds: [everywhere.id, messageCat.id] }]);
    const { assignments: apps } = await client.ok<{ assignments: { entityId: string; categoryIds: string[] }[] }>('appCategories');
    expect(apps).toEqual([{ entityId: app.id, categoryIds: [appCat.id, everywhere.id] }]);

    // Replacing: an empty list removes them all.
    expect((await assign(client, app.id, 'message', msg.id, [])).body).toMatchObject({ status: 'OK', assignment: { categoryIds: [] } });
    expect(await read('message')).toEqual([]);

    // A category that stops applying to campaigns leaves them, in the same call.
    await client.ok('updateCategory', { name: 'Everywhere', colour: '#1C7ED6', entityTypes: ['app', 'message'] }, { categoryId: everywhere.id });
    expect(new Map((await read('campaign')).map((a) => [a.entityId, a.categoryIds]))).toEqual(new Map([[acq, [campaignCat.id]]]));
    expect(await read('app')).toEqual([{ entityId: app.id, categoryIds: [appCat.id, everywhere.id] }]);

    // Deleting the entities takes their assignments away.
    await assign(client, app.id, 'message', msg.id, [messageCat.id]);
    await client.ok('deleteCampaign', undefined, { appId: app.id, campaignId: acq });
    await client.ok('transitionMessage', { action: 'delete' }, { appId: app.id, messageId: msg.id });
    expect((await assignmentRows(app.id)).map((r) => r.entity_type)).toEqual(['app', 'app']);
    await client.ok('deleteApp', undefined, { appId: app.id });
    expect(await assignmentRows(app.id)).toEqual([]);
  });

  it('filters the apps, apptracker campaigns and messages lists by a category', async () => {
    const { client } = await registerAccount(api);
    const [shop, game] = [await createTestApp(client, { name: 'Shop' }), await createTestApp(client, { name: 'Game' })];
    const [retail, summer, vip] = [await create(client, 'Retail'), await create(client, 'Summer'), await create(client, 'VIP')];
    await assign(client, shop.id, 'app', shop.id, [retail.id]);
    const names = (list: { name: string }[]) => list.map((x) => x.name).sort();

    expect(names((await client.ok<{ apps: { name: string }[] }>('listApps')).apps)).toEqual(['Game', 'Shop']);
    expect(names((await client.ok<{ apps: { name: string }[] }>('listApps', undefined, undefined, { categoryId: retail.id })).apps)).toEqual(['Shop']);
    expect((await client.ok<{ apps: unknown[] }>('listApps', undefined, undefined, { categoryId: summer.id })).apps).toEqual([]);
    expect((await client.call('listApps', undefined, undefined, { categoryId: 'nope' })).body.code).toBe(ErrorCode.MANDATORY);

    const [spring, autumn] = [await acqCampaign(client, shop.id, 'Spring sale'), await acqCampaign(client, shop.id, 'Autumn sale')];
    await assign(client, shop.id, 'campaign', spring, [summer.id, retail.id]);
    await assign(client, shop.id, 'campaign', autumn, [retail.id]);
    const campaigns = async (categoryId?: string) =>
      names((await client.ok<{ campaigns: { name: string }[] }>('campaigns', undefined, { appId: shop.id }, { scope: 'all', ...(categoryId ? { categoryId } : {}) })).campaigns);
    expect(await campaigns()).toEqual(['Autumn sale', 'Spring sale']);
    expect(await campaigns(summer.id)).toEqual(['Spring sale']);
    expect(await campaigns(retail.id)).toEqual(['Autumn sale', 'Spring sale']);
    expect(await campaigns(vip.id)).toEqual([]);
    // The CSV download follows the list's filter.
    const csv = await client.call('campaignsDownload', undefined, { appId: shop.id }, { scope: 'all', categoryId: summer.id });
    expect(String(csv.body.file)).toContain('Spring sale');
    expect(String(csv.body.file)).not.toContain('Autumn sale');
    // Another app's list does not show the shop's campaigns, whatever the category.
    expect((await client.ok<{ campaigns: unknown[] }>('campaigns', undefined, { appId: game.id }, { scope: 'all', categoryId: summer.id })).campaigns).toEqual([]);

    // Messages: by their own category, or their campaign's.
    const [welcome, winback, plain] = [await message(client, shop.id, 'Welcome'), await message(client, shop.id, 'Win back'), await message(client, shop.id, 'Plain')];
    await assign(client, shop.id, 'message', welcome.id, [vip.id]);
    await assign(client, shop.id, 'campaign', winback.campaignId, [vip.id, summer.id]);
    const messages = async (categoryId?: string) =>
      names((await client.ok<{ messages: { name: string }[] }>('listMessages', undefined, { appId: shop.id }, { scope: 'all', ...(categoryId ? { categoryId } : {}) })).messages);
    expect(await messages()).toEqual(['Plain', 'Welcome', 'Win back']);
    expect(await messages(vip.id)).toEqual(['Welcome', 'Win back']);
    expect(await messages(summer.id)).toEqual(['Win back']);
    expect(await messages(retail.id)).toEqual([]);
    expect(plain.id).toBeTruthy();
  });

  it('needs api:categories.edit to change categories and the right to edit an entity to assign', async () => {
    const owner = await registerAccount(api);
    const app = await createTestApp(owner.client);
    const category = await create(owner.client, 'Retail');
    const acq = await acqCampaign(owner.client, app.id, 'Owner campaign');
    const ownerMessage = await message(owner.client, app.id, 'Owner message');

    const analyst = await addMember(api, owner.client, 'analyst');
    expect((await analyst.ok<{ categories: Category[] }>('listCategories')).categories.map((c) => c.name)).toEqual(['Retail']);
    expect((await analyst.call('createCategory', { name: 'Mine', colour: '#000000', entityTypes: ['app'] })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await analyst.call('updateCategory', { name: 'Mine', colour: '#000000', entityTypes: ['app'] }, { categoryId: category.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await analyst.call('deleteCategory', undefined, { categoryId: category.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await assign(analyst, app.id, 'app', app.id, [category.id])).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await analyst.ok<{ assignments: unknown[] }>('categoryAssignments', undefined, { appId: app.id }, { entityType: 'app' })).assignments).toEqual([]);

    // An author edits only the messages they own (owner variants), and no apptracker campaign.
    const author = await addMember(api, owner.client, 'author');
    const authored = await message(author, app.id, 'Author message');
    expect((await assign(author, app.id, 'message', authored.id, [category.id])).body.status).toBe('OK');
    expect((await assign(author, app.id, 'campaign', authored.campaignId, [category.id])).body.status).toBe('OK');
    expect((await assign(author, app.id, 'message', ownerMessage.id, [category.id])).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await assign(author, app.id, 'campaign', acq, [category.id])).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await assign(author, app.id, 'app', app.id, [category.id])).body.code).toBe(ErrorCode.NO_PERMISSION);

    // A manager edits categories and assigns them everywhere.
    const manager = await addMember(api, owner.client, 'manager');
    await manager.ok('updateCategory', { name: 'Retail', colour: '#111111', entityTypes: ['app', 'campaign', 'message'] }, { categoryId: category.id });
    expect((await assign(manager, app.id, 'campaign', acq, [category.id])).body.status).toBe('OK');
    expect((await assign(manager, app.id, 'app', app.id, [category.id])).body.status).toBe('OK');
    const rows = await assignmentRows(app.id);
    expect(rows.map((r) => r.entity_id).sort()).toEqual([acq, app.id, authored.campaignId, authored.id].sort());
  });
});
