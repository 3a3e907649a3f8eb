import { describe, expect, it } from 'vitest';
import { META_SCHEMA, SHARE_PLATFORMS, batches, sharePlatform, type PersonIdentifiers } from './platforms.ts';
import { shareServices } from '../integrations/model.ts';

const SHA = {
  email: '973dfe463ec85785f5f95af5ba3906eedb2d931c24e69824a89ea65dba4e813b', // test@example.com
  phoneDigits: '6069d14bf122fdfd931dc7beb58e5dfbba395b1faf05bdcd42d12358d63d8599', // 16505551234
  phonePlus: 'a2996076d3ad4af5dc818b908b3d8e354f26ededf7df0e0aa6ac354143805ee0', // +16505551234
  gmail: '3586de92bb3636d0885a12eff961429a32e4ebd764b96f50d85d016f9338d586', // johnsmith@gmail.com
  customer: '6fd6ebd11fef5dc85e566ceb1db68632fedb601ac5ef53554960d7114c653b94', // CUST-42
};
const IDFA = '6D92078A-8246-4BA4-AE5B-76104861E7DC';
const GAID = '38400000-8cf0-11bd-b23e-10b96e40000d';
const person = (p: Partial<PersonIdentifiers>): PersonIdentifiers => ({ customerId: null, email: null, phone: null, adIds: [], ...p });
const rowsOf = (service: 'meta_ads' | 'google_ads' | 'the_trade_desk', p: PersonIdentifiers) => SHARE_PLATFORMS[service]!.rows(p);

describe('Meta rows', () => {
  it('fill the multi-key schema: hashed e-mail, phone digits and customer id; the ad id in the clear', async () => {
    expect(META_SCHEMA).toEqual(['EMAIL', 'PHONE', 'MADID', 'EXTERN_ID']);
    const rows = await rowsOf('meta_ads', person({ email: ' Test@Example.com', phone: '+1 650 555 1234', adIds: [IDFA, GAID], customerId: 'CUST-42' }));
    expect(rows).toEqual([{ EMAIL: SHA.email, PHONE: SHA.phoneDigits, MADID: IDFA.toLowerCase(), EXTERN_ID: SHA.customer }]);
  });
  it('leave unknown keys empty, and send nothing for a person with no identifier', async () => {
    expect(await rowsOf('meta_ads', person({ email: 'test@example.com', adIds: ['00000000-0000-0000-0000-000000000000'] })))
      .toEqual([{ EMAIL: SHA.email, PHONE: '', MADID: '', EXTERN_ID: '' }]);
    expect(await rowsOf('meta_ads', person({ email: 'not an e-mail', phone: '0600' }))).toEqual([]);
  });
});

describe('Google rows', () => {
  it('hash the Google-normalised e-mail and the + form of the phone', async () => {
    expect(await rowsOf('google_ads', person({ email: 'John.Smith@gmail.com', phone: '(+1) 650-555-1234', adIds: [GAID] })))
      .toEqual([{ hashedEmail: SHA.gmail, hashedPhoneNumber: SHA.phonePlus }]);
  });
  it('send no device ids (a contact-info list) and nothing without contact info', async () => {
    expect(await rowsOf('google_ads', person({ adIds: [GAID], customerId: 'CUST-42' }))).toEqual([]);
    expect(await rowsOf('google_ads', person({ phone: '+16505551234' }))).toEqual([{ hashedPhoneNumber: SHA.phonePlus }]);
  });
});

describe('Trade Desk rows', () => {
  it('one DAID item per distinct advertising id, lower case, in the clear', async () => {
    expect(await rowsOf('the_trade_desk', person({ email: 'test@example.com', adIds: [IDFA, IDFA.toLowerCase(), GAID, 'not-an-id'] })))
      .toEqual([{ DAID: IDFA.toLowerCase() }, { DAID: GAID }]);
    expect(await rowsOf('the_trade_desk', person({ email: 'test@example.com' }))).toEqual([]);
  });
  it('expire on the platform, so they are renewed', () => {
    expect(SHARE_PLATFORMS.the_trade_desk!.ttlMinutes).toBeGreaterThan(0);
  });
});

describe('platforms', () => {
  it('exist for the share services this product uploads to, with a batch size', () => {
    for (const entry of ['social', 'searchAds', 'tradeDesk'] as const) {
      expect(shareServices(entry).some((s) => sharePlatform(s) !== undefined)).toBe(true);
    }
    expect(sharePlatform('meta_ads')!.batchSize).toBe(10_000);
    expect(sharePlatform('s3')).toBeUndefined();
  });
});

describe('batches', () => {
  it('split in order into batches of at most the size', () => {
    expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(batches([1, 2, 3, 4], 2)).toEqual([[1, 2], [3, 4]]);
    expect(batches([], 3)).toEqual([]);
  });
  it('keep every item once, whatever the size', () => {
    const items = Array.from({ length: 25_001 }, (_, i) => i);
    for (const size of [1, 7, 10_000, 30_000]) {
      const out = batches(items, size);
      expect(out.flat()).toEqual(items);
      expect(out.every((b) => b.length <= size && b.length > 0)).toBe(true);
      expect(out.length).toBe(Math.ceil(items.length / size));
    }
  });
  it('refuse a size that is not a positive integer', () => {
    expect(() => batches([1], 0)).toThrow(RangeError);
    expect(() => batches([1], 1.5)).toThrow(RangeError);
  });
});
