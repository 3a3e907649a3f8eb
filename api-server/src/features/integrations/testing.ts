/** Test helper (other features' tests use it): a connected integration with sealed secrets, inserted directly. */
import { randomUUID } from 'node:crypto';
import { INTEGRATION_SERVICES, type IntegrationService } from '@gd/shared';
import type { Queryable } from '../../db/pool.ts';
import { sealSecrets } from '../imports/secretBox.ts';
import { insertIntegration } from './repository.ts';

export async function createConnectedIntegration(db: Queryable, serverSecret: string, p: {
  accountId: string; appId: string; service: IntegrationService; name?: string; config: Record<string, unknown>;
  secrets: Record<string, string>; tokenExpiresAt?: Date;
}): Promise<string> {
  const id = randomUUID();
  const def = INTEGRATION_SERVICES[p.service];
  const auth = def.auth[0];
  await insertIntegration(db, {
    id, accountId: p.accountId, appId: p.appId, kind: def.kind, service: p.service, auth, name: p.name ?? `${p.service} ${id.slice(0, 8)}`,
    config: p.config, secret: sealSecrets(serverSecret, id, p.secrets), status: 'connected',
    tokenExpiresAt: p.tokenExpiresAt ?? (auth === 'oauth2' ? new Date(Date.now() + 3600_000) : null), createdBy: null,
  });
  return id;
}
