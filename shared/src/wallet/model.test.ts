import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isCardNumber, isSecurityCode } from '../formats.ts';
import { AppleSigningInput, IssueWalletPassInput, WalletDesignInput } from '../schemas/wallet.ts';
import {
  CardNumber, FIELD_GROUPS, applePassJson, appleColour, defaultDesign, designProblems, fillPlaceholders, formatCardNumber, googleSaveClaims,
  placeholdersIn, resolvePass, type IssuedValues,
} from './model.ts';

/** The Luhn check digit of a payload, computed independently of isCardNumber (doubling from the right). */
function luhnDigit(payload: string): number {
  const digits = [...payload].reverse().map(Number);
  const sum = digits.reduce((s, d, i) => s + (i % 2 === 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
  return (10 - (sum % 10)) % 10;
}

describe('card number and security code patterns', () => {
  it('accepts known valid card numbers and refuses a wrong check digit', () => {
    expect(isCardNumber('4111111111111111')).toBe(true); // the classic Visa test number
    expect(isCardNumber('378282246310005')).toBe(true); // 15 digits
    expect(isCardNumber('6011111111111117')).toBe(true);
    expect(isCardNumber('4111111111111112')).toBe(false);
    expect(isCardNumber('79927398713')).toBe(false); // valid Luhn, but 11 digits
    expect(isCardNumber('4111 1111 1111 1111')).toBe(false); // digits only: the schema strips spaces
    expect(isCardNumber('41111111111111a1')).toBe(false);
    expect(isCardNumber('')).toBe(false);
  });

  it('any 12 to 19 digit payload with its Luhn digit is valid; every other last digit is not', () => {
    fc.assert(fc.property(fc.integer({ min: 11, max: 18 }).chain((n) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n })), (digits) => {
      const payload = digits.join('');
      const check = luhnDigit(payload);
      expect(isCardNumber(`${payload}${check}`)).toBe(true);
      for (let d = 0; d <= 9; d++) if (d !== check) expect(isCardNumber(`${payload}${d}`)).toBe(false);
    }));
  });

  it('refuses lengths outside 12 to 19', () => {
    for (const n of [11, 20]) {
      const payload = '4'.repeat(n - 1);
      expect(isCardNumber(`${payload}${luhnDigit(payload)}`)).toBe(false);
    }
  });

  it('security code: exactly 3 or 4 digits', () => {
    expect(['123', '0000', '9876'].every(isSecurityCode)).toBe(true);
    expect(['12', '12345', '12a', ' 123', '', '１２３'].some(isSecurityCode)).toBe(false);
  });

  it('the card number schema drops spaces and hyphens, then checks', () => {
    expect(CardNumber.parse(' 4111-1111 1111-1111 ')).toBe('4111111111111111');
    expect(CardNumber.safeParse('4111 1111 1111 1112').success).toBe(false);
    const loyalty = { kind: 'loyalty', designId: '00000000-0000-4000-8000-000000000001', personId: '7' };
    expect(IssueWalletPassInput.safeParse({ ...loyalty, cardNumber: '4111111111111111', securityCode: '12' }).success).toBe(false);
    expect(IssueWalletPassInput.parse({ ...loyalty, cardNumber: '4111 1111 1111 1111', securityCode: '123' })).toMatchObject({ cardNumber: '4111111111111111', memberName: '' });
  });
});

describe('pass designs', () => {
  it('finds placeholders and fills them, leaving unknown ones as written', () => {
    expect(placeholdersIn('{{promo_code}} and {{ max_redeems }} and {{promo_code}}')).toEqual(['promo_code', 'max_redeems']);
    expect(fillPlaceholders('Use {{promo_code}} {{nope}}', { promo_code: 'SAVE' })).toBe('Use SAVE {{nope}}');
  });

  it('refuses placeholders of the other kind, naming where', () => {
    const coupon = defaultDesign('coupon');
    expect(designProblems('coupon', coupon)).toEqual([]);
    expect(designProblems('loyalty', coupon)).toEqual([
      { path: ['headerFields', 0, 'value'], code: 'unknown_placeholder', placeholder: 'promo_code' },
      { path: ['secondaryFields', 0, 'value'], code: 'unknown_placeholder', placeholder: 'max_redeems' },
    ]);
  });

  it('the schema refuses a malformed colour and too many fields', () => {
    const design = defaultDesign('loyalty');
    expect(WalletDesignInput.safeParse({ name: 'Club', kind: 'loyalty', design }).success).toBe(true);
    expect(WalletDesignInput.safeParse({ name: 'Club', kind: 'loyalty', design: { ...design, backgroundColor: 'blue' } }).success).toBe(false);
    expect(WalletDesignInput.safeParse({ name: 'Club', kind: 'loyalty', design: { ...design, primaryFields: [{ label: 'a', value: 'b' }, { label: 'c', value: 'd' }] } }).success).toBe(false);
  });

  it('resolves a loyalty card: grouped card number, member name, security code only on the back', () => {
    const v: IssuedValues = { kind: 'loyalty', barcode: '4111111111111111', customerId: 'c-1', cardNumber: '4111111111111111', memberName: 'Ana', securityCode: '987' };
    const pass = resolvePass(defaultDesign('loyalty'), v);
    expect(pass.primaryFields).toEqual([{ key: 'primary0', label: 'Card', value: '4111 1111 1111 1111' }]);
    expect(pass.headerFields[0]?.value).toBe('Ana');
    expect(pass.backFields.at(-1)).toEqual({ key: 'securityCode', label: 'Security code', value: '987' });
    expect(FIELD_GROUPS.filter((g) => g !== 'backFields').flatMap((g) => pass[g]).some((f) => f.value.includes('987'))).toBe(false);
    expect(formatCardNumber('1234567890123')).toBe('1234 5678 9012 3');
  });
});

describe('what each wallet is given', () => {
  const coupon: IssuedValues = { kind: 'coupon', barcode: 'K7QP4M2XW9TD', customerId: 'c-9', promoCode: 'SAVE10', maxRedeems: 2 };

  it("Apple's pass.json: a coupon with its identity, colours, barcode and filled fields", () => {
    const json = applePassJson(defaultDesign('coupon', 'Shop'), coupon, { passTypeIdentifier: 'pass.com.shop', teamIdentifier: 'ABCDE12345', serialNumber: 's-1', voided: false });
    expect(json).toMatchObject({
      formatVersion: 1, passTypeIdentifier: 'pass.com.shop', teamIdentifier: 'ABCDE12345', serialNumber: 's-1', organizationName: 'Shop',
      backgroundColor: appleColour('#C2410C'), barcodes: [{ format: 'PKBarcodeFormatQR', message: 'K7QP4M2XW9TD', altText: 'K7QP4M2XW9TD' }],
      coupon: { headerFields: [{ key: 'header0', label: 'Code', value: 'SAVE10' }], secondaryFields: [{ key: 'secondary0', value: '2' }] },
    });
    expect(appleColour('#C2410C')).toBe('rgb(194, 65, 12)');
    expect(json).not.toHaveProperty('voided');
    expect(applePassJson(defaultDesign('loyalty'), { kind: 'loyalty', barcode: '4111111111111111', customerId: null, cardNumber: '4111111111111111' }, { passTypeIdentifier: 'p', teamIdentifier: 't', serialNumber: 's', voided: true }))
      .toMatchObject({ voided: true, storeCard: { primaryFields: [{ value: '4111 1111 1111 1111' }] }, barcodes: [{ format: 'PKBarcodeFormatCode128' }] });
  });

  it("Google's save claims: an offer class and object under the issuer", () => {
    const claims = googleSaveClaims(defaultDesign('coupon', 'Shop'), coupon, {
      issuerId: '3388000000012345678', serviceAccountEmail: 'wallet@shop.iam.gserviceaccount.com', designId: 'd1', passId: 'p1', voided: false,
      logoUrl: 'https://shop.example/w/t/logo.png', origins: ['https://shop.example'], now: new Date('2026-03-01T00:00:00Z'),
    });
    expect(claims).toMatchObject({
      iss: 'wallet@shop.iam.gserviceaccount.com', aud: 'google', typ: 'savetowallet', iat: 1772323200,
      payload: {
        offerClasses: [{ id: '3388000000012345678.gd-d1', issuerName: 'Shop', redemptionChannel: 'INSTORE' }],
        offerObjects: [{ id: '3388000000012345678.gd-p1', classId: '3388000000012345678.gd-d1', state: 'ACTIVE', barcode: { type: 'QR_CODE', value: 'K7QP4M2XW9TD' } }],
      },
    });
  });

  it('Apple signing settings: pass type and team formats', () => {
    const base = { certificatePem: 'x', wwdrPem: 'y' };
    expect(AppleSigningInput.safeParse({ ...base, passTypeIdentifier: 'pass.com.shop.coupons', teamIdentifier: 'abcde12345' }).data?.teamIdentifier).toBe('ABCDE12345');
    expect(AppleSigningInput.safeParse({ ...base, passTypeIdentifier: 'com.shop', teamIdentifier: 'ABCDE12345' }).success).toBe(false);
    expect(AppleSigningInput.safeParse({ ...base, passTypeIdentifier: 'pass.com.shop', teamIdentifier: 'ABC' }).success).toBe(false);
  });
});
