/**
 * Journey postbacks to an experience-platform integration (issue 17): sent through the
 * integration (its Bearer token, x-api-key and x-gw-ims-org-id) to a loopback experience platform
 * as `POST {baseUrl}/data/core/ups/postbacks` with the header and the filled body entries; an
 * integration that is not the app's fails at once without a call.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Journey } from '@gd/shared';
import { journey, linked, mk } from '@gd/shared/journey/testing';
import { allowList, type NetPolicy } from '../../net/index.ts';
import { createConnectedIntegration } from '../integrations/testing.ts';
import { START, journeySuite, settings } from './testing/suite.ts';
import { TestClock, inboxEvent, launch, people, worker } from './testing/world.ts';

const suite = journeySuite();
const SECRET = `journey-integration-secret-${randomUUID()}`;

describe('integration postbacks', () => {
  let server: Server;
  let base: string;
  const received: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.statusCode = req.headers.authorization === 'Bearer platform-token' ? 202 : 401;
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  const loopback = (): NetPolicy => ({ allow: allowList('127.0.0.1') });
  const postbackJourney = (integrationId: string): Journey => ({
    ...journey('s', linked('sourceEvents', 's', 'pb', { eventIds: ['go'] }),
      linked('actionPostback', 'pb', 'end', { target: 'integration', integrationId, postbackBody: [{ param: 'customer', value: '{{customerId}}' }, { param: 'journey', value: '{{journeyId}}' }], valueMode: 'static' }),
      mk('end', 'end')),
    settings: settings({}),
  });

  it('posts the filled entries through the integration, with its token and headers', async () => {
    const w = await suite.newWorld();
    const clock = new TestClock(new Date(START));
    const integrationId = await createConnectedIntegration(w.db, SECRET, {
      accountId: w.accountId, appId: w.appId, service: 'adobe_experience_platform', tokenExpiresAt: new Date(START + 3600_000),
      config: { baseUrl: base, clientId: 'aep-client', tokenUrl: `${base}/token`, techId: 'TECH@techacct.adobe.com', imsOrgId: 'ORG@AdobeOrg', imsHost: 'ims-na1.adobelogin.com', metaScopes: [] },
      secrets: { clientSecret: 'cs', accessToken: 'platform-token', refreshToken: 'rt' },
    });
    const { journeyId } = await launch(w, postbackJourney(integrationId));
    const [p] = await people(w, 1);
    const customer = (await w.db.query<{ customer_id: string }>('SELECT customer_id FROM people WHERE id = $1', [p])).rows[0]?.customer_id;
    await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
    received.length = 0;
    await worker(w, clock, { netPolicy: loopback(), secret: SECRET }).drain({ postbacks: true });
    expect(received.map((r) => [r.method, r.url])).toEqual([['POST', '/data/core/ups/postbacks']]);
    const got = received[0]!;
    expect(got.headers).toMatchObject({ authorization: 'Bearer platform-token', 'x-api-key': 'aep-client', 'x-gw-ims-org-id': 'ORG@AdobeOrg', 'content-type': 'application/json' });
    expect(got.headers['idempotency-key']).toMatch(/^journey-postback-\d+$/);
    const body = JSON.parse(got.body) as { header: Record<string, unknown>; body: Record<string, unknown> };
    expect(body.header).toMatchObject({ imsOrgId: 'ORG@AdobeOrg', techId: 'TECH@techacct.adobe.com', journeyId });
    expect(body.body).toEqual({ customer, journey: journeyId });
    const rows = await w.db.query<{ status: string; response_status: number }>('SELECT status, response_status FROM journey_postbacks WHERE journey_id = $1', [journeyId]);
    expect(rows.rows).toEqual([{ status: 'ok', response_status: 202 }]);
  });

  it('an integration that is not the app\'s fails at once, without a call', async () => {
    const w = await suite.newWorld();
    const other = await suite.newWorld();
    const clock = new TestClock(new Date(START));
    const foreign = await createConnectedIntegration(other.db, SECRET, {
      accountId: other.accountId, appId: other.appId, service: 'adobe_experience_platform',
      config: { baseUrl: base, clientId: 'c', techId: 't', imsOrgId: 'o', imsHost: 'ims-na1.adobelogin.com' }, secrets: { clientSecret: 'cs', accessToken: 'platform-token' },
    });
    const { journeyId } = await launch(w, postbackJourney(foreign));
    const [p] = await people(w, 1);
    await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
    received.length = 0;
    await worker(w, clock, { netPolicy: loopback(), secret: SECRET }).drain({ postbacks: true });
    expect(received).toEqual([]);
    const rows = await w.db.query<{ status: string; error: string }>('SELECT status, error FROM journey_postbacks WHERE journey_id = $1', [journeyId]);
    expect(rows.rows[0]).toMatchObject({ status: 'failed' });
    expect(rows.rows[0]?.error).toMatch(/^integration_not_found/);
  });
});
