import { describe, expect, it } from 'vitest';
import {
  normaliseAdId, normaliseCustomerId, normaliseEmail, normaliseEmailForGoogle, normalisePhone, sha256Hex,
} from './identifiers.ts';

// Known vectors: `printf '%s' <value> | sha256sum`.
const SHA_TEST_EMAIL = '973dfe463ec85785f5f95af5ba3906eedb2d931c24e69824a89ea65dba4e813b';

describe('sha256Hex', () => {
  it('answers the lower-case hex SHA-256 of the UTF-8 text', async () => {
    expect(await sha256Hex('test@example.com')).toBe(SHA_TEST_EMAIL);
    expect(await sha256Hex('16505551234')).toBe('6069d14bf122fdfd931dc7beb58e5dfbba395b1faf05bdcd42d12358d63d8599');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('e-mail', () => {
  it('is trimmed and lower-cased, so the same person hashes the same however it was typed', async () => {
    expect(normaliseEmail('  Test@Example.COM ')).toBe('test@example.com');
    expect(await sha256Hex(normaliseEmail(' TEST@example.com')!)).toBe(SHA_TEST_EMAIL);
  });
  it('is refused when it is not an address', () => {
    for (const bad of ['', '   ', 'no-at-sign', '@example.com', 'a@', 'a b@example.com', null, undefined]) expect(normaliseEmail(bad)).toBeNull();
  });
  it('for Google, loses the dots of a gmail.com or googlemail.com local part only', () => {
    expect(normaliseEmailForGoogle(' John.Smith@Gmail.com')).toBe('johnsmith@gmail.com');
    expect(normaliseEmailForGoogle('j.o.h.n@googlemail.com')).toBe('john@googlemail.com');
    expect(normaliseEmailForGoogle('john.smith@example.com')).toBe('john.smith@example.com');
    expect(normaliseEmailForGoogle('nope')).toBeNull();
  });
});

describe('phone', () => {
  it('keeps the E.164 digits, whatever the punctuation and international prefix', () => {
    expect(normalisePhone('+1 (650) 555-1234')).toBe('16505551234');
    expect(normalisePhone('0034 600.12.34.56')).toBe('34600123456');
    expect(normalisePhone('16505551234')).toBe('16505551234');
  });
  it('is refused when it cannot be placed or is not a number', () => {
    for (const bad of ['', '0600123456', '+0 650 555', '12345', '+1234567890123456', 'call me', null]) expect(normalisePhone(bad)).toBeNull();
  });
});

describe('advertising ids', () => {
  it('are lower case with their hyphens', () => {
    expect(normaliseAdId(' 6D92078A-8246-4BA4-AE5B-76104861E7DC ')).toBe('6d92078a-8246-4ba4-ae5b-76104861e7dc');
  });
  it('refuse the all-zero id (ad tracking limited) and anything not a UUID', () => {
    expect(normaliseAdId('00000000-0000-0000-0000-000000000000')).toBeNull();
    expect(normaliseAdId('sdk-install-1')).toBeNull();
    expect(normaliseAdId(null)).toBeNull();
  });
});

describe('customer id', () => {
  it('is trimmed, and absent when empty', () => {
    expect(normaliseCustomerId('  CUST-42 ')).toBe('CUST-42');
    expect(normaliseCustomerId('  ')).toBeNull();
  });
});
