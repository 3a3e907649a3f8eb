/**
 * Wallet passes (/products/wallet, issue 17): the pass model both wallets share, its validation,
 * the texts a pass shows once issued, and what each wallet is given (Apple's pass.json, Google's
 * save-link claims). Pure: the API signs and packs (api-server/src/features/wallet), the screen
 * draws its live preview from the same `resolvePass`.
 *
 * Decisions where SPEC.md is silent ("not shown"), as a growth team running coupons and a
 * loyalty programme would expect:
 * - **Two kinds of pass.** A coupon (Apple `coupon`, Google `offer`) is issued from an approved
 *   coupon message of the app: its promo code and max redeems come from the message's approved
 *   content (default language of its first variant), never typed again. A loyalty card (Apple
 *   `storeCard`, Google `loyalty`) carries the member's card number and security code.
 * - **Designs are per app** (they go with the app's messages and people); **signing settings are
 *   per account** (one Apple pass type certificate and one Google issuer serve every app).
 * - **Fields.** Header (up to 2), primary (1), secondary (up to 4), auxiliary (up to 4) and back
 *   fields (up to 6), each a label and a value; keys are made from the position so they are
 *   unique, as Apple requires. Values may hold placeholders filled when the pass is issued:
 *   `{{promo_code}}`, `{{max_redeems}}` (coupons), `{{card_number}}`, `{{member_name}}` (loyalty
 *   cards) and `{{customer_id}}` (both). A placeholder of the other kind, or an unknown one, is
 *   refused (10001 `unknown_placeholder`).
 * - **Barcode.** QR, PDF417, Aztec or Code 128. A coupon's barcode is the pass's own redemption
 *   code (unique in the app, `PASS_CODE_PATTERN`): the promo code is shared by everyone who got the
 *   message, so it could not say whose pass was scanned. A loyalty card's barcode is its card number.
 * - **Card number** is 12 to 19 digits with a Luhn check digit (formats.ts `isCardNumber`; spaces
 *   and hyphens typed between groups are dropped first); shown in groups of four. **Security
 *   code** is 3 or 4 digits (`isSecurityCode`), sealed at rest, never answered by the API, and
 *   printed only on the back of the member's own pass. A card number is issued once per app.
 * - **Redemption** is for coupons only: scanning a loyalty card identifies the member, it uses
 *   nothing up (10001 `not_a_coupon`). A coupon scanned past its max redeems is refused (10004
 *   `max_redeems_reached`, as the SDK's redeem answers); max redeems 0 or none means no limit.
 * - **Voiding** a pass keeps its row and redemptions (they count in analytics) and marks the Apple
 *   pass `voided` and the Google object `INACTIVE`; a voided coupon cannot be redeemed.
 * - **Made at each download.** The .pkpass and the Google save link are built when asked for, from
 *   the design and the pass's state of that moment: a design edited later shows in passes
 *   downloaded after. Pushing changes to passes already in a wallet (Apple's pass web service,
 *   Google's object updates) is not offered; a person downloads the pass again.
 * - **Images.** Icon and logo are drawn from the design's colours (no upload), so every pass is
 *   complete; the Google class's logo is served from the pass's own public link.
 * - **Deleting a design** deletes its passes (their links answer 404); the redemptions already
 *   recorded stay with the coupon message.
 */
import { z } from 'zod';
import { isCardNumber, isColour, isSecurityCode } from '../formats.ts';

export const PassKind = z.enum(['coupon', 'loyalty']);
export type PassKind = z.infer<typeof PassKind>;

export const BarcodeFormat = z.enum(['qr', 'pdf417', 'aztec', 'code128']);
export type BarcodeFormat = z.infer<typeof BarcodeFormat>;

export const FIELD_GROUPS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'] as const;
export type FieldGroup = (typeof FIELD_GROUPS)[number];
export const FIELD_LIMITS: Readonly<Record<FieldGroup, number>> = { headerFields: 2, primaryFields: 1, secondaryFields: 4, auxiliaryFields: 4, backFields: 6 };

export const PLACEHOLDERS: Readonly<Record<PassKind, readonly string[]>> = {
  coupon: ['promo_code', 'max_redeems', 'customer_id'],
  loyalty: ['card_number', 'member_name', 'customer_id'],
};
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The placeholders a text names, each once. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
}

/** A text with its placeholders filled (an unknown one is left as written). */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}

const Colour = z.string().trim().refine(isColour, { message: 'A colour as #RRGGBB', params: { rule: 'colour' } });

export const PassField = z.object({
  label: z.string().trim().max(40),
  value: z.string().trim().min(1, 'Required').max(200),
});
export type PassField = z.infer<typeof PassField>;

const fields = (group: FieldGroup) => z.array(PassField).max(FIELD_LIMITS[group]);

/** What a designer sets: texts, colours, the fields in each place and the barcode. */
export const PassDesign = z.object({
  organizationName: z.string().trim().min(1, 'Required').max(64),
  /** What the pass is, for accessibility (VoiceOver) and the lock screen (Apple's `description`). */
  description: z.string().trim().min(1, 'Required').max(120),
  logoText: z.string().trim().max(40),
  backgroundColor: Colour,
  foregroundColor: Colour,
  labelColor: Colour,
  headerFields: fields('headerFields'),
  primaryFields: fields('primaryFields'),
  secondaryFields: fields('secondaryFields'),
  auxiliaryFields: fields('auxiliaryFields'),
  backFields: fields('backFields'),
  barcodeFormat: BarcodeFormat,
  /** Print the code in letters under the barcode (for typing at a till). */
  showCode: z.boolean(),
});
export type PassDesign = z.infer<typeof PassDesign>;

export type DesignIssue = { path: (string | number)[]; code: 'unknown_placeholder'; placeholder: string };

/** Placeholders a design of this kind may not use, with where. */
export function designProblems(kind: PassKind, design: Pick<PassDesign, FieldGroup>): DesignIssue[] {
  const allowed = new Set(PLACEHOLDERS[kind]);
  const issues: DesignIssue[] = [];
  for (const group of FIELD_GROUPS) {
    design[group].forEach((field, i) => {
      for (const name of [...placeholdersIn(field.label), ...placeholdersIn(field.value)]) {
        if (!allowed.has(name)) issues.push({ path: [group, i, 'value'], code: 'unknown_placeholder', placeholder: name });
      }
    });
  }
  return issues;
}

/** The starting design of each kind (a designer's "new" and the demo data). */
export function defaultDesign(kind: PassKind, organizationName = 'My shop'): PassDesign {
  const base = {
    organizationName, logoText: organizationName, labelColor: '#FFD7A8', foregroundColor: '#FFFFFF',
    headerFields: [] as PassField[], auxiliaryFields: [] as PassField[], showCode: true,
  };
  return kind === 'coupon'
    ? {
      ...base, description: `${organizationName} coupon`, backgroundColor: '#C2410C',
      headerFields: [{ label: 'Code', value: '{{promo_code}}' }],
      primaryFields: [{ label: 'Offer', value: '10% off' }],
      secondaryFields: [{ label: 'Uses', value: '{{max_redeems}}' }],
      backFields: [{ label: 'Terms', value: 'Show this pass at the till. One use per visit.' }],
      barcodeFormat: 'qr',
    }
    : {
      ...base, description: `${organizationName} loyalty card`, backgroundColor: '#1E3A8A', labelColor: '#BFDBFE',
      headerFields: [{ label: 'Member', value: '{{member_name}}' }],
      primaryFields: [{ label: 'Card', value: '{{card_number}}' }],
      secondaryFields: [],
      backFields: [{ label: 'Help', value: 'Show this card at the till to collect points.' }],
      barcodeFormat: 'code128',
    };
}

// ---------------------------------------------------------------------------------------------
// Card number, security code and the pass's own code.

/** A card number as typed (spaces and hyphens between groups) as its digits. */
export const normaliseCardNumber = (s: string) => s.replace(/[\s-]/g, '');
/** A card number in groups of four, as printed on cards. */
export const formatCardNumber = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

export const CardNumber = z.string().trim().max(40).transform(normaliseCardNumber)
  .refine(isCardNumber, { message: '12 to 19 digits with a valid check digit', params: { rule: 'card_number' } });
export const SecurityCode = z.string().trim().refine(isSecurityCode, { message: '3 or 4 digits', params: { rule: 'security_code' } });

/** A coupon pass's redemption code: 12 letters and digits, no 0/O or 1/I (read aloud at a till). */
export const PASS_CODE_PATTERN = /^[A-HJ-NP-Z2-9]{12}$/;
export const PASS_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

// ---------------------------------------------------------------------------------------------
// An issued pass: its texts, and what each wallet is given.

/** What an issued pass carries besides its design. */
export interface IssuedValues {
  kind: PassKind;
  /** The pass's own code (coupon) or its card number (loyalty): the barcode's message. */
  barcode: string;
  customerId: string | null;
  promoCode?: string | undefined;
  /** null or 0: no limit. */
  maxRedeems?: number | null | undefined;
  cardNumber?: string | undefined;
  memberName?: string | undefined;
  securityCode?: string | undefined;
}

/** The texts a placeholder stands for; `unlimited` is how "no limit" is said in the pass's language. */
export function placeholderValues(v: IssuedValues, unlimited = 'Unlimited'): Record<string, string> {
  return {
    customer_id: v.customerId ?? '',
    promo_code: v.promoCode ?? '',
    max_redeems: v.maxRedeems ? String(v.maxRedeems) : unlimited,
    card_number: v.cardNumber ? formatCardNumber(v.cardNumber) : '',
    member_name: v.memberName ?? '',
  };
}

export interface ResolvedField { key: string; label: string; value: string }
export type ResolvedPass = Omit<PassDesign, FieldGroup> & Record<FieldGroup, ResolvedField[]> & { barcode: string };

/** The design with every placeholder filled: what the pass shows (and the preview draws). */
export function resolvePass(design: PassDesign, v: IssuedValues, unlimited?: string): ResolvedPass {
  const values = placeholderValues(v, unlimited);
  const group = (g: FieldGroup) => design[g].map((f, i) => ({ key: `${g.replace('Fields', '')}${i}`, label: fillPlaceholders(f.label, values), value: fillPlaceholders(f.value, values) }));
  const back = group('backFields');
  if (v.kind === 'loyalty' && v.securityCode) back.push({ key: 'securityCode', label: 'Security code', value: v.securityCode });
  return {
    ...design,
    headerFields: group('headerFields'), primaryFields: group('primaryFields'), secondaryFields: group('secondaryFields'),
    auxiliaryFields: group('auxiliaryFields'), backFields: back, barcode: v.barcode,
  };
}

/** `#RRGGBB` as Apple's `rgb(r, g, b)`. */
export function appleColour(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

const APPLE_BARCODE: Record<BarcodeFormat, string> = { qr: 'PKBarcodeFormatQR', pdf417: 'PKBarcodeFormatPDF417', aztec: 'PKBarcodeFormatAztec', code128: 'PKBarcodeFormatCode128' };
const GOOGLE_BARCODE: Record<BarcodeFormat, string> = { qr: 'QR_CODE', pdf417: 'PDF_417', aztec: 'AZTEC', code128: 'CODE_128' };

export interface AppleIdentity { passTypeIdentifier: string; teamIdentifier: string }

/** Apple's pass.json (PassKit Package Format): a coupon or a store card. */
export function applePassJson(design: PassDesign, v: IssuedValues, ids: AppleIdentity & { serialNumber: string; voided: boolean }): Record<string, unknown> {
  const pass = resolvePass(design, v);
  const style = v.kind === 'coupon' ? 'coupon' : 'storeCard';
  const strip = (list: ResolvedField[]) => list.map((f) => ({ key: f.key, ...(f.label ? { label: f.label } : {}), value: f.value }));
  const barcode = { format: APPLE_BARCODE[design.barcodeFormat], message: v.barcode, messageEncoding: 'iso-8859-1', ...(design.showCode ? { altText: v.barcode } : {}) };
  return {
    formatVersion: 1,
    passTypeIdentifier: ids.passTypeIdentifier,
    teamIdentifier: ids.teamIdentifier,
    serialNumber: ids.serialNumber,
    organizationName: design.organizationName,
    description: design.description,
    ...(design.logoText ? { logoText: design.logoText } : {}),
    backgroundColor: appleColour(design.backgroundColor),
    foregroundColor: appleColour(design.foregroundColor),
    labelColor: appleColour(design.labelColor),
    barcodes: [barcode],
    ...(ids.voided ? { voided: true } : {}),
    [style]: {
      headerFields: strip(pass.headerFields), primaryFields: strip(pass.primaryFields), secondaryFields: strip(pass.secondaryFields),
      auxiliaryFields: strip(pass.auxiliaryFields), backFields: strip(pass.backFields),
    },
  };
}

export interface GoogleIdentity { issuerId: string; serviceAccountEmail: string }

/**
 * The claims of a Google Wallet "save" JWT (typ savetowallet, aud google): the pass's class (one
 * per design, created or kept when saved) and its object, an offer or a loyalty card.
 */
export function googleSaveClaims(design: PassDesign, v: IssuedValues, ids: GoogleIdentity & { designId: string; passId: string; voided: boolean; logoUrl: string; origins: string[]; now: Date }): Record<string, unknown> {
  const pass = resolvePass(design, v);
  const classId = `${ids.issuerId}.gd-${ids.designId}`;
  const objectId = `${ids.issuerId}.gd-${ids.passId}`;
  const text = [...pass.headerFields, ...pass.primaryFields, ...pass.secondaryFields, ...pass.auxiliaryFields, ...pass.backFields]
    .map((f) => ({ id: f.key, header: f.label || design.organizationName, body: f.value }));
  const barcode = { type: GOOGLE_BARCODE[design.barcodeFormat], value: v.barcode, ...(design.showCode ? { alternateText: v.barcode } : {}) };
  const logo = { sourceUri: { uri: ids.logoUrl }, contentDescription: { defaultValue: { language: 'en', value: design.organizationName } } };
  const common = { hexBackgroundColor: design.backgroundColor, issuerName: design.organizationName, reviewStatus: 'UNDER_REVIEW' };
  const state = ids.voided ? 'INACTIVE' : 'ACTIVE';
  const payload = v.kind === 'coupon'
    ? {
      offerClasses: [{ id: classId, ...common, provider: design.organizationName, title: pass.primaryFields[0]?.value ?? design.description, redemptionChannel: 'INSTORE', titleImage: logo }],
      offerObjects: [{ id: objectId, classId, state, barcode, textModulesData: text }],
    }
    : {
      loyaltyClasses: [{ id: classId, ...common, programName: design.description, programLogo: logo }],
      loyaltyObjects: [{ id: objectId, classId, state, barcode, accountId: v.cardNumber ?? v.barcode, accountName: v.memberName || v.customerId || '', textModulesData: text }],
    };
  return { iss: ids.serviceAccountEmail, aud: 'google', typ: 'savetowallet', iat: Math.floor(ids.now.getTime() / 1000), origins: ids.origins, payload };
}

/** The address that saves a pass to Google Wallet. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';
