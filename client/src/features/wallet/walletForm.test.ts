import { describe, expect, it } from 'vitest';
import { WalletDesignInput } from '@gd/shared/schemas/wallet';
import { designProblems } from '@gd/shared/wallet/model';
import { designBody, initialDesignValues, placeholderList, readServiceAccount, sampleValues, switchKind } from './walletForm.ts';

describe('wallet screen helpers', () => {
  it('a new design starts as a valid coupon; switching kind starts from that kind\'s fields, an existing design keeps its own', () => {
    const fresh = initialDesignValues(undefined, 'Shop');
    expect(WalletDesignInput.safeParse({ ...fresh, name: 'X' }).success).toBe(true);
    const loyalty = switchKind(fresh, 'loyalty', true);
    expect(loyalty.kind).toBe('loyalty');
    expect(designProblems('loyalty', loyalty.design)).toEqual([]);
    expect(loyalty.design.organizationName).toBe('Shop');
    const kept = switchKind(fresh, 'loyalty', false);
    expect(kept.design).toBe(fresh.design);
    expect(designProblems('loyalty', kept.design).length).toBeGreaterThan(0);
  });

  it('sends the trimmed body and lists the kind\'s placeholders', () => {
    const values = initialDesignValues(undefined, 'Shop');
    expect(designBody({ ...values, name: '  Spring  ' }).name).toBe('Spring');
    expect(placeholderList('coupon')).toBe('{{promo_code}} {{max_redeems}} {{customer_id}}');
    expect(sampleValues('loyalty').cardNumber).toMatch(/^\d{16}$/);
  });

  it('reads a Google service-account key file, and nothing else', () => {
    expect(readServiceAccount(JSON.stringify({ type: 'service_account', client_email: 'w@p.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----' })))
      .toEqual({ email: 'w@p.iam.gserviceaccount.com', privateKeyPem: '-----BEGIN PRIVATE KEY-----' });
    expect(readServiceAccount('{"client_email": "x"}')).toBeNull();
    expect(readServiceAccount('not json')).toBeNull();
  });
});
