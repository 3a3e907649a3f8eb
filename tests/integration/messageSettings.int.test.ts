/**
 * Message settings against real Postgres: communication parameters (CRUD, names unique per app,
 * and submit checking each message against the app's parameters, with the real sync server as in
 * messages.int.test.ts) and native ad templates of an app and of the platform (names unique: 32,
 * exactly one default: 33, the platform's only for platform administrators). Another account's
 * items answer like unused ids; refused input writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode, USER_TYPE_GRANTS, UserType, applyMessageDraftToDoc, messageDraftFromDoc,
  type MessageDraft, type MessageSummary,
} from '@gd/shared';
import type { CommunicationParameterRecord, NativeTemplate } from '@gd/shared/schemas/messageSettings';
import { createSyncServer, inProcessLiveDocs, type SyncServer } from '@gd/sync-server';
import { addMember, registerAccount, startTestApi, type TestApi } from '../../api-server/src/testing/harness.ts';
import { openApiDoc, waitFor, type TestClient as DocClient } from '../../sync-server/src/testing/clients.ts';

let api: TestApi;
let sync: SyncServer;
let owner: Awaited<ReturnType<typeof registerAccount>>;
let appId: string;
const docs: DocClient[] = [];

beforeAll(async () => {
  api = await startTestApi();
  sync = createSyncServer({ db: api.db, secret: api.deps.secret, debounceMs: 200, maxDebounceMs: 1000 });
  sync.attach(api.httpServer, '/collab');
  api.deps.liveDocs = inProcessLiveDocs(sync);
  owner = await registerAccount(api);
  appId = (await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Settings', os: 'iOS' })).app.id;
});
afterAll(async () => {
  for (const d of docs) d.destroy();
  await sync.shutdown();
  await api.stop();
});

const count = async (table: string, where = 'true', values: unknown[] = []) =>
  (await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, values)).rows[0]!.n;

const tier = { name: 'communicationParameter__tier', label: 'Loyalty tier', type: 'valueSelection', values: ['gold', 'silver'] };
const coupon = { name: 'communicationParameter__coupon', label: 'Coupon code', type: 'openText', values: [] };

/** Makes the user a platform administrator (Super admin): only the database grants that. */
async function makePlatformAdmin(accountId: string, userId: string) {
  const { rows } = await api.db.query<{ id: string }>(
    `INSERT INTO user_roles (account_id, name, user_type, grants) VALUES ($1, $2, $3, $4) RETURNING id`,
    [accountId, `Platform ${randomUUID()}`, UserType.SUPER_ADMIN, USER_TYPE_GRANTS[UserType.SUPER_ADMIN]],
  );
  await api.db.query('UPDATE users SET role_id = $1 WHERE id = $2', [rows[0]!.id, userId]);
}

describe('communication parameters', () => {
  it('lists, creates, edits and deletes; a name is unique per app (30); refused input writes nothing', async () => {
    const params = { appId };
    expect((await owner.client.ok<{ parameters: unknown[] }>('listCommunicationParameters', undefined, params)).parameters).toEqual([]);
    const { parameter: created } = await owner.client.ok<{ parameter: CommunicationParameterRecord }>('createCommunicationParameter', tier, params);
    expect(created).toMatchObject(tier);
    await owner.client.ok('createCommunicationParameter', coupon, params);
    const { parameters } = await owner.client.ok<{ parameters: CommunicationParameterRecord[] }>('listCommunicationParameters', undefined, params);
    expect(parameters.map((p) => [p.name, p.type, p.values])).toEqual([
      ['communicationParameter__coupon', 'openText', []], ['communicationParameter__tier', 'valueSelection', ['gold', 'silver']],
    ]);

    const duplicate = await owner.client.call('createCommunicationParameter', { ...coupon, label: 'Another' }, params);
    expect(duplicate.body).toMatchObject({ status: 'KO', code: ErrorCode.NAME_DUPLICATED, details: [{ path: 'name', message: 'name_taken' }] });
    for (const bad of [
      { ...tier, name: 'tier' }, // without the prefix
      { ...tier, name: 'communicationParameter__Tier' },
      { ...tier, values: [] }, // a selection without values
      { ...coupon, values: ['x'] }, // open text with values
      { ...tier, name: 'communicationParameter__dup', values: ['a', 'a'] },
      { ...tier, name: 'communicationParameter__nolabel', label: ' ' },
    ]) {
      expect((await owner.client.call('createCommunicationParameter', bad, params)).body, JSON.stringify(bad)).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    }
    expect(await count('communication_parameters', 'app_id = $1', [appId])).toBe(2);

    const { parameter: edited } = await owner.client.ok<{ parameter: CommunicationParameterRecord }>(
      'updateCommunicationParameter', { ...tier, label: 'Tier', values: ['gold', 'silver', 'bronze'] }, { appId, parameterId: created.id },
    );
    expect(edited).toMatchObject({ id: created.id, label: 'Tier', values: ['gold', 'silver', 'bronze'] });
    const renamedOnto = await owner.client.call('updateCommunicationParameter', { ...tier, name: coupon.name }, { appId, parameterId: created.id });
    expect(renamedOnto.body.code).toBe(ErrorCode.NAME_DUPLICATED);
    expect((await owner.client.call('updateCommunicationParameter', { ...tier, values: [] }, { appId, parameterId: created.id })).body.code).toBe(ErrorCode.MANDATORY);
    expect((await api.db.query('SELECT label, choices FROM communication_parameters WHERE id = $1', [created.id])).rows[0]).toEqual({ label: 'Tier', choices: ['gold', 'silver', 'bronze'] });

    await owner.client.ok('deleteCommunicationParameter', undefined, { appId, parameterId: created.id });
    expect((await owner.client.call('deleteCommunicationParameter', undefined, { appId, parameterId: created.id })).body.code).toBe(ErrorCode.NOT_EXIST);
    expect((await owner.client.call('updateCommunicationParameter', tier, { appId, parameterId: 'not-a-uuid' })).body.code).toBe(ErrorCode.NOT_EXIST);
  });

  it("another account's parameter answers like an unused id; readers may list but not change", async () => {
    const { parameter } = await owner.client.ok<{ parameter: CommunicationParameterRecord }>('createCommunicationParameter', { ...tier, name: 'communicationParameter__secret' }, { appId });
    const intruder = await registerAccount(api);
    const own = (await intruder.client.ok<{ app: { id: string } }>('createApp', { name: 'Own', os: 'Android' })).app.id;
    for (const [name, body] of [['updateCommunicationParameter', { ...tier, label: 'Hijacked' }], ['deleteCommunicationParameter', undefined]] as const) {
      const foreign = await intruder.client.call(name, body, { appId: own, parameterId: parameter.id });
      const unused = await intruder.client.call(name, body, { appId: own, parameterId: randomUUID() });
      expect(foreign.body).toEqual(unused.body);
      expect(foreign.body.code).toBe(ErrorCode.NOT_EXIST);
      // Naming the victim's app is refused before any route runs.
      expect((await intruder.client.call(name, body, { appId, parameterId: parameter.id })).body.code).toBe(ErrorCode.NO_PERMISSION);
    }
    expect((await intruder.client.call('listCommunicationParameters', undefined, { appId })).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await api.db.query('SELECT label FROM communication_parameters WHERE id = $1', [parameter.id])).rows).toEqual([{ label: tier.label }]);

    // Authors and analysts read the parameters (they write messages with them) but do not change them (ui:app.edit).
    for (const role of ['author', 'analyst']) {
      const member = await addMember(api, owner.client, role);
      expect((await member.ok<{ parameters: CommunicationParameterRecord[] }>('listCommunicationParameters', undefined, { appId })).parameters.map((p) => p.id)).toContain(parameter.id);
      expect((await member.call('createCommunicationParameter', { ...coupon, name: `communicationParameter__${role}` }, { appId })).body.code, role).toBe(ErrorCode.NO_PERMISSION);
      expect((await member.call('deleteCommunicationParameter', undefined, { appId, parameterId: parameter.id })).body.code, role).toBe(ErrorCode.NO_PERMISSION);
    }
    const manager = await addMember(api, owner.client, 'manager');
    await manager.ok('createCommunicationParameter', { ...coupon, name: 'communicationParameter__by_manager' }, { appId });
  });

  it("submit checks a message against the app's parameters: refused while the parameter is unknown, accepted once it exists", async () => {
    const { message } = await owner.client.ok<{ message: MessageSummary }>('createMessage', { name: 'With a parameter', type: 'push' }, { appId });
    const doc = await openApiDoc(owner.client, message.docName, docs);
    const edit = async (change: (d: MessageDraft) => MessageDraft) => {
      applyMessageDraftToDoc(doc.doc, change(messageDraftFromDoc(doc.doc)));
      await waitFor(() => !doc.provider.hasUnsyncedChanges, 'edit acknowledged');
    };
    await edit((d) => ({
      ...d,
      target: { kind: 'testDevices' },
      parameters: { communicationParameter__season: 'winter' },
      variants: d.variants.map((v) => ({ ...v, content: Object.fromEntries(Object.entries(v.content).map(([lang, c]) => [lang, { ...c, title: 'Sale', message: `Your {{communicationParameter__season}} offer (${lang})` }])) })),
    }));
    const ids = { appId, messageId: message.id };
    const refused = await owner.client.call('submitMessage', undefined, ids);
    expect(refused.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect((refused.body.details as { path: string; message: string }[]).map((d) => `${d.message}:${d.path}`).sort()).toEqual([
      'parameter_unknown:parameters.communicationParameter__season',
      'placeholder_unknown:variants.0.content.en.message',
      'placeholder_unknown:variants.0.content.es.message',
    ]);

    // A value the parameter does not offer is refused too; one it offers passes.
    const season = { name: 'communicationParameter__season', label: 'Season', type: 'valueSelection', values: ['summer', 'autumn'] };
    const { parameter } = await owner.client.ok<{ parameter: CommunicationParameterRecord }>('createCommunicationParameter', season, { appId });
    const wrongValue = await owner.client.call('submitMessage', undefined, ids);
    expect(wrongValue.body.details).toEqual([{ path: 'parameters.communicationParameter__season', message: 'parameter_value_invalid' }]);
    await owner.client.ok('updateCommunicationParameter', { ...season, values: ['summer', 'autumn', 'winter'] }, { appId, parameterId: parameter.id });
    const { message: submitted } = await owner.client.ok<{ message: MessageSummary }>('submitMessage', undefined, ids);
    expect(submitted.status).toBe('To validate');
  });
});

const field = (key: string, kind = 'text', extra: Record<string, unknown> = {}) => ({ key, label: key.toUpperCase(), kind, required: true, ...extra });
const card = { name: 'Card', fields: [field('title', 'text', { maxLength: 40 }), field('picture', 'image'), field('link', 'url'), field('tint', 'color', { required: false })] };

describe('native ad templates of an app', () => {
  it('the first template is the default; names are unique (32); the default is never deleted or unset (33), only moved', async () => {
    const { app } = await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Templates', os: 'Android' });
    const params = { appId: app.id };
    const { templates: none, defaultId: platformDefault } = await owner.client.ok<{ templates: NativeTemplate[]; defaultId: string }>('listNativeTemplateChoices', undefined, params);
    // Without templates of its own the app uses the platform's default (seeded by migration 015).
    expect(none.every((t) => t.scope === 'platform')).toBe(true);
    expect(none.find((t) => t.id === platformDefault)).toMatchObject({ name: 'Standard', isDefault: true });

    const { template: first } = await owner.client.ok<{ template: NativeTemplate }>('createNativeTemplate', card, params);
    expect(first).toMatchObject({ name: 'Card', isDefault: true, scope: 'app', fields: card.fields });
    const { template: second } = await owner.client.ok<{ template: NativeTemplate }>('createNativeTemplate', { name: 'Banner', fields: [field('headline')] }, params);
    expect(second.isDefault).toBe(false);

    const duplicate = await owner.client.call('createNativeTemplate', { ...card, name: ' card ' }, params);
    expect(duplicate.body).toMatchObject({ status: 'KO', code: ErrorCode.NATIVE_AD_TEMPLATE_DUPLICATED, details: [{ path: 'name', message: 'name_taken' }] });
    expect((await owner.client.call('updateNativeTemplate', { ...card, name: 'CARD' }, { ...params, templateId: second.id })).body.code).toBe(ErrorCode.NATIVE_AD_TEMPLATE_DUPLICATED);

    const deleteDefault = await owner.client.call('deleteNativeTemplate', undefined, { ...params, templateId: first.id });
    expect(deleteDefault.body).toMatchObject({ status: 'KO', code: ErrorCode.NATIVE_AD_TEMPLATE_DEFAULT });
    const unsetDefault = await owner.client.call('updateNativeTemplate', { ...card, isDefault: false }, { ...params, templateId: first.id });
    expect(unsetDefault.body).toMatchObject({ status: 'KO', code: ErrorCode.NATIVE_AD_TEMPLATE_DEFAULT, details: [{ path: 'isDefault', message: 'default_required' }] });
    expect(await count('native_ad_templates', 'app_id = $1', [app.id])).toBe(2);
    expect((await api.db.query('SELECT id FROM native_ad_templates WHERE app_id = $1 AND is_default', [app.id])).rows).toEqual([{ id: first.id }]);

    // Moving the default: the other one stops being it, and then it may be deleted.
    const { template: promoted } = await owner.client.ok<{ template: NativeTemplate }>('updateNativeTemplate', { name: 'Banner', fields: [field('headline'), field('cta', 'text', { required: false, maxLength: 20 })], isDefault: true }, { ...params, templateId: second.id });
    expect(promoted).toMatchObject({ isDefault: true, fields: [{ key: 'headline' }, { key: 'cta', maxLength: 20, required: false }] });
    const { templates, defaultId } = await owner.client.ok<{ templates: NativeTemplate[]; defaultId: string }>('listNativeTemplateChoices', undefined, params);
    expect(defaultId).toBe(second.id);
    expect(templates.slice(0, 2).map((t) => [t.name, t.scope, t.isDefault])).toEqual([['Banner', 'app', true], ['Card', 'app', false]]);
    expect(templates.slice(2).every((t) => t.scope === 'platform')).toBe(true);
    await owner.client.ok('deleteNativeTemplate', undefined, { ...params, templateId: first.id });
    expect((await owner.client.ok<{ templates: NativeTemplate[] }>('listNativeTemplates', undefined, params)).templates.map((t) => t.name)).toEqual(['Banner']);
    expect((await owner.client.call('deleteNativeTemplate', undefined, { ...params, templateId: first.id })).body.code).toBe(ErrorCode.NOT_EXIST);
  });

  it('refuses bad input (10001) writing nothing, and never reaches the platform\'s or another account\'s templates', async () => {
    const { app } = await owner.client.ok<{ app: { id: string } }>('createApp', { name: 'Templates 2', os: 'iOS' });
    const params = { appId: app.id };
    for (const bad of [
      { name: 'No fields', fields: [] },
      { name: '', fields: [field('a')] },
      { name: 'Twice', fields: [field('a'), field('a', 'url')] },
      { name: 'Bad key', fields: [field('Title')] },
      { name: 'Bad kind', fields: [field('a', 'video')] },
      { name: 'Image length', fields: [field('a', 'image', { maxLength: 10 })] },
      { name: 'Zero length', fields: [field('a', 'text', { maxLength: 0 })] },
    ]) {
      expect((await owner.client.call('createNativeTemplate', bad, params)).body, bad.name).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    }
    expect(await count('native_ad_templates', 'app_id = $1', [app.id])).toBe(0);

    const { template } = await owner.client.ok<{ template: NativeTemplate }>('createNativeTemplate', card, params);
    const { rows: [platform] } = await api.db.query<{ id: string }>('SELECT id FROM native_ad_templates WHERE app_id IS NULL AND is_default');
    // The platform's template through an app's route: like an unused id.
    for (const [name, body] of [['updateNativeTemplate', { ...card, name: 'Hijacked' }], ['deleteNativeTemplate', undefined]] as const) {
      const viaApp = await owner.client.call(name, body, { ...params, templateId: platform!.id });
      const unused = await owner.client.call(name, body, { ...params, templateId: randomUUID() });
      expect(viaApp.body).toEqual(unused.body);
      expect(viaApp.body.code).toBe(ErrorCode.NOT_EXIST);
    }
    const intruder = await registerAccount(api);
    const own = (await intruder.client.ok<{ app: { id: string } }>('createApp', { name: 'Own', os: 'Android' })).app.id;
    for (const [name, body] of [['updateNativeTemplate', { ...card, name: 'Hijacked', isDefault: true }], ['deleteNativeTemplate', undefined]] as const) {
      const foreign = await intruder.client.call(name, body, { appId: own, templateId: template.id });
      const unused = await intruder.client.call(name, body, { appId: own, templateId: randomUUID() });
      expect(foreign.body).toEqual(unused.body);
    }
    expect((await intruder.client.call('listNativeTemplates', undefined, params)).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await api.db.query('SELECT name FROM native_ad_templates WHERE id = $1', [template.id])).rows).toEqual([{ name: 'Card' }]);
    expect((await api.db.query('SELECT name FROM native_ad_templates WHERE id = $1', [platform!.id])).rows).toEqual([{ name: 'Standard' }]);

    // Authors list the choices for their native ads, but do not change templates.
    const author = await addMember(api, owner.client, 'author');
    expect((await author.ok<{ templates: NativeTemplate[] }>('listNativeTemplateChoices', undefined, params)).templates[0]!.id).toBe(template.id);
    expect((await author.call('createNativeTemplate', { ...card, name: 'Mine' }, params)).body.code).toBe(ErrorCode.NO_PERMISSION);
  });
});

describe('platform native ad templates', () => {
  it('only platform administrators see or change them; same rules (32, 33); app templates are out of reach', async () => {
    // The account's owner (Client) holds every key but the platform's.
    expect((await owner.client.call('listPlatformNativeTemplates')).body.code).toBe(ErrorCode.NO_PERMISSION);
    expect((await owner.client.call('createPlatformNativeTemplate', card)).body.code).toBe(ErrorCode.NO_PERMISSION);

    const platform = await registerAccount(api);
    await makePlatformAdmin(platform.accountId, platform.userId);
    const admin = platform.client;
    const { templates } = await admin.ok<{ templates: NativeTemplate[] }>('listPlatformNativeTemplates');
    const standard = templates.find((t) => t.isDefault)!;
    expect(standard).toMatchObject({ name: 'Standard', scope: 'platform' });
    expect(standard.fields.map((f) => f.key)).toEqual(['headline', 'body', 'image', 'icon', 'call_to_action', 'click_url']);

    const name = `Carousel ${randomUUID().slice(0, 8)}`;
    const { template } = await admin.ok<{ template: NativeTemplate }>('createPlatformNativeTemplate', { name, fields: [field('title'), field('image', 'image')] });
    expect(template).toMatchObject({ scope: 'platform', isDefault: false });
    expect((await admin.call('createPlatformNativeTemplate', { ...card, name: 'standard' })).body.code).toBe(ErrorCode.NATIVE_AD_TEMPLATE_DUPLICATED);
    expect((await admin.call('deletePlatformNativeTemplate', undefined, { templateId: standard.id })).body.code).toBe(ErrorCode.NATIVE_AD_TEMPLATE_DEFAULT);
    expect((await admin.call('updatePlatformNativeTemplate', { name: 'Standard', fields: standard.fields, isDefault: false }, { templateId: standard.id })).body.code).toBe(ErrorCode.NATIVE_AD_TEMPLATE_DEFAULT);

    // An app's template through the platform's routes: like an unused id.
    const { template: appTemplate } = await owner.client.ok<{ template: NativeTemplate }>('createNativeTemplate', { ...card, name: 'App only' }, { appId });
    const viaPlatform = await admin.call('deletePlatformNativeTemplate', undefined, { templateId: appTemplate.id });
    const unused = await admin.call('deletePlatformNativeTemplate', undefined, { templateId: randomUUID() });
    expect(viaPlatform.body).toEqual(unused.body);
    expect(viaPlatform.body.code).toBe(ErrorCode.NOT_EXIST);
    expect(await count('native_ad_templates', 'id = $1', [appTemplate.id])).toBe(1);

    // Every app's choices include the new platform template; deleting it takes it away.
    expect((await owner.client.ok<{ templates: NativeTemplate[] }>('listNativeTemplateChoices', undefined, { appId })).templates.map((t) => t.id)).toContain(template.id);
    await admin.ok('deletePlatformNativeTemplate', undefined, { templateId: template.id });
    expect((await owner.client.ok<{ templates: NativeTemplate[] }>('listNativeTemplateChoices', undefined, { appId })).templates.map((t) => t.id)).not.toContain(template.id);
    expect((await admin.ok<{ templates: NativeTemplate[] }>('listPlatformNativeTemplates')).templates.find((t) => t.isDefault)?.id).toBe(standard.id);
  });
});
