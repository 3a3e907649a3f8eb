/**
 * Wallet passes (issue 17; api-server/src/features/wallet) against real Postgres and the real
 * message pipeline: the account's Apple and Google signing settings checked and sealed (test CA,
 * pass certificate and keys made in the run), designs refused with the catalogue's codes, a coupon
 * pass issued from an approved coupon message, its .pkpass downloaded from the public link (the
 * manifest's SHA-1 hashes checked and the detached PKCS#7 signature verified by OpenSSL against
 * the test CA), its Google save link's RS256 JWT verified with the public key, and its
 * redemptions recorded as the coupon's: counted in the message's redeems metric, firing the
 * "coupon redeemed" rule, refused past max redeems and once voided. Loyalty cards: card number
 * and security code checked, the code never answered, a card number issued once.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate, createHash, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, isCertificateFingerprint, type MessageMetrics, type MessageSummary } from '@gd/shared';
import type { Rule } from '@gd/shared/schemas/rules';
import type { WalletDesign, WalletPass, WalletSigning } from '@gd/shared/schemas/wallet';
import { PASS_CODE_PATTERN, defaultDesign } from '@gd/shared/wallet/model';
import type { TestApi } from '../../api-server/src/testing/harness.ts';
import { consumeRedemptions } from '../../api-server/src/features/rules/engine.ts';
import { makeTestSigning, type TestSigning } from '../../api-server/src/features/wallet/testing.ts';
import { approvedMessage, audienceOf, emailAccount, startApiWithSync, type DeliveryWorld } from '../support/delivery.ts';

let world: DeliveryWorld;
let api: TestApi;
let owner: Awaited<ReturnType<typeof emailAccount>>['owner'];
let appId: string;
let certs: TestSigning;
let coupon: MessageSummary;
let personIds: string[];
let couponDesign: WalletDesign;
let loyaltyDesign: WalletDesign;
let dir: string;

const APPLE = { passTypeIdentifier: 'pass.com.example.test', teamIdentifier: 'ABCDE12345' };
const GOOGLE = { issuerId: '3388000000012345678', serviceAccountEmail: 'wallet@example-project.iam.gserviceaccount.com' };

beforeAll(async () => {
  certs = makeTestSigning();
  dir = mkdtempSync(join(tmpdir(), 'wallet-test-'));
  world = await startApiWithSync({ OUTGOING_ALLOW_LOOPBACK: '127.0.0.1' });
  api = world.api;
  ({ owner, appId } = await emailAccount(api, 2525, { name: 'Wallet app' }));
  ({ personIds } = await audienceOf(api, appId, [{ email: 'ana@example.com' }, { email: 'luis@example.com' }], 'Wallet people'));
  const { audienceId } = await audienceOf(api, appId, [], 'Coupon audience');
  coupon = await approvedMessage(owner.client, world, { appId, type: 'coupon', name: 'Spring coupon', audienceId, content: { title: '10% off', promo_code: 'SAVE10', max_redeems: 2 } });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await world.stop();
});

const at = { get app() { return { appId }; } };
const signing = async () => (await owner.client.ok<{ signing: WalletSigning }>('walletSigning')).signing;
const issue = (body: Record<string, unknown>) => owner.client.call('issueWalletPass', body, at.app);
const redeem = (barcode: string) => owner.client.call('redeemWalletPass', { barcode }, at.app);
const detailsOf = (answer: { body: Record<string, unknown> }) => answer.body.details as { path: string; message: string }[];
const redemptionRows = async () => (await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM message_redemptions WHERE message_id = $1', [coupon.id])).rows[0]!.n;

/** Verifies a detached PKCS#7 signature of `content` with OpenSSL against `caPem`; the error text when it does not verify. */
function opensslVerify(signature: Uint8Array, content: Uint8Array, caPem: string): string | null {
  const files = { sig: join(dir, 'signature'), content: join(dir, 'manifest.json'), ca: join(dir, 'ca.pem') };
  writeFileSync(files.sig, signature);
  writeFileSync(files.content, content);
  writeFileSync(files.ca, caPem);
  try {
    execFileSync('openssl', ['smime', '-verify', '-binary', '-inform', 'DER', '-in', files.sig, '-content', files.content, '-CAfile', files.ca, '-purpose', 'any', '-out', '/dev/null'], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

describe('signing settings of the account', () => {
  it('refuses a certificate that does not parse, a key of another certificate, a foreign WWDR and an expired certificate', async () => {
    expect(await signing()).toEqual({ apple: null, google: null });
    const cases: [Record<string, string>, string, string][] = [
      [{ certificatePem: 'not a certificate' }, 'certificatePem', 'invalid_certificate'],
      [{ privateKeyPem: certs.otherKeyPem }, 'privateKeyPem', 'key_mismatch'],
      [{ privateKeyPem: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }, 'privateKeyPem', 'invalid_key'],
      [{ wwdrPem: certs.otherCaPem }, 'wwdrPem', 'invalid_certificate'],
      [{ certificatePem: certs.expiredCertPem }, 'certificatePem', 'certificate_expired'],
    ];
    for (const [change, path, message] of cases) {
      const answer = await owner.client.call('putAppleWalletSigning', { ...APPLE, certificatePem: certs.certPem, privateKeyPem: certs.keyPem, wwdrPem: certs.caPem, ...change });
      expect(answer.body, message).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
      expect(detailsOf(answer)).toContainEqual({ path, message });
    }
    // Without a key there is nothing to keep yet.
    const noKey = await owner.client.call('putAppleWalletSigning', { ...APPLE, certificatePem: certs.certPem, wwdrPem: certs.caPem });
    expect(detailsOf(noKey)).toEqual([{ path: 'privateKeyPem', message: 'key_required' }]);
    expect(await signing()).toEqual({ apple: null, google: null });
  });

  it('stores Apple and Google settings, shows the fingerprint in the SPEC format and never a key', async () => {
    const { signing: saved } = await owner.client.ok<{ signing: WalletSigning }>('putAppleWalletSigning', { ...APPLE, certificatePem: certs.certPem, privateKeyPem: certs.keyPem, wwdrPem: certs.caPem });
    expect(saved.apple).toMatchObject({ ...APPLE, fingerprint: new X509Certificate(certs.certPem).fingerprint256, hasKey: true });
    expect(isCertificateFingerprint(saved.apple!.fingerprint)).toBe(true);
    // The same certificate without a key keeps the stored one.
    await owner.client.ok('putAppleWalletSigning', { ...APPLE, teamIdentifier: 'ZYXWV98765', certificatePem: certs.certPem, wwdrPem: certs.caPem });
    expect((await signing()).apple?.teamIdentifier).toBe('ZYXWV98765');
    await owner.client.ok('putAppleWalletSigning', { ...APPLE, certificatePem: certs.certPem, wwdrPem: certs.caPem });

    const badGoogle = await owner.client.call('putGoogleWalletSigning', { ...GOOGLE, privateKeyPem: 'nope' });
    expect(detailsOf(badGoogle)).toEqual([{ path: 'privateKeyPem', message: 'invalid_key' }]);
    await owner.client.ok('putGoogleWalletSigning', { ...GOOGLE, privateKeyPem: certs.googleKeyPem });
    const body = JSON.stringify(await signing());
    expect(body).toContain(GOOGLE.issuerId);
    for (const key of [certs.keyPem, certs.googleKeyPem]) expect(body).not.toContain(key.split('\n')[1]!);
    // Stored sealed: the key's text is nowhere in the row.
    const { rows } = await api.db.query<{ settings: unknown; secret: Buffer }>('SELECT settings, secret FROM wallet_signing WHERE account_id = $1', [owner.accountId]);
    for (const r of rows) expect(JSON.stringify(r.settings) + r.secret.toString('latin1')).not.toContain('PRIVATE KEY');
  });
});

describe('designs', () => {
  it('creates designs, refusing another kind\'s placeholder (10001) and a name in use (30)', async () => {
    couponDesign = (await owner.client.ok<{ design: WalletDesign }>('createWalletDesign', { name: 'Spring', kind: 'coupon', design: defaultDesign('coupon', 'Shop') }, at.app)).design;
    loyaltyDesign = (await owner.client.ok<{ design: WalletDesign }>('createWalletDesign', { name: 'Club', kind: 'loyalty', design: defaultDesign('loyalty', 'Shop') }, at.app)).design;
    const wrong = await owner.client.call('createWalletDesign', { name: 'Mixed', kind: 'loyalty', design: defaultDesign('coupon') }, at.app);
    expect(wrong.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect(detailsOf(wrong)).toContainEqual({ path: 'design.headerFields.0.value', message: 'unknown_placeholder' });
    const badColour = await owner.client.call('createWalletDesign', { name: 'Ugly', kind: 'coupon', design: { ...defaultDesign('coupon'), backgroundColor: 'orange' } }, at.app);
    expect(badColour.body.code).toBe(ErrorCode.MANDATORY);
    expect((await owner.client.call('createWalletDesign', { name: 'spring', kind: 'coupon', design: defaultDesign('coupon') }, at.app)).body.code).toBe(ErrorCode.NAME_DUPLICATED);
    const { designs } = await owner.client.ok<{ designs: WalletDesign[] }>('walletDesigns', undefined, at.app);
    expect(designs.map((d) => d.name)).toEqual(['Club', 'Spring']);
  });
});

describe('coupon passes', () => {
  let pass: WalletPass;

  it('lists the approved coupon message and issues a pass with its promo code and max redeems', async () => {
    const { messages } = await owner.client.ok<{ messages: unknown[] }>('walletCouponMessages', undefined, at.app);
    expect(messages).toEqual([{ id: coupon.id, name: 'Spring coupon', promoCode: 'SAVE10', maxRedeems: 2 }]);
    expect((await issue({ kind: 'coupon', designId: couponDesign.id, personId: personIds[0], messageId: '00000000-0000-4000-8000-000000000000' })).body).toMatchObject({ code: ErrorCode.NOT_EXIST, details: [{ path: 'messageId' }] });
    expect((await issue({ kind: 'coupon', designId: couponDesign.id, personId: '999999999', messageId: coupon.id })).body).toMatchObject({ code: ErrorCode.NOT_EXIST, details: [{ path: 'personId' }] });
    expect((await issue({ kind: 'coupon', designId: loyaltyDesign.id, personId: personIds[0], messageId: coupon.id })).body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'kind', message: 'kind_mismatch' }] });
    const answer = await issue({ kind: 'coupon', designId: couponDesign.id, personId: personIds[0], messageId: coupon.id });
    pass = (answer.body as unknown as { pass: WalletPass }).pass;
    expect(pass).toMatchObject({ kind: 'coupon', status: 'active', personId: personIds[0], messageId: coupon.id, promoCode: 'SAVE10', maxRedeems: 2, redeems: 0 });
    expect(pass.barcode).toMatch(PASS_CODE_PATTERN);
    expect(pass.publicUrl).toMatch(/\/w\/[A-Za-z0-9_-]{43}$/);
    expect(pass.appleUrl).toBe(`${pass.publicUrl}/pass.pkpass`);
    expect(pass.googleUrl).toBe(`${pass.publicUrl}/google`);
  });

  it('downloads a .pkpass whose manifest hashes every file and whose signature verifies with the test certificate', async () => {
    const res = await fetch(pass.appleUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(['icon.png', 'icon@2x.png', 'logo.png', 'logo@2x.png', 'manifest.json', 'pass.json', 'signature']);
    const json = JSON.parse(Buffer.from(files['pass.json']!).toString('utf8')) as Record<string, unknown>;
    expect(json).toMatchObject({
      formatVersion: 1, ...APPLE, serialNumber: pass.id, organizationName: 'Shop',
      barcodes: [{ format: 'PKBarcodeFormatQR', message: pass.barcode }], coupon: { headerFields: [{ value: 'SAVE10' }], secondaryFields: [{ value: '2' }] },
    });
    const manifest = JSON.parse(Buffer.from(files['manifest.json']!).toString('utf8')) as Record<string, string>;
    expect(Object.keys(manifest).sort()).toEqual(['icon.png', 'icon@2x.png', 'logo.png', 'logo@2x.png', 'pass.json']);
    for (const [name, hash] of Object.entries(manifest)) expect(hash, name).toBe(createHash('sha1').update(files[name]!).digest('hex'));
    expect(opensslVerify(files.signature!, files['manifest.json']!, certs.caPem)).toBeNull();
    // The check is real: a changed manifest, or another CA, does not verify.
    const changed = Buffer.from(files['manifest.json']!).toString('utf8').replace(/"pass\.json":"[0-9a-f]/, '"pass.json":"z');
    expect(opensslVerify(files.signature!, Buffer.from(changed), certs.caPem)).not.toBeNull();
    expect(opensslVerify(files.signature!, files['manifest.json']!, certs.otherCaPem)).not.toBeNull();
  });

  it('redirects to a Google Wallet save link whose RS256 JWT verifies with the service account\'s public key', async () => {
    const res = await fetch(pass.googleUrl!, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = res.headers.get('location') ?? '';
    expect(location.startsWith('https://pay.google.com/gp/v/save/')).toBe(true);
    const [head, claims, signature] = location.slice('https://pay.google.com/gp/v/save/'.length).split('.');
    expect(JSON.parse(Buffer.from(head!, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(verify('sha256', Buffer.from(`${head}.${claims}`), certs.googlePublicPem, Buffer.from(signature!, 'base64url'))).toBe(true);
    expect(verify('sha256', Buffer.from(`${head}.${claims}x`), certs.googlePublicPem, Buffer.from(signature!, 'base64url'))).toBe(false);
    expect(JSON.parse(Buffer.from(claims!, 'base64url').toString())).toMatchObject({
      iss: GOOGLE.serviceAccountEmail, aud: 'google', typ: 'savetowallet',
      payload: {
        offerClasses: [{ id: `${GOOGLE.issuerId}.gd-${couponDesign.id}` }],
        offerObjects: [{ id: `${GOOGLE.issuerId}.gd-${pass.id}`, state: 'ACTIVE', barcode: { type: 'QR_CODE', value: pass.barcode } }],
      },
    });
  });

  it('records redemptions as the coupon\'s: the redeems metric counts them, the coupon rule fires, past max redeems is refused', async () => {
    const ruleMessage = await approvedMessage(owner.client, world, {
      appId, type: 'email', name: 'Thanks for redeeming', audienceId: (await audienceOf(api, appId, [], 'Rule audience')).audienceId, origin: 'automaticRule',
      content: { sender_name: 'Shop', sender_email: 'hello@example.com', subject: 'Thanks', html_body: '<p>Thanks</p>' },
    });
    const { rule } = await owner.client.ok<{ rule: Rule }>('createRule', { name: 'Redeemed', trigger: { kind: 'coupon_redeemed', messageId: coupon.id }, messageId: ruleMessage.id }, at.app);

    expect((await redeem(pass.barcode.toLowerCase())).body).toMatchObject({ status: 'KO', code: ErrorCode.NOT_EXIST });
    expect((await redeem(pass.barcode)).body).toMatchObject({ status: 'OK', redeems: 1, redeemsLeft: 1, pass: { redeems: 1 } });
    expect((await redeem(pass.barcode)).body).toMatchObject({ status: 'OK', redeems: 2, redeemsLeft: 0 });
    const refused = await redeem(pass.barcode);
    expect(refused.body).toMatchObject({ status: 'KO', code: ErrorCode.NO_PERMISSION, details: [{ path: 'barcode', message: 'max_redeems_reached' }] });
    expect(await redemptionRows()).toBe(2);

    const { metrics } = await owner.client.ok<{ metrics: MessageMetrics }>('messageMetrics', undefined, { appId, messageId: coupon.id });
    expect(metrics.total.redeems).toBe(2);

    expect(await consumeRedemptions(api.db, new Date())).toBeGreaterThanOrEqual(2);
    const { rows } = await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM message_outbox WHERE idempotency_key LIKE $1 AND person_id = $2`, [`r:${rule.id}:%`, personIds[0]]);
    expect(rows[0]!.n).toBe(2);
  });

  it('a voided coupon is refused and shown void by both wallets', async () => {
    const second = (await issue({ kind: 'coupon', designId: couponDesign.id, personId: personIds[1], messageId: coupon.id })).body as unknown as { pass: WalletPass };
    const { pass: voided } = await owner.client.ok<{ pass: WalletPass }>('voidWalletPass', undefined, { appId, passId: second.pass.id });
    expect(voided.status).toBe('voided');
    expect((await redeem(voided.barcode)).body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'barcode', message: 'voided' }] });
    expect(await redemptionRows()).toBe(2);
    const files = unzipSync(new Uint8Array(await (await fetch(voided.appleUrl!)).arrayBuffer()));
    expect(JSON.parse(Buffer.from(files['pass.json']!).toString('utf8'))).toMatchObject({ voided: true });
  });
});

describe('loyalty cards', () => {
  it('checks card number and security code, never answers the code, and issues a card number once', async () => {
    const base = { kind: 'loyalty', designId: loyaltyDesign.id, personId: personIds[1], memberName: 'Luis Pérez' };
    const bad = await issue({ ...base, cardNumber: '4111 1111 1111 1112', securityCode: '12' });
    expect(bad.body).toMatchObject({ status: 'KO', code: ErrorCode.MANDATORY });
    expect(detailsOf(bad).map((d) => d.path).sort()).toEqual(['cardNumber', 'securityCode']);
    const answer = await issue({ ...base, cardNumber: '4111 1111 1111 1111', securityCode: '4821' });
    const card = (answer.body as unknown as { pass: WalletPass }).pass;
    expect(card).toMatchObject({ kind: 'loyalty', cardNumber: '4111111111111111', barcode: '4111111111111111', hasSecurityCode: true, memberName: 'Luis Pérez', redeems: 0 });
    expect(JSON.stringify(answer.body)).not.toContain('4821');
    const { passes } = await owner.client.ok<{ passes: WalletPass[] }>('walletPasses', undefined, at.app, { designId: loyaltyDesign.id });
    expect(passes.map((p) => p.id)).toEqual([card.id]);
    expect(JSON.stringify(passes)).not.toContain('4821');
    expect((await issue({ ...base, personId: personIds[0], cardNumber: '4111111111111111', securityCode: '1234' })).body).toMatchObject({ code: ErrorCode.NAME_DUPLICATED, details: [{ path: 'cardNumber', message: 'card_taken' }] });
    expect((await redeem('4111111111111111')).body).toMatchObject({ code: ErrorCode.MANDATORY, details: [{ path: 'barcode', message: 'not_a_coupon' }] });

    // The member's own pass carries the security code on its back, and the number in groups.
    const files = unzipSync(new Uint8Array(await (await fetch(card.appleUrl!)).arrayBuffer()));
    const json = JSON.parse(Buffer.from(files['pass.json']!).toString('utf8')) as { storeCard: { primaryFields: { value: string }[]; backFields: { key: string; value: string }[] } };
    expect(json.storeCard.primaryFields[0]?.value).toBe('4111 1111 1111 1111');
    expect(json.storeCard.backFields).toContainEqual({ key: 'securityCode', label: 'Security code', value: '4821' });
    // Sealed at rest.
    const { rows } = await api.db.query<{ secret: Buffer }>('SELECT secret FROM wallet_passes WHERE id = $1', [card.id]);
    expect(rows[0]!.secret.toString('latin1')).not.toContain('4821');
  });
});

describe('the public pass page', () => {
  it('offers only the wallets the account signs for, and 404s an unknown token', async () => {
    const { passes } = await owner.client.ok<{ passes: WalletPass[] }>('walletPasses', undefined, at.app);
    const pass = passes.find((p) => p.kind === 'coupon' && p.status === 'active')!;
    const page = await (await fetch(pass.publicUrl, { headers: { 'accept-language': 'es-ES' } })).text();
    expect(page).toContain('Añadir a Apple Wallet');
    expect(page).toContain('Guardar en Google Wallet');
    await owner.client.ok('deleteWalletSigning', undefined, { provider: 'apple' });
    const after = await fetch(pass.publicUrl);
    expect(after.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await after.text();
    expect(html).not.toContain('Add to Apple Wallet');
    expect(html).toContain('Save to Google Wallet');
    expect((await fetch(pass.appleUrl!)).status).toBe(404);
    expect((await owner.client.ok<{ passes: WalletPass[] }>('walletPasses', undefined, at.app)).passes.every((p) => p.appleUrl === null && p.googleUrl !== null)).toBe(true);
    expect((await fetch(`${pass.publicUrl.slice(0, -43)}${'A'.repeat(43)}`)).status).toBe(404);
    expect((await owner.client.call('deleteWalletSigning', undefined, { provider: 'apple' })).body.code).toBe(ErrorCode.NOT_EXIST);
  });
});
