/**
 * Wallet (/products/wallet): pass designs and issued passes of an app, and the account's signing
 * settings for Apple Wallet and Google Wallet. The model and its decisions: ../wallet/model.ts.
 *
 * Private keys (Apple's pass certificate key, Google's service-account key) and loyalty security
 * codes are write-only: answers say `hasKey` / `hasSecurityCode`, never the text.
 */
import { z } from 'zod';
import { Name } from './common.ts';
import { isCertificateFingerprint } from '../formats.ts';
import { CardNumber, PassDesign, PassKind, SecurityCode } from '../wallet/model.ts';

const Id = z.string().uuid();
/** A person of the app (people.id, a bigint written as text). */
const PersonId = z.string().regex(/^\d{1,18}$/, 'A person id');

export const WalletDesignInput = z.object({ name: Name, kind: PassKind, design: PassDesign });
export type WalletDesignInput = z.infer<typeof WalletDesignInput>;

export const WalletDesign = z.object({
  id: z.string(),
  name: z.string(),
  kind: PassKind,
  design: PassDesign,
  /** Passes issued with it (voided ones included). */
  passes: z.number().int(),
  updatedAt: z.string(),
});
export type WalletDesign = z.infer<typeof WalletDesign>;

export const PassStatus = z.enum(['active', 'voided']);
export type PassStatus = z.infer<typeof PassStatus>;

export const WalletPass = z.object({
  id: z.string(),
  designId: z.string(),
  designName: z.string(),
  kind: PassKind,
  status: PassStatus,
  personId: z.string(),
  customerId: z.string().nullable(),
  /** The barcode's message: the coupon's own redemption code, or the loyalty card number. */
  barcode: z.string(),
  /** Coupons: the message it came from, its promo code and max redeems (null: no limit). */
  messageId: z.string().nullable(),
  messageName: z.string().nullable(),
  promoCode: z.string().nullable(),
  maxRedeems: z.number().int().nullable(),
  /** Redemptions of this pass. */
  redeems: z.number().int(),
  /** Loyalty cards. */
  cardNumber: z.string().nullable(),
  memberName: z.string().nullable(),
  hasSecurityCode: z.boolean(),
  /** The public page of the pass (Apple download, Google save); unguessable. */
  publicUrl: z.string(),
  /** The .pkpass file; null while the account has no Apple signing settings. */
  appleUrl: z.string().nullable(),
  /** The Google Wallet save link; null while the account has no Google signing settings. */
  googleUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type WalletPass = z.infer<typeof WalletPass>;

export const IssueWalletPassInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('coupon'), designId: Id, personId: PersonId, messageId: Id }),
  z.object({
    kind: z.literal('loyalty'), designId: Id, personId: PersonId,
    cardNumber: CardNumber, securityCode: SecurityCode, memberName: z.string().trim().max(80).default(''),
  }),
]);
export type IssueWalletPassInput = z.infer<typeof IssueWalletPassInput>;

export const WalletPassesQuery = z.object({ designId: Id.optional() });

export const RedeemWalletPassInput = z.object({ barcode: z.string().trim().min(1, 'Required').max(40) });
export const WalletRedemption = z.object({ pass: WalletPass, redeems: z.number().int(), redeemsLeft: z.number().int().nullable() });

/** An approved coupon message a coupon pass may be issued from. */
export const WalletCouponMessage = z.object({ id: z.string(), name: z.string(), promoCode: z.string(), maxRedeems: z.number().int().nullable() });
export type WalletCouponMessage = z.infer<typeof WalletCouponMessage>;

// ---------------------------------------------------------------------------------------------
// Signing settings of the account.

export const WalletProvider = z.enum(['apple', 'google']);
export type WalletProvider = z.infer<typeof WalletProvider>;

/** Longer than any real certificate chain or key in PEM. */
export const PEM_MAX = 20_000;
const Pem = z.string().trim().min(1, 'Required').max(PEM_MAX);

export const AppleSigningInput = z.object({
  /** pass.<reverse DNS>, as registered at Apple. */
  passTypeIdentifier: z.string().trim().regex(/^pass(\.[A-Za-z0-9-]+)+$/, 'pass. followed by a reverse-DNS name'),
  teamIdentifier: z.string().trim().toUpperCase().regex(/^[A-Z0-9]{10}$/, 'Ten letters and digits'),
  certificatePem: Pem,
  /** The certificate's private key (PEM, unencrypted). Absent: keep the stored key (same certificate only). */
  privateKeyPem: Pem.optional(),
  /** Apple's WWDR intermediate certificate (PEM). */
  wwdrPem: Pem,
});
export type AppleSigningInput = z.infer<typeof AppleSigningInput>;

export const GoogleSigningInput = z.object({
  issuerId: z.string().trim().regex(/^\d{6,25}$/, 'The issuer id: digits'),
  serviceAccountEmail: z.string().trim().toLowerCase().email('Enter a valid e-mail address').max(254),
  /** The service account's RSA private key (PEM). Absent: keep the stored key (same service account only). */
  privateKeyPem: Pem.optional(),
});
export type GoogleSigningInput = z.infer<typeof GoogleSigningInput>;

const Fingerprint = z.string().refine(isCertificateFingerprint);

export const WalletSigning = z.object({
  apple: z.object({
    passTypeIdentifier: z.string(), teamIdentifier: z.string(),
    /** SHA-256 of the certificate, SPEC.md 5 format (AB:CD:...). */
    fingerprint: Fingerprint,
    subject: z.string(), notAfter: z.string(), hasKey: z.boolean(), updatedAt: z.string(),
  }).nullable(),
  google: z.object({ issuerId: z.string(), serviceAccountEmail: z.string(), hasKey: z.boolean(), updatedAt: z.string() }).nullable(),
});
export type WalletSigning = z.infer<typeof WalletSigning>;

/** Why signing settings were refused, per field (`FieldIssue.message`), for the screen to say in the person's language. */
export const WalletSigningIssue = z.enum(['invalid_certificate', 'invalid_key', 'key_mismatch', 'key_required', 'certificate_expired']);
export type WalletSigningIssue = z.infer<typeof WalletSigningIssue>;

/** Why issuing or redeeming was refused (`FieldIssue.message`). */
export const WalletIssue = z.enum(['kind_mismatch', 'kind_locked', 'card_taken', 'not_a_coupon', 'voided', 'max_redeems_reached', 'unknown_placeholder', 'not_found']);
export type WalletIssue = z.infer<typeof WalletIssue>;
