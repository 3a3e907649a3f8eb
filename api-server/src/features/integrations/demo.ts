/**
 * Demo integrations of the demo account's first app (the one the screens open on): one per kind, in every status
 * (connected OAuth 2 ad platforms with tokens, a CRM not yet authorised, a short-video platform in
 * error, a retail platform disconnected, basic and key sign-ins). Their credentials are random
 * placeholders sealed like real ones; the services' real addresses are configured, so a connection
 * test from the demo fails as it would with wrong credentials.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { INTEGRATION_SERVICES, type IntegrationService, type IntegrationStatus } from '@gd/shared';
import { loadConfig } from '../../config.ts';
import type { Db } from '../../db/pool.ts';
import { loadSigningSecret } from '../auth/secrets.ts';
import { sealSecrets } from '../imports/secretBox.ts';
import { insertIntegration, setStatus, storeTokens } from './repository.ts';

const fake = () => randomBytes(18).toString('base64url');
const oauth = (clientId: string, scopes: string[]) => ({ clientId, scopes });

interface Demo { name: string; service: IntegrationService; status: IntegrationStatus; config: Record<string, unknown>; code?: number; message?: string }

const DEMOS: Demo[] = [
  { name: 'Search campaigns', service: 'google_ads', status: 'connected', config: { ...oauth('demo-google-client.apps.googleusercontent.com', ['https://www.googleapis.com/auth/adwords']), adAccountId: '123-456-7890' } },
  { name: 'Meta prospecting', service: 'meta_ads', status: 'connected', config: { ...oauth('1029384756', ['ads_management', 'ads_read']), adAccountId: '238947561' } },
  { name: 'TikTok spring push', service: 'tiktok_ads', status: 'error', config: { ...oauth('7311223344', []), adAccountId: '7009988776' }, code: 10047, message: 'The service refused the credentials (HTTP 401)' },
  { name: 'Sales CRM', service: 'hubspot', status: 'pending', config: oauth('demo-hubspot-app', ['crm.objects.contacts.read']) },
  { name: 'Product analytics', service: 'amplitude', status: 'connected', config: {} },
  { name: 'Exports bucket', service: 's3', status: 'connected', config: { endpoint: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1', bucket: 'demo-shop-exports', accessKeyId: 'AKIADEMO0000EXAMPLE' } },
  {
    name: 'AEP production', service: 'adobe_experience_platform', status: 'connected',
    config: { ...oauth('demo-aep-client', ['openid', 'AdobeID']), techId: 'A1B2C3D4E5@techacct.adobe.com', imsOrgId: '0F1E2D3C4B@AdobeOrg', imsHost: 'ims-na1.adobelogin.com', metaScopes: ['ent_dataservices_sdk'] },
  },
  { name: 'Retail Europe', service: 'amazon_dsp', status: 'disconnected', config: { ...oauth('amzn1.application-oa2-client.demo', ['advertising::campaign_management']), region: 'Europe', eventTypes: ['ADD_TO_SHOPPING_CART', 'CHECKOUT', 'OFF_AMAZON_PURCHASES'], advertiserId: '5820013344' } },
];

/** Seeds the demo integrations into the account of `ownerEmail`'s first app (once). */
export async function seedDemoIntegrations(db: Db, ownerEmail: string): Promise<void> {
  const { rows } = await db.query<{ account_id: string; user_id: string; app_id: string }>(
    `SELECT u.account_id, u.id AS user_id, a.id AS app_id FROM users u JOIN apps a ON a.account_id = u.account_id
      WHERE u.email = $1 ORDER BY a.created_at, lower(a.name) LIMIT 1`, [ownerEmail]);
  const owner = rows[0];
  if (!owner) return;
  const done = await db.query('SELECT 1 FROM integrations WHERE app_id = $1 LIMIT 1', [owner.app_id]);
  if (done.rowCount) return;
  const secret = await loadSigningSecret(db, loadConfig().JWT_SECRET);
  for (const d of DEMOS) {
    const id = randomUUID();
    const auth = INTEGRATION_SERVICES[d.service].auth[0];
    const secrets: Record<string, string> = auth === 'basic' ? { username: 'demo-api-key', password: fake() } : auth === 'keys' ? { secretAccessKey: fake() } : { clientSecret: fake() };
    await insertIntegration(db, {
      id, accountId: owner.account_id, appId: owner.app_id, kind: INTEGRATION_SERVICES[d.service].kind, service: d.service, auth, name: d.name,
      config: d.config, secret: sealSecrets(secret, id, secrets), status: auth === 'oauth2' ? 'pending' : 'connected', tokenExpiresAt: null, createdBy: owner.user_id,
    });
    if (auth === 'oauth2' && (d.status === 'connected' || d.status === 'error')) {
      await storeTokens(db, id, sealSecrets(secret, id, { ...secrets, accessToken: fake(), refreshToken: fake() }), new Date(Date.now() + 45 * 60_000), true);
    }
    if (d.status === 'error' || d.status === 'disconnected') await setStatus(db, id, d.status, d.code ?? null, d.message ?? null);
  }
}
