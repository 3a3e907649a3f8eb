/**
 * A loopback The Trade Desk Data API (first-party advertiser data), as documented:
 *
 * - `POST /data/advertiser` with `{ AdvertiserId, Items: [{ <one id: TDID | DAID | UID2 | ...>,
 *   Data: [{ Name: <segment name>, TTLInMinutes, TimestampUtc? }] }] }`. A TTL above 0 puts the id
 *   in the segment for that long; a TTL of 0 takes it out. Segments are made by their first data.
 * - Signed: header `TtdSignature` = base64 HMAC-SHA1 of the exact request body with the
 *   advertiser's secret key; a missing or wrong signature answers 401 `{ Message }`, another
 *   advertiser 403.
 * - Answer 200 `{ FailedLines: [{ ErrorCode, Message, Index? }] }` (lines not taken: a malformed
 *   DAID, no id); a body that is not such a request, 400 `{ Message }`; over the item limit, 400.
 *
 * `segments` holds each segment's ids with their expiry, for tests to read.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { jsonBody, startLoopbackPlatform, type LoopbackPlatform } from './server.ts';

export interface TradeDeskFixture extends LoopbackPlatform {
  /** The integration's baseUrl (the data endpoint is at its origin). */
  baseUrl: string;
  /** segment name -> id -> TTL in minutes of its last upload. */
  segments: Map<string, Map<string, number>>;
  ids(segment: string): string[];
}

const ID_FIELDS = ['TDID', 'DAID', 'UID2', 'UID2Token', 'EUID', 'IDL', 'ID5'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_ITEMS = 10_000;

export async function startTradeDeskPlatform(opts: { advertiserId: string; secretKey: string }): Promise<TradeDeskFixture> {
  const segments = new Map<string, Map<string, number>>();
  const platform = await startLoopbackPlatform((req) => {
    if (req.method !== 'POST' || req.path !== '/data/advertiser') return { status: 404, body: { Message: 'Not found' } };
    const expected = createHmac('sha1', opts.secretKey).update(req.body, 'utf8').digest();
    const given = Buffer.from(String(req.headers.ttdsignature ?? ''), 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 401, body: { Message: 'The TtdSignature header does not match the request.' } };
    const body = jsonBody(req) as { AdvertiserId?: unknown; Items?: unknown } | undefined;
    if (!body || typeof body.AdvertiserId !== 'string' || !Array.isArray(body.Items)) return { status: 400, body: { Message: 'The request must have AdvertiserId and Items.' } };
    if (body.AdvertiserId !== opts.advertiserId) return { status: 403, body: { Message: `Not authorized for advertiser ${body.AdvertiserId}.` } };
    if (body.Items.length > MAX_ITEMS) return { status: 400, body: { Message: `At most ${MAX_ITEMS} items per request.` } };
    const failed: { ErrorCode: string; Message: string; Index: number }[] = [];
    body.Items.forEach((item: Record<string, unknown>, index) => {
      const fields = ID_FIELDS.filter((f) => typeof item[f] === 'string');
      if (fields.length !== 1) return failed.push({ ErrorCode: 'MissingUserId', Message: 'An item needs exactly one user id.', Index: index });
      const field = fields[0]!;
      const id = item[field] as string;
      if (field === 'DAID' && !UUID.test(id)) return failed.push({ ErrorCode: 'InvalidUserId', Message: 'A DAID is an IDFA or AAID.', Index: index });
      if (!Array.isArray(item.Data) || item.Data.length === 0) return failed.push({ ErrorCode: 'MissingData', Message: 'An item needs Data.', Index: index });
      for (const d of item.Data as { Name?: unknown; TTLInMinutes?: unknown }[]) {
        if (typeof d.Name !== 'string' || d.Name === '' || typeof d.TTLInMinutes !== 'number' || d.TTLInMinutes < 0) {
          return failed.push({ ErrorCode: 'InvalidData', Message: 'Data needs a Name and a TTLInMinutes of 0 or more.', Index: index });
        }
        let segment = segments.get(d.Name);
        if (!segment) segments.set(d.Name, (segment = new Map<string, number>()));
        const key = `${field}:${id.toLowerCase()}`;
        if (d.TTLInMinutes === 0) segment.delete(key);
        else segment.set(key, d.TTLInMinutes);
      }
      return undefined;
    });
    return { status: 200, body: { FailedLines: failed } };
  }, /^\/data\/advertiser$/);
  return {
    ...platform,
    baseUrl: `${platform.origin}/v3`,
    segments,
    ids: (name) => [...(segments.get(name)?.keys() ?? [])].sort(),
  };
}
