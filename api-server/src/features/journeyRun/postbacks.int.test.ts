/**
 * Journey postbacks against real Postgres (issue 14), on the engine's far clock (testing/suite.ts):
 * a loopback HTTPS server receives the filled JSON template and the dynamic form body; a private
 * address is refused; a target that is down is retried, then recorded as failed.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Journey } from '@gd/shared';
import { journey, linked, mk } from '@gd/shared/journey/testing';
import { loopbackCert, type LoopbackCert } from '../delivery/push/testing/tls.ts';
import { allowList, publicOnly, type NetPolicy } from '../../net/index.ts';
import { START, journeySuite, settings } from './testing/suite.ts';
import { TestClock, entriesOf, inboxEvent, launch, people, worker } from './testing/world.ts';

const suite = journeySuite();
const newWorld = () => suite.newWorld();

describe('postbacks', () => {
  let tls: LoopbackCert;
  let server: Server;
  let port: number;
  const received: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  let answer = 200;
  beforeAll(async () => {
    tls = await loopbackCert();
    server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.statusCode = answer;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  const loopback = (): NetPolicy => ({ allow: allowList('127.0.0.1'), extraCa: tls.cert });
  const postbackJourney = (url: string, body: string | { param: string; value: string }[], valueMode: 'static' | 'dynamic' = 'static'): Journey => ({
    ...journey('s', linked('sourceEvents', 's', 'pb', { eventIds: ['go'] }),
      linked('actionPostback', 'pb', 'end', { postbackUrl: url, postbackBody: body, postbackMethod: 'POST', valueMode, postbackHeader: [{ param: 'X-Journey', value: '{{journeyId}}' }] }), mk('end', 'end')),
    settings: settings({}),
  });

  it('calls a loopback https server with the filled template, once, and records the answer', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock, { netPolicy: loopback() });
    const template = '{"customer":"{{customerId}}","journey":"{{journeyId}}","at":{{unixTime}},"iso":"{{isoDate}}","id":"{{uuidV4}}","campaign":"{{campaignId}}","type":"{{campaignType}}"}';
    const { journeyId } = await launch(w, postbackJourney(`https://127.0.0.1:${port}/hook?j={{journeyId}}`, template));
    const [p] = await people(w, 1);
    const customer = (await w.db.query<{ customer_id: string }>('SELECT customer_id FROM people WHERE id = $1', [p])).rows[0]?.customer_id;
    await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
    received.length = 0;
    await engine.drain({ postbacks: true });
    expect(received.length).toBe(1);
    const got = received[0];
    expect(got?.method).toBe('POST');
    expect(got?.url).toBe(`/hook?j=${journeyId}`);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['x-journey']).toBe(journeyId);
    expect(got?.headers['idempotency-key']).toMatch(/^journey-postback-\d+$/);
    const body = JSON.parse(got?.body ?? '{}') as Record<string, unknown>;
    expect(body).toMatchObject({ customer, journey: journeyId, at: Math.floor(START / 1000), iso: new Date(START).toISOString(), campaign: '', type: '' });
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const rows = await w.db.query<{ status: string; response_status: number; attempts: number }>(`SELECT status, response_status, attempts FROM journey_postbacks WHERE journey_id = $1`, [journeyId]);
    expect(rows.rows).toEqual([{ status: 'ok', response_status: 200, attempts: 1 }]);
  });

  it('sends a dynamic param list form-encoded with the person\'s values', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock, { netPolicy: loopback() });
    await launch(w, postbackJourney(`https://127.0.0.1:${port}/form`, [{ param: 'mail', value: 'email' }, { param: 'plan', value: 'plan' }], 'dynamic'));
    const [p] = await people(w, 1);
    await w.db.query(`UPDATE people SET attributes = '{"plan":"gold"}' WHERE id = $1`, [p]);
    await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
    received.length = 0;
    await engine.drain({ postbacks: true });
    const email = (await w.db.query<{ email: string }>('SELECT email FROM people WHERE id = $1', [p])).rows[0]?.email ?? '';
    expect(received.map((r) => [r.headers['content-type'], r.body])).toEqual([['application/x-www-form-urlencoded', new URLSearchParams({ mail: email, plan: 'gold' }).toString()]]);
  });

  it('refuses a private address (without the tests\' allowance), without retrying', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock, { netPolicy: publicOnly() });
    const { journeyId } = await launch(w, postbackJourney(`https://127.0.0.1:${port}/private`, '{}'));
    const [p] = await people(w, 1);
    await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
    received.length = 0;
    await engine.drain({ postbacks: true });
    expect(received.length).toBe(0);
    const rows = await w.db.query<{ status: string; error: string; attempts: number }>(`SELECT status, error, attempts FROM journey_postbacks WHERE journey_id = $1`, [journeyId]);
    expect(rows.rows[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(rows.rows[0]?.error).toMatch(/^refused_address/);
    // The person moved on regardless.
    expect((await entriesOf(w.db, journeyId)).map((e) => e.status)).toEqual(['ended']);
  });

  it('retries a target that is down with backoff, then records it failed', async () => {
    const w = await newWorld();
    const clock = new TestClock(new Date(START));
    const engine = worker(w, clock, { netPolicy: loopback() });
    answer = 503;
    try {
      const { journeyId } = await launch(w, postbackJourney(`https://127.0.0.1:${port}/down`, '{}'));
      const [p] = await people(w, 1);
      await inboxEvent(w.db, w.appId, p ?? '', 'go', clock.now());
      received.length = 0;
      await engine.drain({ postbacks: true });
      expect(received.length).toBe(1);
      // The next attempt waits for its backoff (10 s, 30 s, 90 s, 270 s).
      clock.advance(5_000);
      await engine.drain({ postbacks: true });
      expect(received.length).toBe(1);
      for (let i = 0; i < 10; i++) {
        clock.advance(300_000);
        await engine.drain({ postbacks: true });
      }
      expect(received.length).toBe(5);
      const rows = await w.db.query<{ status: string; error: string; attempts: number; response_status: number }>(`SELECT status, error, attempts, response_status FROM journey_postbacks WHERE journey_id = $1`, [journeyId]);
      expect(rows.rows).toEqual([{ status: 'failed', error: 'http_503', attempts: 5, response_status: 503 }]);
    } finally {
      answer = 200;
    }
  });
});
