/** Apps of the account and their test devices. */
import type { Router } from 'express';
import { ErrorCode, fail, ok } from '@gd/shared';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tx } from '../../db/pool.ts';
import { randomToken } from '../auth/secrets.ts';
import * as repo from './repository.ts';

export const newAppKey = () => `gd_${randomToken(24)}`;
const nameTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'An app with that name already exists in this account', [{ path: 'name', message: 'Name already in use' }]);
const deviceTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'That device is already a test device of this app', [{ path: 'deviceId', message: 'Already added' }]);

async function uniquely<T>(work: () => Promise<T>, onDuplicate: () => ReturnType<typeof fail>) {
  try {
    return ok(await work());
  } catch (error) {
    if (isUniqueViolation(error)) return onDuplicate();
    throw error;
  }
}

export function appRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  route(router, deps, 'listApps', async ({ principal, query }) => ok({ apps: await repo.listApps(db, principal.account.id, query.categoryId) }));

  route(router, deps, 'createApp', async ({ principal, body }) => {
    const created = await uniquely(() => repo.insertApp(db, principal.account.id, principal.user.id, newAppKey(), body), nameTaken);
    return created.ok ? ok({ app: created.value }) : created;
  });

  route(router, deps, 'updateApp', async ({ principal, app, body }) => {
    // A new time zone moves event days: the daily rollup is rebuilt with the app row, in one transaction.
    // (Ingestion caches an app's key and zone for up to 10 s, so a batch racing the change can still
    // count a few events on old-zone days; the rebuild function can be run again to repair that.)
    const updated = await uniquely(() => tx(db, async (client) => {
      const saved = await repo.updateApp(client, principal.account.id, app.id, body);
      if (saved && saved.timezone !== app.timezone) await client.query('SELECT gd_rebuild_event_rollup($1)', [app.id]);
      return saved;
    }), nameTaken);
    if (!updated.ok) return updated;
    return updated.value ? ok({ app: updated.value }) : fail(ErrorCode.NOT_EXIST, 'App not found');
  });

  route(router, deps, 'rotateAppKey', async ({ principal, app }) => {
    const updated = await repo.setAppKey(db, principal.account.id, app.id, newAppKey());
    return updated ? ok({ app: updated }) : fail(ErrorCode.NOT_EXIST, 'App not found');
  });

  route(router, deps, 'deleteApp', async ({ principal, app }) => {
    return (await repo.deleteApp(db, principal.account.id, app.id)) ? ok({}) : fail(ErrorCode.NOT_EXIST, 'App not found');
  });

  route(router, deps, 'listTestDevices', async ({ app }) => ok({ devices: await repo.listDevices(db, app.id) }));

  route(router, deps, 'addTestDevice', async ({ principal, app, body }) => {
    const created = await uniquely(() => repo.insertDevice(db, app.id, principal.user.id, body), deviceTaken);
    return created.ok ? ok({ device: created.value }) : created;
  });

  route(router, deps, 'updateTestDevice', async ({ app, params, body }) => {
    const deviceId = params.deviceId ?? '';
    if (!isUuid(deviceId)) return fail(ErrorCode.NOT_EXIST, 'Test device not found');
    const updated = await uniquely(() => repo.updateDevice(db, app.id, deviceId, body), deviceTaken);
    if (!updated.ok) return updated;
    return updated.value ? ok({ device: updated.value }) : fail(ErrorCode.NOT_EXIST, 'Test device not found');
  });

  route(router, deps, 'deleteTestDevice', async ({ app, params }) => {
    const id = params.deviceId ?? '';
    return isUuid(id) && (await repo.deleteDevice(db, app.id, id)) ? ok({}) : fail(ErrorCode.NOT_EXIST, 'Test device not found');
  });
}
